using System.Text;

namespace Sharc.Graph.Tests;

public class SubgraphTests
{
    private readonly record struct GotEdge(long Id, long Source, long Target, string? Kind, double Weight);

    private static (Dictionary<long, int> Nodes, List<GotEdge> Edges) Read(PreparedSubgraph sub, bool text)
    {
        long Key(int node) => text ? MappedGraphs.Number(sub.GetNodeUtf8(node)) : sub.GetNodeInt64(node);
        var nodes = Enumerable.Range(0, sub.NodeCount).ToDictionary(Key, sub.GetNodeDepth);
        var edges = Enumerable.Range(0, sub.EdgeCount).Select(e => new GotEdge(sub.GetEdgeRowId(e),
            text ? MappedGraphs.Number(sub.GetEdgeSourceUtf8(e)) : sub.GetEdgeSourceInt64(e),
            text ? MappedGraphs.Number(sub.GetEdgeTargetUtf8(e)) : sub.GetEdgeTargetInt64(e),
            sub.GetEdgeKind(e), sub.GetEdgeWeight(e))).ToList();
        return (nodes, edges);
    }

    [Theory]
    [InlineData(false, GraphDirection.Out, null, 2)]
    [InlineData(false, GraphDirection.In, "knows", 3)]
    [InlineData(false, GraphDirection.Both, null, 1)]
    [InlineData(false, GraphDirection.Both, "cites", 4)]
    [InlineData(false, GraphDirection.Out, null, 0)]
    [InlineData(true, GraphDirection.Out, null, 2)]
    [InlineData(true, GraphDirection.Both, null, 3)]
    [InlineData(true, GraphDirection.In, "cites", 2)]
    public void NeighbourhoodIsTheReferenceNodesAndEveryEdgeAmongThemOnce(bool text, GraphDirection direction, string? kind, int hops)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = MappedGraphs.Build(path, text, seed: 40 + hops, graphs: 60, maxNodes: 40, edgesPerNode: 1.5, chain: 200);
        using var db = SharcDatabase.Open(path);
        using var sub = new SharcGraph(db, MappedGraphs.Schema).PrepareSubgraph(hops, direction, kind);
        var rng = new Random(hops);
        for (int run = 0; run < 50; run++)
        {
            var starts = Enumerable.Range(0, 1 + run % 2).Select(_ => g.Nodes[rng.Next(g.Nodes.Count)]).ToList();
            if (run == 0) starts = [900_100];
            sub.ClearStarts();
            foreach (long s in starts)
                if (text) sub.AddStart(Encoding.UTF8.GetBytes(RefTraversal.TextKey(s)));
                else sub.AddStart(s);
            sub.Execute();
            var (nodes, edges) = Read(sub, text);
            var expected = g.Subgraph(starts, hops, direction, kind);
            nodes.Should().BeEquivalentTo(expected.Nodes);
            edges.Should().BeEquivalentTo(expected.Edges.Select(e => new GotEdge(e.Id, e.Source, e.Target, e.Kind, e.Weight)));
            edges.Select(e => e.Id).Should().OnlyHaveUniqueItems();
            Enumerable.Range(0, sub.NodeCount).Select(sub.GetNodeDepth).Should().BeInAscendingOrder();
            sub.StopReason.Should().Be(StopReason.Completed);
        }
    }

    [Fact]
    public void SelfLoopsOnceAndParallelEdgesAsStoredWhateverTheDirection()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        db.Execute("INSERT INTO _relations(id, source_key, target_key, kind, weight) VALUES " +
                   "(1, 1, 1, 'a', 1), (2, 1, 2, 'a', 2), (3, 1, 2, 'a', 3), (4, 2, 1, 'b', 4), (5, 2, 3, NULL, 5), (6, 3, 9, 'a', 6)");
        var graph = new SharcGraph(db);
        using var both = graph.PrepareSubgraph(1, GraphDirection.Both);
        both.Execute(1);
        Enumerable.Range(0, both.NodeCount).Select(both.GetNodeInt64).Should().Equal(1, 2);
        Enumerable.Range(0, both.EdgeCount).Select(both.GetEdgeRowId).Should().Equal(1, 2, 3, 4);
        Enumerable.Range(0, both.EdgeCount).Select(both.GetEdgeKind).Should().Equal("a", "a", "a", "b");
        using var twoHops = graph.PrepareSubgraph(2, GraphDirection.In);
        twoHops.Execute(3);
        Enumerable.Range(0, twoHops.NodeCount).Select(n => (twoHops.GetNodeInt64(n), twoHops.GetNodeDepth(n))).Should().Equal((3, 0), (2, 1), (1, 2));
        Enumerable.Range(0, twoHops.EdgeCount).Select(twoHops.GetEdgeRowId).Should().BeEquivalentTo([5L, 1, 2, 3, 4]);
        twoHops.HasEdgeKind(Enumerable.Range(0, twoHops.EdgeCount).Single(e => twoHops.GetEdgeRowId(e) == 5)).Should().BeFalse();
        using var kindA = graph.PrepareSubgraph(5, GraphDirection.Out, "a");
        kindA.Execute(1);
        Enumerable.Range(0, kindA.NodeCount).Select(kindA.GetNodeInt64).Should().Equal(1, 2);
        Enumerable.Range(0, kindA.EdgeCount).Select(kindA.GetEdgeRowId).Should().Equal(1, 2, 3);
    }

    [Theory]
    [InlineData(GraphDirection.Out, 2)]
    [InlineData(GraphDirection.Both, 3)]
    public void MatchesSqliteRecursiveCteAndJoin(GraphDirection direction, int hops)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 44, graphs: 8, maxNodes: 120, edgesPerNode: 1.2);
        string step = direction == GraphDirection.Out
            ? "SELECT r.target_key, reach.d + 1 FROM _relations r JOIN reach ON r.source_key = reach.k WHERE reach.d < $hops"
            : "SELECT r.target_key, reach.d + 1 FROM _relations r JOIN reach ON r.source_key = reach.k WHERE reach.d < $hops " +
              "UNION SELECT r.source_key, reach.d + 1 FROM _relations r JOIN reach ON r.target_key = reach.k WHERE reach.d < $hops";
        using var conn = GraphFixture.Open(path);
        using var cmd = conn.CreateCommand();
        cmd.CommandText =
            $"WITH RECURSIVE reach(k, d) AS (SELECT $start, 0 UNION {step}), near AS (SELECT k, MIN(d) AS d FROM reach GROUP BY k) " +
            "SELECT 'n', k, d FROM near UNION ALL " +
            "SELECT 'e', e.id, 0 FROM _relations e WHERE e.source_key IN (SELECT k FROM near) AND e.target_key IN (SELECT k FROM near)";
        var start = cmd.Parameters.Add(new Microsoft.Data.Sqlite.SqliteParameter { ParameterName = "$start" });
        cmd.Parameters.AddWithValue("$hops", hops);
        using var db = SharcDatabase.Open(path);
        using var sub = new SharcGraph(db).PrepareSubgraph(hops, direction);
        int edgesSeen = 0;
        foreach (long s in g.Nodes.Where((_, i) => i % 11 == 0))
        {
            start.Value = s;
            var nodes = new Dictionary<long, int>();
            var edges = new List<long>();
            using (var r = cmd.ExecuteReader())
                while (r.Read())
                    if (r.GetString(0) == "n") nodes.Add(r.GetInt64(1), r.GetInt32(2));
                    else edges.Add(r.GetInt64(1));
            sub.Execute(s);
            Enumerable.Range(0, sub.NodeCount).ToDictionary(sub.GetNodeInt64, sub.GetNodeDepth).Should().BeEquivalentTo(nodes);
            Enumerable.Range(0, sub.EdgeCount).Select(sub.GetEdgeRowId).Should().BeEquivalentTo(edges);
            edgesSeen += edges.Count;
        }
        edgesSeen.Should().BeGreaterThan(50);
    }

    [Fact]
    public void LongChainGivesHopsPlusOneNodesAndHopsEdges()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        MappedGraphs.Build(path, text: false, seed: 1, graphs: 0, maxNodes: 1, edgesPerNode: 0, chain: 5000);
        using var db = SharcDatabase.Open(path);
        using var sub = new SharcGraph(db, MappedGraphs.Schema).PrepareSubgraph(1200, GraphDirection.Both);
        sub.Execute(902_000);
        sub.NodeCount.Should().Be(2401);
        sub.EdgeCount.Should().Be(2400);
        Enumerable.Range(0, sub.EdgeCount).Should().OnlyContain(e => sub.GetEdgeTargetInt64(e) == sub.GetEdgeSourceInt64(e) + 1);
    }

    [Fact]
    public void NodeBudgetCutsTheNodesAndKeepsOnlyEdgesAmongThem()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 45, graphs: 1, maxNodes: 300, edgesPerNode: 3);
        using var db = SharcDatabase.Open(path);
        using var sub = new SharcGraph(db).PrepareSubgraph(3, GraphDirection.Both, maxNodes: 20);
        sub.Execute(g.Nodes[0]);
        sub.NodeCount.Should().BeLessThanOrEqualTo(20);
        var kept = Enumerable.Range(0, sub.NodeCount).Select(sub.GetNodeInt64).ToHashSet();
        if (sub.NodeCount == 20) sub.StopReason.Should().Be(StopReason.NodeBudget);
        var expected = g.Edges.Where(e => kept.Contains(e.Source) && kept.Contains(e.Target)).Select(e => e.Id);
        Enumerable.Range(0, sub.EdgeCount).Select(sub.GetEdgeRowId).Should().BeEquivalentTo(expected);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ReExecutionAllocatesNothingAfterWarmUp(bool text)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = MappedGraphs.Build(path, text, seed: 46, graphs: 4, maxNodes: 500, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        using var sub = new SharcGraph(db, MappedGraphs.Schema).PrepareSubgraph(2, GraphDirection.Both);
        byte[][] textKeys = g.Nodes.Select(k => Encoding.UTF8.GetBytes(RefTraversal.TextKey(k))).ToArray();
        int next = 0;
        long edges = 0;
        long allocated = GraphFixture.Measure(() =>
        {
            int s = next++ * 7 % g.Nodes.Count;
            if (text) sub.Execute(textKeys[s]);
            else sub.Execute(g.Nodes[s]);
            for (int e = 0; e < sub.EdgeCount; e++)
                if (sub.GetEdgeKindUtf8(e).Length > 0 && sub.GetEdgeWeight(e) >= 0) edges++;
        }, 200);
        allocated.Should().Be(0);
        edges.Should().BeGreaterThan(400);
    }

    [Fact]
    public void BadInputIsRefusedClearly()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k INTEGER PRIMARY KEY); CREATE TABLE e(a INTEGER, b INTEGER); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
        var graph = new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b"));
        var kind = () => graph.PrepareSubgraph(2, GraphDirection.Out, "x");
        kind.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.UnknownColumn);
        var hops = () => graph.PrepareSubgraph(-1);
        hops.Should().Throw<ArgumentOutOfRangeException>();
        using var sub = graph.PrepareSubgraph(1);
        var textKey = () => sub.Execute("a");
        textKey.Should().Throw<GraphKeyTypeException>();
        sub.Execute(7);
        sub.NodeCount.Should().Be(1, "a start needs no node row nor edges");
        sub.EdgeCount.Should().Be(0);
        var edge = () => sub.GetEdgeRowId(0);
        edge.Should().Throw<ArgumentOutOfRangeException>();
    }
}
