using Sharc.Testing;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// <see cref="SharcSnapshot"/>: readers joined to one snapshot read one committed version together, across seeks
/// and tables, while threads of the same database or other connections commit; released, it reads the latest again.
/// </summary>
public class SnapshotTests
{
    private static string CreatePair(TempDir dir, SharcJournalMode mode)
    {
        string path = dir.File($"pair-{mode}.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = mode });
        db.Execute("CREATE TABLE a(id INTEGER PRIMARY KEY, v INT)");
        db.Execute("CREATE TABLE b(id INTEGER PRIMARY KEY, v INT)");
        using var tx = db.BeginTransaction();
        for (long i = 1; i <= 200; i++)
        {
            db.Insert("a", i, 1L);
            db.Insert("b", i, 1L);
        }
        tx.Commit();
        return path;
    }

    /// <summary>Sets every v of both tables to <paramref name="v"/> in one commit, on another thread.</summary>
    private static void CommitOnAnotherThread(SharcDatabase db, long v)
    {
        var t = new Thread(() =>
        {
            using var tx = db.BeginTransaction();
            db.Execute("UPDATE a SET v = ?1", v);
            db.Execute("UPDATE b SET v = ?1", v);
            tx.Commit();
        });
        t.Start();
        t.Join();
    }

    private static long Sum(SharcDataReader reader)
    {
        long sum = 0;
        while (reader.Read()) sum += reader.GetInt64(0);
        return sum;
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void Readers_of_two_tables_joined_to_a_snapshot_see_one_commit_while_another_thread_commits(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(CreatePair(dir, mode), new SharcOpenOptions { Writable = true });
        using var snapshot = db.CreateSnapshot();
        using var a = db.CreateReader("a", "v");
        using var b = db.CreateReader("b", "v");
        a.UseSnapshot(snapshot);
        b.UseSnapshot(snapshot);

        Sum(a).Should().Be(200);
        CommitOnAnotherThread(db, 2);
        Sum(b).Should().Be(200, "b reads the version a read, not the commit made since");
        a.Seek(7).Should().BeTrue();
        a.GetInt64(0).Should().Be(1, "a seek through the snapshot stays on its version");

        snapshot.Release();
        b.UseSnapshot(snapshot); // back to before the first row
        Sum(b).Should().Be(400, "after a release the next read takes the latest commit");
        a.Seek(7).Should().BeTrue();
        a.GetInt64(0).Should().Be(2);
    }

    [Fact]
    public void Without_a_snapshot_the_second_reader_sees_the_newer_commit()
    {
        // The control for the test above: it shows what the snapshot changes.
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(CreatePair(dir, SharcJournalMode.Wal), new SharcOpenOptions { Writable = true });
        using var a = db.CreateReader("a", "v");
        using var b = db.CreateReader("b", "v");
        Sum(a).Should().Be(200);
        CommitOnAnotherThread(db, 2);
        Sum(b).Should().Be(400);
    }

    [Fact]
    public void A_snapshot_holds_its_version_against_another_connection_and_releases_every_kept_page()
    {
        using var dir = new TempDir();
        string path = CreatePair(dir, SharcJournalMode.Wal);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        using var other = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        var snapshot = db.CreateSnapshot();
        using var a = db.CreateReader("a", "v");
        using var b = db.CreateReader("b", "v");
        a.UseSnapshot(snapshot);
        b.UseSnapshot(snapshot);
        a.Seek(1).Should().BeTrue();
        other.Execute("UPDATE a SET v = 5");
        other.Execute("UPDATE b SET v = 5");
        Sum(b).Should().Be(200);
        a.Seek(200).Should().BeTrue();
        a.GetInt64(0).Should().Be(1);
        snapshot.Dispose();
        a.UseSnapshot(null);
        b.UseSnapshot(null);
        db.WritablePager.Concurrency.HasReaders.Should().BeFalse();
        Sum(b).Should().Be(1000);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void Inside_the_flows_own_transaction_a_snapshot_reads_the_transactions_changes()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(CreatePair(dir, SharcJournalMode.Delete), new SharcOpenOptions { Writable = true });
        using var tx = db.BeginTransaction();
        db.Execute("UPDATE b SET v = 3");
        using var snapshot = db.CreateSnapshot();
        using var b = db.CreateReader("b", "v");
        b.UseSnapshot(snapshot);
        Sum(b).Should().Be(600);
        snapshot.Release();
        tx.Rollback();
        b.UseSnapshot(snapshot);
        Sum(b).Should().Be(200);
    }

    [Fact]
    public void Seeks_through_a_reused_snapshot_allocate_nothing_after_warm_up()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(CreatePair(dir, SharcJournalMode.Wal), new SharcOpenOptions { Writable = true });
        var snapshot = db.CreateSnapshot();
        using var a = db.CreateReader("a", "v");
        using var b = db.CreateReader("b", "v");
        a.UseSnapshot(snapshot);
        b.UseSnapshot(snapshot);
        long key = 0;
        long bytes = AllocationMeasure.Measure(() =>
        {
            key = key % 200 + 1;
            a.Seek(key);
            b.Seek(201 - key);
            snapshot.Release();
        }, 200);
        bytes.Should().Be(0);
    }

    [Fact]
    public void A_snapshot_of_another_database_or_a_disposed_reader_is_refused()
    {
        using var dir = new TempDir();
        string path = CreatePair(dir, SharcJournalMode.Delete);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        using var other = SharcDatabase.Open(path);
        using var snapshot = other.CreateSnapshot();
        var reader = db.CreateReader("a", "v");
        var act = () => reader.UseSnapshot(snapshot);
        act.Should().Throw<ArgumentException>().WithMessage("*another database*");
        reader.Dispose();
        var disposed = () => reader.UseSnapshot(null);
        disposed.Should().Throw<ObjectDisposedException>();
    }

    [Fact]
    public void Readers_of_a_read_only_database_share_a_snapshot_too()
    {
        using var dir = new TempDir();
        string path = CreatePair(dir, SharcJournalMode.Wal);
        using var db = SharcDatabase.Open(path);
        using var snapshot = db.CreateSnapshot();
        using var a = db.CreateReader("a", "v");
        using var b = db.CreateReader("b", "v");
        a.UseSnapshot(snapshot);
        b.UseSnapshot(snapshot);
        Sum(a).Should().Be(200);
        using (var writer = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true })) writer.Execute("UPDATE b SET v = 9");
        Sum(b).Should().Be(200);
        snapshot.Release();
        b.UseSnapshot(snapshot);
        Sum(b).Should().Be(1800);
    }
}
