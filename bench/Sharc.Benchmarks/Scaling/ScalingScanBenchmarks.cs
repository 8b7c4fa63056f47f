using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Scaling;

/// <summary>
/// Full scan of (id, age, score) at 10K, 100K, 1M and 10M rows (times per scan). Each database is built once and cached
/// (see <see cref="UsersData"/>). Both engines use their default page caches (SQLite about 2 MiB, Sharc 2,000
/// pages), so at 1M rows neither holds the table in its own cache and both read through the OS page cache.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ScalingScanBenchmarks
{
    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;

    [ParamsSource(nameof(RowCounts))]
    public int Rows { get; set; }

    /// <summary>10K, 100K, 1M and 10M rows unless overridden (<see cref="ScalingRows"/>).</summary>
    public static IEnumerable<int> RowCounts => ScalingRows.Counts;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Plain, Rows);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _cmd = Engines.Prepare(_conn, "SELECT id, age, score FROM users");
        _db = Engines.OpenSharc(path, StorageKind.File);
        _reader = _db.PrepareReader("users", "id", "age", "score");
        Verify.Same($"scan of {Rows} rows", ("SqliteScan", SqliteScan()), ("SharcScan", SharcScan()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _reader.Dispose();
        _db.Dispose();
        _cmd.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Scan")]
    public long SqliteScan()
    {
        long sum = 0;
        using var r = _cmd.ExecuteReader();
        while (r.Read()) sum += r.GetInt64(0) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Scan")]
    public long SharcScan()
    {
        long sum = 0;
        var r = _reader;
        r.Reset();
        while (r.Read()) sum += r.GetInt64(0) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }
}
