using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Encryption;

/// <summary>
/// SQLCipher-format encryption against plaintext: the Core users table (5,000 rows) as a plaintext file (Sharc and
/// SQLite read it) and as an encrypted copy (SQLCipher 4 settings). Open with the key derivation (passphrase) and
/// without it (raw key); a warm point lookup and a warm scan (the cache holds plaintext pages, so these should match
/// plaintext); a cold scan (open and scan with the engine's cache empty on both sides, every page read and, encrypted,
/// decrypted: target at most 2.5× plaintext); a batch of 1,000
/// inserts in one transaction (every dirty page encrypted at commit). Baseline: plaintext Sharc.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class EncryptionBenchmarks
{
    private const string Passphrase = "benchmark passphrase";
    private static readonly byte[] RawKeyBytes = Enumerable.Range(1, 32).Select(i => (byte)(i * 7)).ToArray();

    private string _plain = null!, _encrypted = null!, _encryptedRaw = null!, _writeDir = null!;
    private SharcEncryptionKey _passphrase = null!, _raw = null!;
    private SharcDatabase _plainDb = null!, _encryptedDb = null!;
    private PreparedReader _plainReader = null!, _encryptedReader = null!;
    private SqliteConnection _sqlite = null!;
    private SqliteCommand _sqlitePoint = null!, _sqliteScan = null!;
    private long[] _keys = null!;
    private int _batch;

    [GlobalSetup]
    public void Setup()
    {
        _plain = UsersData.Path(UsersShape.Core);
        _encrypted = Path.Combine(UsersData.Folder, "users-core-sqlcipher4.db");
        _encryptedRaw = Path.Combine(UsersData.Folder, "users-core-sqlcipher4-raw.db");
        _passphrase = SharcEncryptionKey.FromPassphrase(Passphrase);
        _raw = SharcEncryptionKey.FromRawKey(RawKeyBytes);
        using (var source = SharcDatabase.Open(_plain))
        {
            source.ExportEncrypted(_encrypted, _passphrase);
            source.ExportEncrypted(_encryptedRaw, _raw);
        }
        _plainDb = SharcDatabase.Open(_plain);
        _encryptedDb = SharcDatabase.Open(_encryptedRaw, new SharcOpenOptions { Key = _raw });
        _coldEncrypted = new SharcOpenOptions { Key = _raw, PoolFiles = false };
        _plainReader = _plainDb.PrepareReader("users", "name", "age", "score");
        _encryptedReader = _encryptedDb.PrepareReader("users", "name", "age", "score");
        _sqlite = Engines.OpenSqlite(_plain, StorageKind.File);
        _sqlitePoint = Engines.Prepare(_sqlite, "SELECT name, age, score FROM users WHERE id = $id", ("$id", SqliteType.Integer));
        _sqliteScan = Engines.Prepare(_sqlite, "SELECT name, age, score FROM users");
        _keys = Keys.Random(64, 1, UsersData.CoreRows);
        _writeDir = Path.Combine(UsersData.Folder, "encryption-writes");
        Directory.CreateDirectory(_writeDir);
        Verify.Same("warm point lookups", ("plain", PointPlain()), ("encrypted", PointEncrypted()), ("sqlite", PointSqlite()));
        Verify.Same("warm scans", ("plain", ScanWarmPlain()), ("encrypted", ScanWarmEncrypted()), ("sqlite", ScanSqlite()));
        Verify.Same("cold scans", ("plain", ScanColdPlain()), ("encrypted", ScanColdEncrypted()), ("plain pooled", ScanReopenPlainPooled()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _plainReader.Dispose();
        _encryptedReader.Dispose();
        _plainDb.Dispose();
        _encryptedDb.Dispose();
        _sqlitePoint.Dispose();
        _sqliteScan.Dispose();
        _sqlite.Dispose();
        _passphrase.Dispose();
        _raw.Dispose();
    }

    [Benchmark(Baseline = true), BenchmarkCategory("Open")]
    public long OpenPlain()
    {
        using var db = SharcDatabase.Open(_plain);
        return db.PageCount;
    }

    [Benchmark, BenchmarkCategory("Open")]
    public long OpenEncryptedRawKey()
    {
        using var db = SharcDatabase.Open(_encryptedRaw, new SharcOpenOptions { Key = _raw });
        return db.PageCount;
    }

    [Benchmark, BenchmarkCategory("Open")]
    public long OpenEncryptedWithKdf()
    {
        using var db = SharcDatabase.Open(_encrypted, new SharcOpenOptions { Key = _passphrase });
        return db.PageCount;
    }

    [Benchmark(Baseline = true), BenchmarkCategory("PointWarm")]
    public long PointPlain() => Lookups(_plainReader);

    [Benchmark, BenchmarkCategory("PointWarm")]
    public long PointEncrypted() => Lookups(_encryptedReader);

    [Benchmark, BenchmarkCategory("PointWarm")]
    public long PointSqlite()
    {
        long sum = 0;
        foreach (long k in _keys)
        {
            _sqlitePoint.Parameters[0].Value = k;
            using var r = _sqlitePoint.ExecuteReader();
            if (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    private long Lookups(PreparedReader r)
    {
        long sum = 0;
        foreach (long k in _keys)
            if (r.Seek(k)) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    [Benchmark(Baseline = true), BenchmarkCategory("ScanWarm")]
    public long ScanWarmPlain() => Scan(_plainReader);

    [Benchmark, BenchmarkCategory("ScanWarm")]
    public long ScanWarmEncrypted() => Scan(_encryptedReader);

    [Benchmark, BenchmarkCategory("ScanWarm")]
    public long ScanSqlite()
    {
        long sum = 0;
        using var r = _sqliteScan.ExecuteReader();
        while (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    private static long Scan(PreparedReader r)
    {
        long sum = 0;
        r.Reset();
        while (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    // Cold on both sides: the files sit in the OS page cache (every iteration reads them), the engine's cache is
    // empty (a full open, never the file pool, which would hand the plaintext side its last cache back: encrypted
    // opens are not pooled), and both pay a full open.
    private static readonly SharcOpenOptions ColdPlain = new() { PoolFiles = false };
    private static readonly SharcOpenOptions PooledPlain = new();
    private SharcOpenOptions _coldEncrypted = null!;

    [Benchmark(Baseline = true), BenchmarkCategory("ScanCold")]
    public long ScanColdPlain() => ScanCold(_plain, ColdPlain);

    [Benchmark, BenchmarkCategory("ScanCold")]
    public long ScanColdEncrypted() => ScanCold(_encryptedRaw, _coldEncrypted);

    /// <summary>
    /// The plaintext file opened through the file pool (what an open → scan → close loop gets by default): its cache
    /// survives the close, so this is a warm scan plus an open, for comparison with the cold rows.
    /// </summary>
    [Benchmark, BenchmarkCategory("ScanCold")]
    public long ScanReopenPlainPooled() => ScanCold(_plain, PooledPlain);

    private static long ScanCold(string path, SharcOpenOptions options)
    {
        using var db = SharcDatabase.Open(path, options);
        using var r = db.PrepareReader("users", "name", "age", "score");
        return Scan(r);
    }

    [Benchmark(Baseline = true), BenchmarkCategory("Insert1000")]
    public long InsertPlain() => Insert(null);

    [Benchmark, BenchmarkCategory("Insert1000")]
    public long InsertEncrypted() => Insert(_raw);

    private long Insert(SharcEncryptionKey? key)
    {
        string path = Path.Combine(_writeDir, $"insert-{_batch++ % 4}.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = key, Overwrite = true });
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL)");
        using (var tx = db.BeginTransaction())
        {
            var insert = db.PrepareInsert("t", "name", "score");
            for (int i = 0; i < 1000; i++)
            {
                insert.SetText(0, "row name number " + i);
                insert.SetDouble(1, i * 0.5);
                insert.Execute();
            }
            tx.Commit();
        }
        return db.PageCount;
    }
}
