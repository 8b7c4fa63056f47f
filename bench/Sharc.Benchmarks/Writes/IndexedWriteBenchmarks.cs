using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Writes;

/// <summary>
/// Writes that maintain indexes, as issue 15 measured them: <c>item(id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE,
/// qty INT, price REAL, note TEXT)</c> with indexes on <c>qty</c> and <c>(note, price)</c>. Each invocation runs on a
/// fresh copy of the same file (empty for the inserts, 20,000 rows for the rest), in one transaction, with the same
/// durability on both sides (journal_mode=DELETE, synchronous=FULL). SQLite: one connection, prepared and reused
/// commands; Sharc: <see cref="SharcDatabase.PrepareInsert"/> for inserts and <see cref="SharcDatabase.Prepare"/> for
/// the UPDATE and DELETE statements. Keys, SKUs and values come from a fixed seed, in random order (not appends).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[InvocationCount(1)]
public class IndexedWriteBenchmarks
{
    private const int Rows = 20_000;
    private const string Schema = "CREATE TABLE item(id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, qty INT, price REAL, note TEXT);" +
                                  "CREATE INDEX item_qty ON item(qty); CREATE INDEX item_note ON item(note, price);";
    private string _empty = null!, _full = null!, _sqlitePath = null!, _sharcPath = null!;
    private (long Id, string Sku, long Qty, double Price, string Note)[] _rows = null!;
    private (long Id, long Qty, string Note)[] _updates = null!;
    private long[] _deletes = null!;
    private SqliteConnection _conn = null!;
    private SharcDatabase _db = null!;

    [GlobalSetup]
    public void GlobalSetup()
    {
        var rng = new Random(15);
        _rows = new (long, string, long, double, string)[Rows];
        var ids = Enumerable.Range(1, Rows).Select(i => (long)i).OrderBy(_ => rng.Next()).ToArray();
        for (int i = 0; i < Rows; i++)
            _rows[i] = (ids[i], "SKU-" + rng.Next(100_000_000).ToString("D9") + "-" + i, rng.Next(1000), rng.Next(100_000) / 100.0, "note " + rng.Next(5000));
        _updates = new (long, long, string)[10_000];
        for (int i = 0; i < _updates.Length; i++) _updates[i] = (rng.Next(1, Rows + 1), rng.Next(1000), "note " + rng.Next(5000));
        _deletes = Enumerable.Range(1, Rows).Select(i => (long)i).OrderBy(_ => rng.Next()).Take(10_000).ToArray();

        string dir = Path.Combine(Path.GetTempPath(), "sharc-bench-indexed-" + Environment.ProcessId);
        Directory.CreateDirectory(dir);
        _empty = Path.Combine(dir, "empty.db");
        _full = Path.Combine(dir, "full.db");
        _sqlitePath = Path.Combine(dir, "sqlite.db");
        _sharcPath = Path.Combine(dir, "sharc.db");
        foreach (var (path, fill) in new[] { (_empty, false), (_full, true) })
        {
            if (File.Exists(path)) File.Delete(path);
            using var c = new SqliteConnection($"Data Source={path};Pooling=False");
            c.Open();
            Exec(c, Schema);
            if (fill) SqliteInsert(c, _rows.Length);
        }
        WarmUp();
    }

    /// <summary>
    /// Runs both engines' write paths until the JIT is done with them. With one invocation per iteration, a short job
    /// otherwise measures Sharc's first batches in tier-0 code while the background compiler takes one of the
    /// machine's cores: on 2 cores, a fresh process spent its first ~10 s compiling (1,165 methods to tier 1), and the
    /// 100-statement rows cost about 3× their steady-state CPU time meanwhile. SQLite's engine is native code compiled
    /// ahead of time. Both sides get the same rounds; the measured iterations then see steady-state code on both.
    /// Methods called once per transaction (open, prepare, commit, close) reach tier 1 only after about a hundred
    /// rounds, so the rounds go on until no method has been compiled for three checks in a row (bounded).
    /// </summary>
    private void WarmUp()
    {
        long compiled = -1;
        int quiet = 0;
        for (int round = 0; round < 400 && quiet < 3; round++)
        {
            Open(_full);
            SqliteChange(40, 40);
            SharcChange(40, 40);
            Cleanup();
            if (round % 10 != 0) continue;
            Open(_empty);
            SqliteInsert(_conn, 200);
            SharcInsert(200);
            Cleanup();
            if (round < 40) continue;
            Thread.Sleep(300); // tier-1 compilation runs on a background thread after a short delay
            long now = System.Runtime.JitInfo.GetCompiledMethodCount();
            quiet = now == compiled ? quiet + 1 : 0;
            compiled = now;
        }
    }

    [IterationSetup(Targets = [nameof(SqliteInsert20K), nameof(SharcInsert20K)])]
    public void FromEmpty() => Open(_empty);

    [IterationSetup(Targets = [nameof(SqliteUpdateDelete), nameof(SharcUpdateDelete), nameof(SqliteUpdate100), nameof(SharcUpdate100),
        nameof(SqliteUpdate10K), nameof(SharcUpdate10K), nameof(SqliteDelete100), nameof(SharcDelete100), nameof(SqliteDelete10K), nameof(SharcDelete10K)])]
    public void FromFull() => Open(_full);

    private void Open(string source)
    {
        File.Copy(source, _sqlitePath, overwrite: true);
        File.Copy(source, _sharcPath, overwrite: true);
        _conn = new SqliteConnection($"Data Source={_sqlitePath};Pooling=False");
        _conn.Open();
        Exec(_conn, "PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL");
        _db = SharcDatabase.Open(_sharcPath, new SharcOpenOptions { Writable = true });
    }

    [IterationCleanup]
    public void Cleanup()
    {
        _conn.Dispose();
        _db.Dispose();
    }

    private static void Exec(SqliteConnection c, string sql)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }

    private void SqliteInsert(SqliteConnection c, int n)
    {
        using var tx = c.BeginTransaction();
        using var cmd = c.CreateCommand();
        cmd.CommandText = "INSERT INTO item(id, sku, qty, price, note) VALUES ($id, $sku, $qty, $price, $note)";
        var p = new[] { "$id", "$sku", "$qty", "$price", "$note" }.Select(name => cmd.Parameters.Add(new SqliteParameter(name, 0L))).ToArray();
        cmd.Prepare();
        for (int i = 0; i < n; i++)
        {
            var r = _rows[i];
            p[0].Value = r.Id;
            p[1].Value = r.Sku;
            p[2].Value = r.Qty;
            p[3].Value = r.Price;
            p[4].Value = r.Note;
            cmd.ExecuteNonQuery();
        }
        tx.Commit();
    }

    private void SqliteChange(int updates, int deletes)
    {
        using var tx = _conn.BeginTransaction();
        using var upd = _conn.CreateCommand();
        upd.CommandText = "UPDATE item SET qty = $q, note = $n WHERE id = $id";
        var q = upd.Parameters.Add(new SqliteParameter("$q", 0L));
        var n = upd.Parameters.Add(new SqliteParameter("$n", ""));
        var id = upd.Parameters.Add(new SqliteParameter("$id", 0L));
        upd.Prepare();
        for (int i = 0; i < updates; i++)
        {
            (id.Value, q.Value, n.Value) = _updates[i];
            upd.ExecuteNonQuery();
        }
        using var del = _conn.CreateCommand();
        del.CommandText = "DELETE FROM item WHERE id = $id";
        var did = del.Parameters.Add(new SqliteParameter("$id", 0L));
        del.Prepare();
        for (int i = 0; i < deletes; i++)
        {
            did.Value = _deletes[i];
            del.ExecuteNonQuery();
        }
        tx.Commit();
    }

    private void SharcChange(int updates, int deletes)
    {
        using var tx = _db.BeginTransaction();
        using var upd = _db.Prepare("UPDATE item SET qty = $q, note = $n WHERE id = $id");
        for (int i = 0; i < updates; i++)
        {
            var (id, qty, note) = _updates[i];
            upd.Bind(1, qty);
            upd.Bind(2, note);
            upd.Bind(3, id);
            upd.Execute();
        }
        using var del = _db.Prepare("DELETE FROM item WHERE id = $id");
        for (int i = 0; i < deletes; i++)
        {
            del.Bind(1, _deletes[i]);
            del.Execute();
        }
        tx.Commit();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("IndexedInsert20K")]
    public void SqliteInsert20K() => SqliteInsert(_conn, Rows);

    [Benchmark]
    [BenchmarkCategory("IndexedInsert20K")]
    public void SharcInsert20K() => SharcInsert(Rows);

    private void SharcInsert(int n)
    {
        using var tx = _db.BeginTransaction();
        var ins = _db.PrepareInsert("item", "id", "sku", "qty", "price", "note");
        for (int i = 0; i < n; i++)
        {
            var r = _rows[i];
            ins.SetInt64(0, r.Id);
            ins.SetText(1, r.Sku);
            ins.SetInt64(2, r.Qty);
            ins.SetDouble(3, r.Price);
            ins.SetText(4, r.Note);
            ins.Execute();
        }
        tx.Commit();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("IndexedUpdate10KDelete5K")]
    public void SqliteUpdateDelete() => SqliteChange(10_000, 5_000);

    [Benchmark]
    [BenchmarkCategory("IndexedUpdate10KDelete5K")]
    public void SharcUpdateDelete() => SharcChange(10_000, 5_000);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("IndexedUpdate100")]
    public void SqliteUpdate100() => SqliteChange(100, 0);

    [Benchmark]
    [BenchmarkCategory("IndexedUpdate100")]
    public void SharcUpdate100() => SharcChange(100, 0);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("IndexedUpdate10K")]
    public void SqliteUpdate10K() => SqliteChange(10_000, 0);

    [Benchmark]
    [BenchmarkCategory("IndexedUpdate10K")]
    public void SharcUpdate10K() => SharcChange(10_000, 0);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("IndexedDelete100")]
    public void SqliteDelete100() => SqliteChange(0, 100);

    [Benchmark]
    [BenchmarkCategory("IndexedDelete100")]
    public void SharcDelete100() => SharcChange(0, 100);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("IndexedDelete10K")]
    public void SqliteDelete10K() => SqliteChange(0, 10_000);

    [Benchmark]
    [BenchmarkCategory("IndexedDelete10K")]
    public void SharcDelete10K() => SharcChange(0, 10_000);
}
