using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// Triggers are stored and dropped as SQLite does, but Sharc does not fire them yet: every write to a table with a
/// trigger is refused (through SQL and through the C# API) rather than done without it.
/// </summary>
public class TriggerTests
{
    [Fact]
    public void Writes_to_a_table_with_triggers_are_refused_and_change_nothing()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("CREATE TABLE log(x)");
        o.Ok("INSERT INTO t VALUES (1)");
        o.Ok("CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); END");
        foreach (var sql in new[] { "INSERT INTO t VALUES (2)", "UPDATE t SET a = 3", "DELETE FROM t" })
            Assert.Throws<SharcException>(() => o.Db.Execute(sql)).Message.Should().Contain("triggers is not supported");
        Assert.Throws<SharcException>(() => o.Db.Insert("t", 5L)).Message.Should().Contain("triggers is not supported");
        Assert.Throws<SharcException>(() => o.Db.Delete("t", 1)).Message.Should().Contain("triggers is not supported");
        o.Ok("INSERT INTO log VALUES ('tables without triggers are written')");
        o.Ok("DROP TRIGGER tr");
        o.Ok("INSERT INTO t VALUES (2)");
        o.AssertSameContents();
    }
}
