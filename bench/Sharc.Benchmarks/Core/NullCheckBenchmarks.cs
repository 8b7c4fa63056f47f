using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// NULL detection over a full scan (times are per scan): count the users whose email is NULL (every tenth row),
/// SQLite with IsDBNull, Sharc with IsNull. Nothing else is decoded.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class NullCheckBenchmarks
{
    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _cmd = Engines.Prepare(_conn, "SELECT email FROM users");
        _db = Engines.OpenSharc(path, StorageKind.File);
        _reader = _db.PrepareReader("users", "email");
        Verify.Same("NULL emails", ("SqliteIsNull", SqliteIsNull()), ("SharcIsNull", SharcIsNull()));
        Verify.That(SharcIsNull() == UsersData.CoreRows / 10, "every tenth email is NULL");
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
    [BenchmarkCategory("IsNull")]
    public long SqliteIsNull()
    {
        long nulls = 0;
        using var r = _cmd.ExecuteReader();
        while (r.Read())
            if (r.IsDBNull(0)) nulls++;
        return nulls;
    }

    [Benchmark]
    [BenchmarkCategory("IsNull")]
    public long SharcIsNull()
    {
        long nulls = 0;
        var r = _reader;
        r.Reset();
        while (r.Read())
            if (r.IsNull(0)) nulls++;
        return nulls;
    }
}
