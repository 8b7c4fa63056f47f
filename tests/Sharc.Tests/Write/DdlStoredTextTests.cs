using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// DDL whose stored sqlite_schema text once left files neither engine could open (issue 12): names that are
/// keywords, schema qualifiers, long statements. SQLite runs the same statements on a file of its own and is the
/// oracle for what is stored and what is refused.
/// </summary>
public class DdlStoredTextTests
{
    private const string SchemaQuery = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid";

    private sealed record Outcome(string? Error, List<object?[]> Schema);

    /// <summary>Runs the statements in Sharc (SQL path) and in SQLite, each on its own new file.</summary>
    private static (Outcome Sharc, Outcome Sqlite) RunBoth(TempDir dir, string name, int pageSize, params string[] statements)
    {
        string s = dir.File(name + ".sharc.db"), o = dir.File(name + ".sqlite.db");
        string? sharcError = null, sqliteError = null;
        using (var db = SharcDatabase.Create(s, new SharcCreateOptions { PageSize = pageSize }))
        {
            foreach (var st in statements)
            {
                try
                {
                    db.Execute(st);
                }
                catch (SharcException e)
                {
                    sharcError = e.Message;
                    break;
                }
            }
        }
        using (var c = Oracle.Open(o))
        {
            Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
            foreach (var st in statements)
            {
                try
                {
                    Oracle.Exec(c, st);
                }
                catch (Microsoft.Data.Sqlite.SqliteException e)
                {
                    sqliteError = e.SqliteErrorCode == 1 ? e.Message.Split('\'')[1] : e.Message;
                    break;
                }
            }
        }
        return (new Outcome(sharcError, Oracle.Rows(s, SchemaQuery)), new Outcome(sqliteError, Oracle.Rows(o, SchemaQuery)));
    }

    private static void ReopensCleanly(string path)
    {
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var db = SharcDatabase.Open(path);
        foreach (var t in db.Schema.Tables)
        {
            using var r = db.CreateReader(t.Name);
            while (r.Read()) { }
        }
    }

    [Theory]
    [InlineData("CREATE TABLE temp (t1 integer, primary key (t1))")]
    [InlineData("CREATE TABLE temp(temp temp)")]
    [InlineData("CREATE TABLE \"temp\"(a)")]
    [InlineData("create table TEMP\n(\"temp\" temp)  ;  ")]
    [InlineData("CREATE TABLE temporary(a)")]
    [InlineData("CREATE TABLE main.main(a)")]
    [InlineData("CREATE TABLE \"main\" . [x y] (a)")]
    [InlineData("CREATE TABLE MAIN.t5(a)")]
    [InlineData("CREATE TABLE w(a PRIMARY KEY) WITHOUT ROWID  ;")]
    [InlineData("CREATE TABLE w2(a PRIMARY KEY) WITHOUT ROWID /* c */  ")]
    [InlineData("CREATE TABLE t(a) /* c */ ;")]
    [InlineData("CREATE INDEX main.i ON base(a)")]
    [InlineData("CREATE INDEX i9 ON base(a) /* x */ ;")]
    [InlineData("CREATE UNIQUE INDEX temp ON base(a)  ")]
    [InlineData("CREATE VIEW main.v AS SELECT 1")]
    [InlineData("CREATE VIEW temp_v AS SELECT 1 -- c\n  ")]
    [InlineData("CREATE VIEW v8 AS SELECT 1 /* x */ ;")]
    [InlineData("CREATE TRIGGER main.tr AFTER INSERT ON main.base BEGIN SELECT 1; END  ;")]
    [InlineData("CREATE TRIGGER temp AFTER INSERT ON base BEGIN SELECT 1; END")]
    public void StoredTextIsWhatSqliteStores(string ddl)
    {
        using var dir = new TempDir();
        var (sharc, sqlite) = RunBoth(dir, "x", 4096, "CREATE TABLE base(a, b)", ddl);
        sharc.Error.Should().BeNull();
        sqlite.Error.Should().BeNull();
        sharc.Schema.ShouldEqual(sqlite.Schema);
        ReopensCleanly(dir.File("x.sharc.db"));
    }

    [Theory]
    [InlineData("CREATE TABLE unique(a)")]
    // SQLite writes "CREATE TABLE if(a)", cannot read it back and fails the statement; Sharc's check refuses it first.
    [InlineData("CREATE TABLE IF NOT EXISTS if(a)")]
    public void StatementsSqliteRefusesAreRefused(string ddl)
    {
        var (sharc, sqlite) = RefusedByBoth(ddl);
        sharc.Should().NotBeNull();
        sqlite.Should().NotBeNull();
    }

    /// <summary>Runs <paramref name="ddl"/> after a base table in both engines; both schemas must be left as they were.</summary>
    private static (string? Sharc, string? Sqlite) RefusedByBoth(string ddl)
    {
        using var dir = new TempDir();
        var (sharc, sqlite) = RunBoth(dir, "x", 4096, "CREATE TABLE base(a, b)", ddl);
        sharc.Schema.ShouldEqual(sqlite.Schema);
        sharc.Schema.Should().HaveCount(1);
        ReopensCleanly(dir.File("x.sharc.db"));
        return (sharc.Error, sqlite.Error);
    }

    [Theory]
    [InlineData("CREATE TABLE aux.t1(a)", "unknown database aux")]
    [InlineData("CREATE TABLE aux.t1 AS SELECT 1", "unknown database aux")]
    [InlineData("CREATE INDEX aux.idx ON base(a, b)", "unknown database aux")]
    [InlineData("CREATE INDEX temp.idx ON base(a)", "cannot create a TEMP index on non-TEMP table \"base\"")]
    [InlineData("CREATE VIEW aux.v AS SELECT 1", "unknown database aux")]
    [InlineData("CREATE TRIGGER aux.tr AFTER INSERT ON base BEGIN SELECT 1; END", "unknown database aux")]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON aux.base BEGIN SELECT 1; END", "trigger tr cannot reference objects in database aux")]
    [InlineData("DROP TABLE aux.base", "no such table: aux.base")]
    [InlineData("DROP TABLE temp.base", "no such table: temp.base")]
    [InlineData("DROP INDEX aux.i", "no such index: aux.i")]
    [InlineData("DROP VIEW aux.v", "no such view: aux.v")]
    [InlineData("DROP TRIGGER aux.t", "no such trigger: aux.t")]
    [InlineData("ALTER TABLE aux.base ADD COLUMN c", "no such table: aux.base")]
    [InlineData("ALTER TABLE temp.base RENAME TO c", "no such table: temp.base")]
    [InlineData("ALTER TABLE aux.base RENAME COLUMN a TO c", "no such table: aux.base")]
    [InlineData("ALTER TABLE aux.base DROP COLUMN a", "no such table: aux.base")]
    public void UnknownSchemasFailWithSqlitesMessageAndChangeNothing(string ddl, string message)
    {
        var (sharc, sqlite) = RefusedByBoth(ddl);
        sqlite.Should().Be(message);
        sharc.Should().StartWith(message);
    }

    [Theory]
    [InlineData("CREATE TABLE temp.t1(a, b)")]
    [InlineData("CREATE TABLE \"TEMP\".t1(a, b)")]
    [InlineData("CREATE TABLE temp.t1 AS SELECT 1")]
    public void TempTablesGoToTheTempDatabaseNotTheFile(string ddl)
    {
        using var dir = new TempDir();
        string path = dir.File("t.db");
        using var db = SharcDatabase.Create(path);
        db.Execute("CREATE TABLE base(a, b)");
        db.Execute(ddl);
        db.TempDatabase.Schema.FindTable("t1").Should().NotBeNull();
        Oracle.Rows(path, "SELECT name FROM sqlite_schema").Select(r => r[0]).Should().Equal("base");
    }

    [Fact]
    public void TempTriggerOnAMainTableIsStoredInTempNotInTheFile()
    {
        using var dir = new TempDir();
        string path = dir.File("t.db");
        using var db = SharcDatabase.Create(path);
        db.Execute("CREATE TABLE base(a, b)");
        db.Execute("CREATE TRIGGER temp.tr AFTER INSERT ON base BEGIN SELECT 1; END");
        Oracle.Rows(path, "SELECT name FROM sqlite_schema").Select(r => r[0]).Should().Equal("base");
    }

    [Fact]
    public void TempQualifiedViewIsAConnectionView()
    {
        using var dir = new TempDir();
        string path = dir.File("t.db");
        using var db = SharcDatabase.Create(path);
        db.Execute("CREATE TABLE base(a, b); INSERT INTO base VALUES(1, 2); CREATE VIEW temp.v AS SELECT a + b AS s FROM base");
        using (var r = db.Query("SELECT s FROM v"))
        {
            r.Read().Should().BeTrue();
            r.GetInt64(0).Should().Be(3);
        }
        Oracle.Rows(path, "SELECT name FROM sqlite_schema").Select(r => r[0]).Should().Equal("base");
    }

    [Fact]
    public void CApiRefusesQualifiersItCannotStore()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("c.db"));
        ((Action)(() => db.CreateTable("CREATE TABLE aux.t(a)"))).Should().Throw<SharcException>().WithMessage("unknown database aux");
        ((Action)(() => db.CreateTable("CREATE TABLE temp.t(a)"))).Should().Throw<SharcException>().WithMessage("TEMP objects are not supported through the C# API*");
        ((Action)(() => db.CreateTable("CREATE /* x */ TEMPORARY TABLE t(a)"))).Should().Throw<SharcException>().WithMessage("TEMP objects are not supported through the C# API*");
        db.CreateTable("CREATE TABLE main.temp(a)");
        db.Schema.FindTable("temp")!.Sql.Should().Be("CREATE TABLE temp(a)");
    }

    [Fact]
    public void TextThatWouldNotReadBackIsRefusedAndNothingChanges()
    {
        using var dir = new TempDir();
        string path = dir.File("r.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(a)");
        // Spliced into the column list this reads back as two columns, not the one ADD COLUMN adds.
        var add = () => db.AddColumn("t", "b, c");
        add.Should().Throw<SharcSchemaTextException>().Which.SchemaText.Should().Be("CREATE TABLE t(a, b, c)");
        db.Schema.GetTable("t").Sql.Should().Be("CREATE TABLE t(a)");
        Oracle.Rows(path, SchemaQuery).ShouldEqual([["table", "t", "t", "CREATE TABLE t(a)"]]);
        ReopensCleanly(path);
    }

    /// <summary>Columns enough for a CREATE TABLE of about <paramref name="length"/> characters.</summary>
    private static string LongCreate(string name, int length)
    {
        var sb = new StringBuilder($"CREATE TABLE {name}(");
        for (int c = 0; sb.Length < length - 24; c++) sb.Append($"column_number_{c} TEXT, ");
        sb.Append("pad_").Append('x', Math.Max(1, length - sb.Length - 6)).Append(')');
        return sb.ToString();
    }

    [Theory]
    [InlineData(512)]
    [InlineData(1024)]
    [InlineData(4096)]
    public void LongCreateTableRowsReadBackAcrossPageSizes(int pageSize)
    {
        using var dir = new TempDir();
        // Around the page size (the first overflow), the 13 kB of the report, and several overflow pages.
        int[] lengths = [pageSize - 140, pageSize - 100, pageSize - 40, pageSize, pageSize + 60, 2 * pageSize + 7, 12900, 12923, 20000];
        foreach (int length in lengths)
        {
            string create = LongCreate("big", length);
            var (sharc, sqlite) = RunBoth(dir, $"l{length}", pageSize,
                "CREATE TABLE small(a)", create, "INSERT INTO big(column_number_0) VALUES('v')",
                "ALTER TABLE big ADD COLUMN added_later INTEGER DEFAULT 5", "ALTER TABLE big RENAME COLUMN column_number_1 TO c1",
                "ALTER TABLE big RENAME TO big_table_with_a_longer_name", LongCreate("\"second big\"", length + 11),
                "CREATE INDEX big_ix ON big_table_with_a_longer_name(column_number_0, c1)", "DROP TABLE small");
            sharc.Error.Should().BeNull();
            sqlite.Error.Should().BeNull();
            sharc.Schema.ShouldEqual(sqlite.Schema, $"length {length}");
            string path = dir.File($"l{length}.sharc.db");
            ReopensCleanly(path);
            Oracle.Rows(path, "SELECT column_number_0, added_later FROM big_table_with_a_longer_name").ShouldEqual([["v", 5L]]);
        }
    }

    // Keywords SQLite lets a name be (fallback to ID), plus ordinary names.
    private static readonly string[] Words =
    [
        "temp", "temporary", "key", "action", "replace", "rowid", "abort", "after", "asc", "cast", "conflict", "database", "end",
        "filter", "glob", "if", "match", "offset", "over", "plan", "query", "raise", "row", "rows", "view", "without", "main",
        "before", "begin", "by", "cascade", "column", "current", "deferred", "desc", "each", "exclusive", "fail", "first",
        "following", "ignore", "immediate", "initially", "instead", "like", "no", "nulls", "of", "partition", "pragma", "range",
        "recursive", "regexp", "reindex", "release", "rename", "restrict", "savepoint", "trigger", "vacuum", "virtual", "with",
        "t1", "alpha", "Mixed_Case", "x9",
    ];

    private sealed class Generator(int seed)
    {
        private readonly Random _rng = new(seed);

        private T Pick<T>(IReadOnlyList<T> items) => items[_rng.Next(items.Count)];

        /// <summary>Whitespace and comments SQLite skips between tokens.</summary>
        public string Gap() => Pick([" ", " ", " ", "  ", "\n", "\t", " /* c */ ", "/**/", " -- note\n", "\r\n "]);

        public string Name()
        {
            string w = Pick(Words);
            return _rng.Next(8) switch
            {
                0 => $"\"{w}\"",
                1 => $"[{w}]",
                2 => $"`{w}`",
                3 => "\"" + w + " with space\"",
                4 => "\"" + w + "\"\"q\"",
                5 => "[" + w + " \"b\"]",
                _ => w,
            };
        }

        private string Qualifier() => _rng.Next(6) switch
        {
            0 => "main." ,
            1 => "\"main\"" + Gap() + "." + Gap(),
            2 => "MAIN.",
            _ => "",
        };

        private string Columns(out string first)
        {
            var names = new List<string>();
            int n = 1 + _rng.Next(3);
            first = "";
            var parts = new List<string>();
            for (int i = 0; i < n; i++)
            {
                string c = Name();
                if (i == 0) first = c;
                parts.Add(c + (_rng.Next(2) == 0 ? Gap() + Pick(["integer", "TEXT", "temp", "key", "REAL", "blob", "", "varchar(10)"]) : ""));
            }
            string list = string.Join("," + Gap(), parts);
            if (_rng.Next(3) == 0) list += "," + Gap() + "primary" + Gap() + "key" + Gap() + "(" + first + ")";
            return list;
        }

        private string End() => Pick(["", ";", " ;", "  ", " /* tail */", ";\n"]);

        public string Statement()
        {
            string g() => Gap();
            switch (_rng.Next(5))
            {
                case 0:
                case 1:
                {
                    string cols = Columns(out string first);
                    string ifNot = _rng.Next(5) == 0 ? "IF" + g() + "NOT" + g() + "EXISTS" + g() : "";
                    string options = _rng.Next(6) == 0 ? g() + "WITHOUT" + g() + "ROWID" : "";
                    if (options.Length > 0 && !cols.Contains("key", StringComparison.OrdinalIgnoreCase)) cols += "," + g() + "PRIMARY KEY(" + first + ")";
                    return "CREATE" + g() + Pick(["TABLE", "table", "Table"]) + g() + ifNot + Qualifier() + Name() + g() + "(" + g() + cols + g() + ")" + options + End();
                }
                case 2:
                    return "CREATE" + g() + (_rng.Next(3) == 0 ? "UNIQUE" + g() : "") + "INDEX" + g() + Qualifier() + Name() + g() + "ON" + g() + "base" + g() + "(" + g() + Pick(["a", "b", "a, b", "b DESC"]) + g() + ")" + End();
                case 3:
                    return "CREATE" + g() + "VIEW" + g() + Qualifier() + Name() + g() + "AS" + g() + "SELECT" + g() + "a" + g() + "AS" + g() + Name() + g() + "FROM" + g() + "base" + End();
                default:
                    return "CREATE" + g() + "TRIGGER" + g() + Qualifier() + Name() + g() + Pick(["AFTER", "BEFORE"]) + g() + "INSERT" + g() + "ON" + g() + Pick(["base", "main.base"]) + g()
                        + "BEGIN" + g() + "SELECT" + g() + "1" + ";" + g() + "END" + End();
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void GeneratedDdlOverKeywordNamesMatchesSqlite(int seed)
    {
        var gen = new Generator(seed);
        using var dir = new TempDir();
        int agreedFailures = 0;
        for (int i = 0; i < 90; i++)
        {
            string ddl = gen.Statement();
            string because = $"seed {seed} case {i}: {ddl}";
            var (sharc, sqlite) = RunBoth(dir, $"g{i}", 1024, "CREATE TABLE base(a, b)", ddl);
            (sharc.Error is null).Should().Be(sqlite.Error is null, $"{because} (sharc: {sharc.Error}; sqlite: {sqlite.Error})");
            if (sqlite.Error is not null)
            {
                agreedFailures++;
                continue;
            }
            sharc.Schema.ShouldEqual(sqlite.Schema, because);
            string path = dir.File($"g{i}.sharc.db");
            ReopensCleanly(path);
            using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
            {
                db.Execute("INSERT INTO base VALUES(7, 'seven')");
                foreach (var t in db.Schema.Tables.Where(t => t.Name != "base" && !t.Name.StartsWith("sqlite_", StringComparison.Ordinal)))
                {
                    if (!t.IsWithoutRowId) db.Insert(t.Name, new object?[t.Columns.Count]);
                    using var r = db.CreateReader(t.Name);
                    while (r.Read()) { }
                }
                using var q = db.Query("SELECT a, b FROM base");
                q.Read().Should().BeTrue(because);
                q.GetInt64(0).Should().Be(7);
            }
            Oracle.IntegrityCheck(path).Should().Be("ok", because);
        }
        agreedFailures.Should().BeLessThan(45, "most generated statements are valid, so the comparison is mostly of stored text");
    }
}
