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

/// <summary>
/// A traversal reads one commit: a chain whose head node is moved to its tail in every commit (its two edges
/// deleted, two others added) is walked by traversals on other threads while a writer thread commits. A traversal
/// that read the root's edges before a commit and the next node's after it would stop at the moved node.
/// </summary>
public class ConsistentTraversalTests
{
    private const int Chain = 30;

    private static SharcDatabase CreateChain(TempDir dir, SharcJournalMode mode)
    {
        string path = dir.File($"chain-{mode}.db");
        using (var create = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = mode }))
        {
            create.Execute(GraphSchema.DefaultLayoutSql);
            using var tx = create.BeginTransaction();
            for (long i = 0; i < Chain; i++) create.Execute("INSERT INTO _concepts(key) VALUES (?1)", i);
            for (long i = 0; i + 1 < Chain; i++) create.Execute("INSERT INTO _relations(source_key, target_key) VALUES (?1, ?2)", i, i + 1);
            tx.Commit();
        }
        return SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void Traversals_on_other_threads_see_every_commit_whole(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        using var db = CreateChain(dir, mode);
        var graph = new SharcGraph(db);
        var failures = new System.Collections.Concurrent.ConcurrentQueue<string>();
        int writing = 1;
        long traversals = 0;

        var writer = new Thread(() =>
        {
            try
            {
                var order = new LinkedList<long>(Enumerable.Range(1, Chain - 1).Select(i => (long)i));
                for (int round = 0; round < 300; round++)
                {
                    long moved = order.First!.Value, next = order.First.Next!.Value, tail = order.Last!.Value;
                    using var tx = db.BeginTransaction();
                    db.Execute("DELETE FROM _relations WHERE source_key IN (0, ?1)", moved);
                    db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (0, ?1), (?2, ?3)", next, tail, moved);
                    tx.Commit();
                    order.RemoveFirst();
                    order.AddLast(moved);
                }
            }
            catch (Exception e)
            {
                failures.Enqueue($"writer: {e}");
            }
            finally
            {
                Volatile.Write(ref writing, 0);
            }
        });
        var readers = Enumerable.Range(0, 2).Select(r => new Thread(() =>
        {
            using var bfs = graph.PrepareBfs();
            using var subgraph = graph.PrepareSubgraph(Chain);
            try
            {
                while (Volatile.Read(ref writing) == 1)
                {
                    bfs.Execute(0L);
                    if (bfs.VisitedCount != Chain) failures.Enqueue($"a BFS reached {bfs.VisitedCount} of {Chain} nodes");
                    subgraph.Execute(0L);
                    if (subgraph.NodeCount != Chain || subgraph.EdgeCount != Chain - 1)
                        failures.Enqueue($"a subgraph had {subgraph.NodeCount} nodes and {subgraph.EdgeCount} edges");
                    // The tail is the node at depth Chain - 1 in the BFS's commit; a later commit may have moved it.
                    Interlocked.Increment(ref traversals);
                }
            }
            catch (Exception e)
            {
                failures.Enqueue($"reader {r}: {e}");
            }
        })).ToList();
        writer.Start();
        readers.ForEach(t => t.Start());
        writer.Join();
        readers.ForEach(t => t.Join());

        failures.Should().BeEmpty();
        traversals.Should().BeGreaterThan(0);
    }

    [Fact]
    public void A_shortest_path_search_reads_one_commit()
    {
        using var dir = new TempDir();
        using var db = CreateChain(dir, SharcJournalMode.Wal);
        var graph = new SharcGraph(db);
        using var path = graph.PrepareShortestPath();
        path.TryFindFewestHops(0L, Chain - 1).Should().BeTrue();
        path.Hops.Should().Be(Chain - 1);
        // The search released its commit: the next one reads the latest.
        db.Execute("DELETE FROM _relations WHERE target_key = ?1", (long)(Chain - 1));
        path.TryFindFewestHops(0L, Chain - 1).Should().BeFalse();
    }
}
