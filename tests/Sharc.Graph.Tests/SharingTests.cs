namespace Sharc.Graph.Tests;

public class SharingTests
{
    [Fact]
    public void ThreadsWithTheirOwnTraversalsOnOneDatabaseAgreeWithTheReference()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 60, graphs: 10, maxNodes: 300, edgesPerNode: 1.5);
        using var db = SharcDatabase.Open(path);
        var graph = new SharcGraph(db);
        var adjacency = g.Adjacency(GraphDirection.Out, null);
        var mismatches = new System.Collections.Concurrent.ConcurrentBag<long>();
        Parallel.For(0, 4, new ParallelOptions { MaxDegreeOfParallelism = 4 }, t =>
        {
            using var bfs = graph.PrepareBfs();
            for (int i = t; i < g.Nodes.Count; i += 4)
            {
                long start = g.Nodes[i];
                bfs.Execute(start);
                var got = Enumerable.Range(0, bfs.VisitedCount).ToDictionary(bfs.GetKeyInt64, bfs.GetDepth);
                var expected = RefGraph.Distances(adjacency, start);
                if (got.Count != expected.Count || got.Any(kv => expected.GetValueOrDefault(kv.Key, -1) != kv.Value)) mismatches.Add(start);
            }
        });
        mismatches.Should().BeEmpty();
    }
}
