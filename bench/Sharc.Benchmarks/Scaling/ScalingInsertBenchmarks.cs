using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Scaling;

/// <summary>
/// A batch of 1,000 users appended in one transaction to the table of 10K, 100K, 1M or 10M rows (times per batch):
/// does a write get slower as the b-tree gets deeper? Each engine writes its own copy of the cached file, made once in
/// setup (outside the measured region), with the Writes suite's durability on both sides (rollback journal,
/// synchronous=FULL). After every iteration the batches are deleted again, untimed, so the table stays at its size.
/// SQLite: one connection and a prepared, reused INSERT; Sharc: <see cref="PreparedInsert"/>.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ScalingInsertBenchmarks
{
    private const int Batch = 1000;
    private static readonly byte[] Email = "bench@example.com"u8.ToArray();
    private string _sqlitePath = null!, _sharcPath = null!;
    private SqliteConnection _conn = null!;
    private SqliteCommand _insert = null!;
    private SharcDatabase _db = null!;
    private PreparedInsert _sharcInsert = null!;
    private long _sqliteNext, _sharcNext;

    [ParamsSource(nameof(RowCounts))]
    public int Rows { get; set; }

    /// <summary>10K, 100K, 1M and 10M rows unless overridden (<see cref="ScalingRows"/>).</summary>
    public static IEnumerable<int> RowCounts => ScalingRows.Counts;

    [GlobalSetup]
    public void Setup()
    {
        string source = UsersData.Path(UsersShape.Plain, Rows);
        string dir = Path.Combine(UsersData.Folder, "scaling-insert-" + Environment.ProcessId);
        Directory.CreateDirectory(dir);
        _sqlitePath = Path.Combine(dir, "sqlite.db");
        _sharcPath = Path.Combine(dir, "sharc.db");
        CachedFile.CopyDurably(source, _sqlitePath);
        CachedFile.CopyDurably(source, _sharcPath);
        _conn = new SqliteConnection($"Data Source={_sqlitePath};Pooling=False");
        _conn.Open();
        Exec("PRAGMA journal_mode=DELETE");
        Exec("PRAGMA synchronous=FULL");
        _insert = _conn.CreateCommand();
        _insert.CommandText = "INSERT INTO users(id, name, email, age, score, active, city, bio, created) VALUES($id, $n, $e, $a, $s, 1, 'Oslo', 'bio', 1700000000)";
        foreach (var n in new[] { "$id", "$n", "$e", "$a", "$s" }) _insert.Parameters.Add(new SqliteParameter(n, 0L));
        _insert.Prepare();
        _db = SharcDatabase.Open(_sharcPath, new SharcOpenOptions { Writable = true });
        _sharcInsert = _db.PrepareInsert("users", "id", "name", "email", "age", "score", "active", "city", "bio", "created");
        _sharcInsert.SetInt64(5, 1);
        _sharcInsert.SetText(6, "Oslo"u8);
        _sharcInsert.SetText(7, "bio"u8);
        _sharcInsert.SetInt64(8, 1_700_000_000);
        _sqliteNext = _sharcNext = Rows + 1;
        Verify.Same($"a batch appended to {Rows} rows", ("SqliteInsertBatch", SqliteInsertBatch()), ("SharcInsertBatch", SharcInsertBatch()));
        Verify.Same($"the rows after one batch on {Rows}", ("SQLite's file", Checksum(_sqlitePath)), ("Sharc's file", Checksum(_sharcPath)));
        IterationCleanup();
    }

    /// <summary>Removes the appended rows (untimed), through each engine on its own file.</summary>
    [IterationCleanup]
    public void IterationCleanup()
    {
        using (var del = _conn.CreateCommand())
        {
            del.CommandText = "DELETE FROM users WHERE id > $rows";
            del.Parameters.AddWithValue("$rows", Rows);
            del.ExecuteNonQuery();
        }
        _db.Execute("DELETE FROM users WHERE id > ?", Rows);
        _sqliteNext = _sharcNext = Rows + 1;
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _db.Dispose();
        _insert.Dispose();
        _conn.Dispose();
        Directory.Delete(Path.GetDirectoryName(_sqlitePath)!, recursive: true);
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("InsertBatch")]
    public long SqliteInsertBatch()
    {
        long first = _sqliteNext;
        using var tx = _conn.BeginTransaction();
        _insert.Transaction = tx;
        var p = _insert.Parameters;
        for (int i = 0; i < Batch; i++)
        {
            long id = _sqliteNext++;
            p[0].Value = id;
            p[1].Value = UsersData.Name(id);
            p[2].Value = "bench@example.com";
            p[3].Value = 18 + id % 60;
            p[4].Value = i * 0.5;
            _insert.ExecuteNonQuery();
        }
        tx.Commit();
        _insert.Transaction = null;
        return first;
    }

    [Benchmark]
    [BenchmarkCategory("InsertBatch")]
    public long SharcInsertBatch()
    {
        long first = _sharcNext;
        using var tx = _db.BeginTransaction();
        var ins = _sharcInsert;
        for (int i = 0; i < Batch; i++)
        {
            long id = _sharcNext++;
            ins.SetInt64(0, id);
            ins.SetText(1, UsersData.Name(id));
            ins.SetText(2, Email);
            ins.SetInt64(3, 18 + id % 60);
            ins.SetDouble(4, i * 0.5);
            ins.Execute();
        }
        tx.Commit();
        return first;
    }

    private void Exec(string sql)
    {
        using var c = _conn.CreateCommand();
        c.CommandText = sql;
        c.ExecuteNonQuery();
    }

    /// <summary>What the appended rows hold, read by SQLite from a file: count, id sum, name lengths, ages, scores.</summary>
    private long Checksum(string path)
    {
        using var c = new SqliteConnection($"Data Source={path};Mode=ReadOnly;Pooling=False");
        c.Open();
        using var cmd = c.CreateCommand();
        cmd.CommandText = "SELECT count(*), sum(id), sum(length(name)), sum(age), sum(score) FROM users WHERE id > $rows";
        cmd.Parameters.AddWithValue("$rows", Rows);
        using var r = cmd.ExecuteReader();
        r.Read();
        return r.GetInt64(0) * 1_000_003 + r.GetInt64(1) + r.GetInt64(2) * 7 + r.GetInt64(3) * 13 + Mix.Of(r.GetDouble(4));
    }
}
