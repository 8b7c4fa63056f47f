using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// A prepared compound SELECT or CTE executed again keeps its rows in buffers kept from the run before, so after
/// warm-up it allocates nothing: measured with GC.GetAllocatedBytesForCurrentThread around the loop, as
/// PreparedQueryAllocationTests does (no timing involved). Text is read as UTF-8 spans, so no string is made.
/// </summary>
public sealed class CompoundAllocationTests
{
    public static TheoryData<string> Statements => new()
    {
        "SELECT age, id % 7 FROM users WHERE age < ?1 UNION SELECT age, id % 5 FROM users WHERE score > ?1",
        "SELECT age, id % 7 FROM users WHERE age < ?1 INTERSECT SELECT age, id % 5 FROM users WHERE score > ?1",
        "SELECT age, id % 7 FROM users WHERE age < ?1 EXCEPT SELECT age, id % 5 FROM users WHERE score > ?1",
        "SELECT age FROM users WHERE age < ?1 UNION ALL SELECT id % 9 FROM users WHERE score > ?1 ORDER BY 1 DESC",
        "SELECT age, id % 3 FROM users WHERE age < ?1 UNION SELECT id % 4, 1 FROM users UNION ALL SELECT 1, 2 EXCEPT SELECT age, 0 FROM users WHERE score > ?1",
        "SELECT name, age FROM users WHERE age < ?1 UNION SELECT name, age FROM users WHERE score > ?1 * 30",
        "WITH a AS (SELECT age, avg(score) AS s, count(*) AS n FROM users WHERE id > ?1 GROUP BY age) SELECT x.age, x.s, y.n FROM a x JOIN a y ON y.age = x.age + 1",
        "WITH a AS (SELECT name, age FROM users WHERE age > ?1) SELECT x.age, y.name FROM a x JOIN a y ON y.name = x.name",
        "SELECT age, count(*), sum(id) FROM users WHERE id > ?1 GROUP BY age, substr(name, 1, 6)",
    };

    [Theory]
    [MemberData(nameof(Statements))]
    public void A_warm_re_execution_allocates_nothing(string sql)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(AllocationFixture.Build(dir, "UTF-8", 3000));
        using var query = db.Prepare(sql);
        var rng = new Random(7);
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, (long)rng.Next(20, 60));
            var r = query.Execute();
            while (r.Read()) rows += r.GetInt64(0) >= 0 ? 1 : 0;
        }, 20);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }
}
