using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// The connection-setting and informational PRAGMAs SQLite users run (cache_size, synchronous, busy_timeout,
/// temp_store, automatic_index, writable_schema, optimize, data_version, table_list, compile_options,
/// function_list, foreign_key_check): accepted and answered as SQLite 3.53.3 answers them.
/// </summary>
public sealed class SettingPragmaTests
{
    [Theory]
    [InlineData("cache_size", new[] { "100", "-500", "0", "2000" })]
    [InlineData("synchronous", new[] { "OFF", "normal", "FULL", "extra", "0", "1", "2", "3", "5", "7", "9", "-1", "on", "yes", "false", "bogus" })]
    [InlineData("temp_store", new[] { "memory", "FILE", "default", "0", "1", "2", "3", "7", "bogus" })]
    [InlineData("automatic_index", new[] { "0", "on", "off", "yes", "false", "1" })]
    [InlineData("writable_schema", new[] { "1", "reset", "on", "0", "true" })]
    public void Setting_pragmas_read_back_what_was_set_as_sqlite_does(string pragma, string[] values)
    {
        using var o = new WriteOracle();
        o.Ok($"PRAGMA {pragma}");
        foreach (var v in values)
        {
            o.Ok($"PRAGMA {pragma} = {v}");
            o.Ok($"PRAGMA {pragma}");
            o.Ok($"PRAGMA main.{pragma}");
        }
    }

    [Fact]
    public void Busy_timeout_is_set_and_reported_in_milliseconds()
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA busy_timeout = 250").Rows.Should().Equal("int 250");
        o.Ok("PRAGMA busy_timeout").Rows.Should().Equal("int 250");
        o.Ok("PRAGMA busy_timeout = -5").Rows.Should().Equal("int 0");
        o.Ok("PRAGMA busy_timeout(1200)");
        o.Ok("PRAGMA busy_timeout");
    }

    [Fact]
    public void Optimize_data_version_and_compile_options_answer_like_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("PRAGMA optimize");
        o.Ok("PRAGMA optimize = 0x10002");
        o.Ok("PRAGMA data_version").Rows.Should().Equal("int 1");
        o.Ok("INSERT INTO t VALUES (1)");
        // Own commits do not move it, as in SQLite.
        o.Ok("PRAGMA data_version").Rows.Should().Equal("int 1");
        o.RunSharc("PRAGMA compile_options", []).Rows.Should().Contain("text 'THREADSAFE=1'").And.Contain("text 'ENABLE_MATH_FUNCTIONS'");
    }

    [Fact]
    public void Data_version_moves_when_another_connection_commits()
    {
        using var dir = new TempDir();
        string path = dir.File("dv.db");
        Oracle.Exec(path, "CREATE TABLE t(a)");
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        long Version() { using var r = db.Query("PRAGMA data_version"); r.Read(); return r.GetInt64(0); }
        long before = Version();
        Oracle.Exec(path, "INSERT INTO t VALUES (1)");
        db.Execute("SELECT count(*) FROM t");
        Version().Should().BeGreaterThan(before);
    }

    [Fact]
    public void Every_compile_option_sharc_lists_has_the_value_sqlite_3_53_3_reports()
    {
        using var o = new WriteOracle();
        var sqlite = o.RunSqlite("PRAGMA compile_options", []).Rows;
        var sharc = o.RunSharc("PRAGMA compile_options", []).Rows;
        sharc.Should().NotBeEmpty();
        // MAX_LIKE_PATTERN_LENGTH and MAX_LENGTH are limits Sharc enforces; SQLite's build lists them with the same values.
        sharc.Should().BeSubsetOf(sqlite);
        sharc.Should().BeInAscendingOrder(StringComparer.Ordinal);
    }

    [Fact]
    public void Table_list_lists_tables_views_and_the_schema_table_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a, b, c)");
        o.Ok("CREATE TABLE s(x INT PRIMARY KEY, y TEXT) STRICT, WITHOUT ROWID");
        o.Ok("CREATE VIEW v AS SELECT a, b FROM t");
        o.Ok("CREATE TABLE g(a, b AS (a + 1))");
        o.Ok("SELECT * FROM t");
        var sqlite = o.RunSqlite("PRAGMA table_list", []).Rows.Where(r => !r.Contains("'temp'")).Order(StringComparer.Ordinal).ToList();
        var sharc = o.RunSharc("PRAGMA table_list", []).Rows.Order(StringComparer.Ordinal).ToList();
        sharc.Should().Equal(sqlite);
        o.Ok("PRAGMA table_list(t)");
        o.Ok("PRAGMA table_list(v)");
        o.Ok("PRAGMA table_list('nope')");
    }

    [Fact]
    public void Foreign_key_check_reports_orphans_as_sqlite_does()
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA foreign_keys = OFF");
        o.Ok("CREATE TABLE p(a INTEGER PRIMARY KEY, b UNIQUE, c TEXT, d, UNIQUE(c, d))");
        o.Ok("CREATE TABLE c(x REFERENCES p, y REFERENCES p(b), z REFERENCES nope, u, v, FOREIGN KEY(u, v) REFERENCES p(c, d))");
        o.Ok("INSERT INTO p VALUES (1, 'u', 'k', 1), (2, 'v', 'k', 2)");
        o.Ok("INSERT INTO c VALUES (1, 'u', NULL, 'k', 1), (3, 'v', 5, 'k', 3), (NULL, 'w', NULL, NULL, 9), (2, 'q', 7, 'k', '2')");
        o.Ok("CREATE TABLE e(k PRIMARY KEY REFERENCES p) WITHOUT ROWID");
        o.Ok("INSERT INTO e VALUES (9)");
        o.Ok("CREATE TABLE f(k TEXT REFERENCES p(b))");
        o.Ok("INSERT INTO f VALUES ('u'), ('U'), (1)");
        o.Ok("PRAGMA foreign_key_check(c)").Rows.Should().HaveCount(7);
        o.Ok("PRAGMA main.foreign_key_check(c)");
        o.Ok("PRAGMA foreign_key_check(e)");
        o.Ok("PRAGMA foreign_key_check(f)");
        o.Ok("PRAGMA foreign_key_check(p)");
        o.Both("PRAGMA foreign_key_check(nope)").Error.Should().Be("no such table: nope");
        var all = o.RunSharc("PRAGMA foreign_key_check", []).Rows;
        all.Order(StringComparer.Ordinal).Should().Equal(o.RunSqlite("PRAGMA foreign_key_check", []).Rows.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Foreign_key_check_on_a_key_without_a_unique_parent_is_a_mismatch()
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA foreign_keys = OFF");
        o.Ok("CREATE TABLE p2(a, b)");
        o.Ok("CREATE TABLE c2(x REFERENCES p2)");
        o.Ok("INSERT INTO c2 VALUES (1)");
        o.Both("PRAGMA foreign_key_check(c2)").Error.Should().Be("foreign key mismatch - \"c2\" referencing \"p2\"");
    }
}
