using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Core;

/// <summary>Sequential scan of the 5,000-row users table, reading the same three columns in both engines.</summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ScanBenchmarks
{
    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersDatabase.Path;
        _conn = new SqliteConnection($"Data Source={path};Mode=ReadOnly;Pooling=False");
        _conn.Open();
        _cmd = _conn.CreateCommand();
        _cmd.CommandText = "SELECT id, age, score FROM users";
        _cmd.Prepare();
        _db = SharcDatabase.Open(path);
        _reader = _db.PrepareReader("users", "id", "age", "score");
        if (Sqlite() != Sharc()) throw new InvalidOperationException("engines disagree");
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
    public double Sqlite()
    {
        double sum = 0;
        using var r = _cmd.ExecuteReader();
        while (r.Read()) sum += r.GetInt64(0) + r.GetInt64(1) + r.GetDouble(2);
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Scan")]
    public double Sharc()
    {
        double sum = 0;
        _reader.Reset();
        while (_reader.Read()) sum += _reader.GetInt64(0) + _reader.GetInt64(1) + _reader.GetDouble(2);
        return sum;
    }
}
