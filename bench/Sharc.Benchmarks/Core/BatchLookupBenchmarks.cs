using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// A batch of 6 rowid lookups (fixed keys from the seed), reading name, age and score; times are per batch.
/// SQLite three ways: six executions of the prepared point query on the default connection, the same on the tuned
/// (locking_mode=EXCLUSIVE) connection — the baseline — and one prepared <c>WHERE id IN (…6 parameters…)</c>
/// statement on the default connection. Sharc: six <see cref="SharcDataReader.Seek"/> calls.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class BatchLookupBenchmarks
{
    private const int BatchSize = 6;
    private const string PointSql = "SELECT name, age, score FROM users WHERE id = $id";
    private const string InListSql = "SELECT name, age, score FROM users WHERE id IN ($k0, $k1, $k2, $k3, $k4, $k5)";

    private SqliteConnection _conn = null!;
    private SqliteConnection _exclusiveConn = null!;
    private SqliteCommand _point = null!;
    private SqliteCommand _exclusivePoint = null!;
    private SqliteCommand _inList = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;
    private long[] _keys = null!;

    [Params(StorageKind.File, StorageKind.Memory)]
    public StorageKind Storage { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, Storage);
        _exclusiveConn = Engines.OpenSqlite(path, Storage, SqliteLocking.Exclusive);
        _point = Engines.Prepare(_conn, PointSql, ("$id", SqliteType.Integer));
        _exclusivePoint = Engines.Prepare(_exclusiveConn, PointSql, ("$id", SqliteType.Integer));
        _inList = Engines.Prepare(_conn, InListSql,
            ("$k0", SqliteType.Integer), ("$k1", SqliteType.Integer), ("$k2", SqliteType.Integer),
            ("$k3", SqliteType.Integer), ("$k4", SqliteType.Integer), ("$k5", SqliteType.Integer));
        _db = Engines.OpenSharc(path, Storage);
        _reader = _db.PrepareReader("users", "name", "age", "score");
        _keys = Keys.Random(BatchSize, 1, UsersData.CoreRows);
        Verify.That(_keys.Distinct().Count() == BatchSize, "the batch keys must be distinct for the IN list to return six rows");
        Verify.Same("batch of 6 lookups", ("SqliteExclusiveBatch6", SqliteExclusiveBatch6()), ("SqliteBatch6", SqliteBatch6()),
            ("SqliteInListBatch6", SqliteInListBatch6()), ("SharcBatch6", SharcBatch6()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _reader.Dispose();
        _db.Dispose();
        _point.Dispose();
        _exclusivePoint.Dispose();
        _inList.Dispose();
        _conn.Dispose();
        _exclusiveConn.Dispose();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Batch6")]
    public long SqliteExclusiveBatch6() => PointLookupBenchmarks.SqliteLookups(_exclusivePoint, _keys);

    [Benchmark]
    [BenchmarkCategory("Batch6")]
    public long SqliteBatch6() => PointLookupBenchmarks.SqliteLookups(_point, _keys);

    [Benchmark]
    [BenchmarkCategory("Batch6")]
    public long SqliteInListBatch6()
    {
        var ps = _inList.Parameters;
        for (int i = 0; i < BatchSize; i++) ps[i].Value = _keys[i];
        long sum = 0;
        using var r = _inList.ExecuteReader();
        while (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Batch6")]
    public long SharcBatch6() => PointLookupBenchmarks.SharcLookups(_reader, _keys);
}
