using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>STORED generated columns are computed and stored on every write, VIRTUAL ones indexed, as SQLite does.</summary>
public sealed class GeneratedColumnWriteTests
{
    private const string All = "SELECT rowid, * FROM t ORDER BY rowid";

    [Fact]
    public void Stored_and_virtual_columns_are_computed_with_their_affinity()
    {
        using var twin = new WriteTwin();
        twin.Schema(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT, s TEXT AS (a * 2) STORED, v INT AS (b || a) VIRTUAL, r REAL AS (a) STORED, w AS (id + s) STORED)",
            "CREATE INDEX t_v ON t(v)",
            "CREATE INDEX t_s ON t(s, w)");
        twin.Both("INSERT INTO t(id, a, b) VALUES(1, 4, '1')", d => d.Insert("t", ["id", "a", "b"], [1, 4, "1"]));
        twin.Both("INSERT INTO t VALUES(2, 10, 'x')", d => d.Insert("t", 2, 10, "x"));
        twin.Both("INSERT INTO t(a, b) VALUES(NULL, NULL)", d => d.Insert("t", ["a", "b"], [null, null]));
        twin.Both("UPDATE t SET a = 7 WHERE id = 1", d => d.Update("t", 1, ["a"], [7]));
        twin.Both("DELETE FROM t WHERE id = 2", d => d.Delete("t", 2));
        twin.AssertSame(All, "SELECT id, typeof(s), typeof(v), typeof(r), v FROM t ORDER BY id");
    }

    [Fact]
    public void Generated_columns_may_read_later_generated_columns()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(x INT, a AS (b + 1) STORED, b AS (x * 10) STORED, c AS (a + b) VIRTUAL)", "CREATE INDEX t_c ON t(c)");
        twin.Both("INSERT INTO t(x) VALUES(3)", d => d.Insert("t", ["x"], [3]));
        twin.Both("UPDATE t SET x = 5 WHERE rowid = 1", d => d.Update("t", 1, ["x"], [5]));
        twin.AssertSame(All);
    }

    [Fact]
    public void Writing_a_generated_column_fails_as_in_sqlite()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, g AS (a + 1))");
        twin.Both("INSERT INTO t(id, g) VALUES(1, 2)", d => d.Insert("t", ["id", "g"], [1, 2]))
            .Should().Be("cannot INSERT into generated column \"g\"");
        twin.Both("INSERT INTO t VALUES(1, 2)", d => d.Insert("t", 1, 2));
        twin.Both("UPDATE t SET g = 5", d => d.Update("t", 1, ["g"], [5])).Should().Be("cannot UPDATE generated column \"g\"");
        twin.AssertSame(All);
    }

    [Fact]
    public void Not_null_on_a_generated_column_is_checked_after_computing_it()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, g INT NOT NULL AS (a * 2), h AS (a) STORED NOT NULL)");
        twin.Both("INSERT INTO t VALUES(1, 2)", d => d.Insert("t", 1, 2));
        twin.Both("INSERT INTO t VALUES(2, NULL)", d => d.Insert("t", 2, null)).Should().Be("NOT NULL constraint failed: t.g");
        twin.Both("UPDATE t SET a = NULL WHERE id = 1", d => d.Update("t", 1, ["a"], [null])).Should().StartWith("NOT NULL constraint failed");
        twin.AssertSame(All);
    }

    [Fact]
    public void Prepared_insert_fills_generated_columns()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, g TEXT AS (upper(a)) STORED)", "CREATE UNIQUE INDEX t_g ON t(g)");
        var ins = twin.Db.PrepareInsert("t");
        ins.FieldCount.Should().Be(2);
        for (int i = 1; i <= 50; i++)
        {
            ins.SetInt64(0, i);
            ins.SetText(1, "v" + i);
            ins.Execute();
            Oracle.Exec(twin.Sqlite, $"INSERT INTO t VALUES({i}, 'v{i}')");
        }
        ins.SetInt64(0, 51);
        ins.SetText(1, "V1");
        FluentActions.Invoking(() => ins.Execute()).Should().Throw<SharcConstraintException>().WithMessage("UNIQUE constraint failed: t.g");
        twin.AssertSame(All);
    }
}
