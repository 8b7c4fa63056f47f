namespace Sharc.Graph.Tests;

public class SnapshotBfsTests
{
    [Theory]
    [InlineData(GraphDirection.Out, null, int.MaxValue)]
    [InlineData(GraphDirection.In, "knows", int.MaxValue)]
    [InlineData(GraphDirection.Both, null, 3)]
    [InlineData(GraphDirection.Out, "cites", 2)]
    [InlineData(GraphDirection.Out, null, 0)]
    public void ReachesWhatThePlainReferenceReachesAtTheSameDepthsWithRealParentEdges(GraphDirection direction, string? kind, int maxDepth)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 33, graphs: 30, maxNodes: 60, edgesPerNode: 1.5);
        using var db = SharcDatabase.Open(path);
        var snapshot = new SharcGraph(db).LoadSnapshot(kind);
        var bfs = snapshot.PrepareBfs(direction, maxDepth);
        foreach (long start in g.Nodes.Where((_, i) => i % 3 == 0))
        {
            snapshot.TryGetNode(start, out int node).Should().BeTrue();
            int count = bfs.Execute(node);
            var expected = g.Distances(start, direction, kind, maxDepth);
            var got = new Dictionary<long, int>();
            for (int v = 0; v < count; v++) got.Add(snapshot.GetKeyInt64(bfs.GetNode(v)), bfs.GetDepth(v));
            got.Should().BeEquivalentTo(expected);
            for (int v = 1; v < count; v++)
            {
                int p = bfs.GetParent(v);
                bfs.GetDepth(p).Should().Be(bfs.GetDepth(v) - 1);
                long from = snapshot.GetKeyInt64(bfs.GetNode(p)), to = snapshot.GetKeyInt64(bfs.GetNode(v));
                g.Around(from, direction, kind).Should().Contain(a => a.Neighbor == to);
            }
            bfs.GetParent(0).Should().Be(-1);
        }
    }

    [Fact]
    public void ReExecutionAllocatesNothingAndForgetsTheLastRun()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 8, graphs: 5, maxNodes: 200, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        var snapshot = new SharcGraph(db).LoadSnapshot();
        var bfs = snapshot.PrepareBfs(GraphDirection.Both);
        int next = 0;
        long visited = 0;
        long allocated = GraphFixture.Measure(() =>
        {
            visited += bfs.Execute(next++ % snapshot.NodeCount);
        }, 300);
        allocated.Should().Be(0);
        visited.Should().BeGreaterThan(300);
        // A run after many others sees only its own visits.
        snapshot.TryGetNode(g.Nodes[0], out int first).Should().BeTrue();
        bfs.Execute(first).Should().Be(g.Distances(g.Nodes[0], GraphDirection.Both, null).Count);
    }

    [Fact]
    public void BadNodeNumbersAndVisitsAreRefusedWithTheRange()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        GraphFixture.BuildRandom(path, seed: 2, graphs: 1, maxNodes: 10, edgesPerNode: 1);
        using var db = SharcDatabase.Open(path);
        var snapshot = new SharcGraph(db).LoadSnapshot();
        var bfs = snapshot.PrepareBfs();
        FluentActions.Invoking(() => bfs.Execute(snapshot.NodeCount)).Should().Throw<ArgumentOutOfRangeException>().WithMessage("*nodes*");
        FluentActions.Invoking(() => bfs.Execute(-1)).Should().Throw<ArgumentOutOfRangeException>();
        int count = bfs.Execute(0);
        FluentActions.Invoking(() => bfs.GetNode(count)).Should().Throw<ArgumentOutOfRangeException>().WithMessage($"*visited {count} nodes*");
        FluentActions.Invoking(() => snapshot.PrepareBfs(GraphDirection.Out, -1)).Should().Throw<ArgumentOutOfRangeException>();
    }
}
