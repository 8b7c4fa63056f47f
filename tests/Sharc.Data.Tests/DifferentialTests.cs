using System.Data;
using System.Data.Common;
using static Sharc.Data.Tests.Providers;

namespace Sharc.Data.Tests;

/// <summary>The same ADO.NET code, run against Microsoft.Data.Sqlite and Sharc.Data, gives the same transcript.</summary>
public class DifferentialTests : IDisposable
{
    private readonly Providers _providers = new();

    public void Dispose() => _providers.Dispose();

    private const string Setup = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE, score REAL, born DATETIME, price DECIMAL(5,2), flag BOOLEAN, data BLOB, misc);
        INSERT INTO t VALUES(1, 'ada', 9.5, '1815-12-10', 1.25, 1, x'00ff', NULL);
        INSERT INTO t VALUES(2, 'bob', NULL, NULL, NULL, 0, NULL, 'text');
        INSERT INTO t VALUES(3, 'cy', 3, '2001-02-03 04:05:06', 7, 1, x'', 42)
        """;

    public static IEnumerable<object[]> Scripts() => new[]
    {
        // Known differences, in docs/COMPAT.md: GetFieldType of a NULL after non-NULL rows (Microsoft.Data.Sqlite
        // answers the earlier rows' type), RecordsAffected counting a DDL statement (SQLite's stale sqlite3_changes).
        "SELECT id, name, data FROM t ORDER BY id",
        "SELECT * FROM t WHERE 0",
        "SELECT id, name FROM t ORDER BY id; SELECT count(*) AS n FROM t",
        "INSERT INTO t(name) VALUES('dee'); SELECT name FROM t WHERE name = 'dee'",
        "UPDATE t SET score = score + 1 WHERE score IS NOT NULL",
        "UPDATE t SET score = 0; DELETE FROM t WHERE id > 2",
        "INSERT INTO t(name) VALUES('eve') RETURNING id, name",
        "SELECT 1, 'a', 2.5, x'01', NULL, 5000000000",
        "SELECT name, typeof(misc) FROM t ORDER BY 2 DESC, 1",
        "INSERT INTO t(name) VALUES('u1'),('u2'); SELECT name FROM t WHERE name LIKE 'u%'",
        "INSERT INTO t VALUES(1, 'again', 0, 0, 0, 0, 0, 0)",
        "INSERT INTO t(name) VALUES('fay'); SELECT last_insert_rowid(), changes()",
        "INSERT INTO t(name) VALUES('g1'); INSERT INTO t(name) VALUES('g2'); SELECT last_insert_rowid(), changes(), total_changes()",
        "UPDATE t SET score = 1; SELECT changes()",
        "SELEC 1",
        "SELECT nope FROM t",
    }.Select(s => new object[] { s });

    [Theory]
    [MemberData(nameof(Scripts))]
    public void ScriptsGiveTheSameResultSetsTypesAndCounts(string sql)
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            Transcript(c, Setup);
            return Transcript(c, sql);
        });
        sharc.Should().Be(sqlite);
    }

    [Theory]
    [InlineData("@p")]
    [InlineData("$p")]
    [InlineData(":p")]
    public void ParametersBindWithEveryPrefixAndWithout(string placeholder)
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            Transcript(c, Setup);
            return Transcript(c, $"SELECT name FROM t WHERE id = {placeholder}", ("p", 2)) + "\n" + Transcript(c, $"SELECT name FROM t WHERE id = {placeholder}", (placeholder, 3));
        });
        sharc.Should().Be(sqlite);
        sharc.Should().Contain("bob").And.Contain("cy");
    }

    [Fact]
    public void AMissingParameterIsTheSameErrorNamingIt()
    {
        var (sqlite, sharc) = _providers.Run(c => Transcript(c, "SELECT @a, @b", ("@a", 1)));
        sharc.Should().Be(sqlite);
        sharc.Should().Contain("@b");
    }

    public static IEnumerable<object[]> Values() => new object[]
    {
        true, (byte)200, (short)-5, 123, 5000000000L, ulong.MaxValue, 4000000000u, 1.5f, 2.25, 12.5m, "text", 'c', new byte[] { 1, 2, 3 },
        new DateTime(2024, 2, 29, 13, 14, 15).AddTicks(1234), new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromHours(2)),
        new DateOnly(2024, 1, 2), new TimeOnly(10, 11, 12), TimeSpan.FromHours(30), Guid.Parse("6f9619ff-8b86-d011-b42d-00c04fc964ff"), DayOfWeek.Tuesday,
    }.Select(v => new[] { v });

    [Theory]
    [MemberData(nameof(Values))]
    public void TypedValuesAreStoredAndReadBackTheSameWay(object value)
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            Transcript(c, "CREATE TABLE v(x)");
            Transcript(c, "INSERT INTO v VALUES(@x)", ("@x", value));
            using var cmd = c.CreateCommand();
            cmd.CommandText = "SELECT x, typeof(x) FROM v";
            using var r = cmd.ExecuteReader();
            r.Read();
            var generic = typeof(DbDataReader).GetMethod(nameof(DbDataReader.GetFieldValue))!.MakeGenericMethod(value.GetType());
            return Show(generic.Invoke(r, [0])) + " " + r.GetString(1);
        });
        sharc.Should().Be(sqlite);
    }

    [Fact]
    public void TransactionsCommitAndRollBackAlike()
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            Transcript(c, Setup);
            using (var tx = c.BeginTransaction())
            {
                Transcript(c, "INSERT INTO t(name) VALUES('rolled')");
                tx.Rollback();
            }
            using (var tx = c.BeginTransaction())
            {
                Transcript(c, "INSERT INTO t(name) VALUES('kept')");
                tx.Commit();
                var again = Record(() => tx.Commit());
                var nested = Record(() => { using var a = c.BeginTransaction(); using var b = c.BeginTransaction(); });
                return again + nested + Transcript(c, "SELECT name FROM t ORDER BY id");
            }
        });
        sharc.Should().Be(sqlite);
    }

    [Fact]
    public void ScalarsNonQueriesAndReaderEdgesMatch()
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            Transcript(c, Setup);
            using var cmd = c.CreateCommand();
            var sb = new System.Text.StringBuilder();
            cmd.CommandText = "SELECT name FROM t WHERE 0";
            sb.Append(cmd.ExecuteScalar() is null).Append(' ');
            cmd.CommandText = "SELECT NULL";
            sb.Append(cmd.ExecuteScalar()?.GetType().Name).Append(' ');
            cmd.CommandText = "SELECT 1";
            sb.Append(cmd.ExecuteNonQuery()).Append(' ');
            cmd.CommandText = "INSERT INTO t(name) VALUES('x1'); INSERT INTO t(name) VALUES('x2'); UPDATE t SET flag = 1";
            sb.Append(cmd.ExecuteNonQuery()).Append(' ');
            cmd.CommandText = "SELECT id AS Id, name FROM t WHERE id = 1";
            using var r = cmd.ExecuteReader();
            sb.Append(Record(() => r.GetValue(0)));
            r.Read();
            sb.Append(r.GetOrdinal("ID")).Append(r["name"]).Append(Record(() => r.GetOrdinal("nope")));
            sb.Append(Record(() => r.GetInt32(5))).Append(r.GetValues(new object[5]));
            return sb.ToString();
        });
        sharc.Should().Be(sqlite);
    }

    [Fact]
    public void RealDatabasesReadTheSame()
    {
        string? dir = FindConformanceDatabases();
        if (dir is null)
        {
            Console.WriteLine("skipped: ../shared/conformance/databases is not beside the checkout");
            return;
        }
        string path = Path.Combine(dir, "chinook.sqlite");
        if (!File.Exists(path))
        {
            Console.WriteLine("skipped: chinook.sqlite is not in " + dir);
            return;
        }
        var copyA = _providers.File("a.sqlite");
        var copyB = _providers.File("b.sqlite");
        File.Copy(path, copyA);
        File.Copy(path, copyB);
        using var sqlite = OpenSqlite(copyA, ";Mode=ReadOnly");
        using var sharc = OpenSharc(copyB, ";Mode=ReadOnly");
        var tables = new List<string>();
        using (var cmd = sqlite.CreateCommand())
        {
            cmd.CommandText = "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name";
            using var r = cmd.ExecuteReader();
            while (r.Read()) tables.Add(r.GetString(0));
        }
        tables.Should().NotBeEmpty();
        foreach (var table in tables)
        {
            string sql = $"SELECT * FROM \"{table}\" ORDER BY rowid LIMIT 200; SELECT count(*) FROM \"{table}\"";
            Transcript(sharc, sql).Should().Be(Transcript(sqlite, sql), table);
        }
    }

    internal static string? FindConformanceDatabases()
    {
        for (var d = new DirectoryInfo(AppContext.BaseDirectory); d is not null; d = d.Parent)
        {
            string candidate = Path.Combine(d.FullName, "..", "shared", "conformance", "databases");
            if (Directory.Exists(candidate)) return Path.GetFullPath(candidate);
        }
        return null;
    }

    private static string Record(Action a)
    {
        try
        {
            a();
            return "ok ";
        }
        catch (Exception e)
        {
            return e.GetType().Name + " ";
        }
    }

    private static string Record(Func<object> f) => Record(() => { f(); });
}
