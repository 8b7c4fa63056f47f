using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// Sequential scan of the 5,000-row, 9-column users table: every column (Scan9) and a 3-column numeric projection
/// (Scan3), from the file and from the same image in memory. Text is read as .NET strings on both sides; the
/// extra Sharc row <c>SharcScan9Utf8</c> reads it as UTF-8 spans (no string allocated), which SQLite's ADO.NET
/// provider cannot do.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ScanBenchmarks
{
    private SqliteConnection _conn = null!;
    private SqliteCommand _all = null!;
    private SqliteCommand _three = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _allReader = null!;
    private PreparedReader _threeReader = null!;

    [Params(StorageKind.File, StorageKind.Memory)]
    public StorageKind Storage { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, Storage);
        _all = Engines.Prepare(_conn, "SELECT id, name, email, age, score, active, city, bio, created FROM users");
        _three = Engines.Prepare(_conn, "SELECT id, age, score FROM users");
        _db = Engines.OpenSharc(path, Storage);
        _allReader = _db.PrepareReader("users", UsersData.Columns);
        _threeReader = _db.PrepareReader("users", "id", "age", "score");
        Verify.Same("scan of all 9 columns", ("SqliteScan9", SqliteScan9()), ("SharcScan9", SharcScan9()), ("SharcScan9Utf8", SharcScan9Utf8()));
        Verify.Same("scan of 3 columns", ("SqliteScan3", SqliteScan3()), ("SharcScan3", SharcScan3()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _allReader.Dispose();
        _threeReader.Dispose();
        _db.Dispose();
        _all.Dispose();
        _three.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Scan9")]
    public long SqliteScan9()
    {
        long sum = 0;
        using var r = _all.ExecuteReader();
        while (r.Read())
        {
            sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.IsDBNull(2) ? null : r.GetString(2)) + r.GetInt64(3)
                 + Mix.Of(r.GetDouble(4)) + r.GetInt64(5) + Mix.Of(r.GetString(6)) + Mix.Of(r.GetString(7)) + r.GetInt64(8);
        }
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Scan9")]
    public long SharcScan9()
    {
        long sum = 0;
        var r = _allReader;
        r.Reset();
        while (r.Read())
        {
            sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetString(2)) + r.GetInt64(3)
                 + Mix.Of(r.GetDouble(4)) + r.GetInt64(5) + Mix.Of(r.GetString(6)) + Mix.Of(r.GetString(7)) + r.GetInt64(8);
        }
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Scan9")]
    public long SharcScan9Utf8()
    {
        long sum = 0;
        var r = _allReader;
        r.Reset();
        while (r.Read())
        {
            sum += r.GetInt64(0) + Mix.Of(r.GetUtf8Span(1)) + Mix.Of(r.GetUtf8Span(2), r.IsNull(2)) + r.GetInt64(3)
                 + Mix.Of(r.GetDouble(4)) + r.GetInt64(5) + Mix.Of(r.GetUtf8Span(6)) + Mix.Of(r.GetUtf8Span(7)) + r.GetInt64(8);
        }
        return sum;
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Scan3")]
    public long SqliteScan3()
    {
        long sum = 0;
        using var r = _three.ExecuteReader();
        while (r.Read()) sum += r.GetInt64(0) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Scan3")]
    public long SharcScan3()
    {
        long sum = 0;
        var r = _threeReader;
        r.Reset();
        while (r.Read()) sum += r.GetInt64(0) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }
}
