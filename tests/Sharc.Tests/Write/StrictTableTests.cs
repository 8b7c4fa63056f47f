using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// STRICT tables refuse values their column types cannot hold, after the column's affinity has had its say, with
/// SQLite's "cannot store X value in T column t.c" — on every path a row is written — and accept the rest exactly
/// as SQLite stores them. Every case runs in SQLite and Sharc side by side.
/// </summary>
public sealed class StrictTableTests
{
    public static readonly string[] Types = ["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"];

    /// <summary>SQL literal and the same value as the C# API takes it.</summary>
    private static readonly (string Sql, object? Value)[] Values =
    [
        ("NULL", null), ("1", 1L), ("-7", -7L), ("3.0", 3.0), ("1.5", 1.5), ("1e300", 1e300),
        ("140737488355328", 140737488355328L), ("9223372036854775807", long.MaxValue),
        ("'12'", "12"), ("'1.5'", "1.5"), ("'3.0'", "3.0"), ("' 12 '", " 12 "), ("'1e5'", "1e5"), ("'abc'", "abc"), ("''", ""),
        ("'9223372036854775808'", "9223372036854775808"), ("x'00ff'", new byte[] { 0, 0xff }), ("x'3132'", "12"u8.ToArray()),
    ];

    private const string Contents = "SELECT id, typeof(c), quote(c) FROM t ORDER BY id";

    public static IEnumerable<object[]> TypeCases() => Types.Select(t => new object[] { t });

    [Theory]
    [MemberData(nameof(TypeCases))]
    public void SqlInsertUpdateUpsertAndReplaceCheckTheColumnType(string type)
    {
        using var twin = new WriteTwin();
        twin.Schema($"CREATE TABLE t(id INTEGER PRIMARY KEY, c {type}, u INT UNIQUE) STRICT");
        Sql(twin, "INSERT INTO t VALUES(0, NULL, NULL)");
        int refused = 0;
        for (int i = 0; i < Values.Length; i++)
        {
            string v = Values[i].Sql;
            if (Sql(twin, $"INSERT INTO t VALUES({i + 1}, {v}, NULL)") is not null) refused++;
            Sql(twin, $"UPDATE t SET c = {v} WHERE id = 0");
            Sql(twin, $"INSERT INTO t VALUES(0, NULL, NULL) ON CONFLICT(id) DO UPDATE SET c = {v}");
            Sql(twin, $"REPLACE INTO t VALUES({i + 100}, {v}, NULL)");
            Sql(twin, $"INSERT OR IGNORE INTO t VALUES({i + 200}, {v}, NULL)");
            Sql(twin, $"UPDATE OR REPLACE t SET c = {v} WHERE id = {i + 100}");
        }
        if (type != "ANY") refused.Should().BeGreaterThan(type == "TEXT" ? 1 : 3, "some values do not fit a {0} column", type);
        twin.AssertSame(Contents);
    }

    [Theory]
    [MemberData(nameof(TypeCases))]
    public void WithoutRowidTablesCheckTheColumnTypeToo(string type)
    {
        using var twin = new WriteTwin();
        twin.Schema($"CREATE TABLE t(id INT PRIMARY KEY, c {type}) STRICT, WITHOUT ROWID");
        Sql(twin, "INSERT INTO t VALUES(0, NULL)");
        for (int i = 0; i < Values.Length; i++)
        {
            string v = Values[i].Sql;
            Sql(twin, $"INSERT INTO t VALUES({i + 1}, {v})");
            Sql(twin, $"UPDATE t SET c = {v} WHERE id = 0");
            Sql(twin, $"INSERT INTO t VALUES(0, NULL) ON CONFLICT(id) DO UPDATE SET c = {v}");
            Sql(twin, $"REPLACE INTO t VALUES({i + 100}, {v})");
            // The primary key column is checked like any other.
            Sql(twin, $"INSERT INTO t VALUES({v}, 1)");
        }
        twin.AssertSame(Contents.Replace("id, typeof(c)", "quote(id), typeof(c)"));
    }

    [Theory]
    [MemberData(nameof(TypeCases))]
    public void TheRowApiChecksTheColumnType(string type)
    {
        using var twin = new WriteTwin();
        twin.Schema($"CREATE TABLE t(id INTEGER PRIMARY KEY, c {type}) STRICT");
        twin.Both("INSERT INTO t VALUES(0, NULL)", d => d.Insert("t", 0L, null));
        for (int i = 0; i < Values.Length; i++)
        {
            var (sql, value) = Values[i];
            long id = i + 1;
            twin.Both($"INSERT INTO t VALUES({id}, {sql})", d => d.Insert("t", id, value));
            twin.Both($"UPDATE t SET c = {sql} WHERE id = 0", d => d.Update("t", 0, ["c"], [value]));
            twin.Both($"INSERT OR REPLACE INTO t VALUES({id + 100}, {sql})", d => d.Upsert("t", id + 100, value));
            twin.Both($"INSERT INTO t VALUES({id + 200}, {sql})", d =>
            {
                var insert = d.PrepareInsert("t", "id", "c");
                insert.SetInt64(0, id + 200);
                switch (value)
                {
                    case null: insert.SetNull(1); break;
                    case long l: insert.SetInt64(1, l); break;
                    case double r: insert.SetDouble(1, r); break;
                    case string s: insert.SetText(1, Encoding.UTF8.GetBytes(s)); break;
                    case byte[] b: insert.SetBlob(1, b); break;
                }
                insert.Execute();
            });
        }
        twin.AssertSame(Contents);
    }

    [Fact]
    public void TheReportedRealColumnRefusesText()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE test3(id INTEGER PRIMARY KEY, name TEXT, price REAL) STRICT");
        Sql(twin, "INSERT INTO test3 VALUES(1, 'item1', 'not-a-number')").Should().Be("cannot store TEXT value in REAL column test3.price");
        Sql(twin, "INSERT INTO test3 VALUES(1, 'item1', '1.5')").Should().BeNull();
        Sql(twin, "INSERT INTO test3 VALUES(2, 'item2', 3)").Should().BeNull();
        twin.AssertSame("SELECT id, typeof(price), price FROM test3");
    }

    [Fact]
    public void NotNullCheckAndUniqueComeInSqlitesOrder()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT NOT NULL, b REAL CHECK(b <> 0), u TEXT UNIQUE) STRICT");
        Sql(twin, "INSERT INTO t VALUES(1, 1, 1, 'x')");
        Sql(twin, "INSERT INTO t VALUES(2, NULL, 'y', 'z')").Should().StartWith("NOT NULL");
        Sql(twin, "INSERT INTO t VALUES(2, 'y', 0, 'z')");
        Sql(twin, "INSERT INTO t VALUES(2, 'y', 1, 'x')");
        Sql(twin, "INSERT INTO t VALUES(1, 'y', 1, 'z')");
        Sql(twin, "INSERT OR REPLACE INTO t VALUES(1, 'y', 1, 'x')");
        Sql(twin, "INSERT OR IGNORE INTO t VALUES(1, 'y', 1, 'x')");
        Sql(twin, "UPDATE t SET a = 'q', u = 'x' WHERE id = 1");
        Sql(twin, "INSERT INTO t VALUES(3, 3, 3, 'w')");
        Sql(twin, "UPDATE t SET a = 'q', u = 'x' WHERE id = 3");
        Sql(twin, "UPDATE OR IGNORE t SET a = 'q' WHERE id = 3");
        twin.AssertSame("SELECT * FROM t ORDER BY id");
    }

    [Fact]
    public void GeneratedColumnsAreCheckedAfterTheOthersVirtualOnesFirst()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a ANY, s INT AS (a) STORED, v INT AS (a || b) VIRTUAL, b ANY) STRICT");
        Sql(twin, "INSERT INTO t(id, a, b) VALUES(1, 5, 6)");
        Sql(twin, "INSERT INTO t(id, a, b) VALUES(2, 'five', 6)").Should().EndWith("t.v");
        Sql(twin, "INSERT INTO t(id, a, b) VALUES(2, 7, 'x')").Should().EndWith("t.v");
        Sql(twin, "UPDATE t SET a = 'six' WHERE id = 1");
        Sql(twin, "UPDATE t SET b = 'x' WHERE id = 1");
        twin.AssertSame("SELECT id, a, s, typeof(s), v, b FROM t ORDER BY id");
    }

    [Theory]
    [InlineData("INT DEFAULT 'abc'")]
    [InlineData("INT DEFAULT '12'")]
    [InlineData("REAL DEFAULT 1")]
    [InlineData("TEXT DEFAULT 1")]
    [InlineData("BLOB DEFAULT 1")]
    [InlineData("BLOB DEFAULT x'01'")]
    [InlineData("INTEGER DEFAULT 2.0")]
    [InlineData("INTEGER DEFAULT 2.5")]
    [InlineData("ANY DEFAULT 2.5")]
    [InlineData("INT DEFAULT NULL")]
    public void AddColumnRefusesADefaultOfTheWrongTypeWhenRowsWouldReadIt(string definition)
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE e(id INTEGER PRIMARY KEY) STRICT", "CREATE TABLE t(id INTEGER PRIMARY KEY) STRICT");
        Sql(twin, "INSERT INTO t VALUES(1)");
        // An empty table has no row to read the default, so SQLite takes any.
        Sql(twin, $"ALTER TABLE e ADD COLUMN c {definition}").Should().BeNull();
        Sql(twin, $"ALTER TABLE t ADD COLUMN c {definition}");
        twin.AssertSame("SELECT sql FROM sqlite_schema ORDER BY name", "SELECT * FROM t", "SELECT * FROM e");
    }

    private static string? Sql(WriteTwin twin, string sql) => twin.Both(sql, d => d.Execute(sql));
}
