namespace Sharc.Graph.Tests;

public class BfsTests
{
    [Theory]
    [InlineData(GraphDirection.Out, null, 0, int.MaxValue)]
    [InlineData(GraphDirection.In, "knows", 0, int.MaxValue)]
    [InlineData(GraphDirection.Both, null, 2, 4)]
    [InlineData(GraphDirection.Out, "cites", 1, 2)]
    public void ReachesWhatThePlainReferenceReachesAtTheSameDepths(GraphDirection direction, string? kind, int minDepth, int maxDepth)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 21, graphs: 30, maxNodes: 60, edgesPerNode: 1.5);
        using var db = SharcDatabase.Open(path);
        using var bfs = new SharcGraph(db).PrepareBfs(new BfsOptions { Direction = direction, Kind = kind, MinDepth = minDepth, MaxDepth = maxDepth });
        foreach (long start in g.Nodes.Where((_, i) => i % 3 == 0))
        {
            bfs.Execute(start);
            var expected = g.Distances(start, direction, kind, maxDepth).Where(kv => kv.Value >= minDepth).ToDictionary();
            var got = new Dictionary<long, int>();
            for (int v = bfs.FirstResult; v < bfs.VisitedCount; v++) got.Add(bfs.GetKeyInt64(v), bfs.GetDepth(v));
            got.Should().BeEquivalentTo(expected);
            bfs.ResultCount.Should().Be(expected.Count);
            CheckParents(bfs, g, direction, kind);
        }
    }

    /// <summary>Every visit but a start has a parent one level up, joined to it by a real edge of the right kind and direction.</summary>
    private static void CheckParents(PreparedBfs bfs, RefGraph g, GraphDirection direction, string? kind)
    {
        for (int v = 0; v < bfs.VisitedCount; v++)
        {
            if (!bfs.TryGetParent(v, out int p, out long edgeId))
            {
                bfs.GetDepth(v).Should().Be(0);
                continue;
            }
            bfs.GetDepth(p).Should().Be(bfs.GetDepth(v) - 1);
            var e = g.ById[edgeId];
            long from = bfs.GetKeyInt64(p), to = bfs.GetKeyInt64(v);
            bool forward = e.Source == from && e.Target == to, backward = e.Target == from && e.Source == to;
            (direction switch { GraphDirection.Out => forward, GraphDirection.In => backward, _ => forward || backward }).Should().BeTrue();
            if (kind is not null) e.Kind.Should().Be(kind);
        }
    }

    [Fact]
    public void ManyStartsAreAllAtDepthZeroAndCountOnce()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 4, graphs: 10, maxNodes: 20, edgesPerNode: 1);
        using var db = SharcDatabase.Open(path);
        using var bfs = new SharcGraph(db).PrepareBfs();
        long[] starts = [g.Nodes[0], g.Nodes[^1], g.Nodes[0]];
        bfs.Execute(starts);
        var expected = new Dictionary<long, int>();
        foreach (long s in starts)
            foreach (var (k, d) in g.Distances(s, GraphDirection.Out, null))
                expected[k] = Math.Min(d, expected.GetValueOrDefault(k, int.MaxValue));
        var got = Enumerable.Range(0, bfs.VisitedCount).ToDictionary(bfs.GetKeyInt64, bfs.GetDepth);
        got.Should().BeEquivalentTo(expected);
        got.Count(kv => kv.Value == 0).Should().Be(2);
    }

    [Fact]
    public void NodeBudgetStopsTheTraversalAndSaysSo()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 100; i++) db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (?, ?)", i, i + 1);
            tx.Commit();
        }
        var graph = new SharcGraph(db);
        using var capped = graph.PrepareBfs(new BfsOptions { MaxNodes = 10 });
        capped.Execute(0);
        capped.VisitedCount.Should().Be(10);
        capped.BudgetExhausted.Should().BeTrue();
        capped.GetDepth(9).Should().Be(9);
        using var whole = graph.PrepareBfs();
        whole.Execute(0);
        whole.VisitedCount.Should().Be(101);
        whole.BudgetExhausted.Should().BeFalse();
    }

    [Fact]
    public void ResultsOfOneExecutionAreReplacedByTheNext()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (1, 2), (10, 20), (20, 30)");
        using var bfs = new SharcGraph(db).PrepareBfs();
        bfs.Execute(1);
        bfs.VisitedCount.Should().Be(2);
        bfs.Execute(10);
        Enumerable.Range(0, bfs.VisitedCount).Select(bfs.GetKeyInt64).Should().Equal(10, 20, 30);
    }

    [Fact]
    public void EdgesToKeysOfAnotherTypeAreNotFollowed()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k INTEGER PRIMARY KEY); CREATE TABLE e(s INTEGER, t INTEGER); CREATE INDEX e_s ON e(s, t); CREATE INDEX e_t ON e(t, s);" +
                   "INSERT INTO e VALUES (1, 'abc'), (1, NULL), (1, 2), (2, 2.5)");
        var graph = new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t"));
        using var bfs = graph.PrepareBfs();
        bfs.Execute(1);
        Enumerable.Range(0, bfs.VisitedCount).Select(bfs.GetKeyInt64).Should().Equal(1, 2);
        using var search = graph.PrepareShortestPath();
        search.TryFindFewestHops(1, 0).Should().BeFalse("'abc' is not the key 0");
    }

    [Theory]
    [InlineData(GraphDirection.Out)]
    [InlineData(GraphDirection.Both)]
    public void ReachSetsMatchSqliteRecursiveCte(GraphDirection direction)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 8, graphs: 5, maxNodes: 200, edgesPerNode: 1.2);
        string step = direction == GraphDirection.Out
            ? "SELECT r.target_key FROM _relations r JOIN reach ON r.source_key = reach.k"
            : "SELECT r.target_key FROM _relations r JOIN reach ON r.source_key = reach.k UNION SELECT r.source_key FROM _relations r JOIN reach ON r.target_key = reach.k";
        using var conn = GraphFixture.Open(path);
        using var cte = conn.CreateCommand();
        cte.CommandText = $"WITH RECURSIVE reach(k) AS (SELECT $start UNION {step}) SELECT k FROM reach";
        var p = cte.Parameters.Add(new Microsoft.Data.Sqlite.SqliteParameter { ParameterName = "$start" });
        using var db = SharcDatabase.Open(path);
        using var bfs = new SharcGraph(db).PrepareBfs(new BfsOptions { Direction = direction });
        foreach (long start in g.Nodes.Where((_, i) => i % 7 == 0))
        {
            p.Value = start;
            var expected = new List<long>();
            using (var r = cte.ExecuteReader())
                while (r.Read()) expected.Add(r.GetInt64(0));
            bfs.Execute(start);
            Enumerable.Range(0, bfs.VisitedCount).Select(bfs.GetKeyInt64).Should().BeEquivalentTo(expected);
        }
    }

    [Fact]
    public void TextKeyedTraversalMatchesTheReference()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k TEXT PRIMARY KEY) WITHOUT ROWID; CREATE TABLE e(s TEXT, t TEXT); CREATE INDEX e_s ON e(s, t); CREATE INDEX e_t ON e(t, s)");
        var rng = new Random(9);
        var g = new RefGraph();
        using (var tx = db.BeginTransaction())
        {
            for (int i = 1; i <= 300; i++)
            {
                long s = rng.Next(80), t = rng.Next(80);
                g.Add(new Edge(i, s, t, null, 1));
                db.Execute("INSERT INTO e VALUES (?, ?)", "k" + s, "k" + t);
            }
            tx.Commit();
        }
        using var bfs = new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t")).PrepareBfs(new BfsOptions { MaxDepth = 3 });
        for (long start = 0; start < 80; start += 9)
        {
            bfs.Execute("k" + start);
            var got = Enumerable.Range(0, bfs.VisitedCount).ToDictionary(v => System.Text.Encoding.UTF8.GetString(bfs.GetKeyUtf8(v)), bfs.GetDepth);
            got.Should().BeEquivalentTo(g.Distances(start, GraphDirection.Out, null, 3).ToDictionary(kv => "k" + kv.Key, kv => kv.Value));
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ReExecutionAllocatesNothingAfterWarmUp(bool text)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute(text
            ? "CREATE TABLE n(k TEXT PRIMARY KEY) WITHOUT ROWID; CREATE TABLE e(s TEXT, t TEXT, kind TEXT); CREATE INDEX e_s ON e(s, kind, t); CREATE INDEX e_t ON e(t, kind, s)"
            : "CREATE TABLE n(k INTEGER PRIMARY KEY); CREATE TABLE e(s INTEGER, t INTEGER, kind TEXT); CREATE INDEX e_s ON e(s, kind, t); CREATE INDEX e_t ON e(t, kind, s)");
        var rng = new Random(12);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 3000; i++)
            {
                int s = rng.Next(1000), t = rng.Next(1000);
                db.Execute("INSERT INTO e VALUES (?, ?, ?)", text ? "n" + s : s, text ? "n" + t : t, i % 2 == 0 ? "a" : "b");
            }
            tx.Commit();
        }
        using var bfs = new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t") { EdgeKind = "kind" })
            .PrepareBfs(new BfsOptions { Direction = GraphDirection.Both, Kind = "a", MaxDepth = 2 });
        byte[][] textStarts = Enumerable.Range(0, 1000).Select(i => System.Text.Encoding.UTF8.GetBytes("n" + i)).ToArray();
        int next = 0;
        long visited = 0;
        long allocated = GraphFixture.Measure(() =>
        {
            int s = next++ % 1000;
            if (text) bfs.Execute(textStarts[s]);
            else bfs.Execute((long)s);
            visited += bfs.ResultCount;
        }, 300);
        allocated.Should().Be(0);
        visited.Should().BeGreaterThan(300);
    }
}
