using System.Collections.Concurrent;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage.Concurrency;

/// <summary>
/// The maintenance a server runs on the database its request threads share — VACUUM, VACUUM INTO, online backup,
/// checkpoints, ANALYZE, index builds and drops, integrity checks, a re-key — while those threads keep moving money
/// between accounts and reading the total. Each operation is bounded by counts (seeded), never by time. Every reader
/// must see the invariant, every copy must be one committed state, and the file must end valid in SQLite.
/// </summary>
public class MaintenanceUnderLoadTests
{
    private const int Accounts = 50;
    private const long Total = 50_000;

    private static readonly SharcEncryptionKey Key = SharcEncryptionKey.FromRawKey(Enumerable.Range(0, 32).Select(i => (byte)(i * 7 + 3)).ToArray());
    private static readonly SharcEncryptionKey OtherKey = SharcEncryptionKey.FromRawKey(Enumerable.Range(0, 32).Select(i => (byte)(i * 11 + 5)).ToArray());

    [Theory]
    [InlineData(SharcJournalMode.Delete, false, 1)]
    [InlineData(SharcJournalMode.Wal, false, 2)]
    [InlineData(SharcJournalMode.Delete, true, 3)]
    [InlineData(SharcJournalMode.Wal, true, 4)]
    public void Maintenance_on_one_thread_keeps_every_reader_and_writer_of_the_shared_database_right(SharcJournalMode mode, bool encrypted, int seed)
    {
        using var dir = new TempDir();
        string path = dir.File("bank.db");
        using (var create = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = mode, Key = encrypted ? Key : null }))
        {
            create.Execute("CREATE TABLE account(id INTEGER PRIMARY KEY, balance INT NOT NULL)");
            create.Execute("CREATE TABLE ledger(id INTEGER PRIMARY KEY, src INT, dst INT, amount INT, pad TEXT)");
            using var tx = create.BeginTransaction();
            for (int i = 1; i <= Accounts; i++) create.Insert("account", (long)i, Total / Accounts);
            tx.Commit();
        }
        var key = encrypted ? Key : null;
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromSeconds(60), Key = key });

        var failures = new ConcurrentQueue<string>();
        int writersLeft = 2;
        long transfers = 0;
        var threads = new List<Thread>();
        for (int w = 0; w < 2; w++)
        {
            int wseed = seed * 100 + w;
            threads.Add(new Thread(() =>
            {
                try
                {
                    var rnd = new Random(wseed);
                    for (int i = 0; i < 120; i++)
                    {
                        long from = rnd.Next(1, Accounts + 1), to = from % Accounts + 1, amount = rnd.Next(1, 30);
                        try
                        {
                            using var tx = db.BeginTransaction();
                            db.Execute("UPDATE account SET balance = balance - ?2 WHERE id = ?1", from, amount);
                            db.Execute("UPDATE account SET balance = balance + ?2 WHERE id = ?1", to, amount);
                            // Wide ledger rows, a third deleted again: pages are freed, so VACUUM has work to do.
                            db.Execute("INSERT INTO ledger(src, dst, amount, pad) VALUES (?1, ?2, ?3, ?4)", from, to, amount, new string('p', 300 + rnd.Next(900)));
                            if (i % 3 == 2) db.Execute("DELETE FROM ledger WHERE id IN (SELECT id FROM ledger WHERE src = ?1 LIMIT 1)", from);
                            tx.Commit();
                            Interlocked.Increment(ref transfers);
                        }
                        catch (Exception e)
                        {
                            failures.Enqueue($"writer {wseed}: {e.GetType().Name}: {e.Message}");
                        }
                    }
                }
                finally
                {
                    Interlocked.Decrement(ref writersLeft);
                }
            }));
        }
        threads.Add(new Thread(() => Read(db, () => Volatile.Read(ref writersLeft) > 0, failures)));
        threads.Add(new Thread(() => ReadSlowly(db, () => Volatile.Read(ref writersLeft) > 0, failures)));
        int copies = 0;
        threads.Add(new Thread(() =>
        {
            // Runs its round of operations at least once, then until the writers are done.
            int round = 0;
            do
            {
                try
                {
                    Maintain(db, dir, mode, encrypted, round, ref copies, failures);
                }
                catch (Exception e)
                {
                    failures.Enqueue($"maintenance round {round}: {e.GetType().Name}: {e.Message}");
                }
                round++;
            }
            while (Volatile.Read(ref writersLeft) > 0 && round < 40);
        }));
        foreach (var t in threads) t.Start();
        foreach (var t in threads) t.Join();

        failures.Should().BeEmpty();
        transfers.Should().Be(240);
        copies.Should().BeGreaterThan(0);
        db.CheckIntegrity().Should().BeEmpty();
        db.Dispose();
        if (encrypted)
        {
            // The re-keys of the maintenance thread left the file under one of the two keys; whichever it is, SQLite
            // checks a plaintext export of it.
            string plain = dir.File("final-plain.db");
            foreach (var k in new[] { Key, OtherKey })
            {
                try
                {
                    using var e = SharcDatabase.Open(path, new SharcOpenOptions { Key = k });
                    e.ExportPlaintext(plain);
                    break;
                }
                catch (SharcException)
                {
                }
            }
            path = plain;
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT sum(balance), count(*) FROM account")[0].Should().Equal(Total, (long)Accounts);
    }

    private static void Maintain(SharcDatabase db, TempDir dir, SharcJournalMode mode, bool encrypted, int round, ref int copies, ConcurrentQueue<string> failures)
    {
        switch (round % 8)
        {
            case 0:
                db.Vacuum();
                break;
            case 1:
            {
                string copy = dir.File($"into-{round}.db");
                db.Execute("VACUUM INTO ?1", copy);
                CheckCopy(copy, encrypted, failures, "VACUUM INTO");
                copies++;
                break;
            }
            case 2:
            {
                string copy = dir.File($"backup-{round}.db");
                db.BackupTo(copy, new SharcBackupOptions { PagesPerStep = 3 });
                CheckCopy(copy, encrypted, failures, "backup");
                copies++;
                break;
            }
            case 3:
                if (mode == SharcJournalMode.Wal) db.Execute("PRAGMA wal_checkpoint(TRUNCATE)");
                else db.Execute("ANALYZE");
                break;
            case 4:
                db.Execute("CREATE INDEX IF NOT EXISTS ledger_src ON ledger(src, amount)");
                break;
            case 5:
            {
                var errors = db.CheckIntegrity();
                if (errors.Count > 0) failures.Enqueue($"CheckIntegrity in round {round}: {string.Join("; ", errors)}");
                break;
            }
            case 6:
                db.Execute("DROP INDEX IF EXISTS ledger_src");
                break;
            case 7:
                if (encrypted) db.Rekey(round % 16 == 7 ? OtherKey : Key);
                else db.Execute("ANALYZE");
                break;
        }
    }

    private static void CheckCopy(string copy, bool encrypted, ConcurrentQueue<string> failures, string what)
    {
        SharcDatabase? opened = null;
        foreach (var k in encrypted ? new[] { Key, OtherKey } : new SharcEncryptionKey?[] { null })
        {
            try
            {
                opened = SharcDatabase.Open(copy, new SharcOpenOptions { Key = k });
                break;
            }
            catch (SharcException) when (encrypted)
            {
            }
        }
        if (opened is null)
        {
            failures.Enqueue($"{what}: the copy opens under neither key");
            return;
        }
        using (opened)
        {
            if (opened.CheckIntegrity().Count > 0) failures.Enqueue($"{what}: the copy is not intact");
            using var q = opened.Query("SELECT sum(balance), count(*) FROM account");
            q.Read();
            if (q.GetInt64(0) != Total || q.GetInt64(1) != Accounts) failures.Enqueue($"{what}: the copy holds sum {q.GetInt64(0)}, count {q.GetInt64(1)}");
        }
        if (!encrypted && Oracle.IntegrityCheck(copy) != "ok") failures.Enqueue($"{what}: SQLite finds the copy damaged");
    }

    private static void Read(SharcDatabase db, Func<bool> go, ConcurrentQueue<string> failures)
    {
        using var prepared = db.Prepare("SELECT sum(balance), count(*) FROM account");
        do
        {
            try
            {
                using var q = prepared.Execute();
                q.Read();
                if (q.GetInt64(0) != Total || q.GetInt64(1) != Accounts) failures.Enqueue($"reader saw sum {q.GetInt64(0)}, count {q.GetInt64(1)}");
                using var l = db.Query("SELECT count(*) FROM ledger WHERE amount > 0");
                l.Read();
            }
            catch (Exception e)
            {
                failures.Enqueue($"reader: {e.GetType().Name}: {e.Message}");
            }
        }
        while (go());
    }

    /// <summary>A cursor walked a row at a time across commits, VACUUMs and re-keys: it must see one state throughout.</summary>
    private static void ReadSlowly(SharcDatabase db, Func<bool> go, ConcurrentQueue<string> failures)
    {
        do
        {
            try
            {
                using var r = db.CreateReader("account", "balance");
                long sum = 0;
                int n = 0;
                // A reader created before another thread's DDL or VACUUM committed plans the same read again.
                if (!r.Read()) continue;
                do
                {
                    sum += r.GetInt64(0);
                    if (++n % 10 == 0) Thread.Sleep(1);
                }
                while (r.Read());
                if (sum != Total || n != Accounts) failures.Enqueue($"slow reader saw sum {sum}, count {n}");
            }
            catch (Exception e)
            {
                failures.Enqueue($"slow reader: {e.GetType().Name}: {e.Message}");
            }
        }
        while (go());
    }
}
