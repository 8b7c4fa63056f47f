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
/// find the same number of hops.
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
    private long _from, _to;

    [GlobalSetup]
    public void Setup()
    {
        string path = GraphData.Path(Size);
        _conn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _loop = new SqliteTraversal(_conn);
        _db = Engines.OpenSharc(path, StorageKind.File);
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
        Verify.Same($"path {_from} → {_to}", ("SqliteFewestHops", SqliteFewestHops()), ("SharcFewestHops", SharcFewestHops()));
        Console.WriteLine($"// pair {Pair}: {_from} → {_to}, {SharcFewestHops()} hops");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _search.Dispose();
        _db.Dispose();
        _loop.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("FewestHops")]
    public int SqliteFewestHops() => _loop.FewestHops(_from, _to);

    [Benchmark]
    [BenchmarkCategory("FewestHops")]
    public int SharcFewestHops() => _search.TryFindFewestHops(_from, _to) ? _search.Hops : -1;
}
