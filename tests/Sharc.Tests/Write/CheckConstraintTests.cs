using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>CHECK constraints are enforced on insert, update and upsert with SQLite's messages; NULL passes.</summary>
public sealed class CheckConstraintTests
{
    private const string All = "SELECT rowid, * FROM t ORDER BY rowid";

    [Fact]
    public void Unnamed_check_failure_names_the_expression_text()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT CHECK(  a > 0 ), b TEXT, CHECK (length(b) <= 3))");
        twin.Both("INSERT INTO t VALUES(1, 5, 'abc')", d => d.Insert("t", 1, 5, "abc"));
        twin.Both("INSERT INTO t VALUES(2, 0, 'x')", d => d.Insert("t", 2, 0, "x")).Should().Be("CHECK constraint failed: a > 0");
        twin.Both("INSERT INTO t VALUES(3, 1, 'long')", d => d.Insert("t", 3, 1, "long")).Should().Be("CHECK constraint failed: length(b) <= 3");
        twin.Both("INSERT INTO t VALUES(4, NULL, NULL)", d => d.Insert("t", 4, null, null));
        twin.AssertSame(All);
    }

    [Fact]
    public void Named_check_failure_names_the_constraint()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT CONSTRAINT positive CHECK(a > 0), b INT, CONSTRAINT \"b big\" CHECK(b > a))");
        twin.Both("INSERT INTO t VALUES(1, -1, 5)", d => d.Insert("t", 1, -1, 5)).Should().Be("CHECK constraint failed: positive");
        twin.Both("INSERT INTO t VALUES(1, 2, 1)", d => d.Insert("t", 1, 2, 1)).Should().Be("CHECK constraint failed: b big");
        twin.Both("INSERT INTO t VALUES(1, 2, 3)", d => d.Insert("t", 1, 2, 3));
        twin.AssertSame(All);
    }

    [Fact]
    public void Checks_apply_to_updates_and_upserts_and_see_the_rowid()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, CHECK(a <> id))");
        twin.Both("INSERT INTO t VALUES(1, 2)", d => d.Insert("t", 1, 2));
        twin.Both("UPDATE t SET a = 1 WHERE id = 1", d => d.Update("t", 1, ["a"], [1])).Should().Be("CHECK constraint failed: a <> id");
        twin.Both("INSERT OR REPLACE INTO t VALUES(1, 1)", d => d.Upsert("t", 1, 1)).Should().Be("CHECK constraint failed: a <> id");
        twin.Both("INSERT OR REPLACE INTO t VALUES(1, 3)", d => d.Upsert("t", 1, 3));
        twin.AssertSame(All);
    }

    [Fact]
    public void Not_null_is_reported_before_check()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(a INT NOT NULL CHECK(a > 0), b INT CHECK(b > 0))");
        twin.Both("INSERT INTO t VALUES(NULL, -1)", d => d.Insert("t", null, -1)).Should().Be("NOT NULL constraint failed: t.a");
        twin.AssertSame(All);
    }

    [Fact]
    public void A_failed_check_inside_a_transaction_leaves_the_transaction_usable()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(a INT CHECK(a < 10))");
        using (var tx = twin.Db.BeginTransaction())
        {
            twin.Db.Insert("t", 1);
            FluentActions.Invoking(() => twin.Db.Insert("t", 11)).Should().Throw<SharcConstraintException>();
            twin.Db.Insert("t", 2);
            tx.Commit();
        }
        Oracle.Exec(twin.Sqlite, "INSERT INTO t VALUES(1), (2)");
        twin.AssertSame(All);
    }
}
