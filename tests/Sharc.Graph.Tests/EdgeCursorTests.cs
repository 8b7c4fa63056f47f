namespace Sharc.Graph.Tests;

public class EdgeCursorTests
{
    public static TheoryData<GraphDirection, string?> Cases()
    {
        var data = new TheoryData<GraphDirection, string?>();
        foreach (var d in new[] { GraphDirection.Out, GraphDirection.In, GraphDirection.Both })
        {
            data.Add(d, null);
            data.Add(d, "knows");
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void YieldsExactlyTheEdgesOfTheReference(GraphDirection direction, string? kind)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 11, graphs: 40, maxNodes: 25, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        using var edges = new SharcGraph(db).PrepareEdges(direction, kind);
        foreach (long node in g.Nodes.Append(123_456))
        {
            var got = new List<(long, string?, double, long, GraphDirection)>();
            edges.Reset(node);
            while (edges.MoveNext()) got.Add((edges.NeighborInt64, edges.EdgeKind, edges.Weight, edges.EdgeRowId, edges.EdgeDirection));
            var expected = g.Around(node, direction, kind)
                .Select(x => (x.Neighbor, x.Edge.Kind, x.Edge.Weight, x.Edge.Id));
            got.Select(x => (x.Item1, x.Item2, x.Item3, x.Item4)).Should().BeEquivalentTo(expected);
            if (direction == GraphDirection.Both)
                got.Select(x => x.Item5).Should().BeInAscendingOrder("outgoing edges come before incoming ones");
        }
    }

    [Fact]
    public void SelfLoopAppearsOnceEachWayWithBoth()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (7, 7), (7, 8), (7, 8)");
        using var edges = new SharcGraph(db).PrepareEdges(GraphDirection.Both);
        edges.Reset(7);
        var seen = new List<(long, GraphDirection)>();
        while (edges.MoveNext()) seen.Add((edges.NeighborInt64, edges.EdgeDirection));
        seen.Should().Equal((7, GraphDirection.Out), (8, GraphDirection.Out), (8, GraphDirection.Out), (7, GraphDirection.In));
    }

    [Fact]
    public void TextKeysThroughNonCoveringIndexesReadTheEdgeRow()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE n(name TEXT UNIQUE); CREATE TABLE e(id INTEGER PRIMARY KEY, src TEXT, dst TEXT, rel TEXT, cost REAL);" +
                       "CREATE INDEX e_src ON e(src); CREATE INDEX e_dst ON e(dst, rel)");
            var rng = new Random(5);
            var refEdges = new List<(long Id, string S, string T, string? K, double W)>();
            string[] names = Enumerable.Range(0, 30).Select(i => "node-" + i).ToArray();
            using (var tx = db.BeginTransaction())
            {
                for (int i = 1; i <= 200; i++)
                {
                    string s = names[rng.Next(names.Length)], t = names[rng.Next(names.Length)];
                    string? k = GraphFixture.Kinds[rng.Next(3)];
                    double w = rng.Next(1, 100) / 4.0;
                    db.Execute("INSERT INTO e VALUES (?, ?, ?, ?, ?)", i, s, t, k, w);
                    refEdges.Add((i, s, t, k, w));
                }
                tx.Commit();
            }
            var graph = new SharcGraph(db, new GraphSchema("n", "name", "e", "src", "dst") { EdgeKind = "rel", EdgeWeight = "cost" });
            graph.KeyType.Should().Be(GraphKeyType.Text);
            foreach (var kind in new[] { null, "cites" })
            {
                using var outEdges = graph.PrepareEdges(GraphDirection.Out, kind);
                using var inEdges = graph.PrepareEdges(GraphDirection.In, kind);
                foreach (string name in names)
                {
                    outEdges.Reset(name);
                    var got = new List<(long, string, string?, double)>();
                    while (outEdges.MoveNext()) got.Add((outEdges.EdgeRowId, outEdges.NeighborString, outEdges.EdgeKind, outEdges.Weight));
                    got.Should().BeEquivalentTo(refEdges.Where(e => e.S == name && (kind is null || e.K == kind)).Select(e => (e.Id, e.T, e.K, e.W)));
                    inEdges.Reset(System.Text.Encoding.UTF8.GetBytes(name));
                    got.Clear();
                    while (inEdges.MoveNext()) got.Add((inEdges.EdgeRowId, inEdges.NeighborString, inEdges.EdgeKind, inEdges.Weight));
                    got.Should().BeEquivalentTo(refEdges.Where(e => e.T == name && (kind is null || e.K == kind)).Select(e => (e.Id, e.S, e.K, e.W)));
                }
            }
        }
        GraphFixture.IntegrityCheck(path).Should().Be("ok");
    }

    [Theory]
    [InlineData(GraphDirection.Out, null)]
    [InlineData(GraphDirection.Both, "knows")]
    public void ReusingTheCursorForAnotherNodeAllocatesNothing(GraphDirection direction, string? kind)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 3, graphs: 100, maxNodes: 30, edgesPerNode: 3);
        using var db = SharcDatabase.Open(path);
        using var edges = new SharcGraph(db).PrepareEdges(direction, kind);
        int i = 0;
        double sum = 0;
        long allocated = GraphFixture.Measure(() =>
        {
            edges.Reset(g.Nodes[i++ % g.Nodes.Count]);
            while (edges.MoveNext()) sum += edges.NeighborInt64 + edges.Weight + edges.EdgeRowId + edges.EdgeKindUtf8.Length;
        }, 1000);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }
}
