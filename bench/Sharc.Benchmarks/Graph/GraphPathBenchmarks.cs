using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Sharc.Benchmarks.Fixtures;
using Sharc.Graph;

namespace Sharc.Benchmarks.Graph;

/// <summary>
/// Fewest-hops path along outgoing edges between one seeded random pair of connected nodes per <see cref="Pair"/>,
/// per search; the figure is the median over the pairs (read it across the Pair rows). SQLite: the same
/// bidirectional BFS as an application loop over prepared edge queries (<see cref="SqliteTraversal.FewestHops"/>,
/// the tuned connection). Sharc: <see cref="PreparedShortestPath.TryFindFewestHops(long, long)"/>. Setup checks both
/// find the same number of hops. Category <c>FewestHops</c> runs both engines with their default page caches
/// (SQLite 2,000 KiB, Sharc 2,000 pages), so on the 1M-node file most expansions miss the cache and read from the OS;
/// <c>FewestHopsCached</c> gives each a cache larger than the file (SQLite <c>cache_size</c> −640,000 KiB, Sharc
/// <see cref="SharcOpenOptions.CachePages"/> 160,000 pages of 4 KiB), so after warm-up both work from memory.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class GraphPathBenchmarks
{
    private const int PairCount = 5;

    [Params(GraphSize.N50K, GraphSize.N1M)]
    public GraphSize Size { get; set; }

    [ParamsSource(nameof(Pairs))]
    public int Pair { get; set; }

    /// <summary>The pair numbers 0…4.</summary>
    public static IEnumerable<int> Pairs => Enumerable.Range(0, PairCount);

    private Microsoft.Data.Sqlite.SqliteConnection _conn = null!;
    private SqliteTraversal _loop = null!;
    private SharcDatabase _db = null!;
    private PreparedShortestPath _search = null!;
    private Microsoft.Data.Sqlite.SqliteConnection _connCached = null!;
    private SqliteTraversal _loopCached = null!;
    private SharcDatabase _dbCached = null!;
    private PreparedShortestPath _searchCached = null!;
    private long _from, _to;

    [GlobalSetup]
    public void Setup()
    {
        string path = GraphData.Path(Size);
        _conn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _loop = new SqliteTraversal(_conn);
        // SQLite's connections are in exclusive locking mode; Sharc's read without a SHARED lock per search likewise.
        _db = SharcDatabase.Open(path, new SharcOpenOptions { ReadLocking = false });
        _search = new SharcGraph(_db).PrepareShortestPath(GraphDirection.Out);

        // Pairs are drawn from the seed until PairCount connected ones are found; every process draws the same ones.
        var rng = new Random(Keys.Seed);
        int nodes = GraphData.Shape(Size).Nodes, found = -1;
        while (found < Pair)
        {
            _from = rng.NextInt64(nodes);
            _to = rng.NextInt64(nodes);
            if (_from != _to && _search.TryFindFewestHops(_from, _to)) found++;
        }
        _connCached = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        Engines.Scalar(_connCached, "PRAGMA cache_size = -640000");
        _loopCached = new SqliteTraversal(_connCached);
        _dbCached = SharcDatabase.Open(path, new SharcOpenOptions { CachePages = 160_000, ReadLocking = false });
        _searchCached = new SharcGraph(_dbCached).PrepareShortestPath(GraphDirection.Out);
        Verify.Same($"path {_from} → {_to}", ("SqliteFewestHops", SqliteFewestHops()), ("SharcFewestHops", SharcFewestHops()),
            ("SqliteFewestHopsCached", SqliteFewestHopsCached()), ("SharcFewestHopsCached", SharcFewestHopsCached()));
        Console.WriteLine($"// pair {Pair}: {_from} → {_to}, {SharcFewestHops()} hops");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _search.Dispose();
        _db.Dispose();
        _loop.Dispose();
        _conn.Dispose();
        _searchCached.Dispose();
        _dbCached.Dispose();
        _loopCached.Dispose();
        _connCached.Dispose();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("FewestHops")]
    public int SqliteFewestHops() => _loop.FewestHops(_from, _to);

    [Benchmark]
    [BenchmarkCategory("FewestHops")]
    public int SharcFewestHops() => _search.TryFindFewestHops(_from, _to) ? _search.Hops : -1;

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("FewestHopsCached")]
    public int SqliteFewestHopsCached() => _loopCached.FewestHops(_from, _to);

    [Benchmark]
    [BenchmarkCategory("FewestHopsCached")]
    public int SharcFewestHopsCached() => _searchCached.TryFindFewestHops(_from, _to) ? _searchCached.Hops : -1;
}
