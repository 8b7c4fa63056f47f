using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// Point lookup by rowid, reading name, age and score: the same key 1,000 times (SameKey) and 1,000 keys drawn
/// from a fixed seed (RandomKey); times are per lookup. SQLite runs one prepared, reused command per connection.
/// Per-statement file locking dominates a lookup, so SQLite appears twice: the default connection and a tuned one
/// (locking_mode=EXCLUSIVE, lock held for the run, like Sharc's single snapshot). The tuned row is the baseline.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class PointLookupBenchmarks
{
    private const int Lookups = 1000;
    private const string Sql = "SELECT name, age, score FROM users WHERE id = $id";

    private SqliteConnection _conn = null!;
    private SqliteConnection _exclusiveConn = null!;
    private SqliteCommand _cmd = null!;
    private SqliteCommand _exclusiveCmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;
    private long[] _sameKey = null!;
    private long[] _randomKeys = null!;

    [Params(StorageKind.File, StorageKind.Memory)]
    public StorageKind Storage { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, Storage);
        _exclusiveConn = Engines.OpenSqlite(path, Storage, SqliteLocking.Exclusive);
        _cmd = Engines.Prepare(_conn, Sql, ("$id", SqliteType.Integer));
        _exclusiveCmd = Engines.Prepare(_exclusiveConn, Sql, ("$id", SqliteType.Integer));
        _db = Engines.OpenSharc(path, Storage);
        _reader = _db.PrepareReader("users", "name", "age", "score");
        _sameKey = Enumerable.Repeat((long)UsersData.CoreRows / 2, Lookups).ToArray();
        _randomKeys = Keys.Random(Lookups, 1, UsersData.CoreRows);
        Verify.Same("same-key lookups", ("SqliteExclusiveSameKey", SqliteExclusiveSameKey()), ("SqliteSameKey", SqliteSameKey()), ("SharcSameKey", SharcSameKey()));
        Verify.Same("random-key lookups", ("SqliteExclusiveRandomKey", SqliteExclusiveRandomKey()), ("SqliteRandomKey", SqliteRandomKey()),
            ("SharcRandomKey", SharcRandomKey()), ("SharcRandomKeyUtf8", SharcRandomKeyUtf8()));
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
    [BenchmarkCategory("SameKey")]
    public long SqliteExclusiveSameKey() => SqliteLookups(_exclusiveCmd, _sameKey);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("SameKey")]
    public long SqliteSameKey() => SqliteLookups(_cmd, _sameKey);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("SameKey")]
    public long SharcSameKey() => SharcLookups(_reader, _sameKey);

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("RandomKey")]
    public long SqliteExclusiveRandomKey() => SqliteLookups(_exclusiveCmd, _randomKeys);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("RandomKey")]
    public long SqliteRandomKey() => SqliteLookups(_cmd, _randomKeys);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("RandomKey")]
    public long SharcRandomKey() => SharcLookups(_reader, _randomKeys);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("RandomKey")]
    public long SharcRandomKeyUtf8()
    {
        long sum = 0;
        var r = _reader;
        foreach (long k in _randomKeys)
            if (r.Seek(k)) sum += Mix.Of(r.GetUtf8Span(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    internal static long SqliteLookups(SqliteCommand cmd, long[] keys)
    {
        long sum = 0;
        var id = cmd.Parameters[0];
        foreach (long k in keys)
        {
            id.Value = k;
            using var r = cmd.ExecuteReader();
            if (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    internal static long SharcLookups(PreparedReader r, long[] keys)
    {
        long sum = 0;
        foreach (long k in keys)
            if (r.Seek(k)) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }
}
