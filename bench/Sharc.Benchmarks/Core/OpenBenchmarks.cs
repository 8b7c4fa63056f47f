using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// Engine open + header read, closed again each time. SQLite: a new connection (no pooling, so the file really
/// is opened), then <c>PRAGMA page_size</c> (the first statement reads the header and the schema). A second SQLite
/// row uses Microsoft.Data.Sqlite's default connection pool, which hands back an already-open handle. Sharc:
/// <see cref="SharcDatabase.Open"/>, which reads page 1 only (the schema is read at first use), then PageSize.
/// The OpenReadClose rows also read one row by key (<see cref="OpenReadClose"/>) before closing, so the schema is
/// read too: the unpooled SQLite open is the baseline, the pooled one what SQLite users usually get.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class OpenBenchmarks
{
    private string _path = null!;
    private string _unpooled = null!;
    private string _pooled = null!;

    [GlobalSetup]
    public void Setup()
    {
        _path = UsersData.Path(UsersShape.Core);
        _unpooled = Engines.FileConnectionString(_path);
        _pooled = Engines.FileConnectionString(_path, pooling: true);
        Verify.Same("page size", ("SqliteOpen", SqliteOpen()), ("SqliteOpenPooled", SqliteOpenPooled()), ("SharcOpen", SharcOpen()));
        Verify.Same("open, read one row, close", ("SqliteOpenReadClose", SqliteOpenReadClose()),
            ("SqliteOpenReadClosePooled", SqliteOpenReadClosePooled()), ("SharcOpenReadClose", SharcOpenReadClose()));
    }

    private const long Key = UsersData.CoreRows / 2;

    [GlobalCleanup]
    public void Cleanup() => SqliteConnection.ClearAllPools();

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Open")]
    public long SqliteOpen() => OpenAndReadPageSize(_unpooled);

    [Benchmark]
    [BenchmarkCategory("Open")]
    public long SqliteOpenPooled() => OpenAndReadPageSize(_pooled);

    [Benchmark]
    [BenchmarkCategory("Open")]
    public long SharcOpen()
    {
        using var db = SharcDatabase.Open(_path);
        return db.PageSize;
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("OpenReadClose")]
    public long SqliteOpenReadClose() => OpenReadClose.Sqlite(_unpooled, Key);

    [Benchmark]
    [BenchmarkCategory("OpenReadClose")]
    public long SqliteOpenReadClosePooled() => OpenReadClose.Sqlite(_pooled, Key);

    [Benchmark]
    [BenchmarkCategory("OpenReadClose")]
    public long SharcOpenReadClose() => OpenReadClose.Sharc(_path, Key);

    private static long OpenAndReadPageSize(string connectionString)
    {
        using var conn = new SqliteConnection(connectionString);
        conn.Open();
        // A command cannot outlive its connection, so this one is created per open (unavoidable here).
        using var cmd = conn.CreateCommand();
        cmd.CommandText = "PRAGMA page_size";
        return (long)cmd.ExecuteScalar()!;
    }
}
