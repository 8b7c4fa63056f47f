using System.Collections.Concurrent;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage.Concurrency;

/// <summary>
/// The bank invariant under threads: 100 accounts of 1,000 each, writer threads moving money between two accounts
/// (and logging each transfer), reader threads checking that the total and the count never move. Bounded by a
/// number of transfers per writer (seeded), never by time; every run ends with SQLite's integrity_check, the
/// invariant, and the ledger agreeing with the transfers that reported success.
/// </summary>
public class SharedDatabaseStressTests
{
    private const int Accounts = 100;
    private const long Total = 100_000;

    public enum Sharing { SharedDatabase, DatabasePerThread }

    public enum Writes { Statements, Transactions }

    [Theory]
    [InlineData(Sharing.SharedDatabase, SharcJournalMode.Delete, Writes.Statements)]
    [InlineData(Sharing.SharedDatabase, SharcJournalMode.Delete, Writes.Transactions)]
    [InlineData(Sharing.SharedDatabase, SharcJournalMode.Wal, Writes.Statements)]
    [InlineData(Sharing.SharedDatabase, SharcJournalMode.Wal, Writes.Transactions)]
    [InlineData(Sharing.DatabasePerThread, SharcJournalMode.Delete, Writes.Statements)]
    [InlineData(Sharing.DatabasePerThread, SharcJournalMode.Delete, Writes.Transactions)]
    [InlineData(Sharing.DatabasePerThread, SharcJournalMode.Wal, Writes.Transactions)]
    public void Transfers_between_accounts_keep_the_total_for_every_reader_and_leave_a_valid_file(Sharing sharing, SharcJournalMode mode, Writes writes)
    {
        using var dir = new TempDir();
        string path = dir.File("bank.db");
        CreateBank(path, mode);
        var options = new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromSeconds(30) };
        using var shared = sharing == Sharing.SharedDatabase ? SharcDatabase.Open(path, options) : null;
        SharcDatabase Db() => shared ?? SharcDatabase.Open(path, options);
        void Done(SharcDatabase db)
        {
            if (shared is null) db.Dispose();
        }

        const int Writers = 4, Readers = 3, TransfersPerWriter = 150;
        var failures = new ConcurrentQueue<string>();
        long committed = 0, reads = 0;
        int writersLeft = Writers;
        var threads = new List<Thread>();
        for (int w = 0; w < Writers; w++)
        {
            int seed = 1000 + w;
            threads.Add(new Thread(() =>
            {
                var db = Db();
                try
                {
                    var rnd = new Random(seed);
                    for (int i = 0; i < TransfersPerWriter; i++)
                    {
                        long from = rnd.Next(1, Accounts + 1), to = rnd.Next(1, Accounts + 1), amount = rnd.Next(1, 50);
                        if (from == to) to = from % Accounts + 1;
                        try
                        {
                            Transfer(db, writes, from, to, amount, seed * 10_000 + i);
                            Interlocked.Increment(ref committed);
                        }
                        catch (Exception e)
                        {
                            failures.Enqueue($"writer {seed}: {e.GetType().Name}: {e.Message}");
                        }
                    }
                }
                finally
                {
                    Done(db);
                    Interlocked.Decrement(ref writersLeft);
                }
            }));
        }
        for (int r = 0; r < Readers; r++)
        {
            bool slow = r == 0; // holds one reader open across many commits
            threads.Add(new Thread(() =>
            {
                var db = Db();
                try
                {
                    do
                    {
                        try
                        {
                            if (slow && shared is not null) CheckSlowly(db, failures);
                            else
                            {
                                using var q = db.Query("SELECT sum(balance), count(*) FROM account");
                                q.Read().Should().BeTrue();
                                if (q.GetInt64(0) != Total || q.GetInt64(1) != Accounts)
                                    failures.Enqueue($"reader saw sum {q.GetInt64(0)}, count {q.GetInt64(1)}");
                            }
                            Interlocked.Increment(ref reads);
                        }
                        catch (Exception e)
                        {
                            failures.Enqueue($"reader: {e.GetType().Name}: {e.Message}");
                        }
                    }
                    while (Volatile.Read(ref writersLeft) > 0);
                }
                finally
                {
                    Done(db);
                }
            }));
        }
        foreach (var t in threads) t.Start();
        foreach (var t in threads) t.Join();

        failures.Should().BeEmpty();
        committed.Should().Be(Writers * TransfersPerWriter);
        reads.Should().BeGreaterThan(0);
        if (shared is not null)
        {
            // Every snapshot ended, so no kept page image outlives the readers that needed it.
            shared.WritablePager.Concurrency.HasReaders.Should().BeFalse();
            shared.WritablePager.KeptImages.Should().Be(0);
        }
        shared?.Dispose();
        Oracle.IntegrityCheck(path).Should().Be("ok");
        var sums = Oracle.Rows(path, "SELECT sum(balance), count(*), (SELECT count(*) FROM ledger) FROM account");
        sums[0].Should().Equal(Total, (long)Accounts, committed);
    }

    private static void CreateBank(string path, SharcJournalMode mode)
    {
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = mode });
        db.Execute("CREATE TABLE account(id INTEGER PRIMARY KEY, balance INT NOT NULL)");
        db.Execute("CREATE TABLE ledger(id INTEGER PRIMARY KEY, src INT, dst INT, amount INT, tag INT UNIQUE)");
        db.Execute("CREATE INDEX ledger_src ON ledger(src, amount)");
        using var tx = db.BeginTransaction();
        for (int i = 1; i <= Accounts; i++) db.Insert("account", (long)i, Total / Accounts);
        tx.Commit();
    }

    private static void Transfer(SharcDatabase db, Writes writes, long from, long to, long amount, long tag)
    {
        if (writes == Writes.Statements)
        {
            // One statement moves the money; a second one (its own transaction) logs it.
            db.Execute("UPDATE account SET balance = balance + CASE id WHEN ?1 THEN -?3 ELSE ?3 END WHERE id IN (?1, ?2)", from, to, amount);
            db.Execute("INSERT INTO ledger(src, dst, amount, tag) VALUES (?1, ?2, ?3, ?4)", from, to, amount, tag);
            return;
        }
        using var tx = db.BeginTransaction();
        db.Execute("UPDATE account SET balance = balance - ?2 WHERE id = ?1", from, amount);
        // The transaction's own reads see its own change.
        using (var own = db.Query("SELECT sum(balance) FROM account"))
        {
            own.Read();
            if (own.GetInt64(0) != Total - amount) throw new InvalidOperationException($"the transaction read {own.GetInt64(0)}, not its own change");
        }
        db.Execute("UPDATE account SET balance = balance + ?2 WHERE id = ?1", to, amount);
        db.Insert("ledger", null, from, to, amount, tag);
        tx.Commit();
    }

    /// <summary>A reader walked slowly, row by row, while writers commit: it must see one snapshot throughout.</summary>
    private static void CheckSlowly(SharcDatabase db, ConcurrentQueue<string> failures)
    {
        using var r = db.CreateReader("account", "balance");
        long sum = 0;
        int n = 0;
        while (r.Read())
        {
            sum += r.GetInt64(0);
            n++;
            if (n % 10 == 0) Thread.Sleep(1);
        }
        if (sum != Total || n != Accounts) failures.Enqueue($"slow reader saw sum {sum}, count {n}");
    }

    [Fact]
    public void Two_threads_inserting_through_one_database_leave_every_row_and_a_valid_file()
    {
        using var dir = new TempDir();
        string path = dir.File("ins.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            db.Execute("CREATE INDEX t_v ON t(v)");
            const int PerThread = 400;
            var errors = new ConcurrentQueue<Exception>();
            var threads = Enumerable.Range(0, 2).Select(k => new Thread(() =>
            {
                try
                {
                    for (int i = 0; i < PerThread; i++) db.Execute("INSERT INTO t(v) VALUES (?1)", $"thread{k}-{i:D5}-{new string('x', i % 300)}");
                }
                catch (Exception e)
                {
                    errors.Enqueue(e);
                }
            })).ToList();
            threads.ForEach(t => t.Start());
            threads.ForEach(t => t.Join());
            errors.Should().BeEmpty();
            db.CheckIntegrity().Should().BeEmpty();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*), count(DISTINCT v) FROM t")[0].Should().Equal(800L, 800L);
    }

    [Fact]
    public void A_query_loop_on_one_thread_sees_only_whole_commits_of_an_inserting_thread()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("q.db"));
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        var errors = new ConcurrentQueue<string>();
        int done = 0;
        var writer = new Thread(() =>
        {
            try
            {
                for (int i = 0; i < 300; i++)
                {
                    using var tx = db.BeginTransaction();
                    for (int k = 0; k < 10; k++) db.Insert("t", null, new string('v', 50 + (i * 7 + k) % 400));
                    tx.Commit();
                }
            }
            catch (Exception e)
            {
                errors.Enqueue("writer: " + e);
            }
            finally
            {
                Volatile.Write(ref done, 1);
            }
        });
        writer.Start();
        long last = 0;
        while (Volatile.Read(ref done) == 0)
        {
            try
            {
                using var q = db.Query("SELECT count(*) FROM t");
                q.Read();
                long n = q.GetInt64(0);
                // Transactions insert ten rows: a count between commits would be a torn read.
                if (n % 10 != 0 || n < last) errors.Enqueue($"count {n} after {last}");
                last = n;
            }
            catch (Exception e)
            {
                errors.Enqueue("reader: " + e.GetType().Name + ": " + e.Message);
            }
        }
        writer.Join();
        errors.Should().BeEmpty();
        using var final = db.Query("SELECT count(*) FROM t");
        final.Read();
        final.GetInt64(0).Should().Be(3000);
    }
}
