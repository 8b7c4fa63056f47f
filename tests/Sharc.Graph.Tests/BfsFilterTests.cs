using System.Text;

namespace Sharc.Graph.Tests;

public class BfsFilterTests
{
    /// <summary>An edge rule touching every field a filter sees, so a wrong field changes the walk.</summary>
    private static bool EdgeRule(long neighbor, int fromDepth, double weight, long rowId, bool knows, GraphDirection dir)
        => fromDepth == 0 || (weight >= 2.5 && neighbor % 4 != 1 && !(dir == GraphDirection.In && weight > 8)) || (knows && rowId % 3 != 0);

    /// <summary>A node rule reading the node's row (its kind) as well as its key and depth.</summary>
    private static bool NodeRule(long key, int depth, bool paper) => !(paper && depth >= 2) && key % 11 != 5;

    private struct RuleEdges : IBfsEdgeFilter
    {
        public bool Text;
        public int Calls;

        public bool Follow(in BfsEdge edge)
        {
            Calls++;
            long neighbor = Text ? MappedGraphs.Number(edge.NeighborUtf8) : edge.NeighborInt64;
            return EdgeRule(neighbor, edge.FromDepth, edge.Weight, edge.RowId, edge.KindUtf8.SequenceEqual("knows"u8), edge.Direction);
        }
    }

    private struct RuleNodes : IBfsNodeFilter
    {
        public NodeCursor Nodes;
        public bool Text;
        public Dictionary<long, int>? Calls;

        public bool Visit(in BfsNode node)
        {
            long key = Text ? MappedGraphs.Number(node.KeyUtf8) : node.KeyInt64;
            if (Calls is not null) Calls[key] = Calls.GetValueOrDefault(key) + 1;
            bool found = Text ? Nodes.TrySeek(node.KeyUtf8) : Nodes.TrySeek(key);
            return NodeRule(key, node.Depth, found && Nodes.KindUtf8.SequenceEqual("paper"u8));
        }
    }

    public static TheoryData<bool, GraphDirection, string?, int, bool, bool> Cases()
    {
        var data = new TheoryData<bool, GraphDirection, string?, int, bool, bool>();
        data.Add(false, GraphDirection.Out, null, int.MaxValue, true, false);
        data.Add(false, GraphDirection.Both, null, int.MaxValue, false, true);
        data.Add(false, GraphDirection.In, "knows", 2, true, true);
        data.Add(false, GraphDirection.Both, null, 1, true, true);
        data.Add(false, GraphDirection.Out, "cites", 3, false, false);
        data.Add(true, GraphDirection.Out, null, 2, true, true);
        data.Add(true, GraphDirection.Both, "knows", int.MaxValue, true, true);
        data.Add(true, GraphDirection.In, null, 1, false, true);
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void FiltersAndFanOutCapWalkExactlyAsTheReference(bool text, GraphDirection direction, string? kind, int fanOut, bool filterEdges, bool filterNodes)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = MappedGraphs.Build(path, text, seed: 70 + fanOut % 7, graphs: 40, maxNodes: 50, edgesPerNode: 2, chain: 300);
        using var db = SharcDatabase.Open(path);
        var graph = new SharcGraph(db, MappedGraphs.Schema);
        using var bfs = graph.PrepareBfs(new BfsOptions { Direction = direction, Kind = kind, MaxDepth = 6, MaxEdgesPerNode = fanOut });
        using var nodes = graph.PrepareNodeLookup();
        var rng = new Random(3);
        for (int run = 0; run < 60; run++)
        {
            var starts = Enumerable.Range(0, 1 + run % 3).Select(_ => g.Nodes[rng.Next(g.Nodes.Count)]).ToList();
            if (run % 10 == 0) starts.Add(900_000);
            bfs.ClearStarts();
            foreach (long s in starts)
                if (text) bfs.AddStart(Encoding.UTF8.GetBytes(RefTraversal.TextKey(s)));
                else bfs.AddStart(s);
            var edgeFilter = new RuleEdges { Text = text };
            var nodeFilter = new RuleNodes { Nodes = nodes, Text = text, Calls = [] };
            if (filterEdges && filterNodes) bfs.Execute(ref edgeFilter, ref nodeFilter);
            else if (filterEdges)
            {
                var all = new VisitAllNodes();
                bfs.Execute(ref edgeFilter, ref all);
            }
            else if (filterNodes)
            {
                var all = new FollowAllEdges();
                bfs.Execute(ref all, ref nodeFilter);
            }
            else bfs.Execute();

            int edgeCalls = 0;
            var (expected, budgetHit) = g.Bfs(starts, direction, kind, text, maxDepth: 6, fanOut: fanOut,
                edgeFilter: filterEdges ? (from, depth, e, v, d) => { edgeCalls++; return EdgeRule(v, depth, e.Weight, e.Id, e.Kind == "knows", d); } : null,
                nodeFilter: filterNodes ? (key, depth) => NodeRule(key, depth, key % 2 == 1) : null);
            budgetHit.Should().BeFalse();
            Visits(bfs, text).Should().Equal(expected, $"run {run} from {string.Join(", ", starts)}");
            bfs.StopReason.Should().Be(StopReason.Completed);
            edgeFilter.Calls.Should().Be(edgeCalls, "the edge filter is asked once per edge read, and the caller sees the filter's state");
            if (filterNodes) nodeFilter.Calls!.Values.Should().NotBeEmpty().And.OnlyContain(n => n == 1, "the node filter is asked once per key");
            else nodeFilter.Calls.Should().BeEmpty();
        }
    }

    public static List<RefVisit> Visits(PreparedBfs bfs, bool text)
        => Enumerable.Range(0, bfs.VisitedCount).Select(v =>
        {
            bfs.TryGetParent(v, out int p, out long e);
            return new RefVisit(text ? MappedGraphs.Number(bfs.GetKeyUtf8(v)) : bfs.GetKeyInt64(v), bfs.GetDepth(v), p, e);
        }).ToList();

    [Fact]
    public void RefusedStartNodeIsNotVisitedButOtherStartsAre()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (1, 2), (2, 3), (5, 3), (3, 4)");
        using var bfs = new SharcGraph(db).PrepareBfs();
        bfs.AddStart(1);
        bfs.AddStart(5);
        var edges = new FollowAllEdges();
        var nodes = new BfsNodePredicate(n => n.KeyInt64 != 1);
        bfs.Execute(ref edges, ref nodes);
        Enumerable.Range(0, bfs.VisitedCount).Select(bfs.GetKeyInt64).Should().Equal(5, 3, 4);
        bfs.GetDepth(2).Should().Be(2);
    }

    [Fact]
    public void DelegatePredicatesSeeTheSameAsStructFilters()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 14, graphs: 10, maxNodes: 80, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        using var bfs = new SharcGraph(db).PrepareBfs(new BfsOptions { Direction = GraphDirection.Both });
        // The filters also read the traversal's own visits so far, which they may.
        var edges = new BfsEdgePredicate(e => (e.Weight > 3 || e.Direction == GraphDirection.Out) && bfs.GetKeyInt64(e.FromVisit) % 7 != 2);
        var nodes = new BfsNodePredicate(n =>
        {
            if (n.Depth > 0 && (bfs.GetDepth(n.ParentVisit) != n.Depth - 1 || !Joins(g.ById[n.EdgeRowId], bfs.GetKeyInt64(n.ParentVisit), n.KeyInt64)))
                throw new InvalidOperationException($"node {n.KeyInt64} is shown a wrong parent");
            return n.KeyInt64 % 5 != 0 || n.Depth == 0;
        });
        foreach (long start in g.Nodes.Where((_, i) => i % 9 == 0))
        {
            bfs.AddStart(start);
            bfs.Execute(ref edges, ref nodes);
            bfs.ClearStarts();
            var (expected, _) = g.Bfs([start], GraphDirection.Both, null, textKeys: false,
                edgeFilter: (from, _, e, _, d) => (e.Weight > 3 || d == GraphDirection.Out) && from % 7 != 2, nodeFilter: (k, depth) => k % 5 != 0 || depth == 0);
            Visits(bfs, text: false).Should().Equal(expected);
        }
    }

    private static bool Joins(Edge e, long a, long b) => (e.Source == a && e.Target == b) || (e.Source == b && e.Target == a);

    private struct ReEntering(PreparedBfs bfs) : IBfsNodeFilter
    {
        public bool Visit(in BfsNode node)
        {
            bfs.Execute(node.KeyInt64);
            return true;
        }
    }

    [Fact]
    public void FilterThatRunsItsOwnTraversalAgainIsRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (1, 2), (2, 3)");
        using var bfs = new SharcGraph(db).PrepareBfs();
        bfs.AddStart(1);
        var edges = new FollowAllEdges();
        var nodes = new ReEntering(bfs);
        var act = () => bfs.Execute(ref edges, ref nodes);
        act.Should().Throw<InvalidOperationException>().WithMessage("*own filters*");
        bfs.Execute(1);
        bfs.VisitedCount.Should().Be(3, "the traversal is usable after the refused call");
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void FilteredTraversalFromStagedStartsAllocatesNothingAfterWarmUp(bool text)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = MappedGraphs.Build(path, text, seed: 90, graphs: 5, maxNodes: 400, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        var graph = new SharcGraph(db, MappedGraphs.Schema);
        using var bfs = graph.PrepareBfs(new BfsOptions { Direction = GraphDirection.Both, MaxDepth = 3, MaxEdgesPerNode = 20, TimeBudget = TimeSpan.FromHours(1) });
        using var nodes = graph.PrepareNodeLookup();
        byte[][] textKeys = g.Nodes.Select(k => Encoding.UTF8.GetBytes(RefTraversal.TextKey(k))).ToArray();
        var edgeFilter = new RuleEdges { Text = text };
        var nodeFilter = new RuleNodes { Nodes = nodes, Text = text };
        int next = 0;
        long visited = 0;
        long allocated = GraphFixture.Measure(() =>
        {
            bfs.ClearStarts();
            for (int i = 0; i < 3; i++)
            {
                int s = next++ % g.Nodes.Count;
                if (text) bfs.AddStart(textKeys[s]);
                else bfs.AddStart(g.Nodes[s]);
            }
            bfs.Execute(ref edgeFilter, ref nodeFilter);
            visited += bfs.ResultCount;
        }, 200);
        allocated.Should().Be(0);
        visited.Should().BeGreaterThan(600);
        edgeFilter.Calls.Should().BeGreaterThan(0);
    }

    [Fact]
    public void ManyTextStartsAreAllAtDepthZeroAndCountOnce()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = MappedGraphs.Build(path, text: true, seed: 5, graphs: 10, maxNodes: 30, edgesPerNode: 1);
        using var db = SharcDatabase.Open(path);
        using var bfs = new SharcGraph(db, MappedGraphs.Schema).PrepareBfs();
        long[] starts = [g.Nodes[0], g.Nodes[^1], g.Nodes[0], g.Nodes[g.Nodes.Count / 2]];
        foreach (long s in starts) bfs.AddStart(RefTraversal.TextKey(s));
        bfs.StartCount.Should().Be(3);
        bfs.Execute();
        var (expected, _) = g.Bfs(starts, GraphDirection.Out, null, textKeys: true);
        Visits(bfs, text: true).Should().Equal(expected);
        bfs.Execute();
        Visits(bfs, text: true).Should().Equal(expected, "staged starts stay for the next execution");
        var act = () => bfs.AddStart(5);
        act.Should().Throw<GraphKeyTypeException>();
    }
}
