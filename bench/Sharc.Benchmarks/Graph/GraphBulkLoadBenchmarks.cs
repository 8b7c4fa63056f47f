using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;
using Sharc.Graph;

namespace Sharc.Benchmarks.Graph;

/// <summary>
/// Loading 10,000 nodes and 100,000 edges (<see cref="GraphData"/>'s generator, held in arrays) into a new file in one
/// transaction, per load. Creating the file and its default layout (<see cref="GraphSchema.DefaultLayoutSql"/>) is part
/// of each operation on both sides; [IterationSetup] only deletes the previous iteration's files (each load takes
/// well over 100 ms, so one operation per iteration is measurable). Same durability as the Writes suite: rollback
/// journal (journal_mode=DELETE) and synchronous=FULL on SQLite, which Sharc always does.
/// Sharc: <see cref="GraphWriter.BulkLoad"/> (which orders the edges by source itself), and with
/// <c>rebuildIndexes: true</c>. SQLite: prepared inserts in the input order, with the indexes in place — and, as the
/// twin of the rebuild, with the edge indexes created after the rows (SQLite's own fastest way to load).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class GraphBulkLoadBenchmarks
{
    private const int NodeCount = 10_000, EdgeCount = 100_000;

    private GraphNodeRecord[] _nodes = null!;
    private GraphEdgeRecord[] _edges = null!;
    private string _sqlitePath = null!, _sharcPath = null!;

    [GlobalSetup]
    public void Setup()
    {
        _nodes = GraphData.Nodes(NodeCount).ToArray();
        _edges = GraphData.Edges(NodeCount, EdgeCount).ToArray();
        string dir = Path.Combine(UsersData.Folder, "graph-bulk-" + Environment.ProcessId);
        Directory.CreateDirectory(dir);
        _sqlitePath = Path.Combine(dir, "sqlite.db");
        _sharcPath = Path.Combine(dir, "sharc.db");

        // Each load once, every file checked against the input before anything is measured.
        long sourceSum = _edges.Sum(e => e.Source.Int64), targetSum = _edges.Sum(e => e.Target.Int64);
        var expected = $"{NodeCount} {EdgeCount} {sourceSum} {targetSum} ok";
        foreach (var (name, load) in new (string, Action)[]
                 {
                     ("SqliteBulkLoad", SqliteBulkLoad), ("SharcBulkLoad", SharcBulkLoad),
                     ("SqliteBulkLoadIndexesAfter", SqliteBulkLoadIndexesAfter), ("SharcBulkLoadRebuild", SharcBulkLoadRebuild),
                 })
        {
            DeleteFiles();
            load();
            string written = Summary(name.StartsWith("Sqlite", StringComparison.Ordinal) ? _sqlitePath : _sharcPath);
            Verify.That(written == expected, $"Bulk load: {name} wrote [{written}], expected [{expected}]");
        }
    }

    /// <summary>Row counts, the edge key sums, the index count and SQLite's integrity_check of a written file.</summary>
    private static string Summary(string path)
    {
        using var conn = new SqliteConnection(Engines.FileConnectionString(path));
        conn.Open();
        string counts = $"{Engines.Scalar(conn, "SELECT count(*) FROM _concepts")} {Engines.Scalar(conn, "SELECT count(*) FROM _relations")} " +
                        $"{Engines.Scalar(conn, "SELECT sum(source_key) FROM _relations")} {Engines.Scalar(conn, "SELECT sum(target_key) FROM _relations")}";
        Verify.That(Convert.ToInt64(Engines.Scalar(conn, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")) == 2,
            $"Bulk load: {path} lacks the edge indexes");
        return $"{counts} {Engines.Scalar(conn, "PRAGMA integrity_check")}";
    }

    [IterationSetup]
    public void DeleteFiles()
    {
        foreach (string path in new[] { _sqlitePath, _sharcPath })
        {
            File.Delete(path);
            File.Delete(path + "-journal");
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        DeleteFiles();
        Directory.Delete(Path.GetDirectoryName(_sqlitePath)!);
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("BulkLoad")]
    public void SqliteBulkLoad() => SqliteLoad(indexesAfter: false);

    [Benchmark]
    [BenchmarkCategory("BulkLoad")]
    public void SharcBulkLoad() => SharcLoad(rebuildIndexes: false);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("BulkLoadRebuild")]
    public void SqliteBulkLoadIndexesAfter() => SqliteLoad(indexesAfter: true);

    [Benchmark]
    [BenchmarkCategory("BulkLoadRebuild")]
    public void SharcBulkLoadRebuild() => SharcLoad(rebuildIndexes: true);

    private void SharcLoad(bool rebuildIndexes)
    {
        using var db = SharcDatabase.Create(_sharcPath);
        GraphSchema.CreateDefault(db);
        using var writer = new SharcGraph(db).CreateWriter();
        writer.BulkLoad(_nodes, _edges, rebuildIndexes);
    }

    private void SqliteLoad(bool indexesAfter)
    {
        using var conn = new SqliteConnection($"Data Source={_sqlitePath};Pooling=False");
        conn.Open();
        Exec(conn, null, "PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL");
        var statements = GraphSchema.DefaultLayoutSql.Split(";\n", StringSplitOptions.RemoveEmptyEntries);
        var tables = statements.Where(s => s.StartsWith("CREATE TABLE", StringComparison.Ordinal));
        var indexes = statements.Where(s => s.StartsWith("CREATE INDEX", StringComparison.Ordinal));
        // The layout is created in its own transaction, as GraphSchema.CreateDefault does for Sharc.
        Exec(conn, null, "BEGIN;\n" + string.Join(";\n", indexesAfter ? tables : statements) + ";\nCOMMIT;");
        using var tx = conn.BeginTransaction();
        using (var node = conn.CreateCommand())
        using (var edge = conn.CreateCommand())
        {
            node.Transaction = edge.Transaction = tx;
            node.CommandText = "INSERT INTO _concepts(key, kind) VALUES ($k, $kind)";
            var key = node.Parameters.Add("$k", SqliteType.Integer);
            var nodeKind = node.Parameters.Add("$kind", SqliteType.Text);
            node.Prepare();
            edge.CommandText = "INSERT INTO _relations(source_key, target_key, kind, weight) VALUES ($s, $t, $kind, $w)";
            var source = edge.Parameters.Add("$s", SqliteType.Integer);
            var target = edge.Parameters.Add("$t", SqliteType.Integer);
            var edgeKind = edge.Parameters.Add("$kind", SqliteType.Text);
            var weight = edge.Parameters.Add("$w", SqliteType.Real);
            edge.Prepare();
            foreach (var n in _nodes)
            {
                key.Value = n.Key.Int64;
                nodeKind.Value = n.Kind;
                node.ExecuteNonQuery();
            }
            foreach (var e in _edges)
            {
                source.Value = e.Source.Int64;
                target.Value = e.Target.Int64;
                edgeKind.Value = e.Kind;
                weight.Value = e.Weight;
                edge.ExecuteNonQuery();
            }
        }
        if (indexesAfter)
            foreach (string s in indexes) Exec(conn, tx, s);
        tx.Commit();
    }

    private static void Exec(SqliteConnection conn, SqliteTransaction? tx, string sql)
    {
        using var cmd = conn.CreateCommand();
        cmd.Transaction = tx;
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }
}
