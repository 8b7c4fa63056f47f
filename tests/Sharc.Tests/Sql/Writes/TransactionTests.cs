using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>BEGIN / COMMIT / ROLLBACK / SAVEPOINT through SQL, and how they mix with the C# transaction API.</summary>
public class TransactionTests
{
    [Fact]
    public void A_failing_statement_inside_a_transaction_is_undone_alone()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a UNIQUE)");
        o.Ok("BEGIN IMMEDIATE");
        o.Ok("INSERT INTO t VALUES (1), (2)");
        o.Both("INSERT INTO t VALUES (3), (1)").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("INSERT INTO t VALUES (4)");
        o.Ok("COMMIT");
        o.AssertSameContents();
    }

    [Fact]
    public void Rollback_discards_the_transaction_and_errors_match_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("BEGIN");
        o.Ok("INSERT INTO t VALUES (1)");
        o.Ok("CREATE TABLE u(b)");
        o.Both("BEGIN").Error.Should().Be("cannot start a transaction within a transaction");
        o.Ok("ROLLBACK");
        o.Both("ROLLBACK").Error.Should().Be("cannot rollback - no transaction is active");
        o.Both("END").Error.Should().Be("cannot commit - no transaction is active");
        o.AssertSameContents();
    }

    [Fact]
    public void Nested_savepoints_roll_back_and_release_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("SAVEPOINT one");
        o.Ok("INSERT INTO t VALUES (1)");
        o.Ok("SAVEPOINT two");
        o.Ok("INSERT INTO t VALUES (2)");
        o.Ok("SAVEPOINT three");
        o.Ok("CREATE TABLE u(b)");
        o.Ok("INSERT INTO u VALUES (3)");
        o.Ok("ROLLBACK TO two");
        o.Ok("INSERT INTO t VALUES (20)");
        o.Ok("RELEASE two");
        o.Both("RELEASE nosuch").Error.Should().Be("no such savepoint: nosuch");
        o.Ok("ROLLBACK TO SAVEPOINT one");
        o.Ok("INSERT INTO t VALUES (100)");
        o.Ok("RELEASE one");
        o.Both("COMMIT").Error.Should().Be("cannot commit - no transaction is active");
        o.AssertSameContents();
    }

    [Fact]
    public void Sql_commit_ends_a_transaction_begun_through_the_api()
    {
        using var o = new WriteOracle();
        o.Db.Execute("CREATE TABLE t(a)");
        var tx = o.Db.BeginTransaction();
        o.Db.Execute("INSERT INTO t VALUES (1)");
        Assert.Throws<SharcSqlException>(() => o.Db.Execute("BEGIN"));
        o.Db.Execute("COMMIT");
        Assert.Throws<InvalidOperationException>(tx.Commit);
        using var r = o.Db.Query("SELECT count(*) FROM t");
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(1);
    }

    [Fact]
    public void Execute_returns_the_changes_of_the_last_dml_statement_of_a_script()
    {
        using var o = new WriteOracle();
        o.Db.Execute("CREATE TABLE t(a); INSERT INTO t VALUES (1), (2), (3); SELECT * FROM t").Should().Be(3);
        o.Db.Execute("UPDATE t SET a = a + 1 WHERE a > 1; CREATE INDEX t_a ON t(a)").Should().Be(2);
        o.Db.Execute("DELETE FROM t WHERE a = :x", new Dictionary<string, object?> { ["x"] = 4L }).Should().Be(1);
        o.Db.LastChanges.Should().Be(1);
    }

    [Fact]
    public void Writing_a_read_only_database_through_sql_says_so()
    {
        using var o = new WriteOracle();
        o.Db.Execute("CREATE TABLE t(a)");
        using var ro = SharcDatabase.Open(o.SharcPath);
        Assert.Throws<SharcReadOnlyException>(() => ro.Execute("INSERT INTO t VALUES (1)")).Message.Should().StartWith("attempt to write a readonly database");
        using var r = ro.Query("PRAGMA user_version");
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(0);
    }
}
