using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>UPDATE … FROM, built on a SELECT joining the FROM items to the target: needs the join engine.</summary>
public class UpdateFromTests
{
    [Fact]
    public void Update_from_takes_values_from_the_joined_rows()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, total INT)");
        o.Ok("CREATE TABLE s(tid INT, amount INT)");
        o.Ok("INSERT INTO t VALUES (1, 0), (2, 0), (3, 0)");
        o.Ok("INSERT INTO s VALUES (1, 5), (2, 7), (2, 8)");
        o.Ok("UPDATE t SET total = total + s.amount FROM s WHERE s.tid = t.id AND s.amount > 6").Changes.Should().Be(1);
        o.Ok("UPDATE t SET total = x.n FROM (SELECT tid, count(*) AS n FROM s GROUP BY tid) AS x WHERE x.tid = t.id RETURNING *");
        o.AssertSameContents();
    }
}
