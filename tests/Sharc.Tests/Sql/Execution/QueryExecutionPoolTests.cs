using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// <c>db.Query</c> keeps one finished execution per cached plan for the next call: run again, a statement allocates
/// only its reader (a hash join no longer rebuilds its table's storage, a recursive CTE reuses its queued rows), while
/// readers open at the same time — on one thread or many — never share an execution, a reader read to the end and
/// then disposed hands its execution back once, and a run that failed is not handed on.
/// </summary>
public sealed class QueryExecutionPoolTests : IDisposable
{
    private const int Rows = 2000;
    private readonly TempDir _dir = new();
    private readonly string _path;

    public QueryExecutionPoolTests()
    {
        _path = _dir.File("pool.db");
        using var c = Oracle.Open(_path);
        // No index: the join on name is a hash join, the filter a scan.
        Oracle.Exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, age INT)");
        using var tx = c.BeginTransaction();
        for (int i = 1; i <= Rows; i++)
            Oracle.Exec(c, "INSERT INTO t VALUES($i, $n, $a)", ("$i", (long)i), ("$n", "n" + (i % 700)), ("$a", (long)(i % 60)));
        tx.Commit();
    }

    public void Dispose() => _dir.Dispose();

    public static TheoryData<string> Statements =>
    [
        "SELECT a.id, b.age FROM t a JOIN t b ON b.name = a.name",
        "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000) SELECT n FROM c",
        "SELECT name, age FROM t WHERE id = 7",
        "SELECT id FROM t WHERE age = 17",
        "SELECT name, id FROM t WHERE age > 30 ORDER BY name DESC LIMIT 10",
    ];

    [Theory]
    [MemberData(nameof(Statements))]
    public void A_cached_query_run_again_allocates_little_more_than_its_reader(string sql)
    {
        using var db = SharcDatabase.Open(_path);
        long sum = 0;
        const int Runs = 20;
        long allocated = AllocationFixture.Measure(() =>
        {
            using var r = db.Query(sql);
            while (r.Read()) sum += r.GetInt64(r.FieldCount - 1);
        }, Runs);
        (allocated / Runs).Should().BeLessThan(1024, "a warm db.Query of {0} reuses its plan's execution", sql);
        sum.Should().BeGreaterThan(0);
    }

    [Fact]
    public void Readers_open_at_once_on_one_statement_each_read_their_own_rows()
    {
        using var db = SharcDatabase.Open(_path);
        const string Sql = "SELECT id FROM t WHERE age = ?";
        Ids(db.Query(Sql, 5L)).Should().HaveCount(Rows / 60 + 1);
        using var a = db.Query(Sql, 5L);
        using var b = db.Query(Sql, 6L);
        var fromA = new List<long>();
        var fromB = new List<long>();
        while (true)
        {
            bool ra = a.Read(), rb = b.Read();
            if (ra) fromA.Add(a.GetInt64(0));
            if (rb) fromB.Add(b.GetInt64(0));
            if (!ra && !rb) break;
        }
        fromA.Should().OnlyContain(id => id % 60 == 5).And.HaveCount(Rows / 60 + 1);
        fromB.Should().OnlyContain(id => id % 60 == 6).And.HaveCount(Rows / 60 + 1);
    }

    [Fact]
    public void A_reader_read_to_the_end_and_then_disposed_does_not_disturb_the_next_caller()
    {
        using var db = SharcDatabase.Open(_path);
        const string Sql = "SELECT id FROM t WHERE age = ?";
        var first = db.Query(Sql, 1L);
        while (first.Read()) { }
        // The execution went back at the end; the next call takes it, and the first reader's Dispose must not.
        using var second = db.Query(Sql, 2L);
        second.Read().Should().BeTrue();
        first.Dispose();
        first.Invoking(r => r.Read()).Should().Throw<ObjectDisposedException>();
        var ids = new List<long> { second.GetInt64(0) };
        while (second.Read()) ids.Add(second.GetInt64(0));
        ids.Should().OnlyContain(id => id % 60 == 2).And.HaveCount(Rows / 60 + 1);
        Ids(db.Query(Sql, 3L)).Should().OnlyContain(id => id % 60 == 3).And.HaveCount(Rows / 60 + 1);
    }

    [Fact]
    public void Threads_running_one_cached_statement_each_get_exactly_their_rows()
    {
        using var db = SharcDatabase.Open(_path);
        const string Sql = "SELECT a.id FROM t a JOIN t b ON b.name = a.name WHERE a.age = ? AND b.id < 100";
        var expected = new Dictionary<long, long[]>();
        for (long age = 0; age < 60; age++) expected[age] = Ids(db.Query(Sql, age)).Order().ToArray();
        var failures = new System.Collections.Concurrent.ConcurrentBag<string>();
        var threads = Enumerable.Range(0, 4).Select(t => new Thread(() =>
        {
            var rng = new Random(t);
            for (int i = 0; i < 150; i++)
            {
                long age = rng.Next(60);
                var got = Ids(db.Query(Sql, age)).Order().ToArray();
                if (!got.SequenceEqual(expected[age])) failures.Add($"thread {t}, age {age}: {got.Length} rows, {expected[age].Length} expected");
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        failures.Should().BeEmpty();
    }

    [Fact]
    public void A_statement_that_failed_mid_run_runs_correctly_next_time()
    {
        using var db = SharcDatabase.Open(_path);
        // abs() of the smallest integer overflows, as in SQLite, when the scan reaches id 1000.
        const string Sql = "SELECT id, abs(CASE WHEN id = ? THEN -9223372036854775808 ELSE id END) FROM t";
        var failing = db.Query(Sql, 1000L);
        var act = () => { while (failing.Read()) { } };
        act.Should().Throw<SharcException>();
        failing.Dispose();
        Ids(db.Query(Sql, 0L)).Should().HaveCount(Rows);
    }

    private static List<long> Ids(SharcDataReader r)
    {
        using (r)
        {
            var ids = new List<long>();
            while (r.Read()) ids.Add(r.GetInt64(0));
            return ids;
        }
    }
}
