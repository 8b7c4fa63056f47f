using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Core;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Scaling;

/// <summary>
/// The Core WHERE filter (<c>age &gt; 60</c>, returning id and score) at 10K, 100K, 1M and 10M rows (times per query):
/// SQLite's prepared query against a Sharc scan with the predicate in C#. No indexes.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ScalingFilterBenchmarks
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
        _cmd = Engines.Prepare(_conn, FilterBenchmarks.Sql, ("$age", SqliteType.Integer));
        Engines.RequirePlan(_conn, FilterBenchmarks.Sql, "SCAN users", ("$age", FilterBenchmarks.Threshold));
        _db = Engines.OpenSharc(path, StorageKind.File);
        _reader = _db.PrepareReader("users", "age", "id", "score");
        Verify.Same($"age > 60 over {Rows} rows", ("SqliteFilter", SqliteFilter()), ("SharcFilter", SharcFilter()));
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
    [BenchmarkCategory("Filter")]
    public long SqliteFilter() => FilterBenchmarks.SqliteFilter(_cmd, FilterBenchmarks.Threshold);

    [Benchmark]
    [BenchmarkCategory("Filter")]
    public long SharcFilter() => FilterBenchmarks.SharcFilter(_reader, FilterBenchmarks.Threshold);
}
