using System.Diagnostics;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Sole-user WAL mode (<see cref="SharcWalSharing.Exclusive"/>; also the fallback where the -shm cannot be shared):
/// Sharc writes a WAL database only as its sole user: while a SQLite process has it open (holding the -shm), Sharc
/// waits and then fails with <see cref="SharcBusyException"/>; while Sharc writes, a SQLite process waits for it and
/// then sees the commit (rebuilding its wal-index from the -wal file).
/// </summary>
public class WalConcurrencyTests
{
    private static Process StartShell(string path) => Sqlite3Shell.Start(path);

    private static void CreateWalDb(string path)
    {
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = SharcJournalMode.Wal });
        db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        db.Insert("t", 1L, "first");
    }

    [NeedsSqlite3ShellFact]
    public void ASqliteProcessHoldingTheDatabaseOpenMakesSharcWaitThenFailBusy()
    {
        using var dir = new TempDir();
        string path = dir.File("held.db");
        CreateWalDb(path);
        using var proc = StartShell(path);
        proc.StandardInput.WriteLine("SELECT count(*) FROM t;");
        proc.StandardInput.Flush();
        proc.StandardOutput.ReadLine().Should().Be("1");

        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, WalSharing = SharcWalSharing.Exclusive, BusyTimeout = TimeSpan.FromMilliseconds(300) }))
        {
            var write = () => db.Insert("t", 2L, "refused");
            write.Should().Throw<SharcBusyException>().WithMessage("*WAL mode*");
            var checkpoint = () => db.Checkpoint();
            checkpoint.Should().Throw<SharcBusyException>();
        }
        proc.StandardInput.WriteLine("INSERT INTO t VALUES(3, 'sqlite');");
        proc.StandardInput.Close();
        proc.WaitForExit(10_000).Should().BeTrue();
        proc.ExitCode.Should().Be(0, proc.StandardError.ReadToEnd());

        // Once the process has gone, Sharc writes.
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, WalSharing = SharcWalSharing.Exclusive }))
            db.Insert("t", 4L, "sharc");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT a FROM t ORDER BY a").Select(r => r[0]).Should().Equal(1L, 3L, 4L);
    }

    [NeedsSqlite3ShellFact]
    public void ASqliteProcessWaitsForSharcsTransactionThenSeesItsCommit()
    {
        using var dir = new TempDir();
        string path = dir.File("wait.db");
        CreateWalDb(path);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, WalSharing = SharcWalSharing.Exclusive });
        Process proc;
        using (var tx = db.BeginTransaction())
        {
            for (int i = 2; i <= 100; i++) db.Insert("t", (long)i, "in transaction");
            proc = StartShell(path);
            proc.StandardInput.WriteLine(".timeout 20000");
            proc.StandardInput.WriteLine("SELECT count(*) FROM t;");
            proc.StandardInput.Flush();
            Thread.Sleep(300); // let the shell reach its read (no assertion depends on the duration)
            tx.Commit();
        }
        db.Dispose();
        using (proc)
        {
            proc.StandardOutput.ReadLine().Should().Be("100", "the reader waited for the writer and saw its whole commit");
            proc.StandardInput.Close();
            proc.WaitForExit(10_000).Should().BeTrue();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void ASqliteConnectionInThisProcessAlsoMakesSharcFailBusy()
    {
        if (!OperatingSystem.IsLinux()) return; // open-file-description locks are Linux's; elsewhere one process must not mix them
        using var dir = new TempDir();
        string path = dir.File("inproc.db");
        CreateWalDb(path);
        using (var c = Oracle.Open(path))
        {
            Oracle.Scalar(c, "SELECT count(*) FROM t").Should().Be(1L);
            using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, WalSharing = SharcWalSharing.Exclusive, BusyTimeout = TimeSpan.FromMilliseconds(200) });
            var write = () => db.Insert("t", 2L, "refused");
            write.Should().Throw<SharcBusyException>();
            Oracle.Exec(c, "INSERT INTO t VALUES(3, 'sqlite')");
        }
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, WalSharing = SharcWalSharing.Exclusive }))
        {
            db.Insert("t", 4L, "sharc");
            // While Sharc holds the log, a SQLite connection of this process cannot get in either.
            using var tx = db.BeginTransaction();
            db.Insert("t", 5L, "pending");
            using var c = Oracle.Open(path);
            Oracle.Exec(c, "PRAGMA busy_timeout=100");
            var read = () => Oracle.Scalar(c, "SELECT count(*) FROM t");
            read.Should().Throw<Microsoft.Data.Sqlite.SqliteException>();
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT a FROM t ORDER BY a").Select(r => r[0]).Should().Equal(1L, 3L, 4L, 5L);
    }
}
