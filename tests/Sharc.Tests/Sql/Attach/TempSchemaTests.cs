using FluentAssertions;

namespace Sharc.Tests.Sql.Attach;

/// <summary>CREATE TEMP TABLE / INDEX / TRIGGER, temp. qualification and sqlite_temp_schema, against SQLite.</summary>
public class TempSchemaTests
{
    [Fact]
    public void Temp_tables_shadow_main_and_live_in_sqlite_temp_schema()
    {
        using var o = new AttachOracle();
        o.Ok("SELECT * FROM sqlite_temp_master");
        o.Ok("SELECT * FROM temp.sqlite_master");
        o.Ok("CREATE TABLE t(a)");
        o.Ok("INSERT INTO t VALUES ('main')");
        o.Ok("CREATE TEMP TABLE t(a, b DEFAULT 'x')");
        o.Ok("CREATE TEMPORARY TABLE IF NOT EXISTS t(z)");
        o.Ok("INSERT INTO t(a) VALUES ('temp')");
        o.Ok("SELECT * FROM t");
        o.Ok("SELECT * FROM main.t");
        o.Ok("SELECT * FROM temp.t");
        o.Ok("CREATE TABLE temp.u(c PRIMARY KEY, d)");
        o.Ok("CREATE INDEX u_d ON u(d)");
        o.Ok("CREATE UNIQUE INDEX temp.t_a ON t(a)");
        o.Both("INSERT INTO t(a) VALUES ('temp')").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("INSERT INTO u VALUES (1, 2), (3, 4)");
        o.Ok("UPDATE u SET d = d * 10 WHERE c = 3");
        o.Ok("SELECT * FROM u WHERE d > 5");
        o.Ok("SELECT type, name, tbl_name, sql FROM sqlite_temp_master ORDER BY name");
        o.Ok("SELECT type, name, tbl_name, sql FROM sqlite_temp_schema ORDER BY name");
        o.Ok("SELECT type, name, tbl_name, sql FROM temp.sqlite_schema ORDER BY name");
        o.Ok("SELECT name FROM sqlite_master ORDER BY name");
        o.Ok("PRAGMA temp.table_info(u)");
        o.Ok("PRAGMA table_info(t)");
        o.Ok("PRAGMA main.table_info(t)");
        o.Ok("CREATE TEMP TABLE s AS SELECT a || '!' AS e FROM main.t");
        o.Ok("SELECT * FROM s");
        o.Ok("DROP TABLE temp.t");
        o.Ok("SELECT * FROM t");
        o.Ok("DROP INDEX u_d");
        o.Ok("DROP TABLE u");
        o.Ok("SELECT type, name FROM sqlite_temp_master ORDER BY name");
        o.Inner.AssertSameContents();
    }

    [Fact]
    public void Temp_triggers_on_temp_tables_fire()
    {
        using var o = new AttachOracle();
        o.Ok("CREATE TEMP TABLE t(a)");
        o.Ok("CREATE TEMP TABLE log(x)");
        o.Ok("CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a * 2); END");
        o.Ok("CREATE TRIGGER tr2 AFTER DELETE ON t BEGIN INSERT INTO log VALUES (-old.a); END");
        o.Ok("INSERT INTO t VALUES (1), (2)");
        o.Ok("DELETE FROM t WHERE a = 1");
        o.Ok("SELECT * FROM log ORDER BY rowid");
        o.Ok("SELECT type, name, tbl_name FROM sqlite_temp_master ORDER BY name");
        o.Ok("DROP TRIGGER tr");
        o.Ok("INSERT INTO t VALUES (3)");
        o.Ok("SELECT count(*) FROM log");
    }

    [Fact]
    public void Temp_errors_match_sqlite()
    {
        using var o = new AttachOracle();
        o.Ok("CREATE TABLE m(a)");
        o.Error("CREATE INDEX temp.i ON m(a)").Should().Be("cannot create a TEMP index on non-TEMP table \"m\"");
        o.Error("SELECT * FROM temp.m").Should().Be("no such table: temp.m");
        o.Error("DROP TABLE temp.m").Should().Be("no such table: temp.m");
        o.Ok("CREATE TEMP TABLE x(a)");
        o.Error("CREATE TEMP TABLE x(b)").Should().Be("table x already exists");
        o.Error("SELECT * FROM temp.m").Should().Be("no such table: temp.m");
        o.Error("INSERT INTO temp.m VALUES (1)").Should().Be("no such table: temp.m");
        o.Error("CREATE TEMP TABLE nosuch.y(a)").Should().Be("unknown database nosuch");
    }

    [Fact]
    public void Temp_objects_never_reach_the_file()
    {
        using var dir = new Infrastructure.TempDir();
        string path = dir.File("m.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE m(a); CREATE TEMP TABLE t(a); INSERT INTO t VALUES (1); CREATE TEMP VIEW v AS SELECT * FROM t");
        }
        Infrastructure.Oracle.Rows(path, "SELECT name FROM sqlite_master").Select(r => r[0]).Should().Equal("m");
        Infrastructure.Oracle.IntegrityCheck(path).Should().Be("ok");
        using var again = SharcDatabase.Open(path);
        ((Action)(() => again.Query("SELECT * FROM t").Dispose())).Should().Throw<SharcSqlException>();
    }
}
