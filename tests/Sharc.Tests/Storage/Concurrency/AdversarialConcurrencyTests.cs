using System.Collections.Concurrent;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage.Concurrency;

/// <summary>
/// Adversarial, seeded, iteration-bounded multi-threaded runs over one shared database (and several on one file):
/// checkpoints, auto-vacuum truncation, spills, DDL, prepared statements, rollbacks. Every row carries a pad made of
/// one letter derived from its id, so a reader that is handed a wrong page image (another version's, an uncommitted
/// one, zeros past the end) sees a wrong letter, a wrong count or a corruption error. No timing is asserted: waits
/// for other threads are bounded by iteration counts, and each run ends with SQLite's integrity_check.
/// </summary>
public class AdversarialConcurrencyTests
{
    private const int Accounts = 60;
    private const long Balance = 1_000;
    private const long Total = Accounts * Balance;

    private static string Pad(long id, int length) => new((char)('a' + id % 26), length);

    private static bool PadFits(long id, string pad) => pad.Length > 0 && pad.AsSpan().IndexOfAnyExcept((char)('a' + id % 26)) < 0;

    // Mostly in-page rows, every seventh long enough for overflow pages.
    private static int PadLength(Random rnd) => rnd.Next(7) == 0 ? rnd.Next(4_500, 9_000) : rnd.Next(10, 1_400);

    private static string CreateBank(TempDir dir, SharcJournalMode mode, SharcAutoVacuum vacuum = SharcAutoVacuum.None)
    {
        string path = dir.File("adv.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = mode, AutoVacuum = vacuum });
        db.Execute("CREATE TABLE acct(id INTEGER PRIMARY KEY, bal INT NOT NULL, pad TEXT NOT NULL)");
        db.Execute("CREATE INDEX acct_bal ON acct(bal, id)");
        var rnd = new Random(7);
        using var tx = db.BeginTransaction();
        for (long i = 1; i <= Accounts; i++) db.Insert("acct", i, Balance, Pad(i, PadLength(rnd)));
        tx.Commit();
        return path;
    }

    private static SharcOpenOptions Writable(int spill = 2000, int autoCheckpoint = 1000, TimeSpan? busy = null)
        => new() { Writable = true, BusyTimeout = busy ?? TimeSpan.FromSeconds(30), SpillPages = spill, WalAutoCheckpoint = autoCheckpoint };

    /// <summary>Runs each body on its own thread (no ambient flow, so no transaction leaks between them) and waits.</summary>
    private static void RunThreads(ConcurrentQueue<string> failures, params (string Name, Action Body)[] bodies)
    {
        var threads = bodies.Select(b => new Thread(() =>
        {
            try
            {
                b.Body();
            }
            catch (Exception e)
            {
                failures.Enqueue($"{b.Name}: {e.GetType().Name}: {e.Message}");
            }
        })).ToList();
        using (ExecutionContext.SuppressFlow()) threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
    }

    /// <summary>Waits (a bounded number of short sleeps, no assertion on time) until <paramref name="counter"/> reaches <paramref name="target"/>.</summary>
    private static void AwaitCount(ref long counter, long target, int rounds = 500)
    {
        for (int i = 0; i < rounds && Volatile.Read(ref counter) < target; i++) Thread.Sleep(1);
    }

    /// <summary>One transfer in a transaction; both rows get a pad of a new length (rows move between pages).</summary>
    private static void Transfer(SharcDatabase db, Random rnd)
    {
        long from = rnd.Next(1, Accounts + 1), to = rnd.Next(1, Accounts + 1), amount = rnd.Next(1, 40);
        if (from == to) to = from % Accounts + 1;
        using var tx = db.BeginTransaction();
        db.Execute("UPDATE acct SET bal = bal - ?2, pad = ?3 WHERE id = ?1", from, amount, Pad(from, PadLength(rnd)));
        db.Execute("UPDATE acct SET bal = bal + ?2, pad = ?3 WHERE id = ?1", to, amount, Pad(to, PadLength(rnd)));
        tx.Commit();
    }

    /// <summary>One statement's view of the bank: total, count and every pad; the failure, or null.</summary>
    private static string? CheckBank(SharcDatabase db)
    {
        using (var q = db.Query("SELECT sum(bal), count(*) FROM acct"))
        {
            q.Read();
            if (q.GetInt64(0) != Total || q.GetInt64(1) != Accounts) return $"query saw sum {q.GetInt64(0)}, count {q.GetInt64(1)}";
        }
        using (var q = db.Query("SELECT a.id, a.pad, b.bal FROM acct a JOIN acct b ON b.id = a.id WHERE a.bal >= 0 ORDER BY a.bal"))
        {
            long n = 0, sum = 0;
            while (q.Read())
            {
                n++;
                sum += q.GetInt64(2);
                if (!PadFits(q.GetInt64(0), q.GetString(1))) return $"row {q.GetInt64(0)} has another row's pad";
            }
            if (n != Accounts || sum != Total) return $"join saw {n} rows summing {sum}";
        }
        return null;
    }

    /// <summary>A reader held open while other threads commit: it reads one version, whole, from first row to last.</summary>
    private static string? CheckBankSlowly(SharcDatabase db, ref long commits)
    {
        using var r = db.CreateReader("acct", "id", "bal", "pad");
        long n = 0, sum = 0;
        while (r.Read())
        {
            if (!PadFits(r.GetInt64(0), r.GetString(2))) return $"held reader: row {r.GetInt64(0)} has another row's pad";
            n++;
            sum += r.GetInt64(1);
            // Let commits happen while positioned: wait for the next one every few rows.
            if (n % 15 == 0) AwaitCount(ref commits, Volatile.Read(ref commits) + 1, rounds: 50);
        }
        return n == Accounts && sum == Total ? null : $"held reader saw {n} rows summing {sum}";
    }

    private static void AssertNoSnapshotLeft(SharcDatabase db)
    {
        db.WritablePager.Concurrency.HasReaders.Should().BeFalse("every snapshot ended");
        db.WritablePager.KeptImages.Should().Be(0, "no kept image outlives its readers");
    }

    private static void AssertBankFile(string path)
    {
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT sum(bal), count(*) FROM acct")[0].Should().Equal(Total, (long)Accounts);
        foreach (var row in Oracle.Rows(path, "SELECT id, pad FROM acct"))
            PadFits((long)row[0]!, (string)row[1]!).Should().BeTrue();
    }

    // ------------------------------------------------------------------ 1. WAL with checkpoints

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Wal_readers_see_whole_commits_while_automatic_and_explicit_checkpoints_rewrite_the_file(int seed)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, SharcJournalMode.Wal);
        var failures = new ConcurrentQueue<string>();
        long commits = 0, checkpoints = 0;
        int writersLeft = 2;
        using (var db = SharcDatabase.Open(path, Writable(autoCheckpoint: 10)))
        {
            Action Writer(int s) => () =>
            {
                try
                {
                    var rnd = new Random(seed * 100 + s);
                    for (int i = 0; i < 120; i++)
                    {
                        Transfer(db, rnd);
                        Interlocked.Increment(ref commits);
                    }
                }
                finally
                {
                    Interlocked.Decrement(ref writersLeft);
                }
            };
            RunThreads(failures,
                ("writer 1", Writer(1)),
                ("writer 2", Writer(2)),
                ("checkpointer", () =>
                {
                    for (int i = 0; i < 40 && Volatile.Read(ref writersLeft) > 0; i++)
                    {
                        AwaitCount(ref commits, Volatile.Read(ref commits) + 3, rounds: 100);
                        db.Checkpoint();
                        Interlocked.Increment(ref checkpoints);
                    }
                }),
                ("query reader", () =>
                {
                    while (Volatile.Read(ref writersLeft) > 0)
                        if (CheckBank(db) is { } f) failures.Enqueue(f);
                }),
                ("held reader", () =>
                {
                    while (Volatile.Read(ref writersLeft) > 0)
                        if (CheckBankSlowly(db, ref commits) is { } f) failures.Enqueue(f);
                }));

            failures.Should().BeEmpty();
            commits.Should().Be(240);
            checkpoints.Should().BeGreaterThan(0);
            AssertNoSnapshotLeft(db);
            // Automatic checkpoints keep the log short: with nobody reading, a commit that takes the log past the
            // threshold copies it all back, and the next commit starts the log over. (During the run a held reader
            // may stop that, so where the log ended then depends on timing and is not asserted.) Twenty quiet
            // commits write at least twenty frames, so the log must start over at least once among them.
            var quiet = new Random(seed);
            int restarts = 0;
            long frames = db.WritablePager.WalFrames;
            for (int i = 0; i < 20; i++)
            {
                Transfer(db, quiet);
                long now = db.WritablePager.WalFrames;
                if (now < frames) restarts++;
                frames = now;
            }
            restarts.Should().BeGreaterThan(0);
            CheckBank(db).Should().BeNull();
        }
        AssertBankFile(path);
    }

    // ------------------------------------------------------------------ 2. auto_vacuum FULL shrinking the file

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void A_snapshot_reads_pages_past_the_end_an_auto_vacuum_commit_cut_off(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = dir.File("vac.db");
        using (var create = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = mode, AutoVacuum = SharcAutoVacuum.Full }))
        {
            create.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, pad TEXT NOT NULL)");
            var rnd = new Random(3);
            using var tx = create.BeginTransaction();
            for (long i = 1; i <= 300; i++) create.Insert("t", i, Pad(i, PadLength(rnd)));
            tx.Commit();
        }
        using var db = SharcDatabase.Open(path, Writable(autoCheckpoint: 10));
        uint before = db.WritablePager.PageCount;

        using var held = db.CreateReader("t", "id", "pad");
        held.Read().Should().BeTrue();
        using var heldQuery = db.Query("SELECT id, pad FROM t ORDER BY id DESC");
        heldQuery.Read().Should().BeTrue();
        heldQuery.GetInt64(0).Should().Be(300);

        var failures = new ConcurrentQueue<string>();
        RunThreads(failures, ("deleter", () =>
        {
            db.Execute("DELETE FROM t WHERE id > 20");
            // And grow again over the cut-off pages, so their numbers hold other content in the latest version.
            var rnd = new Random(4);
            using var tx = db.BeginTransaction();
            for (long i = 1000; i < 1040; i++) db.Insert("t", i, Pad(i, PadLength(rnd)));
            tx.Commit();
            db.Execute("DELETE FROM t WHERE id >= 1000");
            if (mode == SharcJournalMode.Wal) db.Checkpoint();
        }));
        failures.Should().BeEmpty();
        db.WritablePager.PageCount.Should().BeLessThan(before / 2, "the deletes shrank the file");

        long n = 1;
        while (held.Read())
        {
            n++;
            PadFits(held.GetInt64(0), held.GetString(1)).Should().BeTrue();
        }
        n.Should().Be(300);
        n = 1;
        while (heldQuery.Read())
        {
            n++;
            PadFits(heldQuery.GetInt64(0), heldQuery.GetString(1)).Should().BeTrue();
        }
        n.Should().Be(300);
        held.Dispose();
        heldQuery.Dispose();
        AssertNoSnapshotLeft(db);

        using (var q = db.Query("SELECT count(*) FROM t"))
        {
            q.Read();
            q.GetInt64(0).Should().Be(20);
        }
        db.Dispose();
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete, 11)]
    [InlineData(SharcJournalMode.Wal, 12)]
    public void Readers_see_whole_batches_while_auto_vacuum_grows_and_shrinks_the_file(SharcJournalMode mode, int seed)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, mode, SharcAutoVacuum.Full);
        var failures = new ConcurrentQueue<string>();
        long commits = 0;
        int writerLeft = 1;
        using (var db = SharcDatabase.Open(path, Writable(autoCheckpoint: 10)))
        {
            db.Execute("CREATE TABLE batch(id INTEGER PRIMARY KEY, b INT NOT NULL, pad TEXT NOT NULL)");
            string? CheckBatches()
            {
                using var r = db.Query("SELECT id, b, pad FROM batch");
                var perBatch = new Dictionary<long, int>();
                while (r.Read())
                {
                    if (!PadFits(r.GetInt64(0), r.GetString(2))) return $"batch row {r.GetInt64(0)} has another row's pad";
                    perBatch[r.GetInt64(1)] = perBatch.GetValueOrDefault(r.GetInt64(1)) + 1;
                }
                return perBatch.Values.All(c => c == 50) ? null : "a batch was seen in part";
            }
            RunThreads(failures,
                ("grower/shrinker", () =>
                {
                    try
                    {
                        var rnd = new Random(seed);
                        for (int round = 0; round < 30; round++)
                        {
                            using (var tx = db.BeginTransaction())
                            {
                                for (int k = 0; k < 50; k++) db.Insert("batch", null, (long)round, Pad(round * 50 + k + 1, PadLength(rnd)));
                                tx.Commit();
                            }
                            Interlocked.Increment(ref commits);
                            // Delete every batch but the newest: the file shrinks under readers of the older version.
                            db.Execute("DELETE FROM batch WHERE b < ?1", (long)round - rnd.Next(0, 2));
                            Interlocked.Increment(ref commits);
                            Transfer(db, rnd);
                            Interlocked.Increment(ref commits);
                        }
                    }
                    finally
                    {
                        Volatile.Write(ref writerLeft, 0);
                    }
                }),
                ("batch reader", () =>
                {
                    while (Volatile.Read(ref writerLeft) > 0)
                        if (CheckBatches() is { } f) failures.Enqueue(f);
                }),
                ("bank reader", () =>
                {
                    while (Volatile.Read(ref writerLeft) > 0)
                        if (CheckBank(db) is { } f) failures.Enqueue(f);
                }),
                ("held reader", () =>
                {
                    while (Volatile.Read(ref writerLeft) > 0)
                        if (CheckBankSlowly(db, ref commits) is { } f) failures.Enqueue(f);
                }));
            failures.Should().BeEmpty();
            AssertNoSnapshotLeft(db);
            CheckBatches().Should().BeNull();
        }
        AssertBankFile(path);
    }

    // ------------------------------------------------------------------ 3. spills

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void While_a_spilled_transaction_is_open_other_readers_wait_and_then_see_only_what_was_committed(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, mode);
        using var db = SharcDatabase.Open(path, Writable(spill: 16, busy: TimeSpan.FromMilliseconds(200)));
        db.Execute("CREATE TABLE big(id INTEGER PRIMARY KEY, pad TEXT NOT NULL)");

        foreach (bool commit in new[] { false, true })
        {
            using (var tx = db.BeginTransaction())
            {
                // Far more than 16 changed pages, with no reader active: the transaction spills between statements.
                for (long i = 1; i <= 200; i++) db.Execute("INSERT INTO big VALUES (?1, ?2)", i, Pad(i, 1_000));
                db.WritablePager.Concurrency.HasReaders.Should().BeFalse();
                // A reader on another thread waits for the spilled transaction, up to the busy timeout.
                var failures = new ConcurrentQueue<string>();
                Exception? seen = null;
                RunThreads(failures, ("reader", () =>
                {
                    try
                    {
                        using var q = db.Query("SELECT count(*) FROM big");
                        q.Read();
                        failures.Enqueue($"read {q.GetInt64(0)} rows while a spilled transaction was open");
                    }
                    catch (SharcBusyException e)
                    {
                        seen = e;
                    }
                }));
                failures.Should().BeEmpty();
                seen.Should().NotBeNull();
                if (commit) tx.Commit();
                else tx.Rollback();
            }
            AssertNoSnapshotLeft(db);
            var counts = new ConcurrentQueue<string>();
            long rows = -1;
            RunThreads(counts, ("after", () =>
            {
                using var q = db.Query("SELECT count(*) FROM big");
                q.Read();
                rows = q.GetInt64(0);
            }));
            counts.Should().BeEmpty();
            rows.Should().Be(commit ? 200 : 0);
        }
        CheckBank(db).Should().BeNull();
        db.Dispose();
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete, 21)]
    [InlineData(SharcJournalMode.Wal, 22)]
    public void Large_transactions_that_would_spill_never_show_uncommitted_or_rolled_back_rows_to_readers(SharcJournalMode mode, int seed)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, mode);
        var failures = new ConcurrentQueue<string>();
        long commits = 0, committedBatches = 0;
        int writerLeft = 1;
        using (var db = SharcDatabase.Open(path, Writable(spill: 16, autoCheckpoint: 10)))
        {
            db.Execute("CREATE TABLE big(id INTEGER PRIMARY KEY, b INT NOT NULL, doomed INT NOT NULL, pad TEXT NOT NULL)");
            db.Execute("CREATE INDEX big_b ON big(b)");
            string? CheckBig()
            {
                using var q = db.Query("SELECT count(*), count(DISTINCT b), total(doomed) FROM big");
                q.Read();
                if (q.GetInt64(0) != 60 * q.GetInt64(1)) return $"saw {q.GetInt64(0)} rows in {q.GetInt64(1)} batches";
                if (q.GetDouble(2) != 0) return "saw rows of a transaction that rolled back";
                return null;
            }
            RunThreads(failures,
                ("big writer", () =>
                {
                    try
                    {
                        var rnd = new Random(seed);
                        for (int round = 0; round < 24; round++)
                        {
                            bool doomed = rnd.Next(3) == 0;
                            using (var tx = db.BeginTransaction())
                            {
                                for (int k = 0; k < 60; k++)
                                    db.Execute("INSERT INTO big(b, doomed, pad) VALUES (?1, ?2, ?3)", (long)round, doomed ? 1L : 0L, Pad(k, rnd.Next(600, 1_500)));
                                // The transaction reads its own rows, spilled or not.
                                using (var own = db.Query("SELECT count(*) FROM big WHERE b = ?1", (long)round))
                                {
                                    own.Read();
                                    if (own.GetInt64(0) != 60) failures.Enqueue($"the transaction saw {own.GetInt64(0)} of its rows");
                                }
                                if (doomed) tx.Rollback();
                                else
                                {
                                    tx.Commit();
                                    Interlocked.Increment(ref committedBatches);
                                }
                            }
                            Interlocked.Increment(ref commits);
                            if (rnd.Next(4) == 0) db.Execute("DELETE FROM big WHERE b < ?1", (long)round - 2);
                            Transfer(db, rnd);
                        }
                    }
                    finally
                    {
                        Volatile.Write(ref writerLeft, 0);
                    }
                }),
                ("big reader", () =>
                {
                    while (Volatile.Read(ref writerLeft) > 0)
                        if (CheckBig() is { } f) failures.Enqueue(f);
                }),
                ("bank reader", () =>
                {
                    while (Volatile.Read(ref writerLeft) > 0)
                        if (CheckBank(db) is { } f) failures.Enqueue(f);
                }),
                ("held reader", () =>
                {
                    while (Volatile.Read(ref writerLeft) > 0)
                        if (CheckBankSlowly(db, ref commits) is { } f) failures.Enqueue(f);
                }));
            failures.Should().BeEmpty();
            committedBatches.Should().BeGreaterThan(0);
            AssertNoSnapshotLeft(db);
            CheckBig().Should().BeNull();
        }
        AssertBankFile(path);
        Oracle.Rows(path, "SELECT count(*) FROM big WHERE doomed = 1")[0][0].Should().Be(0L);
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void A_transaction_past_the_spill_size_keeps_its_pages_in_memory_while_a_reader_is_active(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, mode);
        using var db = SharcDatabase.Open(path, Writable(spill: 16, busy: TimeSpan.FromMilliseconds(100)));
        var failures = new ConcurrentQueue<string>();
        long seenElsewhere = -1;
        using (var held = db.CreateReader("acct", "id", "pad"))
        {
            held.Read().Should().BeTrue();
            RunThreads(failures, ("big writer", () =>
            {
                using var tx = db.BeginTransaction();
                for (long i = 1; i <= 200; i++) db.Execute("INSERT INTO acct VALUES (?1, 0, ?2)", 1000 + i, Pad(i, 1_000));
                // Not spilled (a reader is active): a new reader on a third thread neither waits nor sees the rows.
                RunThreads(failures, ("third", () =>
                {
                    using var q = db.Query("SELECT count(*) FROM acct");
                    q.Read();
                    seenElsewhere = q.GetInt64(0);
                }));
                tx.Commit();
            }));
            failures.Should().BeEmpty();
            seenElsewhere.Should().Be(Accounts);
            long n = 1;
            while (held.Read())
            {
                n++;
                PadFits(held.GetInt64(0), held.GetString(1)).Should().BeTrue();
            }
            n.Should().Be(Accounts, "the held reader keeps the version it started on");
        }
        AssertNoSnapshotLeft(db);
        using (var q = db.Query("SELECT count(*) FROM acct"))
        {
            q.Read();
            q.GetInt64(0).Should().Be(Accounts + 200);
        }
        db.Dispose();
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void A_reader_whose_move_to_the_latest_commit_timed_out_ends_its_session_once()
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, SharcJournalMode.Delete);
        using var db = SharcDatabase.Open(path, Writable(spill: 16, busy: TimeSpan.FromMilliseconds(100)));
        var failures = new ConcurrentQueue<string>();
        PreparedReader reader;
        using (var tx = db.BeginTransaction())
        {
            // A spilled transaction, then a reader positioned inside it (the writer's own view).
            for (long i = 1; i <= 100; i++) db.Insert("acct", 1000 + i, 0L, Pad(i, 1_000));
            reader = db.PrepareReader("acct", "bal");
            reader.Seek(1).Should().BeTrue();
            // Used next by another thread (one at a time): moving it to a committed snapshot waits for the spilled
            // transaction and gives up at the busy timeout.
            Exception? seen = null;
            RunThreads(failures, ("seek elsewhere", () =>
            {
                try
                {
                    reader.Seek(2);
                    failures.Enqueue("a snapshot was taken while a spilled transaction was open");
                }
                catch (SharcBusyException e)
                {
                    seen = e;
                }
            }));
            failures.Should().BeEmpty();
            seen.Should().NotBeNull();
            tx.Rollback();
        }
        db.WritablePager.HasReaders.Should().BeFalse("the failed move ended the reader's session");

        // Another reader's session must not be ended by the first reader's disposal.
        using var other = db.CreateReader("acct", "bal");
        other.Read().Should().BeTrue();
        reader.Dispose();
        db.WritablePager.HasReaders.Should().BeTrue("the other reader is still reading");
        db.WritablePager.Lock.Level.Should().Be(Sharc.Storage.Locking.LockLevel.Shared);
        long n = 1;
        while (other.Read()) n++;
        n.Should().Be(Accounts);
        AssertNoSnapshotLeft(db);
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void The_page_count_other_threads_see_is_the_committed_one_while_a_transaction_grows_the_file(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, mode);
        using var db = SharcDatabase.Open(path, Writable());
        uint committed = db.PageCount;
        var failures = new ConcurrentQueue<string>();
        uint seen = 0;
        using (var tx = db.BeginTransaction())
        {
            for (long i = 1; i <= 50; i++) db.Insert("acct", 1000 + i, 0L, Pad(i, 2_000));
            db.PageCount.Should().BeGreaterThan(committed, "the transaction sees its own pages");
            RunThreads(failures, ("elsewhere", () => seen = db.PageCount));
            tx.Commit();
        }
        failures.Should().BeEmpty();
        seen.Should().Be(committed);
        RunThreads(failures, ("after", () => seen = db.PageCount));
        seen.Should().Be(db.WritablePager.PageCount);
    }

    [Fact]
    public void Switching_to_wal_while_another_threads_reader_is_open_is_refused_before_anything_is_written()
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, SharcJournalMode.Delete);
        using var db = SharcDatabase.Open(path, Writable());
        var failures = new ConcurrentQueue<string>();
        Exception? seen = null;
        using (var reader = db.CreateReader("acct", "bal"))
        {
            reader.Read().Should().BeTrue();
            RunThreads(failures, ("switch", () =>
            {
                try
                {
                    db.SetJournalMode(SharcJournalMode.Wal);
                }
                catch (InvalidOperationException e)
                {
                    seen = e;
                }
            }));
            failures.Should().BeEmpty();
            seen.Should().NotBeNull();
            db.JournalMode.Should().Be(SharcJournalMode.Delete);
            long n = 1;
            while (reader.Read()) n++;
            n.Should().Be(Accounts);
        }
        db.SetJournalMode(SharcJournalMode.Wal);
        Transfer(db, new Random(5));
        CheckBank(db).Should().BeNull();
        db.Dispose();
        AssertBankFile(path);
    }

    // ------------------------------------------------------------------ 4. DDL beside queries

    [Theory]
    [InlineData(SharcJournalMode.Delete, 31, SharcAutoVacuum.None)]
    [InlineData(SharcJournalMode.Wal, 32, SharcAutoVacuum.None)]
    [InlineData(SharcJournalMode.Delete, 33, SharcAutoVacuum.Full)]
    [InlineData(SharcJournalMode.Wal, 34, SharcAutoVacuum.Full)]
    public void Ddl_on_other_tables_never_gives_queries_prepared_statements_or_seeks_wrong_results_or_corruption(SharcJournalMode mode, int seed, SharcAutoVacuum vacuum)
    {
        // With auto_vacuum, CREATE TABLE and DROP TABLE move root pages (the queried table's among them).
        using var dir = new TempDir();
        string path = CreateBank(dir, mode, vacuum);
        var failures = new ConcurrentQueue<string>();
        int ddlLeft = 1;
        using (var db = SharcDatabase.Open(path, Writable(autoCheckpoint: 10)))
        {
            // Only the schema changes: each account's balance stays 1,000. Nobody touches acct, so no statement or
            // reader may fail either: SQL plans again, and a cursor reader plans the same read over the new schema.
            void Guard(string who, Action body)
            {
                while (Volatile.Read(ref ddlLeft) > 0) body();
            }
            RunThreads(failures,
                ("ddl", () =>
                {
                    try
                    {
                        var rnd = new Random(seed);
                        for (int i = 0; i < 40; i++)
                        {
                            db.Execute($"CREATE TABLE s{i}(a INTEGER PRIMARY KEY, b TEXT)");
                            db.Execute($"CREATE INDEX s{i}_b ON s{i}(b)");
                            using (var tx = db.BeginTransaction())
                            {
                                for (int k = 0; k < 30; k++) db.Execute($"INSERT INTO s{i}(b) VALUES (?1)", Pad(k, PadLength(rnd)));
                                tx.Commit();
                            }
                            db.Execute($"ALTER TABLE s{i} ADD COLUMN c INT DEFAULT 7");
                            if (i > 0 && rnd.Next(2) == 0) db.Execute($"DROP TABLE s{i - 1}");
                        }
                    }
                    finally
                    {
                        Volatile.Write(ref ddlLeft, 0);
                    }
                }),
                ("query", () => Guard("query", () =>
                {
                    if (CheckBank(db) is { } f) failures.Enqueue(f);
                })),
                ("prepared query", () =>
                {
                    using var prepared = db.Prepare("SELECT bal, pad FROM acct WHERE id = ?1");
                    var rnd = new Random(seed + 1);
                    Guard("prepared query", () =>
                    {
                        long id = rnd.Next(1, Accounts + 1);
                        var r = prepared.Execute(id);
                        if (!r.Read() || r.GetInt64(0) != Balance || !PadFits(id, r.GetString(1))) failures.Enqueue($"prepared query got a wrong row {id}");
                        if (r.Read()) failures.Enqueue("prepared query got two rows for one id");
                    });
                }),
                ("prepared seek", () =>
                {
                    var rnd = new Random(seed + 2);
                    PreparedReader? reader = null;
                    try
                    {
                        Guard("prepared seek", () =>
                        {
                            reader ??= db.PrepareReader("acct", "bal", "pad");
                            long id = rnd.Next(1, Accounts + 1);
                            if (!reader.Seek(id) || reader.GetInt64(0) != Balance || !PadFits(id, reader.GetString(1)))
                                failures.Enqueue($"seek got a wrong row {id}");
                        });
                    }
                    finally
                    {
                        reader?.Dispose();
                    }
                }));
            failures.Should().BeEmpty();
            AssertNoSnapshotLeft(db);
            CheckBank(db).Should().BeNull();
        }
        AssertBankFile(path);
    }

    // ------------------------------------------------------------------ 5. prepared statements beside commits

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void Each_execute_and_seek_of_a_prepared_statement_sees_the_latest_commit_and_a_positioned_reader_keeps_its_own(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, mode);
        var failures = new ConcurrentQueue<string>();
        long published = 0, commits = 0;
        int writerLeft = 1;
        using (var db = SharcDatabase.Open(path, Writable(autoCheckpoint: 10)))
        {
            db.Execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, v INT NOT NULL)");
            db.Execute("CREATE TABLE gen(id INTEGER PRIMARY KEY, g INT NOT NULL, pad TEXT)");
            db.Execute("INSERT INTO counter VALUES (1, 0)");
            for (long i = 1; i <= 40; i++) db.Execute("INSERT INTO gen VALUES (?1, 0, ?2)", i, new string('g', 100));
            const int Commits = 200;
            RunThreads(failures,
                ("writer", () =>
                {
                    try
                    {
                        for (int i = 1; i <= Commits; i++)
                        {
                            using (var tx = db.BeginTransaction())
                            {
                                db.Execute("UPDATE counter SET v = ?1 WHERE id = 1", (long)i);
                                db.Execute("UPDATE gen SET g = ?1, pad = ?2", (long)i, new string('g', 100 + i % 500));
                                tx.Commit();
                            }
                            Volatile.Write(ref published, i);
                            Interlocked.Increment(ref commits);
                        }
                    }
                    finally
                    {
                        Volatile.Write(ref writerLeft, 0);
                    }
                }),
                ("prepared query", () =>
                {
                    using var prepared = db.Prepare("SELECT v FROM counter WHERE id = ?1");
                    long last = 0;
                    while (Volatile.Read(ref writerLeft) > 0)
                    {
                        long before = Volatile.Read(ref published);
                        var r = prepared.Execute(1L);
                        r.Read();
                        long v = r.GetInt64(0);
                        if (v < before || v < last) failures.Enqueue($"execute read {v} after commit {before} was published (last {last})");
                        last = v;
                    }
                }),
                ("prepared seek", () =>
                {
                    using var reader = db.PrepareReader("counter", "v");
                    long last = 0;
                    while (Volatile.Read(ref writerLeft) > 0)
                    {
                        long before = Volatile.Read(ref published);
                        reader.Seek(1).Should().BeTrue();
                        long v = reader.GetInt64(0);
                        if (v < before || v < last) failures.Enqueue($"seek read {v} after commit {before} was published (last {last})");
                        last = v;
                    }
                }),
                ("positioned reader", () =>
                {
                    using var prepared = db.Prepare("SELECT g, pad FROM gen ORDER BY id");
                    while (Volatile.Read(ref writerLeft) > 0)
                    {
                        var r = prepared.Execute();
                        long? g = null;
                        int n = 0;
                        string? pad = null;
                        while (r.Read())
                        {
                            n++;
                            g ??= r.GetInt64(0);
                            pad ??= r.GetString(1);
                            if (r.GetInt64(0) != g || r.GetString(1) != pad) failures.Enqueue($"rows of one run came from two commits ({g} and {r.GetInt64(0)})");
                            if (n % 10 == 0) AwaitCount(ref commits, Volatile.Read(ref commits) + 1, rounds: 20);
                        }
                        if (n != 40) failures.Enqueue($"a run read {n} rows");
                    }
                }));
            failures.Should().BeEmpty();
            AssertNoSnapshotLeft(db);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT v FROM counter")[0][0].Should().Be(200L);
    }

    // ------------------------------------------------------------------ 6. rollbacks

    [Theory]
    [InlineData(SharcJournalMode.Delete, 41)]
    [InlineData(SharcJournalMode.Wal, 42)]
    public void Rolled_back_transactions_and_failed_statements_are_never_visible_to_readers(SharcJournalMode mode, int seed)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, mode);
        var failures = new ConcurrentQueue<string>();
        long commits = 0, keys = 0;
        int writersLeft = 2;
        using (var db = SharcDatabase.Open(path, Writable(autoCheckpoint: 10)))
        {
            db.Execute("CREATE TABLE u(k INTEGER UNIQUE NOT NULL, doomed INT NOT NULL, pad TEXT)");
            db.Execute("INSERT INTO u VALUES (0, 0, 'zero')");
            Action Writer(int s) => () =>
            {
                try
                {
                    var rnd = new Random(seed * 10 + s);
                    for (int i = 0; i < 80; i++)
                    {
                        long from = rnd.Next(1, Accounts + 1), to = from % Accounts + 1;
                        switch (rnd.Next(3))
                        {
                            case 0:
                                // Explicit rollback after changes that would break the total.
                                using (var tx = db.BeginTransaction())
                                {
                                    db.Execute("UPDATE acct SET bal = bal - 500, pad = ?2 WHERE id = ?1", from, Pad(from, PadLength(rnd)));
                                    db.Execute("INSERT INTO u VALUES (?1, 1, ?2)", -1 - Interlocked.Increment(ref keys), Pad(1, 3_000));
                                    tx.Rollback();
                                }
                                break;
                            case 1:
                                // A statement fails on UNIQUE after inserting rows; the transaction goes on and commits.
                                using (var tx = db.BeginTransaction())
                                {
                                    db.Execute("UPDATE acct SET bal = bal - 5 WHERE id = ?1", from);
                                    long a = 1_000_000 + Interlocked.Increment(ref keys), b = 1_000_000 + Interlocked.Increment(ref keys);
                                    try
                                    {
                                        db.Execute("INSERT INTO u VALUES (?1, 1, ?3), (?2, 1, ?3), (0, 1, ?3)", a, b, Pad(2, 2_000));
                                        failures.Enqueue("a duplicate key was accepted");
                                    }
                                    catch (SharcConstraintException)
                                    {
                                    }
                                    db.Execute("UPDATE acct SET bal = bal + 5 WHERE id = ?1", to);
                                    tx.Commit();
                                }
                                break;
                            default:
                                // An autocommit statement fails part way: nothing of it stays.
                                try
                                {
                                    db.Execute("INSERT INTO u SELECT 2000000 + ?1 + id, 1, pad FROM acct WHERE id < 5 UNION ALL SELECT 0, 1, 'dup'", Interlocked.Add(ref keys, 10) * 10);
                                    failures.Enqueue("an insert of a duplicate key was accepted");
                                }
                                catch (SharcConstraintException)
                                {
                                }
                                break;
                        }
                        Interlocked.Increment(ref commits);
                    }
                }
                finally
                {
                    Interlocked.Decrement(ref writersLeft);
                }
            };
            string? CheckDoomed()
            {
                using var q = db.Query("SELECT count(*), total(doomed) FROM u");
                q.Read();
                return q.GetInt64(0) == 1 && q.GetDouble(1) == 0 ? null : $"u holds {q.GetInt64(0)} rows, doomed {q.GetDouble(1)}";
            }
            RunThreads(failures,
                ("writer 1", Writer(1)),
                ("writer 2", Writer(2)),
                ("doomed reader", () =>
                {
                    while (Volatile.Read(ref writersLeft) > 0)
                        if (CheckDoomed() is { } f) failures.Enqueue(f);
                }),
                ("held reader", () =>
                {
                    while (Volatile.Read(ref writersLeft) > 0)
                    {
                        using var r = db.CreateReader("acct", "id", "bal", "pad");
                        long sum = 0, n = 0;
                        while (r.Read())
                        {
                            sum += r.GetInt64(1);
                            if (!PadFits(r.GetInt64(0), r.GetString(2))) failures.Enqueue("a pad of another row");
                            if (++n % 20 == 0) AwaitCount(ref commits, Volatile.Read(ref commits) + 1, rounds: 30);
                        }
                        if (sum != Total || n != Accounts) failures.Enqueue($"held reader saw {n} rows summing {sum}");
                    }
                }));
            failures.Should().BeEmpty();
            AssertNoSnapshotLeft(db);
            CheckDoomed().Should().BeNull();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT sum(bal), count(*) FROM acct")[0].Should().Equal(Total, (long)Accounts);
        Oracle.Rows(path, "SELECT count(*) FROM u")[0][0].Should().Be(1L);
    }

    // ------------------------------------------------------------------ 7. several database objects on one file

    [Theory]
    [InlineData(51)]
    [InlineData(52)]
    public void Several_database_objects_on_one_file_each_with_its_own_threads_and_one_shared_keep_the_invariant(int seed)
    {
        using var dir = new TempDir();
        string path = CreateBank(dir, SharcJournalMode.Delete);
        var failures = new ConcurrentQueue<string>();
        long committed = 0, busy = 0;
        int writersLeft = 5;
        var options = Writable(spill: 16);
        var privates = Enumerable.Range(0, 3).Select(_ => SharcDatabase.Open(path, options)).ToList();
        using var shared = SharcDatabase.Open(path, options);
        try
        {
            Action Writer(SharcDatabase db, int s) => () =>
            {
                try
                {
                    var rnd = new Random(seed * 10 + s);
                    for (int i = 0; i < 50; i++)
                    {
                        try
                        {
                            Transfer(db, rnd);
                            Interlocked.Increment(ref committed);
                        }
                        catch (SharcBusyException)
                        {
                            Interlocked.Increment(ref busy);
                        }
                    }
                }
                finally
                {
                    Interlocked.Decrement(ref writersLeft);
                }
            };
            Action Reader(SharcDatabase db) => () =>
            {
                while (Volatile.Read(ref writersLeft) > 0)
                    if (CheckBank(db) is { } f) failures.Enqueue(f);
            };
            var bodies = new List<(string, Action)>();
            for (int i = 0; i < privates.Count; i++)
            {
                bodies.Add(($"writer {i}", Writer(privates[i], i)));
                bodies.Add(($"reader {i}", Reader(privates[i])));
            }
            bodies.Add(("shared writer a", Writer(shared, 10)));
            bodies.Add(("shared writer b", Writer(shared, 11)));
            bodies.Add(("shared reader", Reader(shared)));
            RunThreads(failures, bodies.ToArray());

            failures.Should().BeEmpty();
            committed.Should().BeGreaterThan(0);
            (committed + busy).Should().Be(250);
            foreach (var db in privates.Append(shared))
            {
                AssertNoSnapshotLeft(db);
                CheckBank(db).Should().BeNull();
            }
        }
        finally
        {
            privates.ForEach(d => d.Dispose());
        }
        shared.Dispose();
        File.Exists(path + "-journal").Should().BeFalse();
        AssertBankFile(path);
    }
}
