using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;
using Sharc.Graph;

namespace Sharc.Benchmarks.Graph;

/// <summary>
/// Point work on a graph, per lookup over 256 seeded random node keys. <c>NodeSeek</c>: find a node by key and read
/// its rowid (SQLite: prepared <c>SELECT id FROM _concepts WHERE key = $k</c>, served by the key's unique index;
/// Sharc: <see cref="NodeCursor.TrySeek(long)"/> + <see cref="NodeCursor.RowId"/>). <c>OneHop</c>: every outgoing
/// edge of a node, reading the neighbour and the edge rowid (SQLite: prepared
/// <c>SELECT target_key, id FROM _relations WHERE source_key = $k</c>, a covering-index range; Sharc:
/// <see cref="EdgeCursor"/> Reset + MoveNext). SQLite tuned (exclusive lock held, the baseline) and default; Sharc
/// opened with <c>ReadLocking = false</c>, the twin of the baseline.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class GraphLookupBenchmarks
{
    private const int Lookups = 256;
    private const string NodeSql = "SELECT id FROM _concepts WHERE key = $k";
    private const string EdgeSql = "SELECT target_key, id FROM _relations WHERE source_key = $k";

    [Params(GraphSize.N5K, GraphSize.N50K)]
    public GraphSize Size { get; set; }

    private SqliteConnection _conn = null!, _exclusiveConn = null!;
    private SqliteCommand _node = null!, _exclusiveNode = null!, _edges = null!, _exclusiveEdges = null!;
    private SharcDatabase _db = null!;
    private NodeCursor _nodeCursor = null!;
    private EdgeCursor _edgeCursor = null!;
    private long[] _keys = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = GraphData.Path(Size);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _exclusiveConn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _node = Engines.Prepare(_conn, NodeSql, ("$k", SqliteType.Integer));
        _exclusiveNode = Engines.Prepare(_exclusiveConn, NodeSql, ("$k", SqliteType.Integer));
        _edges = Engines.Prepare(_conn, EdgeSql, ("$k", SqliteType.Integer));
        _exclusiveEdges = Engines.Prepare(_exclusiveConn, EdgeSql, ("$k", SqliteType.Integer));
        Engines.RequirePlan(_conn, NodeSql, "INDEX sqlite_autoindex__concepts_1", ("$k", 1L));
        Engines.RequirePlan(_conn, EdgeSql, "COVERING INDEX _relations_out", ("$k", 1L));

        // The baseline holds SQLite's exclusive lock (no lock per statement); Sharc likewise reads without a SHARED
        // lock per seek (ReadLocking = false), as the BFS and path suites do.
        _db = SharcDatabase.Open(path, new SharcOpenOptions { ReadLocking = false });
        var graph = new SharcGraph(_db);
        _nodeCursor = graph.PrepareNodeLookup();
        _edgeCursor = graph.PrepareEdges(GraphDirection.Out);
        _keys = Keys.Random(Lookups, 0, GraphData.Shape(Size).Nodes - 1);

        Verify.Same("node seek", ("SqliteExclusiveNodeSeek", SqliteExclusiveNodeSeek()), ("SqliteNodeSeek", SqliteNodeSeek()), ("SharcNodeSeek", SharcNodeSeek()));
        Verify.Same("one hop", ("SqliteExclusiveOneHop", SqliteExclusiveOneHop()), ("SqliteOneHop", SqliteOneHop()), ("SharcOneHop", SharcOneHop()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _nodeCursor.Dispose();
        _edgeCursor.Dispose();
        _db.Dispose();
        foreach (var c in new[] { _node, _exclusiveNode, _edges, _exclusiveEdges }) c.Dispose();
        _conn.Dispose();
        _exclusiveConn.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("NodeSeek")]
    public long SqliteExclusiveNodeSeek() => SqliteRows(_exclusiveNode);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("NodeSeek")]
    public long SqliteNodeSeek() => SqliteRows(_node);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("NodeSeek")]
    public long SharcNodeSeek()
    {
        long sum = 0;
        var nodes = _nodeCursor;
        foreach (long k in _keys)
            if (nodes.TrySeek(k)) sum += nodes.RowId;
        return sum;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("OneHop")]
    public long SqliteExclusiveOneHop() => SqliteRows(_exclusiveEdges);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("OneHop")]
    public long SqliteOneHop() => SqliteRows(_edges);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("OneHop")]
    public long SharcOneHop()
    {
        long sum = 0;
        var edges = _edgeCursor;
        foreach (long k in _keys)
        {
            edges.Reset(k);
            while (edges.MoveNext()) sum += edges.NeighborInt64 + edges.EdgeRowId;
        }
        return sum;
    }

    /// <summary>Runs the command once per key and sums every column of every row.</summary>
    private long SqliteRows(SqliteCommand cmd)
    {
        long sum = 0;
        var p = cmd.Parameters[0];
        foreach (long k in _keys)
        {
            p.Value = k;
            using var r = cmd.ExecuteReader();
            while (r.Read())
                for (int i = 0; i < r.FieldCount; i++) sum += r.GetInt64(i);
        }
        return sum;
    }
}
