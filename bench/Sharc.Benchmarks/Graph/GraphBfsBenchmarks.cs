using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;
using Sharc.Graph;

namespace Sharc.Benchmarks.Graph;

/// <summary>The depth-bounded traversals the issue targets: a size and a depth.</summary>
public enum BfsCase
{
    /// <summary>2 hops out on 5,000 nodes / 15,000 edges (about 13 nodes reached).</summary>
    TwoHop5K,
    /// <summary>6 hops out on 50,000 nodes / 150,000 edges (about 1,000 nodes reached).</summary>
    SixHop50K,
}

/// <summary>
/// Breadth-first traversal along outgoing edges to a depth, from seeded random start nodes, per traversal; each
/// returns the set of nodes reached (count and key sum are checked equal across engines). SQLite twice: a recursive
/// CTE in its fastest form (one prepared statement; <c>UNION</c> over (key, depth) keeps the visited set, the
/// recursive step a covering-index join), the baseline; and an application loop over a prepared edge query with a
/// managed visited set (<see cref="SqliteTraversal.Bfs"/>). Sharc: <see cref="PreparedBfs.Execute(long)"/> with
/// MaxDepth, reading every reached key — the target row. <c>SharcSnapshotBfs</c> is an extra, not the target: the same
/// traversal over an in-memory adjacency snapshot (<see cref="GraphSnapshot.PrepareBfs"/>) loaded once in setup, for
/// traversals repeated many times; its load is not in the row (see PageRankLoad for what a load costs).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class GraphBfsBenchmarks
{
    private const int Starts = 16;

    /// <summary>
    /// The depth column is what bounds the walk, so UNION removes repeated (key, depth) pairs only; DISTINCT makes the
    /// answer the set of nodes reached, as the other engines return it.
    /// </summary>
    private const string CteSql =
        "WITH RECURSIVE reach(k, d) AS (SELECT $start, 0 UNION SELECT r.target_key, reach.d + 1 FROM reach JOIN _relations r ON r.source_key = reach.k WHERE reach.d < $max) " +
        "SELECT DISTINCT k FROM reach";

    [Params(BfsCase.TwoHop5K, BfsCase.SixHop50K)]
    public BfsCase Case { get; set; }

    private SqliteConnection _conn = null!;
    private SqliteCommand _cte = null!;
    private SqliteTraversal _loop = null!;
    private SharcDatabase _db = null!;
    private PreparedBfs _bfs = null!;
    private GraphSnapshot _snapshot = null!;
    private SnapshotBfs _snapshotBfs = null!;
    private int[] _startNodes = null!;
    private long[] _starts = null!;
    private int _maxDepth;

    [GlobalSetup]
    public void Setup()
    {
        var size = Case == BfsCase.TwoHop5K ? GraphSize.N5K : GraphSize.N50K;
        _maxDepth = Case == BfsCase.TwoHop5K ? 2 : 6;
        string path = GraphData.Path(size);
        _conn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _cte = Engines.Prepare(_conn, CteSql, ("$start", SqliteType.Integer), ("$max", SqliteType.Integer));
        Engines.RequirePlan(_conn, CteSql, "COVERING INDEX _relations_out", ("$start", 1L), ("$max", 2L));
        _loop = new SqliteTraversal(_conn);
        // SQLite's connection is in exclusive locking mode (no lock per statement); Sharc's likewise reads without a
        // SHARED lock per traversal (ReadLocking = false), as the Query suite's "neither locking" rows do.
        _db = SharcDatabase.Open(path, new SharcOpenOptions { ReadLocking = false });
        _bfs = new SharcGraph(_db).PrepareBfs(new BfsOptions { Direction = GraphDirection.Out, MaxDepth = _maxDepth });
        _starts = Keys.Random(Starts, 0, GraphData.Shape(size).Nodes - 1);
        _snapshot = new SharcGraph(_db).LoadSnapshot();
        _snapshotBfs = _snapshot.PrepareBfs(GraphDirection.Out, _maxDepth);
        _startNodes = _starts.Select(s => _snapshot.TryGetNode(s, out int node) ? node : throw new InvalidOperationException($"start {s} is not in the snapshot")).ToArray();

        // The same reach set from every engine, start by start (count and key sum), before anything is measured.
        foreach (long s in _starts)
        {
            var sharc = SharcOne(s);
            Verify.That(sharc == CteOne(s) && sharc == _loop.Bfs(s, _maxDepth),
                $"BFS from {s}: engines disagree (Sharc {sharc}, CTE {CteOne(s)}, loop {_loop.Bfs(s, _maxDepth)})");
        }
        Verify.Same("BFS", ("SqliteCte", SqliteCte()), ("SqliteLoop", SqliteLoop()), ("SharcBfs", SharcBfs()), ("SharcSnapshotBfs", SharcSnapshotBfs()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _bfs.Dispose();
        _db.Dispose();
        _loop.Dispose();
        _cte.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Starts)]
    [BenchmarkCategory("Bfs")]
    public long SqliteCte()
    {
        long sum = 0;
        foreach (long s in _starts) sum += Fold(CteOne(s));
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Starts)]
    [BenchmarkCategory("Bfs")]
    public long SqliteLoop()
    {
        long sum = 0;
        foreach (long s in _starts) sum += Fold(_loop.Bfs(s, _maxDepth));
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Starts)]
    [BenchmarkCategory("Bfs")]
    public long SharcBfs()
    {
        long sum = 0;
        foreach (long s in _starts) sum += Fold(SharcOne(s));
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Starts)]
    [BenchmarkCategory("Bfs")]
    public long SharcSnapshotBfs()
    {
        long sum = 0;
        var bfs = _snapshotBfs;
        foreach (int start in _startNodes)
        {
            int count = bfs.Execute(start);
            long keys = 0;
            for (int v = 0; v < count; v++) keys += _snapshot.GetKeyInt64(bfs.GetNode(v));
            sum += Fold((count, keys));
        }
        return sum;
    }

    private static long Fold((int Count, long KeySum) r) => r.Count * 1_000_003L + r.KeySum;

    private (int, long) CteOne(long start)
    {
        _cte.Parameters[0].Value = start;
        _cte.Parameters[1].Value = (long)_maxDepth;
        int count = 0;
        long sum = 0;
        using var r = _cte.ExecuteReader();
        while (r.Read())
        {
            count++;
            sum += r.GetInt64(0);
        }
        return (count, sum);
    }

    private (int, long) SharcOne(long start)
    {
        var bfs = _bfs;
        bfs.Execute(start);
        long sum = 0;
        for (int v = 0; v < bfs.VisitedCount; v++) sum += bfs.GetKeyInt64(v);
        return (bfs.VisitedCount, sum);
    }
}
