using Sharc.Storage.IO;
using Sharc.Storage.Journal;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage.Concurrency;

/// <summary>
/// The contract of a <see cref="SharcDatabase"/> shared by threads, one rule per test, driven step by step with
/// events (no timing): writes wait for another thread's transaction, reads see only committed data, a transaction
/// sees its own, readers keep their snapshot across commits, connections in one process exclude each other.
/// </summary>
public class ThreadContractTests : IDisposable
{
    // One folder per test; when the test is over, its database must pass SQLite's integrity_check and read the same
    // rows in SQLite as in Sharc.
    private readonly TempDir _dir = new();

    public void Dispose()
    {
        string path = _dir.File("c.db");
        try
        {
            if (!File.Exists(path)) return;
            Oracle.IntegrityCheck(path).Should().Be("ok");
            var expected = Oracle.Rows(path, "SELECT id, v FROM t ORDER BY id").Select(r => $"{r[0]}|{r[1]}").ToList();
            using var db = SharcDatabase.Open(path);
            var actual = new List<string>();
            using (var r = db.CreateReader("t", "id", "v"))
                while (r.Read()) actual.Add($"{r.GetInt64(0)}|{r.GetString(1)}");
            actual.Should().Equal(expected);
        }
        finally
        {
            _dir.Dispose();
        }
    }

    private static SharcDatabase NewDatabase(TempDir dir, SharcJournalMode mode = SharcJournalMode.Delete, TimeSpan? busy = null)
    {
        string path = dir.File("c.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = mode }))
        {
            db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            db.Execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
        }
        return SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = busy ?? TimeSpan.FromSeconds(30) });
    }

    /// <summary>
    /// Runs <paramref name="work"/> on another thread outside this flow: a task started inside a transaction's flow
    /// belongs to the transaction (as with an ambient TransactionScope), so the test suppresses the flow.
    /// </summary>
    private static Task<T> Elsewhere<T>(Func<T> work)
    {
        // A thread of its own: a task could be run inline by the waiting thread, inside the flow.
        var done = new TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() =>
        {
            try
            {
                done.SetResult(work());
            }
            catch (Exception e)
            {
                done.SetException(e);
            }
        });
        using (ExecutionContext.SuppressFlow()) thread.Start();
        return done.Task;
    }

    private static Task Elsewhere(Action work) => Elsewhere(() => { work(); return 0; });

    private static long Count(SharcDatabase db)
    {
        using var q = db.Query("SELECT count(*) FROM t");
        q.Read().Should().BeTrue();
        return q.GetInt64(0);
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void Another_threads_write_waits_for_the_open_transaction_and_its_reads_see_only_committed_rows(SharcJournalMode mode)
    {
        var dir = _dir;
        using var db = NewDatabase(dir, mode);
        var tx = db.BeginTransaction();
        db.Execute("INSERT INTO t VALUES (3, 'three')");
        Count(db).Should().Be(3, "the transaction's thread reads its own change");

        long seenByOther = -1;
        Elsewhere(() => seenByOther = Count(db)).Wait();
        seenByOther.Should().Be(2, "another thread sees committed data only");

        var started = new ManualResetEventSlim();
        var otherWrite = Elsewhere(() =>
        {
            started.Set();
            db.Execute("INSERT INTO t VALUES (4, 'four')");
            return Count(db);
        });
        started.Wait();
        // The other thread's statement cannot finish before the transaction ends: it waits for the write lock.
        otherWrite.Wait(200).Should().BeFalse();
        Count(db).Should().Be(3, "the waiting write has not joined the transaction");
        tx.Commit();
        otherWrite.Wait(TimeSpan.FromSeconds(30)).Should().BeTrue();
        otherWrite.Result.Should().Be(4);
        tx.Dispose();
        db.Dispose();
        Oracle.IntegrityCheck(dir.File("c.db")).Should().Be("ok");
    }

    [Fact]
    public void A_rolled_back_transaction_was_never_visible_to_other_threads()
    {
        var dir = _dir;
        using var db = NewDatabase(dir);
        using (var tx = db.BeginTransaction())
        {
            db.Execute("DELETE FROM t");
            db.Execute("CREATE TABLE u(x)");
            Elsewhere(() => Count(db)).Result.Should().Be(2);
            Elsewhere(() => db.Schema.FindTable("u")).Result.Should().BeNull("another thread sees the committed schema");
            db.Schema.FindTable("u").Should().NotBeNull("the transaction sees its own schema");
        }
        Count(db).Should().Be(2);
        db.Schema.FindTable("u").Should().BeNull();
    }

    [Fact]
    public void A_write_on_another_thread_times_out_with_a_busy_error_while_a_transaction_stays_open()
    {
        var dir = _dir;
        using var db = NewDatabase(dir, busy: TimeSpan.FromMilliseconds(100));
        using var tx = db.BeginTransaction();
        var e = Elsewhere(() => db.Invoking(x => x.Insert("t", null, "late")).Should().Throw<SharcBusyException>()).Result;
        e.Which.Message.Should().Contain("another thread");
        Elsewhere(() => db.Invoking(x => x.BeginTransaction()).Should().Throw<SharcBusyException>()).Wait();
    }

    [Fact]
    public void A_second_transaction_on_the_same_thread_is_refused_and_sql_begin_says_so_as_sqlite_does()
    {
        var dir = _dir;
        using var db = NewDatabase(dir);
        using var tx = db.BeginTransaction();
        db.Invoking(x => x.BeginTransaction()).Should().Throw<InvalidOperationException>();
        db.Invoking(x => x.Execute("BEGIN")).Should().Throw<SharcSqlException>().WithMessage("*cannot start a transaction within a transaction*");
    }

    [Fact]
    public void Sql_commit_on_another_thread_does_not_commit_this_threads_transaction()
    {
        var dir = _dir;
        using var db = NewDatabase(dir);
        db.Execute("BEGIN");
        db.Execute("INSERT INTO t VALUES (3, 'three')");
        Elsewhere(() => db.Invoking(x => x.Execute("COMMIT")).Should().Throw<SharcSqlException>().WithMessage("*no transaction is active*")).Wait();
        Elsewhere(() => Count(db)).Result.Should().Be(2);
        db.Execute("COMMIT");
        Elsewhere(() => Count(db)).Result.Should().Be(3);
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void A_reader_keeps_its_snapshot_across_commits_and_a_new_seek_reads_the_latest(SharcJournalMode mode)
    {
        var dir = _dir;
        using var db = NewDatabase(dir, mode);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 3; i <= 500; i++) db.Insert("t", (long)i, new string('r', 40 + i % 200));
            tx.Commit();
        }
        using var reader = db.CreateReader("t", "id", "v");
        reader.Read().Should().BeTrue();
        reader.GetInt64(0).Should().Be(1);

        // Other threads rewrite and delete most rows (and so most pages) and add more while the reader is positioned.
        Elsewhere(() =>
        {
            db.Execute("UPDATE t SET v = 'changed' WHERE id % 2 = 0");
            db.Execute("DELETE FROM t WHERE id > 100");
            for (int i = 0; i < 20; i++) db.Insert("t", null, "new");
        }).Wait();

        long n = 1;
        while (reader.Read())
        {
            n++;
            reader.GetString(1).Should().NotBe("changed");
        }
        n.Should().Be(500, "the reader saw the version it started on, from its first row to its last");

        using var prepared = db.PrepareReader("t", "v");
        prepared.Seek(2).Should().BeTrue();
        prepared.GetString(0).Should().Be("changed");
        Elsewhere(() => db.Execute("UPDATE t SET v = 'again' WHERE id = 2")).Wait();
        prepared.Seek(2).Should().BeTrue();
        prepared.GetString(0).Should().Be("again", "a new seek reads the latest commit");
        Count(db).Should().Be(120);
    }

    [Fact]
    public void Two_connections_in_one_process_exclude_each_others_writes()
    {
        var dir = _dir;
        using var first = NewDatabase(dir);
        using var second = SharcDatabase.Open(dir.File("c.db"), new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromMilliseconds(100) });
        using (var tx = first.BeginTransaction())
        {
            first.Insert("t", null, "first");
            // The first connection holds RESERVED: the second cannot start writing, in this process as in another.
            second.Invoking(x => x.Insert("t", null, "second")).Should().Throw<SharcBusyException>();
            tx.Commit();
        }
        second.Insert("t", null, "second");
        Count(first).Should().Be(4);
        Count(second).Should().Be(4);
    }

    [Fact]
    public void Last_changes_is_the_calling_threads_own()
    {
        var dir = _dir;
        using var db = NewDatabase(dir);
        db.Execute("UPDATE t SET v = v || '!'");
        db.LastChanges.Should().Be(2);
        Elsewhere(() =>
        {
            db.Execute("UPDATE t SET v = 'x' WHERE id = 1");
            return db.LastChanges;
        }).Result.Should().Be(1);
        db.LastChanges.Should().Be(2, "another thread's statement does not change this thread's count");
    }

    [Fact]
    public void A_journal_removed_between_looking_and_opening_is_not_hot()
    {
        var dir = _dir;
        HotJournal.IsHot(new VanishingJournal(), dir.File("x.db-journal")).Should().BeFalse();
    }

    /// <summary>A file system where the journal exists when its length is asked and is gone when it is opened.</summary>
    private sealed class VanishingJournal : IStorageSystem
    {
        public IStorageFile Open(string path, bool create) => throw new FileNotFoundException(path);
        public IStorageFile OpenReadOnly(string path) => throw new FileNotFoundException(path);
        public bool Exists(string path) => true;
        public long LengthOf(string path) => 512;
        public void Delete(string path) { }
        public void Replace(string source, string destination) { }
        public void SyncDirectory(string path) { }
    }
}

/// <summary>Tasks started inside a transaction's flow belong to it: they see its changes and write into it, one statement at a time.</summary>
public class TransactionFlowTests
{
    [Fact]
    public async Task Tasks_started_inside_a_transaction_write_into_it_one_statement_at_a_time()
    {
        using var dir = new TempDir();
        string path = dir.File("flow.db");
        using var db = SharcDatabase.Create(path);
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        db.Execute("CREATE INDEX t_v ON t(v)");
        using (var tx = db.BeginTransaction())
        {
            await Task.WhenAll(Enumerable.Range(0, 4).Select(k => Task.Run(() =>
            {
                for (int i = 0; i < 200; i++) db.Insert("t", null, $"task{k}-{i}");
            })));
            tx.Commit();
        }
        db.CheckIntegrity().Should().BeEmpty();
        db.Dispose();
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0].Should().Equal(800L);
    }
}
