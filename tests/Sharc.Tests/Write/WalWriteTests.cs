using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Writing WAL-mode databases: commits are appended to the -wal file in SQLite's format, and SQLite (which rebuilds
/// its wal-index from that file) sees exactly what Sharc committed, with and without a checkpoint.
/// </summary>
public class WalWriteTests
{
    private static SharcDatabase CreateWal(string path, int pageSize = 4096, int autoCheckpoint = 1000)
        => SharcDatabase.Create(path, new SharcCreateOptions
        {
            PageSize = pageSize,
            JournalMode = SharcJournalMode.Wal,
            Open = new SharcOpenOptions { Writable = true, WalAutoCheckpoint = autoCheckpoint },
        });

    private static void Fill(SharcDatabase db, int from, int count)
    {
        using var tx = db.BeginTransaction();
        for (int i = from; i < from + count; i++) db.Insert("t", (long)i, "row " + i + new string('x', i % 97));
        tx.Commit();
    }

    /// <summary>
    /// SQLite writes <paramref name="rows"/> rows in WAL mode (no checkpoint) and the files are copied while its
    /// connection is still open, so the copy keeps the commits in its log (and, if asked, SQLite's -shm).
    /// </summary>
    private static void SqliteWalCopy(TempDir dir, string path, int rows, params string[] sides)
    {
        string live = dir.File("live.db");
        using var c = Oracle.Open(live);
        Oracle.Exec(c, "PRAGMA journal_mode=WAL");
        Oracle.Exec(c, "PRAGMA wal_autocheckpoint=0");
        Oracle.Exec(c, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        Oracle.Exec(c, "CREATE INDEX t_b ON t(b)");
        for (int i = 1; i <= rows; i++) Oracle.Exec(c, "INSERT INTO t VALUES($a, $b)", ("$a", i), ("$b", "sqlite " + i));
        File.Copy(live, path);
        foreach (var side in sides) File.Copy(live + side, path + side);
    }

    private static List<object?[]> Rows(string path) => Oracle.Rows(path, "SELECT a, b FROM t ORDER BY a");

    [Fact]
    public void CommitsGoToTheWalAndSqliteReadsThemWithoutACheckpoint()
    {
        using var dir = new TempDir();
        string path = dir.File("w.db");
        using (var db = CreateWal(path))
        {
            db.JournalMode.Should().Be(SharcJournalMode.Wal);
            db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            db.CreateIndex("CREATE INDEX t_b ON t(b)");
            Fill(db, 1, 300);
            Fill(db, 301, 50);
        }
        new FileInfo(path + "-wal").Length.Should().BeGreaterThan(32, "the commits live in the log");
        var wal = File.ReadAllBytes(path + "-wal");
        ((wal.Length - 32) % (24 + 4096)).Should().Be(0);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Rows(path).Should().HaveCount(350);
        Oracle.Rows(path, "PRAGMA journal_mode")[0][0].Should().Be("wal");
        using var ro = SharcDatabase.Open(path);
        OracleComparison.CompareAll(path, ro).Should().Be(2);
    }

    [Fact]
    public void CheckpointCopiesTheLogIntoTheFileAndEmptiesIt()
    {
        using var dir = new TempDir();
        string path = dir.File("w.db");
        using (var db = CreateWal(path))
        {
            db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            Fill(db, 1, 500);
            db.Checkpoint().Should().BeGreaterThan(10);
            new FileInfo(path + "-wal").Length.Should().Be(0);
            Fill(db, 501, 10);
            db.Delete("t", 3);
        }
        // The database file alone (log ignored) holds the checkpointed state.
        using (var fileOnly = SharcDatabase.Open(path, new SharcOpenOptions { ReadWal = false }))
            SharcRows.All(fileOnly, "t").Should().HaveCount(500);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Rows(path).Should().HaveCount(509);
    }

    [Fact]
    public void ALogStartedAfterACheckpointHasTheNextSequenceAndNewSalts()
    {
        using var dir = new TempDir();
        string path = dir.File("w.db");
        using var db = CreateWal(path);
        db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        var first = File.ReadAllBytes(path + "-wal");
        db.Checkpoint();
        Fill(db, 1, 5);
        var second = File.ReadAllBytes(path + "-wal");
        static uint U32(byte[] b, int at) => System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(b.AsSpan(at));
        U32(second, 0).Should().Be(BitConverter.IsLittleEndian ? 0x377f0682u : 0x377f0683u, "checksums in the machine's byte order, as SQLite");
        U32(second, 4).Should().Be(3007000u);
        U32(second, 8).Should().Be(4096u);
        U32(second, 12).Should().Be(U32(first, 12) + 1, "the checkpoint sequence moves on");
        U32(second, 16).Should().Be(U32(first, 16) + 1, "salt-1 moves on");
        U32(second, 20).Should().NotBe(U32(first, 20), "salt-2 is new");
        // The last frame is the commit frame and carries the database size.
        int frame = 24 + 4096;
        int last = 32 + ((second.Length - 32) / frame - 1) * frame;
        U32(second, last + 4).Should().Be(db.PageCount);
        U32(second, last + 8).Should().Be(U32(second, 16));
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(5L);
    }

    [Fact]
    public void AutomaticCheckpointKeepsTheLogShort()
    {
        using var dir = new TempDir();
        string path = dir.File("w.db");
        using (var db = CreateWal(path, pageSize: 1024, autoCheckpoint: 50))
        {
            db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            for (int i = 0; i < 40; i++) Fill(db, i * 20 + 1, 20);
            long max = (50 + 40) * (24 + 1024) + 32;
            new FileInfo(path + "-wal").Length.Should().BeLessThan(max);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Rows(path).Should().HaveCount(800);
    }

    [Fact]
    public void SharcReadsSqlitesUncheckpointedCommitsThenWritesMore()
    {
        using var dir = new TempDir();
        string path = dir.File("copy.db");
        SqliteWalCopy(dir, path, 200, "-wal");
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            SharcRows.All(db, "t").Should().HaveCount(200);
            Fill(db, 201, 100);
            db.Update("t", 5, ["b"], ["changed by sharc"]);
            SharcRows.All(db, "t").Should().HaveCount(300);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        var rows = Rows(path);
        rows.Should().HaveCount(300);
        rows[4][1].Should().Be("changed by sharc");
        // SQLite goes on writing after Sharc, then Sharc after SQLite.
        Oracle.Exec(path, "INSERT INTO t VALUES(1000, 'sqlite again')");
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            SharcRows.All(db, "t").Should().HaveCount(301);
            db.Insert("t", 1001L, "sharc again");
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Rows(path).Should().HaveCount(302);
    }

    [Fact]
    public void AStaleShmLeftBySqliteIsRebuiltByTheNextSqliteConnection()
    {
        // A -shm whose wal-index describes the log as SQLite left it: Sharc's later frames are not in that index, and
        // SQLite must not trust it. Being the first to open the -shm (no DMS lock held), it rebuilds it from the log.
        using var dir = new TempDir();
        string path = dir.File("copy.db");
        SqliteWalCopy(dir, path, 50, "-wal", "-shm");
        new FileInfo(path + "-shm").Length.Should().BeGreaterThan(0);
        var shmBefore = File.ReadAllBytes(path + "-shm");
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, WalSharing = SharcWalSharing.Exclusive }))
        {
            Fill(db, 51, 100);
            db.Update("t", 1, ["b"], ["sharc"]);
        }
        File.ReadAllBytes(path + "-shm").Should().Equal(shmBefore, "Sharc in sole-user mode never writes the wal-index");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        var rows = Rows(path);
        rows.Should().HaveCount(150);
        rows[0][1].Should().Be("sharc");
        rows[1][1].Should().Be("sqlite 2");
        // A writer after the rebuild appends after Sharc's frames rather than over them.
        Oracle.Exec(path, "INSERT INTO t VALUES(1000, 'sqlite after')");
        Rows(path).Should().HaveCount(151);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void SqlQueriesOnTheWritingDatabaseSeeItsCommits()
    {
        using var dir = new TempDir();
        string path = dir.File("q.db");
        using var db = CreateWal(path);
        db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        Fill(db, 1, 10);
        QueryCount(db).Should().Be(10);
        Fill(db, 11, 5);
        QueryCount(db).Should().Be(15);
        db.Checkpoint();
        Fill(db, 16, 5);
        QueryCount(db).Should().Be(20);
    }

    private static long QueryCount(SharcDatabase db)
    {
        using var r = db.Query("SELECT count(*) FROM t");
        r.Read().Should().BeTrue();
        return r.GetInt64(0);
    }

    [Fact]
    public void ReadersOfTheWritingDatabaseSeeEachCommitAndNoHalfTransaction()
    {
        using var dir = new TempDir();
        string path = dir.File("w.db");
        using var db = CreateWal(path);
        db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        Fill(db, 1, 10);
        CountRows(db).Should().Be(10);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 11; i <= 20; i++) db.Insert("t", (long)i, "x");
            tx.Commit();
        }
        CountRows(db).Should().Be(20);
        using (db.BeginTransaction())
        {
            for (int i = 21; i <= 30; i++) db.Insert("t", (long)i, "y");
            // rolled back on dispose
        }
        CountRows(db).Should().Be(20);
        db.Checkpoint();
        CountRows(db).Should().Be(20);
    }

    private static int CountRows(SharcDatabase db)
    {
        using var r = db.CreateReader("t");
        int n = 0;
        while (r.Read()) n++;
        return n;
    }

    [Fact]
    public void JournalModeCanBeSwitchedToWalAndBack()
    {
        using var dir = new TempDir();
        string path = dir.File("m.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            Fill(db, 1, 20);
            db.SetJournalMode(SharcJournalMode.Wal);
            db.JournalMode.Should().Be(SharcJournalMode.Wal);
            Fill(db, 21, 20);
            File.Exists(path + "-wal").Should().BeTrue();
        }
        Oracle.Rows(path, "PRAGMA journal_mode")[0][0].Should().Be("wal");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Rows(path).Should().HaveCount(40);
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            Fill(db, 41, 20);
            db.SetJournalMode(SharcJournalMode.Delete);
            db.JournalMode.Should().Be(SharcJournalMode.Delete);
            File.Exists(path + "-wal").Should().BeFalse();
            Fill(db, 61, 20);
        }
        Oracle.Rows(path, "PRAGMA journal_mode")[0][0].Should().Be("delete");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Rows(path).Should().HaveCount(80);
    }
}
