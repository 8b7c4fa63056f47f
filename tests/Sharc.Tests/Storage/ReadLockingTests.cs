using System.Diagnostics;
using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage;

/// <summary>
/// Readers take SQLite's SHARED lock for the length of a scan: a SQLite process writing at the same time can
/// never make a Sharc scan see half a transaction, and a scan started after a commit sees it.
/// </summary>
public class ReadLockingTests
{
    [NeedsSqlite3ShellFact]
    public void ScansNeverSeeHalfOfAnotherProcessesTransaction()
    {
        using var dir = new TempDir();
        string path = dir.File("bank.db");
        Oracle.Exec(path, "PRAGMA page_size=512", "CREATE TABLE acct(id INTEGER PRIMARY KEY, balance INT, pad TEXT)");
        using (var c = Oracle.Open(path))
        using (var tx = c.BeginTransaction())
        {
            for (int i = 1; i <= 400; i++) Oracle.Exec(c, "INSERT INTO acct VALUES($i, 100, $p)", ("$i", (long)i), ("$p", new string('p', 50)));
            tx.Commit();
        }
        // The other process moves money between accounts; every transaction keeps the total at 40,000.
        var script = new StringBuilder(".timeout 20000\n");
        var rng = new Random(9);
        for (int t = 0; t < 300; t++)
        {
            int a = rng.Next(1, 401), b = rng.Next(1, 401), amount = rng.Next(1, 50);
            script.Append($"BEGIN IMMEDIATE; UPDATE acct SET balance = balance - {amount}, pad = pad || 'x' WHERE id = {a}; UPDATE acct SET balance = balance + {amount} WHERE id = {b}; COMMIT;\n");
        }
        var psi = new ProcessStartInfo(Sqlite3Shell.Path!, $"-bail \"{path}\"") { RedirectStandardInput = true, RedirectStandardError = true, UseShellExecute = false };
        using var proc = Process.Start(psi)!;
        var feed = Task.Run(() => { proc.StandardInput.Write(script.ToString()); proc.StandardInput.Close(); });

        using var db = SharcDatabase.Open(path, new SharcOpenOptions { BusyTimeout = TimeSpan.FromSeconds(20) });
        using var reader = db.PrepareReader("acct", "balance");
        int scans = 0;
        while (!proc.HasExited || scans < 5)
        {
            reader.Reset();
            long total = 0, rows = 0;
            while (reader.Read())
            {
                total += reader.GetInt64(0);
                rows++;
            }
            rows.Should().Be(400);
            total.Should().Be(40_000, "scan {0} must see whole transactions only", scans);
            scans++;
            if (scans > 5000) break;
        }
        feed.Wait();
        proc.WaitForExit(60_000).Should().BeTrue();
        proc.ExitCode.Should().Be(0, proc.StandardError.ReadToEnd());
        scans.Should().BeGreaterThan(1);

        // A scan after the last commit sees the final state.
        reader.Reset();
        var final = new List<long>();
        while (reader.Read()) final.Add(reader.GetInt64(0));
        final.Should().Equal(Oracle.Rows(path, "SELECT balance FROM acct ORDER BY id").Select(r => (long)r[0]!));
    }

    [NeedsSqlite3ShellFact]
    public void AReaderInTheMiddleOfAScanKeepsAnotherProcessFromCommitting()
    {
        using var dir = new TempDir();
        string path = dir.File("held.db");
        Oracle.Exec(path, "CREATE TABLE t(a)", "INSERT INTO t VALUES(1)", "INSERT INTO t VALUES(2)");
        using var db = SharcDatabase.Open(path);
        using (var r = db.CreateReader("t"))
        {
            r.Read().Should().BeTrue(); // mid-scan: SHARED is held
            var blocked = Run($"-cmd \".timeout 200\" \"{path}\" \"INSERT INTO t VALUES(3)\"");
            blocked.ExitCode.Should().NotBe(0);
            blocked.Error.Should().Contain("locked");
        }
        var ok = Run($"-cmd \".timeout 2000\" \"{path}\" \"INSERT INTO t VALUES(3)\"");
        ok.ExitCode.Should().Be(0, ok.Error);
        using var after = db.CreateReader("t");
        SharcRows.All(after).Should().HaveCount(3, "a reader started after the commit sees it");
    }

    private static (int ExitCode, string Error) Run(string args)
    {
        var psi = new ProcessStartInfo(Sqlite3Shell.Path!, args) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        using var p = Process.Start(psi)!;
        string err = p.StandardError.ReadToEnd();
        p.WaitForExit();
        return (p.ExitCode, err);
    }
}
