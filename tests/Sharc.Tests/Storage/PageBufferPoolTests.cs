using FluentAssertions;
using Microsoft.Data.Sqlite;
using Sharc.Storage;
using Sharc.Tests.Infrastructure;
using Xunit.Abstractions;

namespace Sharc.Tests.Storage;

/// <summary>
/// Page buffers of a closed database go to <see cref="PageBufferPool"/> and the next database opened reads into them:
/// a 100-row indexed update on a fresh open allocated 2.2 MB of page buffers every time. The buffers come back holding
/// another file's pages, so the same seeded indexed workload runs open → write → close, cycle after cycle, against
/// SQLite, and every file must match it and pass integrity_check.
/// </summary>
public class PageBufferPoolTests(ITestOutputHelper output)
{
    private const string Schema = "CREATE TABLE item(id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, qty INT, price REAL, note TEXT);" +
                                  "CREATE INDEX item_qty ON item(qty); CREATE INDEX item_note ON item(note, price)";

    [Fact]
    public void A_database_opened_after_one_was_closed_reads_into_its_page_buffers()
    {
        using var dir = new TempDir();
        // An uncommon page size, so that other tests running alongside rarely take these buffers from the pool.
        string seed = Build(dir.File("seed.db"), pageSize: 2048, rows: 3000);
        var rng = new Random(7);
        long[] ids = Enumerable.Range(0, 100).Select(_ => (long)rng.Next(1, 3001)).ToArray();
        int cycle = 0;
        long Cycle()
        {
            string path = dir.File($"copy{cycle++}.db");
            File.Copy(seed, path);
            long before = GC.GetAllocatedBytesForCurrentThread();
            var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
            try
            {
                using var tx = db.BeginTransaction();
                using var upd = db.Prepare("UPDATE item SET qty = $q, note = $n WHERE id = $id");
                foreach (long id in ids)
                {
                    upd.Bind(1, id % 13);
                    upd.Bind(2, "changed " + (id % 7));
                    upd.Bind(3, id);
                    upd.Execute();
                }
                tx.Commit();
                return GC.GetAllocatedBytesForCurrentThread() - before;
            }
            finally
            {
                // Other tests' closed databases may have filled the pool to its bound: make room for this one's buffers.
                Drain();
                db.Dispose();
            }
        }
        Drain();
        long first = Cycle();
        long best = long.MaxValue;
        for (int i = 0; i < 3; i++) best = Math.Min(best, Cycle());
        output.WriteLine($"first open: {first} B, later opens: {best} B");
        // The first cycle's page buffers (cache and transaction copies) are at least 100 pages of 2 KB.
        first.Should().BeGreaterThan(200 * 1024);
        best.Should().BeLessThan(first / 3, "the later opens read into the buffers the earlier ones handed back");
        Oracle.IntegrityCheck(dir.File($"copy{cycle - 1}.db")).Should().Be("ok");
    }

    /// <summary>Takes every buffer out of the pool (not measured: renting a size the pool lacks allocates).</summary>
    private static void Drain()
    {
        for (int guard = 0; guard < 20_000 && PageBufferPool.HeldBytes > 0; guard++)
            for (int size = 512; size <= 65536; size *= 2) PageBufferPool.Rent(size);
    }

    [Fact]
    public void The_pool_keeps_at_most_its_bound()
    {
        var buffers = Enumerable.Range(0, (int)(PageBufferPool.MaxBytes / 65536) + 10).Select(_ => new byte[65536]).ToArray();
        PageBufferPool.Return(buffers);
        PageBufferPool.HeldBytes.Should().BeLessThanOrEqualTo(PageBufferPool.MaxBytes);
        // Sizes that are not a page size are never kept, and renting one makes a new array of that size.
        PageBufferPool.Return([new byte[1000]]);
        PageBufferPool.Rent(1000).Length.Should().Be(1000);
        // Taken back out, so that the pool has room again for the other tests' buffers.
        for (int i = 0; i < buffers.Length; i++) PageBufferPool.Rent(65536).Length.Should().Be(65536);
    }

    [Theory]
    [InlineData(11, 1024)]
    [InlineData(12, 4096)]
    [InlineData(13, 512)]
    public void Indexed_writes_over_recycled_buffers_match_sqlite_cycle_after_cycle(int seed, int pageSize)
    {
        using var dir = new TempDir();
        string sharcPath = dir.File("sharc.db"), sqlitePath = dir.File("sqlite.db");
        Build(sqlitePath, pageSize, rows: 0);
        File.Copy(sqlitePath, sharcPath);
        using var sqlite = Oracle.Open(sqlitePath);
        var rng = new Random(seed);
        for (int cycle = 0; cycle < 8; cycle++)
        {
            // Another file's pages pass through the pool between cycles, so no buffer starts out zeroed or current.
            if (cycle % 2 == 1)
            {
                string other = dir.File($"other{cycle}.db");
                Build(other, pageSize, rows: 400);
                using var o = SharcDatabase.Open(other);
                using var r = o.CreateReader("item");
                while (r.Read()) { }
            }
            using var db = SharcDatabase.Open(sharcPath, new SharcOpenOptions { Writable = true });
            bool rollback = rng.Next(4) == 0;
            using (var tx = db.BeginTransaction())
            using (var sqTx = sqlite.BeginTransaction())
            {
                for (int n = 0; n < 300; n++) Step(db, sqlite, rng);
                if (rollback)
                {
                    tx.Rollback();
                    sqTx.Rollback();
                }
                else
                {
                    tx.Commit();
                    sqTx.Commit();
                }
            }
            db.Dispose();
            Oracle.IntegrityCheck(sharcPath).Should().Be("ok", $"cycle {cycle}");
            const string q = "SELECT id, sku, qty, typeof(qty), price, note FROM item ORDER BY id";
            Oracle.Rows(sharcPath, q).Should().BeEquivalentTo(Oracle.Rows(sqlite, q), o => o.WithStrictOrdering(), $"cycle {cycle}");
        }
    }

    /// <summary>One random INSERT (UNIQUE conflicts on sku), UPDATE of indexed columns, or DELETE, on both engines.</summary>
    private static void Step(SharcDatabase db, SqliteConnection sqlite, Random rng)
    {
        long id = rng.Next(1, 600);
        string sku = "SKU-" + rng.Next(500).ToString("D4") + new string('x', rng.Next(40));
        object? qty = rng.Next(6) == 0 ? null : (long)rng.Next(50);
        object? note = rng.Next(5) == 0 ? null : "note " + rng.Next(80) + new string('n', rng.Next(120));
        double price = rng.Next(10000) / 8.0;
        (string Sql, object?[] Args) s = rng.Next(5) switch
        {
            0 or 1 => ("INSERT OR IGNORE INTO item VALUES (?1, ?2, ?3, ?4, ?5)", [id, sku, qty, price, note]),
            2 => ("UPDATE item SET qty = ?1, note = ?2 WHERE id = ?3", [qty, note, id]),
            3 => ("UPDATE OR REPLACE item SET sku = ?1, price = ?2 WHERE id = ?3", [sku, price, id]),
            _ => ("DELETE FROM item WHERE id = ?1", [id]),
        };
        using var cmd = sqlite.CreateCommand();
        cmd.CommandText = s.Sql;
        for (int i = 0; i < s.Args.Length; i++) cmd.Parameters.AddWithValue("?" + (i + 1), s.Args[i] ?? DBNull.Value);
        int expected = cmd.ExecuteNonQuery();
        using var p = db.Prepare(s.Sql);
        for (int i = 0; i < s.Args.Length; i++) Bind(p, i + 1, s.Args[i]);
        using (p.Execute()) { }
        db.LastChanges.Should().Be(expected, s.Sql);
    }

    private static void Bind(PreparedQuery p, int index, object? value)
    {
        switch (value)
        {
            case null: p.BindNull(index); break;
            case long l: p.Bind(index, l); break;
            case double d: p.Bind(index, d); break;
            default: p.Bind(index, (string)value); break;
        }
    }

    private static string Build(string path, int pageSize, int rows)
    {
        using var c = Oracle.Open(path);
        Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
        Oracle.Exec(c, Schema);
        using var tx = c.BeginTransaction();
        var rng = new Random(rows);
        for (int i = 1; i <= rows; i++)
            Oracle.Exec(c, "INSERT INTO item VALUES ($i, $s, $q, $p, $n)", ("$i", (long)i), ("$s", "SKU-" + i + "-" + rng.Next()),
                ("$q", (long)rng.Next(100)), ("$p", rng.Next(10000) / 4.0), ("$n", "note " + rng.Next(500)));
        tx.Commit();
        return path;
    }
}
