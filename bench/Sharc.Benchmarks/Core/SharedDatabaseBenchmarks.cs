using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// What a server does with one database opened writable and shared by its threads: point lookups by rowid and a full
/// scan through the same <see cref="SharcDatabase"/> it writes with. Reads of a writable database go through a
/// snapshot (so other threads' commits never show mid-read); this measures what that costs against the read-only
/// open the Core suite uses, with SQLite's prepared command (EXCLUSIVE locking, the fastest use) as the baseline.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class SharedDatabaseBenchmarks
{
    private const int Lookups = 1000;
    private const string Sql = "SELECT name, age, score FROM users WHERE id = $id";

    private string _path = null!;
    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SharcDatabase _readOnly = null!;
    private SharcDatabase _writable = null!;
    private PreparedReader _readOnlyReader = null!;
    private PreparedReader _writableReader = null!;
    private long[] _keys = null!;

    [GlobalSetup]
    public void Setup()
    {
        // A copy of its own: the writable open must not touch the file the other suites share.
        _path = System.IO.Path.Combine(UsersData.Folder, "shared-writable.db");
        File.Copy(UsersData.Path(UsersShape.Core), _path, overwrite: true);
        _conn = Engines.OpenSqlite(_path, StorageKind.File, SqliteLocking.Exclusive);
        _cmd = Engines.Prepare(_conn, Sql, ("$id", SqliteType.Integer));
        _readOnly = SharcDatabase.Open(_path);
        _writable = SharcDatabase.Open(_path, new SharcOpenOptions { Writable = true });
        _readOnlyReader = _readOnly.PrepareReader("users", "name", "age", "score");
        _writableReader = _writable.PrepareReader("users", "name", "age", "score");
        _keys = Keys.Random(Lookups, 1, UsersData.CoreRows);
        Verify.Same("random-key lookups", ("SqliteLookup", SqliteLookup()), ("SharcReadOnlyLookup", SharcReadOnlyLookup()), ("SharcWritableLookup", SharcWritableLookup()));
        Verify.Same("scans", ("SharcReadOnlyScan", SharcReadOnlyScan()), ("SharcWritableScan", SharcWritableScan()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _readOnlyReader.Dispose();
        _writableReader.Dispose();
        _readOnly.Dispose();
        _writable.Dispose();
        _cmd.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("Lookup")]
    public long SqliteLookup() => PointLookupBenchmarks.SqliteLookups(_cmd, _keys);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("Lookup")]
    public long SharcReadOnlyLookup() => PointLookupBenchmarks.SharcLookups(_readOnlyReader, _keys);

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("Lookup")]
    public long SharcWritableLookup() => PointLookupBenchmarks.SharcLookups(_writableReader, _keys);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Scan")]
    public long SharcReadOnlyScan() => Scan(_readOnly);

    [Benchmark]
    [BenchmarkCategory("Scan")]
    public long SharcWritableScan() => Scan(_writable);

    private static long Scan(SharcDatabase db)
    {
        long sum = 0;
        using var r = db.CreateReader("users", "age", "score");
        while (r.Read()) sum += r.GetInt64(0) + (long)r.GetDouble(1);
        return sum;
    }
}
