using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Writes;

/// <summary>
/// Writes on a 100,000-row users table, each engine on its own copy of the same file, with the same durability:
/// rollback journal (journal_mode=DELETE) and synchronous=FULL on both sides (Sharc always syncs fully).
/// SQLite uses one connection and prepared, reused commands; Sharc its prepared insert and row API.
/// Single statements run in auto-commit (one transaction, one set of syncs, each); the batch rows run in one
/// transaction. Because every iteration adds rows, each iteration starts from a fresh copy.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class WriteBenchmarks
{
    private const int TableRows = 100_000;
    private string _source = null!;
    private string _sqlitePath = null!, _sharcPath = null!;
    private SqliteConnection _conn = null!;
    private SqliteCommand _insert = null!, _update = null!, _delete = null!;
    private SharcDatabase _db = null!;
    private PreparedInsert _sharcInsert = null!;
    private long _nextId;
    private static readonly byte[] Name = "benchmark user"u8.ToArray();
    private static readonly byte[] Email = "bench@example.com"u8.ToArray();

    [GlobalSetup]
    public void GlobalSetup()
    {
        _source = UsersData.Path(UsersShape.Plain, TableRows);
        string dir = Path.Combine(UsersData.Folder, "writes-" + Environment.ProcessId);
        Directory.CreateDirectory(dir);
        _sqlitePath = Path.Combine(dir, "sqlite.db");
        _sharcPath = Path.Combine(dir, "sharc.db");
    }

    [IterationSetup]
    public void IterationSetup()
    {
        CachedFile.CopyDurably(_source, _sqlitePath);
        CachedFile.CopyDurably(_source, _sharcPath);
        _conn = new SqliteConnection($"Data Source={_sqlitePath};Pooling=False");
        _conn.Open();
        Exec("PRAGMA journal_mode=DELETE");
        Exec("PRAGMA synchronous=FULL");
        _insert = Prepare("INSERT INTO users(name, email, age, score, active, city, bio, created) VALUES($n, $e, 30, $s, 1, 'Oslo', 'bio', 1700000000)", "$n", "$e", "$s");
        _update = Prepare("UPDATE users SET score = $s WHERE id = $id", "$s", "$id");
        _delete = Prepare("DELETE FROM users WHERE id = $id", "$id");
        _db = SharcDatabase.Open(_sharcPath, new SharcOpenOptions { Writable = true });
        _sharcInsert = _db.PrepareInsert("users", "name", "email", "age", "score", "active", "city", "bio", "created");
        _sharcInsert.SetInt64(2, 30);
        _sharcInsert.SetInt64(4, 1);
        _sharcInsert.SetText(5, "Oslo"u8);
        _sharcInsert.SetText(6, "bio"u8);
        _sharcInsert.SetInt64(7, 1_700_000_000);
        _nextId = 1;
    }

    [IterationCleanup]
    public void IterationCleanup()
    {
        _insert.Dispose();
        _update.Dispose();
        _delete.Dispose();
        _conn.Dispose();
        _db.Dispose();
    }

    private void Exec(string sql)
    {
        using var c = _conn.CreateCommand();
        c.CommandText = sql;
        c.ExecuteNonQuery();
    }

    private SqliteCommand Prepare(string sql, params string[] names)
    {
        var cmd = _conn.CreateCommand();
        cmd.CommandText = sql;
        foreach (var n in names) cmd.Parameters.Add(new SqliteParameter(n, 0L));
        cmd.Prepare();
        return cmd;
    }

    private void SqliteInsertOne(double score)
    {
        _insert.Parameters[0].Value = "benchmark user";
        _insert.Parameters[1].Value = "bench@example.com";
        _insert.Parameters[2].Value = score;
        _insert.ExecuteNonQuery();
    }

    private void SharcInsertOne(double score)
    {
        _sharcInsert.SetText(0, Name);
        _sharcInsert.SetText(1, Email);
        _sharcInsert.SetDouble(3, score);
        _sharcInsert.Execute();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Insert")]
    public void SqliteInsert() => SqliteInsertOne(1.5);

    [Benchmark]
    [BenchmarkCategory("Insert")]
    public void SharcInsert() => SharcInsertOne(1.5);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Update")]
    public void SqliteUpdate()
    {
        _update.Parameters[0].Value = 2.5;
        _update.Parameters[1].Value = _nextId++;
        _update.ExecuteNonQuery();
    }

    [Benchmark]
    [BenchmarkCategory("Update")]
    public void SharcUpdate() => _db.Update("users", _nextId++, ["score"], [2.5]);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Delete")]
    public void SqliteDelete()
    {
        _delete.Parameters[0].Value = _nextId++;
        _delete.ExecuteNonQuery();
    }

    [Benchmark]
    [BenchmarkCategory("Delete")]
    public void SharcDelete() => _db.Delete("users", _nextId++);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Tx100")]
    public void SqliteTx100() => SqliteBatch(100);

    [Benchmark]
    [BenchmarkCategory("Tx100")]
    public void SharcTx100() => SharcBatch(100);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Batch1K")]
    public void SqliteBatch1K() => SqliteBatch(1000);

    [Benchmark]
    [BenchmarkCategory("Batch1K")]
    public void SharcBatch1K() => SharcBatch(1000);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Batch10K")]
    public void SqliteBatch10K() => SqliteBatch(10_000);

    [Benchmark]
    [BenchmarkCategory("Batch10K")]
    public void SharcBatch10K() => SharcBatch(10_000);

    private void SqliteBatch(int n)
    {
        using var tx = _conn.BeginTransaction();
        _insert.Transaction = tx;
        for (int i = 0; i < n; i++) SqliteInsertOne(i);
        tx.Commit();
        _insert.Transaction = null;
    }

    private void SharcBatch(int n)
    {
        using var tx = _db.BeginTransaction();
        for (int i = 0; i < n; i++) SharcInsertOne(i);
        tx.Commit();
    }
}
