using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// Sustained scanning: 20 back-to-back full scans of (id, name, score) per invocation, as a service that scans
/// repeatedly would. Times and allocations are per scan; the Gen0/Gen1/Gen2 columns (collections per 1,000
/// scans) and Allocated show the garbage each engine leaves behind. Names are read as strings on both sides and,
/// in the extra Sharc row, as UTF-8 spans.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class GcPressureBenchmarks
{
    private const int Scans = 20;

    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _cmd = Engines.Prepare(_conn, "SELECT id, name, score FROM users");
        _db = Engines.OpenSharc(path, StorageKind.File);
        _reader = _db.PrepareReader("users", "id", "name", "score");
        Verify.Same("sustained scans", ("SqliteSustained", SqliteSustained()), ("SharcSustained", SharcSustained()), ("SharcSustainedUtf8", SharcSustainedUtf8()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _reader.Dispose();
        _db.Dispose();
        _cmd.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Scans)]
    [BenchmarkCategory("SustainedScan")]
    public long SqliteSustained()
    {
        long sum = 0;
        for (int i = 0; i < Scans; i++)
        {
            using var r = _cmd.ExecuteReader();
            while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Scans)]
    [BenchmarkCategory("SustainedScan")]
    public long SharcSustained()
    {
        long sum = 0;
        var r = _reader;
        for (int i = 0; i < Scans; i++)
        {
            r.Reset();
            while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Scans)]
    [BenchmarkCategory("SustainedScan")]
    public long SharcSustainedUtf8()
    {
        long sum = 0;
        var r = _reader;
        for (int i = 0; i < Scans; i++)
        {
            r.Reset();
            while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetUtf8Span(1)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }
}
