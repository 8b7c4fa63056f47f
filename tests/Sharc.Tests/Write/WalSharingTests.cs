using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// WAL databases shared with SQLite through the -shm wal-index: Sharc and SQLite connections (Microsoft.Data.Sqlite
/// in this process, the sqlite3 shell in others) read and write one log at the same time, each reader on its own
/// snapshot, one writer at a time, checkpoints held back by older snapshots. Linux only (open-file-description
/// locks); elsewhere Sharc falls back to sole use and these tests return early.
/// </summary>
public class WalSharingTests
{
    private static bool Shared => Sharc.Storage.Locking.OfdLock.IsSupported;

    internal static void CreateWalDb(string path, int rows = 1)
    {
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = SharcJournalMode.Wal });
        db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        using var tx = db.BeginTransaction();
        for (int i = 1; i <= rows; i++) db.Insert("t", (long)i, "row " + i);
        tx.Commit();
    }

    private static SharcOpenOptions Writable(int busyMs = 5000) => new() { Writable = true, BusyTimeout = TimeSpan.FromMilliseconds(busyMs) };

    private static long SharcCount(SharcDatabase db)
    {
        using var r = db.Query("SELECT count(*) FROM t");
        r.Read().Should().BeTrue();
        return r.GetInt64(0);
    }

    private static long SqliteCount(Microsoft.Data.Sqlite.SqliteConnection c) => (long)Oracle.Scalar(c, "SELECT count(*) FROM t")!;

    [Fact]
    public void SharcWritesWhileASqliteConnectionHoldsAReadTransactionWhichKeepsItsSnapshot()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("r.db");
        CreateWalDb(path);
        using var c = Oracle.Open(path);
        Oracle.Exec(c, "BEGIN");
        SqliteCount(c).Should().Be(1);
        using (var db = SharcDatabase.Open(path, Writable(300)))
        {
            db.IsWalShared.Should().BeTrue();
            for (int i = 2; i <= 50; i++) db.Insert("t", (long)i, "sharc " + i);
            SharcCount(db).Should().Be(50);
            SqliteCount(c).Should().Be(1, "SQLite's read transaction keeps the snapshot it began with");
            Oracle.Exec(c, "COMMIT");
            SqliteCount(c).Should().Be(50, "a new SQLite transaction sees Sharc's commits through the wal-index");
            Oracle.Exec(c, "INSERT INTO t VALUES(51, 'sqlite')");
            SharcCount(db).Should().Be(51, "Sharc's next read sees SQLite's commit");
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void AReadOnlySharcDatabaseSeesLaterCommitsInNewReadersAndKeepsOldReadersSnapshots()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("ro.db");
        CreateWalDb(path, rows: 10);
        using var c = Oracle.Open(path);
        using var ro = SharcDatabase.Open(path);
        ro.IsWritable.Should().BeFalse();
        ro.IsWalShared.Should().BeTrue();
        using var old = ro.CreateReader("t");
        old.Read().Should().BeTrue();
        Oracle.Exec(c, "INSERT INTO t SELECT a + 10, b FROM t");
        int seen = 1;
        while (old.Read()) seen++;
        seen.Should().Be(10, "a reader that began before the commit keeps its snapshot");
        SharcCount(ro).Should().Be(20, "a reader begun after the commit sees it, without reopening");
        var write = () => ro.Insert("t", 99L, "no");
        write.Should().Throw<SharcReadOnlyException>();
    }

    [Fact]
    public void ASharcWriterWaitsForASqliteWriterThenCommits()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("ww.db");
        CreateWalDb(path);
        using var c = Oracle.Open(path);
        using var db = SharcDatabase.Open(path, Writable(20_000));
        Oracle.Exec(c, "BEGIN IMMEDIATE");
        Oracle.Exec(c, "INSERT INTO t VALUES(2, 'sqlite')");
        var started = new ManualResetEventSlim();
        var writer = Task.Run(() =>
        {
            started.Set();
            db.Insert("t", 3L, "sharc");
        });
        started.Wait();
        writer.Wait(200).Should().BeFalse("the WAL write lock is SQLite's until it commits");
        Oracle.Exec(c, "COMMIT");
        writer.Wait(20_000).Should().BeTrue();
        SqliteCount(c).Should().Be(3);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void ASqliteWriterWaitsForASharcTransactionThenCommits()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("ww2.db");
        CreateWalDb(path);
        using var db = SharcDatabase.Open(path, Writable());
        using var c = Oracle.Open(path);
        Oracle.Exec(c, "PRAGMA busy_timeout=20000");
        Task writer;
        using (var tx = db.BeginTransaction())
        {
            db.Insert("t", 2L, "sharc");
            writer = Task.Run(() => Oracle.Exec(c, "INSERT INTO t VALUES(3, 'sqlite')"));
            writer.Wait(200).Should().BeFalse("the WAL write lock is Sharc's until it commits");
            tx.Commit();
        }
        writer.Wait(20_000).Should().BeTrue();
        SharcCount(db).Should().Be(3);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void AWriterWhoseBusyTimeoutRunsOutFailsBusy()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("busy.db");
        CreateWalDb(path);
        using var c = Oracle.Open(path);
        Oracle.Exec(c, "BEGIN IMMEDIATE");
        using var db = SharcDatabase.Open(path, Writable(150));
        var write = () => db.Insert("t", 2L, "late");
        write.Should().Throw<SharcBusyException>().WithMessage("*write lock*");
        SharcCount(db).Should().Be(1, "reads go on while another connection writes");
        Oracle.Exec(c, "ROLLBACK");
        db.Insert("t", 2L, "now");
        SqliteCount(c).Should().Be(2);
    }

    [Fact]
    public void CheckpointsRespectEveryReadersSnapshot()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("ck.db");
        CreateWalDb(path, rows: 10);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromMilliseconds(200), WalAutoCheckpoint = 0 });
        using var reader = Oracle.Open(path);
        Oracle.Exec(reader, "BEGIN");
        SqliteCount(reader).Should().Be(10);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 11; i <= 400; i++) db.Insert("t", (long)i, new string('n', 200));
            tx.Commit();
        }
        db.Execute("UPDATE t SET b = 'changed' WHERE a <= 10");

        var passive = db.Checkpoint(SharcCheckpointMode.Passive);
        passive.Busy.Should().BeFalse();
        passive.CheckpointedFrames.Should().BeLessThan(passive.LogFrames, "the reader's snapshot keeps the newer frames in the log only");
        var full = db.Checkpoint(SharcCheckpointMode.Full);
        full.Busy.Should().BeTrue("a reader of an older snapshot is still reading");
        var truncate = () => db.Checkpoint();
        truncate.Should().Throw<SharcBusyException>();
        SqliteCount(reader).Should().Be(10, "the old snapshot is intact after the checkpoints");
        Oracle.Scalar(reader, "SELECT b FROM t WHERE a = 1").Should().Be("row 1");
        Oracle.Exec(reader, "COMMIT");

        var restart = db.Checkpoint(SharcCheckpointMode.Truncate);
        restart.Busy.Should().BeFalse();
        restart.LogFrames.Should().Be(0);
        new FileInfo(path + "-wal").Length.Should().Be(0);
        SqliteCount(reader).Should().Be(400);
        Oracle.Scalar(reader, "SELECT b FROM t WHERE a = 1").Should().Be("changed");
        db.Insert("t", 401L, "after the restart");
        SqliteCount(reader).Should().Be(401);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void SqliteCheckpointsDoNotPassASharcReadersSnapshot()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("ck2.db");
        CreateWalDb(path, rows: 10);
        using var c = Oracle.Open(path);
        using var ro = SharcDatabase.Open(path);
        using var old = ro.CreateReader("t");
        old.Read().Should().BeTrue();
        Oracle.Exec(c, "UPDATE t SET b = 'new'");
        Oracle.Exec(c, "INSERT INTO t SELECT a + 10, b FROM t");
        var ck = Oracle.Rows(c, "PRAGMA wal_checkpoint(TRUNCATE)")[0];
        ck[0].Should().Be(1L, "SQLite's TRUNCATE checkpoint is busy while Sharc's reader holds its read mark");
        var seen = new List<string> { old.GetString(1) };
        while (old.Read()) seen.Add(old.GetString(1));
        seen.Should().HaveCount(10).And.OnlyContain(b => b.StartsWith("row "));
        old.Dispose();
        Oracle.Rows(c, "PRAGMA wal_checkpoint(TRUNCATE)")[0][0].Should().Be(0L);
        SharcCount(ro).Should().Be(20);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void AnIndexLeftByACrashedConnectionIsRebuiltFromTheLog()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("rec.db");
        CreateWalDb(path, rows: 100);
        // A -shm full of garbage with nobody holding it: the next opener must rebuild it from the log.
        var junk = new byte[65536];
        new Random(7).NextBytes(junk);
        File.WriteAllBytes(path + "-shm", junk);
        using (var db = SharcDatabase.Open(path, Writable()))
        {
            SharcCount(db).Should().Be(100);
            db.Insert("t", 101L, "after recovery");
        }
        File.WriteAllBytes(path + "-shm", junk);
        using (var c = Oracle.Open(path)) SqliteCount(c).Should().Be(101);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [NeedsSqlite3ShellFact]
    public void ASqliteProcessAndSharcReadAndWriteTheLogTogether()
    {
        if (!Shared) return;
        using var dir = new TempDir();
        string path = dir.File("proc.db");
        CreateWalDb(path);
        using var proc = Sqlite3Shell.Start(path);
        proc.StandardInput.WriteLine(".timeout 20000");
        proc.StandardInput.WriteLine("BEGIN; SELECT count(*) FROM t;");
        proc.StandardInput.Flush();
        proc.StandardOutput.ReadLine().Should().Be("1");
        using (var db = SharcDatabase.Open(path, Writable()))
        {
            db.Insert("t", 2L, "while the process reads");
            proc.StandardInput.WriteLine("SELECT count(*) FROM t; COMMIT; SELECT count(*) FROM t;");
            proc.StandardInput.WriteLine("BEGIN IMMEDIATE; INSERT INTO t VALUES(3, 'process'); SELECT 'locked';");
            proc.StandardInput.Flush();
            proc.StandardOutput.ReadLine().Should().Be("1", "the process's read transaction keeps its snapshot");
            proc.StandardOutput.ReadLine().Should().Be("2");
            proc.StandardOutput.ReadLine().Should().Be("locked");
            var writer = Task.Run(() => db.Insert("t", 4L, "waited"));
            writer.Wait(200).Should().BeFalse("the process holds the WAL write lock");
            proc.StandardInput.WriteLine("COMMIT;");
            proc.StandardInput.Flush();
            writer.Wait(20_000).Should().BeTrue();
            SharcCount(db).Should().Be(4);
        }
        proc.StandardInput.WriteLine("SELECT count(*) FROM t;");
        proc.StandardInput.Close();
        proc.StandardOutput.ReadLine().Should().Be("4");
        proc.WaitForExit(10_000).Should().BeTrue();
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}

