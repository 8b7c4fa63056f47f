using System.Diagnostics;
using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// A SQLite process (the sqlite3 shell) writes while Sharc writes to the same file: the two honour each other's
/// POSIX locks, so both transactions' effects survive and the file stays intact.
/// </summary>
public class ConcurrencyTests
{
    [NeedsSqlite3ShellFact]
    public void SharcAndASqliteProcessWriteConcurrentlyWithoutLosingAnything()
    {
        using var dir = new TempDir();
        string path = dir.File("shared.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, who TEXT, n INT)");
            db.CreateIndex("CREATE INDEX t_who ON t(who, n)");
        }
        const int Transactions = 150, PerTransaction = 5;
        var script = new StringBuilder(".timeout 20000\n");
        for (int t = 0; t < Transactions; t++)
        {
            script.Append("BEGIN IMMEDIATE;\n");
            for (int i = 0; i < PerTransaction; i++) script.Append($"INSERT INTO t(who, n) VALUES('sqlite', {t * PerTransaction + i});\n");
            script.Append("COMMIT;\n");
        }
        var psi = new ProcessStartInfo(Sqlite3Shell.Path!, $"-bail \"{path}\"")
        {
            RedirectStandardInput = true,
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        using var proc = Process.Start(psi)!;
        var feeding = Task.Run(() =>
        {
            proc.StandardInput.Write(script.ToString());
            proc.StandardInput.Close();
        });

        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromSeconds(20) }))
        {
            for (int t = 0; t < Transactions; t++)
            {
                using var tx = db.BeginTransaction();
                for (int i = 0; i < PerTransaction; i++) db.Insert("t", null, "sharc", (long)(t * PerTransaction + i));
                tx.Commit();
            }
        }
        feeding.Wait();
        proc.WaitForExit(60_000).Should().BeTrue();
        string err = proc.StandardError.ReadToEnd();
        proc.ExitCode.Should().Be(0, err);

        Oracle.IntegrityCheck(path).Should().Be("ok");
        var counts = Oracle.Rows(path, "SELECT who, count(*), count(DISTINCT n) FROM t GROUP BY who ORDER BY who");
        counts.Should().HaveCount(2);
        counts[0].Should().Equal("sharc", (long)(Transactions * PerTransaction), (long)(Transactions * PerTransaction));
        counts[1].Should().Equal("sqlite", (long)(Transactions * PerTransaction), (long)(Transactions * PerTransaction));
    }

    [NeedsSqlite3ShellFact]
    public void AWriterWaitsForAnotherProcessesLockThenFailsClearlyWhenItIsHeldTooLong()
    {
        using var dir = new TempDir();
        string path = dir.File("locked.db");
        using (var db = SharcDatabase.Create(path)) db.CreateTable("CREATE TABLE t(a)");
        // sqlite3 takes a RESERVED lock and holds it for a while.
        var psi = new ProcessStartInfo(Sqlite3Shell.Path!, $"\"{path}\"") { RedirectStandardInput = true, RedirectStandardOutput = true, UseShellExecute = false };
        using var proc = Process.Start(psi)!;
        proc.StandardInput.WriteLine("BEGIN IMMEDIATE; INSERT INTO t VALUES(1); SELECT 'locked';");
        proc.StandardInput.Flush();
        proc.StandardOutput.ReadLine().Should().Be("locked");

        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromMilliseconds(300) }))
        {
            var act = () => db.Insert("t", 2L);
            act.Should().Throw<SharcBusyException>().WithMessage("*locked*");
        }
        proc.StandardInput.WriteLine("COMMIT;");
        proc.StandardInput.Close();
        proc.WaitForExit(10_000).Should().BeTrue();
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
            db.Insert("t", 3L);
        Oracle.Rows(path, "SELECT a FROM t ORDER BY a").Select(r => r[0]).Should().Equal(1L, 3L);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [NeedsSqlite3ShellFact]
    public void AWaitingWriterHoldsNoLockThatKeepsTheOtherWriterFromCommitting()
    {
        using var dir = new TempDir();
        string path = dir.File("handoff.db");
        using (var created = SharcDatabase.Create(path)) created.CreateTable("CREATE TABLE t(a)");
        var psi = new ProcessStartInfo(Sqlite3Shell.Path!, $"\"{path}\"")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        using var proc = Process.Start(psi)!;
        proc.StandardInput.WriteLine(".timeout 5000");
        proc.StandardInput.WriteLine("BEGIN IMMEDIATE; INSERT INTO t VALUES(1); SELECT 'locked';");
        proc.StandardInput.Flush();
        proc.StandardOutput.ReadLine().Should().Be("locked");

        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromSeconds(30) });
        var sharc = Task.Run(() => db.Insert("t", 2L));
        // Let Sharc start waiting for RESERVED; had it kept the SHARED lock taken on the way, sqlite3's COMMIT (which
        // needs every SHARED lock gone) would wait out its own timeout and fail with "database is locked".
        Thread.Sleep(300);
        proc.StandardInput.WriteLine("COMMIT; SELECT 'committed';");
        proc.StandardInput.Close();
        proc.StandardOutput.ReadLine().Should().Be("committed", proc.StandardError.ReadToEnd());
        proc.WaitForExit(30_000).Should().BeTrue();
        sharc.Wait(TimeSpan.FromSeconds(60)).Should().BeTrue();

        Oracle.Rows(path, "SELECT a FROM t ORDER BY a").Select(r => r[0]).Should().Equal(1L, 2L);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}
