using System.Text;
using Sharc.Tests.Infrastructure;
using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Joins;

/// <summary>
/// Join order and methods: eight tables chained by equalities join step by step (a seek or a hash probe per step,
/// never a cross product), answers equal SQLite's, and plans say what they do. Prepared joins re-run with new
/// parameters, and an index nested-loop join re-runs without allocating.
/// </summary>
public sealed class JoinPlanTests
{
    private const int Rows = 3000;

    private static QueryOracle ChainDatabase()
    {
        var setup = new List<string>();
        for (int t = 0; t < 8; t++)
        {
            // c*: joined on the rowid; h*: no index at all, so only a hash join avoids a quadratic loop.
            setup.Add($"CREATE TABLE c{t}(id INTEGER PRIMARY KEY, next INTEGER, payload TEXT)");
            setup.Add($"CREATE TABLE h{t}(k INTEGER, v INTEGER, payload TEXT)");
            setup.Add($"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {Rows}) " +
                $"INSERT INTO c{t} SELECT i, (i * 7 + {t}) % {Rows} + 1, 'c{t}-' || i FROM n");
            setup.Add($"INSERT INTO h{t} SELECT id, next, payload FROM c{t}");
        }
        return new QueryOracle([.. setup]);
    }

    private static string Chain(string prefix, string key, string link, bool reversed)
    {
        var sb = new StringBuilder("SELECT count(*), sum(length(" + prefix + "7.payload)), max(" + prefix + "0.payload) FROM ");
        var order = Enumerable.Range(0, 8).ToList();
        if (reversed) order.Reverse();
        sb.Append(string.Join(", ", order.Select(t => prefix + t)));
        sb.Append(" WHERE ");
        sb.Append(string.Join(" AND ", Enumerable.Range(1, 7).Select(t => $"{prefix}{t}.{key} = {prefix}{t - 1}.{link}")));
        return sb.ToString();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void An_eight_table_equality_chain_joins_by_rowid_seeks(bool reversed)
    {
        using var db = ChainDatabase();
        string sql = Chain("c", "id", "next", reversed);
        db.Check(sql, ordered: true);
        var plan = db.Db.Explain(sql).Split('\n');
        plan.Should().HaveCount(8);
        // One table is read whole; every other is reached from the one before, by seek or by hash probe.
        plan.Count(l => l.StartsWith("SCAN", StringComparison.Ordinal)).Should().Be(1, string.Join("\n", plan));
        plan.Skip(1).Should().OnlyContain(l => l.StartsWith("SEARCH", StringComparison.Ordinal) || l.StartsWith("HASH JOIN", StringComparison.Ordinal));
        if (!reversed) plan.Skip(1).Should().OnlyContain(l => l.Contains("USING INTEGER PRIMARY KEY (rowid=?)"));
    }

    [Fact]
    public void An_eight_table_chain_without_indexes_joins_by_hash()
    {
        using var db = ChainDatabase();
        string sql = Chain("h", "k", "v", reversed: false);
        db.Check(sql, ordered: true);
        var plan = db.Db.Explain(sql).Split('\n');
        plan[0].Should().Be("SCAN h0");
        plan.Skip(1).Should().OnlyContain(l => l.StartsWith("HASH JOIN", StringComparison.Ordinal), string.Join("\n", plan));
        plan[1].Should().Be("HASH JOIN h1 (k=?) BUILT FROM SCAN h1");
    }

    [Fact]
    public void Plans_describe_each_step_of_a_join()
    {
        using var db = new QueryOracle(
            "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT)",
            "CREATE TABLE q(pid INTEGER, tag TEXT)",
            "CREATE INDEX q_pid ON q(pid)",
            "CREATE TABLE s(tag TEXT, n)");
        db.Db.Explain("SELECT * FROM p JOIN q ON q.pid = p.id").Should().Be("SCAN p\nSEARCH q USING INDEX q_pid (pid=?)");
        db.Db.Explain("SELECT * FROM q LEFT JOIN p ON p.id = q.pid").Should().Be("SCAN q\nSEARCH p USING INTEGER PRIMARY KEY (rowid=?) (LEFT JOIN)");
        db.Db.Explain("SELECT * FROM q JOIN s USING (tag) WHERE s.n > 2").Should().Be("SCAN q\nHASH JOIN s (tag=?) BUILT FROM SCAN s");
        db.Db.Explain("SELECT * FROM q RIGHT JOIN s ON s.tag > q.tag").Should().Be("SCAN q\nMATERIALIZE s FROM SCAN s (RIGHT JOIN)");
        db.Db.Explain("SELECT * FROM q, s WHERE q.pid = 3 ORDER BY s.n").Should().Be("SEARCH q USING INDEX q_pid (pid=?)\nSCAN s; USE SORT FOR ORDER BY");
    }

    [Fact]
    public void A_join_inside_a_subquery_names_its_level_on_each_line()
    {
        using var db = new QueryOracle(
            "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT)",
            "CREATE TABLE q(pid INTEGER, tag TEXT)");
        var plan = db.Db.Explain("SELECT name FROM p WHERE EXISTS (SELECT 1 FROM q JOIN p AS p2 ON p2.id = q.pid WHERE q.pid = p.id)").Split('\n');
        plan.Should().HaveCount(3);
        plan[0].Should().Be("SCAN p");
        plan[1].Should().MatchRegex("^SUBQUERY [0-9]+: SCAN q$");
        plan[2].Should().MatchRegex("^SUBQUERY [0-9]+: SEARCH p2 USING INTEGER PRIMARY KEY \\(rowid=\\?\\)$");
    }

    [Fact]
    public void A_prepared_join_runs_again_with_new_parameters()
    {
        using var db = ChainDatabase();
        const string sql = "SELECT c0.payload, c1.payload, h2.payload FROM c0 JOIN c1 ON c1.id = c0.next JOIN h2 ON h2.k = c1.next WHERE c0.id BETWEEN $p1 AND $p1 + 5 ORDER BY 1";
        foreach (long start in new long[] { 1, 100, 2990, 5000, 1 })
            db.Check(sql, true, start);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void Re_running_an_index_nested_loop_join_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        using var query = db.Prepare("SELECT a.name, b.score FROM users AS a JOIN users AS b ON b.id = a.age WHERE a.id = ?");
        db.Explain(query.Sql).Should().Be("SEARCH a USING INTEGER PRIMARY KEY (rowid=?)\nSEARCH b USING INTEGER PRIMARY KEY (rowid=?)");
        var rng = new Random(4);
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, (long)rng.Next(1, 3001));
            var r = query.Execute();
            while (r.Read()) sum += r.GetUtf8Span(0).Length + (long)r.GetDouble(1);
        }, 2000);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }
}
