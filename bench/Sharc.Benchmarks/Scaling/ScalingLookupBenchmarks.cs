using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Core;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Scaling;

/// <summary>
/// Random rowid lookups (1,000 keys from the seed, reading name, age and score; times per lookup) at 10K, 100K, 1M
/// and 10M rows: deeper b-trees and, from 1M rows, page-cache misses on both sides. SQLite on the default connection and
/// on the tuned (locking_mode=EXCLUSIVE, the baseline) connection; Sharc with a prepared reader.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ScalingLookupBenchmarks
{
    private const int Lookups = 1000;
    private const string Sql = "SELECT name, age, score FROM users WHERE id = $id";

    private SqliteConnection _conn = null!;
    private SqliteConnection _exclusiveConn = null!;
    private SqliteCommand _cmd = null!;
    private SqliteCommand _exclusiveCmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;
    private long[] _keys = null!;

    [ParamsSource(nameof(RowCounts))]
    public int Rows { get; set; }

    /// <summary>10K, 100K, 1M and 10M rows unless overridden (<see cref="ScalingRows"/>).</summary>
    public static IEnumerable<int> RowCounts => ScalingRows.Counts;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Plain, Rows);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _exclusiveConn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _cmd = Engines.Prepare(_conn, Sql, ("$id", SqliteType.Integer));
        _exclusiveCmd = Engines.Prepare(_exclusiveConn, Sql, ("$id", SqliteType.Integer));
        _db = Engines.OpenSharc(path, StorageKind.File);
        _reader = _db.PrepareReader("users", "name", "age", "score");
        _keys = Keys.Random(Lookups, 1, Rows);
        Verify.Same($"random lookups over {Rows} rows", ("SqliteExclusiveLookup", SqliteExclusiveLookup()), ("SqliteLookup", SqliteLookup()),
            ("SharcLookup", SharcLookup()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _reader.Dispose();
        _db.Dispose();
        _cmd.Dispose();
        _exclusiveCmd.Dispose();
        _conn.Dispose();
        _exclusiveConn.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("RandomLookup")]
    public long SqliteExclusiveLookup() => PointLookupBenchmarks.SqliteLookups(_exclusiveCmd, _keys);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("RandomLookup")]
    public long SqliteLookup() => PointLookupBenchmarks.SqliteLookups(_cmd, _keys);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("RandomLookup")]
    public long SharcLookup() => PointLookupBenchmarks.SharcLookups(_reader, _keys);
}
