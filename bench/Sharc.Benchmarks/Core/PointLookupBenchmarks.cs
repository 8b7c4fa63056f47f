using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Core;

/// <summary>Point lookup by rowid: SQLite with a prepared, reused command against a prepared Sharc reader.</summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class PointLookupBenchmarks
{
    private const int Batch = 1000;
    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SqliteParameter _id = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;
    private long[] _keys = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersDatabase.Path;
        _conn = new SqliteConnection($"Data Source={path};Mode=ReadOnly;Pooling=False");
        _conn.Open();
        _cmd = _conn.CreateCommand();
        _cmd.CommandText = "SELECT name, age, score FROM users WHERE id = $id";
        _id = _cmd.Parameters.Add("$id", SqliteType.Integer);
        _cmd.Prepare();
        _db = SharcDatabase.Open(path);
        _reader = _db.PrepareReader("users", "name", "age", "score");
        var rng = new Random(7);
        _keys = Enumerable.Range(0, Batch).Select(_ => (long)rng.Next(1, UsersDatabase.Rows + 1)).ToArray();
        if (SqliteRandom() != SharcRandom()) throw new InvalidOperationException("engines disagree");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _reader.Dispose();
        _db.Dispose();
        _cmd.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Batch)]
    [BenchmarkCategory("RandomLookup")]
    public long SqliteRandom()
    {
        long sum = 0;
        foreach (long k in _keys)
        {
            _id.Value = k;
            using var r = _cmd.ExecuteReader();
            if (r.Read()) sum += r.GetInt64(1) + (long)r.GetDouble(2) + r.GetString(0).Length;
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Batch)]
    [BenchmarkCategory("RandomLookup")]
    public long SharcRandom()
    {
        long sum = 0;
        foreach (long k in _keys)
            if (_reader.Seek(k)) sum += _reader.GetInt64(1) + (long)_reader.GetDouble(2) + _reader.GetUtf8Span(0).Length;
        return sum;
    }
}
