using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;
using Sharc.Graph;

namespace Sharc.Benchmarks.Graph;

/// <summary>
/// PageRank, 20 iterations (no early stop), over the whole graph, per computation; also split into loading the graph
/// and iterating over what was loaded. Sharc: <see cref="SharcGraph.LoadSnapshot"/> then
/// <see cref="GraphSnapshot.PageRank"/>. SQLite: the node keys and the edge rows read into arrays through two prepared
/// statements, then <see cref="SqliteAdjacency"/>'s power iteration (the same formula, written plainly). Setup checks
/// that both give every node the same rank within 1e-9.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class GraphPageRankBenchmarks
{
    private const int Iterations = 20;
    private static readonly PageRankOptions Options = new() { MaxIterations = Iterations, Tolerance = 0 };

    [Params(GraphSize.N5K, GraphSize.N50K)]
    public GraphSize Size { get; set; }

    private SqliteConnection _conn = null!;
    private SqliteAdjacency _sqlite = null!;
    private SharcDatabase _db = null!;
    private SharcGraph _graph = null!;
    private SqliteAdjacency.Loaded _sqliteLoaded;
    private GraphSnapshot _snapshot = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = GraphData.Path(Size);
        _conn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _sqlite = new SqliteAdjacency(_conn);
        _db = Engines.OpenSharc(path, StorageKind.File);
        _graph = new SharcGraph(_db);
        _sqliteLoaded = _sqlite.Load();
        _snapshot = _graph.LoadSnapshot();

        var (nodes, edges) = GraphData.Shape(Size);
        Verify.That(_sqliteLoaded.Keys.Length == nodes && _sqliteLoaded.Sources.Length == edges
                    && _snapshot.NodeCount == nodes && _snapshot.EdgeCount == edges,
            $"PageRank: graph sizes differ (SQLite {_sqliteLoaded.Keys.Length} / {_sqliteLoaded.Sources.Length}, Sharc {_snapshot.NodeCount} / {_snapshot.EdgeCount})");
        // Every node's rank, matched by key, before anything is measured.
        var expected = SqliteAdjacency.Iterate(_sqliteLoaded, Options.Damping, Iterations);
        var actual = _snapshot.PageRank(Options);
        Verify.That(actual.Iterations == Iterations, $"PageRank: Sharc ran {actual.Iterations} iterations");
        var byKey = new Dictionary<long, int>(_sqliteLoaded.Keys.Length);
        for (int i = 0; i < _sqliteLoaded.Keys.Length; i++) byKey.Add(_sqliteLoaded.Keys[i], i);
        double worst = 0;
        for (int v = 0; v < _snapshot.NodeCount; v++)
            worst = Math.Max(worst, Math.Abs(actual.Ranks[v] - expected[byKey[_snapshot.GetKeyInt64(v)]]));
        Verify.That(worst <= 1e-9, $"PageRank: ranks differ by up to {worst}");
        Verify.That(SqlitePageRank() > 0 && SharcPageRank() > 0, "PageRank: no rank");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _db.Dispose();
        _sqlite.Dispose();
        _conn.Dispose();
    }

    /// <summary>The whole computation, from the file: load and 20 iterations.</summary>
    [Benchmark(Baseline = true)]
    [BenchmarkCategory("PageRank")]
    public double SqlitePageRank() => SqliteAdjacency.Iterate(_sqlite.Load(), Options.Damping, Iterations)[0];

    [Benchmark]
    [BenchmarkCategory("PageRank")]
    public double SharcPageRank() => _graph.LoadSnapshot().PageRank(Options).Ranks[0];

    /// <summary>Loading only: the two queries into arrays, against building the snapshot.</summary>
    [Benchmark(Baseline = true)]
    [BenchmarkCategory("PageRankLoad")]
    public int SqliteLoad() => _sqlite.Load().Sources.Length;

    [Benchmark]
    [BenchmarkCategory("PageRankLoad")]
    public int SharcLoadSnapshot() => _graph.LoadSnapshot().EdgeCount;

    /// <summary>Iterating only, over what was loaded in setup.</summary>
    [Benchmark(Baseline = true)]
    [BenchmarkCategory("PageRankIterate")]
    public double SqliteIterate() => SqliteAdjacency.Iterate(_sqliteLoaded, Options.Damping, Iterations)[0];

    [Benchmark]
    [BenchmarkCategory("PageRankIterate")]
    public double SharcIterate() => _snapshot.PageRank(Options).Ranks[0];
}
