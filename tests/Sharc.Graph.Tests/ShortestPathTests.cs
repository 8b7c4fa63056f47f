namespace Sharc.Graph.Tests;

public class ShortestPathTests
{
    [Theory]
    [InlineData(GraphDirection.Out, null, 31)]
    [InlineData(GraphDirection.In, "knows", 32)]
    [InlineData(GraphDirection.Both, null, 33)]
    public void BidirectionalSearchIsAlwaysAsShortAsPlainBfs(GraphDirection direction, string? kind, int seed)
    {
        // Thousands of small random graphs (self-loops, parallel edges, isolated nodes) as disjoint parts of one file;
        // every pair inside each is checked, and pairs across parts have no path.
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed, graphs: 2000, maxNodes: 9, edgesPerNode: 1.3);
        using var db = SharcDatabase.Open(path);
        using var search = new SharcGraph(db).PrepareShortestPath(direction, kind);
        var rng = new Random(seed);
        var adjacency = g.Adjacency(direction, kind);
        int paths = 0;
        foreach (var part in g.Nodes.GroupBy(k => k / 1000))
        {
            var nodes = part.ToList();
            foreach (long from in nodes)
            {
                var dist = RefGraph.Distances(adjacency, from);
                if (FindsTheShortest(search, g, dist, from, nodes[rng.Next(nodes.Count)], direction, kind)) paths++;
            }
        }
        paths.Should().BeGreaterThan(2000);
        search.TryFindFewestHops(g.Nodes[0], g.Nodes[^1] + 1).Should().BeFalse();
    }

    [Theory]
    [InlineData(GraphDirection.Out, null, 51, 80, 1.1)]
    [InlineData(GraphDirection.In, null, 52, 80, 1.1)]
    [InlineData(GraphDirection.Both, null, 53, 80, 0.8)]
    [InlineData(GraphDirection.Out, "knows", 54, 60, 2.5)]
    [InlineData(GraphDirection.In, "cites", 55, 60, 2.5)]
    [InlineData(GraphDirection.Both, "knows", 56, 60, 1.5)]
    [InlineData(GraphDirection.Out, null, 57, 6, 4.0)]
    [InlineData(GraphDirection.Both, null, 58, 6, 4.0)]
    public void WideLevelsMeetAtAShortestPath(GraphDirection direction, string? kind, int seed, int maxNodes, double edgesPerNode)
    {
        // Larger sparse parts give long paths and wide levels, where the two searches meet at many nodes of one
        // level at once; the small dense ones are mostly self-loops and parallel edges.
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed, graphs: 150, maxNodes: maxNodes, edgesPerNode: edgesPerNode);
        using var db = SharcDatabase.Open(path);
        using var search = new SharcGraph(db).PrepareShortestPath(direction, kind);
        var rng = new Random(seed);
        var adjacency = g.Adjacency(direction, kind);
        int paths = 0;
        foreach (var part in g.Nodes.GroupBy(k => k / 1000))
        {
            var nodes = part.ToList();
            foreach (long from in nodes.Take(12))
            {
                var dist = RefGraph.Distances(adjacency, from);
                for (int i = 0; i < 4; i++)
                    if (FindsTheShortest(search, g, dist, from, nodes[rng.Next(nodes.Count)], direction, kind)) paths++;
            }
        }
        paths.Should().BeGreaterThan(500);
    }

    [Theory]
    [InlineData(GraphDirection.Out, null, 41)]
    [InlineData(GraphDirection.Both, "cites", 42)]
    public void LeastWeightMatchesTheReference(GraphDirection direction, string? kind, int seed)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed, graphs: 300, maxNodes: 15, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        using var search = new SharcGraph(db).PrepareShortestPath(direction, kind);
        var rng = new Random(seed);
        foreach (var part in g.Nodes.GroupBy(k => k / 1000))
        {
            var nodes = part.ToList();
            for (int i = 0; i < 4; i++)
            {
                long from = nodes[rng.Next(nodes.Count)], to = nodes[rng.Next(nodes.Count)];
                double? expected = g.LeastWeight(from, to, direction, kind);
                search.TryFindLeastWeight(from, to).Should().Be(expected is not null);
                if (expected is null) continue;
                search.TotalWeight.Should().BeApproximately(expected.Value, 1e-9);
                CheckPath(search, g, from, to, direction, kind);
                Enumerable.Range(0, search.Hops).Sum(e => g.ById[search.GetEdgeRowId(e)].Weight).Should().BeApproximately(expected.Value, 1e-9);
            }
        }
    }

    /// <summary>The path runs from <paramref name="from"/> to <paramref name="to"/> over real edges, each joining its two nodes the right way.</summary>
    /// <summary>Searches from → to and checks the answer against the one-ended BFS distances from <paramref name="from"/>; true when a path exists.</summary>
    private static bool FindsTheShortest(PreparedShortestPath search, RefGraph g, Dictionary<long, int> dist, long from, long to, GraphDirection direction, string? kind)
    {
        bool found = search.TryFindFewestHops(from, to);
        found.Should().Be(dist.ContainsKey(to), $"{from} → {to}");
        if (!found) return false;
        search.Hops.Should().Be(dist[to], $"{from} → {to}");
        CheckPath(search, g, from, to, direction, kind);
        return true;
    }

    private static void CheckPath(PreparedShortestPath search, RefGraph g, long from, long to, GraphDirection direction, string? kind)
    {
        search.GetNodeInt64(0).Should().Be(from);
        search.GetNodeInt64(search.NodeCount - 1).Should().Be(to);
        for (int i = 0; i < search.Hops; i++)
        {
            var e = g.ById[search.GetEdgeRowId(i)];
            long a = search.GetNodeInt64(i), b = search.GetNodeInt64(i + 1);
            bool forward = e.Source == a && e.Target == b, backward = e.Source == b && e.Target == a;
            (direction switch { GraphDirection.Out => forward, GraphDirection.In => backward, _ => forward || backward })
                .Should().BeTrue($"edge {e.Id} joins {a} and {b} going {direction}");
            if (kind is not null) e.Kind.Should().Be(kind);
        }
    }

    [Fact]
    public void PathFromANodeToItselfIsThatNode()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        using var search = new SharcGraph(db).PrepareShortestPath();
        search.TryFindFewestHops(5, 5).Should().BeTrue();
        search.NodeCount.Should().Be(1);
        search.TryFindLeastWeight(5, 5).Should().BeTrue();
        search.Hops.Should().Be(0);
        search.TryFindFewestHops(5, 6).Should().BeFalse();
        search.NodeCount.Should().Be(0);
    }

    [Fact]
    public void NegativeWeightIsAnErrorNamingTheEdge()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        db.Execute("INSERT INTO _relations(id, source_key, target_key, weight) VALUES (1, 1, 2, 1.0), (2, 2, 3, -0.5)");
        using var search = new SharcGraph(db).PrepareShortestPath();
        var act = () => search.TryFindLeastWeight(1, 3);
        act.Should().Throw<GraphNegativeWeightException>().Where(e => e.EdgeRowId == 2 && e.Weight == -0.5);
        search.TryFindFewestHops(1, 3).Should().BeTrue("hop counts ignore weights");
        search.Hops.Should().Be(2);
    }

    [Fact]
    public void TextKeyedPathsAreFound()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k TEXT UNIQUE); CREATE TABLE e(s TEXT, t TEXT, w REAL); CREATE INDEX e_s ON e(s, t, w); CREATE INDEX e_t ON e(t, s, w);" +
                   "INSERT INTO e VALUES ('a', 'b', 5), ('b', 'c', 5), ('a', 'x', 1), ('x', 'y', 1), ('y', 'c', 1)");
        using var search = new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t") { EdgeWeight = "w" }).PrepareShortestPath();
        search.TryFindFewestHops("a", "c").Should().BeTrue();
        Enumerable.Range(0, search.NodeCount).Select(i => System.Text.Encoding.UTF8.GetString(search.GetNodeUtf8(i))).Should().Equal("a", "b", "c");
        search.TryFindLeastWeight("a", "c").Should().BeTrue();
        Enumerable.Range(0, search.NodeCount).Select(i => System.Text.Encoding.UTF8.GetString(search.GetNodeUtf8(i))).Should().Equal("a", "x", "y", "c");
        search.TotalWeight.Should().Be(3);
    }

    [Fact]
    public void RepeatedSearchesAllocateNothingAfterWarmUp()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 50, graphs: 20, maxNodes: 200, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        using var search = new SharcGraph(db).PrepareShortestPath(GraphDirection.Both);
        var rng = new Random(1);
        long[] pairs = Enumerable.Range(0, 400).Select(_ => g.Nodes[rng.Next(g.Nodes.Count)]).ToArray();
        int i = 0, found = 0;
        long allocated = GraphFixture.Measure(() =>
        {
            long a = pairs[i++ % pairs.Length], b = pairs[i++ % pairs.Length];
            if (search.TryFindFewestHops(a, b)) found++;
            if (search.TryFindLeastWeight(a, b)) found++;
        }, 200);
        allocated.Should().Be(0);
        found.Should().BeGreaterThan(0);
    }
}
