using System.Collections.Concurrent;
using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// The long mixed load on one WAL database: Sharc processes (Sharc.WalLoadWorker), Sharc connections in this process
/// (writable and read-only), Microsoft.Data.Sqlite connections and sqlite3 processes transfer amounts between
/// accounts, every reader of every engine checks that the total is conserved (a torn frame, a frame of an uncommitted
/// transaction or a half-seen commit would break it), and checkpoints of every kind run from both engines meanwhile.
/// Each transfer also logs (worker, n) in its own transaction, and each worker reports how many it committed: the
/// final database must hold exactly those, no more (a phantom commit) and no fewer (a lost one). Bounded to about ten
/// seconds by default; set SHARC_WAL_SOAK_SECONDS for a longer run.
/// </summary>
public class WalSharedLoadTests(Xunit.Abstractions.ITestOutputHelper output)
{
    private const int Accounts = 20;
    private const long Start = 1000;
    private const long Total = Accounts * Start;

    [NeedsSqlite3ShellFact]
    public void TransfersFromEveryEngineConserveTheTotalForEveryReader()
    {
        if (!Sharc.Storage.Locking.OfdLock.IsSupported) return;
        int seconds = int.TryParse(Environment.GetEnvironmentVariable("SHARC_WAL_SOAK_SECONDS"), out int s) ? s : 10;
        using var dir = new TempDir();
        string path = dir.File("bank.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = SharcJournalMode.Wal }))
        {
            db.CreateTable("CREATE TABLE acct(id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)");
            db.CreateTable("CREATE TABLE xfer(worker TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(worker, n))");
            using var tx = db.BeginTransaction();
            for (int i = 1; i <= Accounts; i++) db.Insert("acct", (long)i, Start);
            tx.Commit();
        }

        var errors = new ConcurrentQueue<string>();
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        long sharcCommits = 0, sqliteCommits = 0, reads = 0;
        var committed = new ConcurrentDictionary<string, long>();
        bool Running() => DateTime.UtcNow < deadline && errors.IsEmpty;
        void Guard(string who, Action body)
        {
            try
            {
                body();
            }
            catch (Exception e)
            {
                errors.Enqueue($"{who}: {e.GetType().Name}: {e.Message}");
            }
        }

        var threads = new List<Thread>();
        void Spawn(string who, Action body)
        {
            var t = new Thread(() => Guard(who, body)) { IsBackground = true };
            threads.Add(t);
        }

        for (int w = 0; w < 2; w++)
        {
            int seed = w;
            string name = $"sharc writer {w}";
            Spawn(name, () =>
            {
                var rng = new Random(seed);
                using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromSeconds(20), WalAutoCheckpoint = 200 + 100 * seed });
                while (Running())
                {
                    long a = rng.Next(1, Accounts + 1), b = rng.Next(1, Accounts + 1), amount = rng.Next(1, 50);
                    using (var tx = db.BeginTransaction())
                    {
                        db.Execute("UPDATE acct SET bal = bal - ?1 WHERE id = ?2", amount, a);
                        db.Execute("UPDATE acct SET bal = bal + ?1 WHERE id = ?2", amount, b);
                        db.Execute("INSERT INTO xfer(worker, n) VALUES(?1, ?2)", name, committed.GetValueOrDefault(name) + 1);
                        tx.Commit();
                    }
                    committed[name] = committed.GetValueOrDefault(name) + 1;
                    Interlocked.Increment(ref sharcCommits);
                    if (rng.Next(40) == 0)
                    {
                        var mode = (SharcCheckpointMode)rng.Next(4);
                        db.Checkpoint(mode);
                    }
                }
            });
        }
        for (int w = 0; w < 2; w++)
        {
            int seed = 100 + w;
            string name = $"sqlite writer {w}";
            Spawn(name, () =>
            {
                var rng = new Random(seed);
                using var c = Oracle.Open(path);
                Oracle.Exec(c, "PRAGMA busy_timeout=20000");
                while (Running())
                {
                    long a = rng.Next(1, Accounts + 1), b = rng.Next(1, Accounts + 1), amount = rng.Next(1, 50);
                    Oracle.Exec(c, "BEGIN IMMEDIATE");
                    Oracle.Exec(c, "UPDATE acct SET bal = bal - $m WHERE id = $a", ("$m", amount), ("$a", a));
                    Oracle.Exec(c, "UPDATE acct SET bal = bal + $m WHERE id = $b", ("$m", amount), ("$b", b));
                    Oracle.Exec(c, "INSERT INTO xfer(worker, n) VALUES($w, $n)", ("$w", name), ("$n", committed.GetValueOrDefault(name) + 1));
                    Oracle.Exec(c, "COMMIT");
                    committed[name] = committed.GetValueOrDefault(name) + 1;
                    Interlocked.Increment(ref sqliteCommits);
                    if (rng.Next(40) == 0)
                        Oracle.Rows(c, "PRAGMA wal_checkpoint(" + new[] { "PASSIVE", "FULL", "RESTART", "TRUNCATE" }[rng.Next(4)] + ")");
                }
            });
        }
        for (int r = 0; r < 2; r++)
        {
            bool readOnly = r == 0;
            Spawn($"sharc reader {r}", () =>
            {
                using var db = readOnly
                    ? SharcDatabase.Open(path, new SharcOpenOptions { BusyTimeout = TimeSpan.FromSeconds(20) })
                    : SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromSeconds(20) });
                while (Running())
                {
                    // Row by row through a reader, so a torn page or half a commit shows in the sum.
                    long sum = 0, rows = 0;
                    using (var reader = db.CreateReader("acct"))
                        while (reader.Read())
                        {
                            sum += reader.GetInt64(1);
                            rows++;
                        }
                    if (sum != Total || rows != Accounts) throw new InvalidOperationException($"Sharc read {rows} accounts summing to {sum}, not {Total}");
                    Interlocked.Increment(ref reads);
                }
            });
        }
        Spawn("sqlite reader", () =>
        {
            using var c = Oracle.Open(path, readOnly: true);
            Oracle.Exec(c, "PRAGMA busy_timeout=20000");
            while (Running())
            {
                long sum = (long)Oracle.Scalar(c, "SELECT sum(bal) FROM acct")!;
                if (sum != Total) throw new InvalidOperationException($"SQLite read a sum of {sum}, not {Total}");
                Interlocked.Increment(ref reads);
            }
        });

        // sqlite3 processes: scripted transfers, the total checked after each, and checkpoints of every kind.
        int scripted = 150 * Math.Max(1, seconds / 8);
        var procs = new List<(System.Diagnostics.Process Proc, Task<string> Out, Task<string> Err)>();
        for (int p = 0; p < 2; p++)
        {
            var rng = new Random(200 + p);
            var script = new StringBuilder(".timeout 30000\n");
            for (int i = 0; i < scripted; i++)
            {
                long a = rng.Next(1, Accounts + 1), b = rng.Next(1, Accounts + 1), amount = rng.Next(1, 50);
                script.Append($"BEGIN IMMEDIATE; UPDATE acct SET bal = bal - {amount} WHERE id = {a}; UPDATE acct SET bal = bal + {amount} WHERE id = {b}; INSERT INTO xfer VALUES('sqlite3 process {p}', {i + 1}); COMMIT;\n");
                script.Append("SELECT sum(bal) FROM acct;\n");
                if (i % 50 == 25) script.Append("PRAGMA wal_checkpoint(" + new[] { "PASSIVE", "FULL", "RESTART", "TRUNCATE" }[rng.Next(4)] + ");\n");
            }
            var proc = Sqlite3Shell.Start(path);
            var outTask = proc.StandardOutput.ReadToEndAsync();
            var errTask = proc.StandardError.ReadToEndAsync();
            string text = script.ToString();
            _ = Task.Run(() =>
            {
                proc.StandardInput.Write(text);
                proc.StandardInput.Close();
            });
            procs.Add((proc, outTask, errTask));
        }

        // Sharc processes, on the same deadline.
        string dotnet = Path.GetFileNameWithoutExtension(Environment.ProcessPath) == "dotnet" ? Environment.ProcessPath! : "dotnet";
        string workerDll = Path.Combine(AppContext.BaseDirectory, "Sharc.WalLoadWorker.dll");
        var workers = new List<(string Name, System.Diagnostics.Process Proc, Task<string> Out, Task<string> Err)>();
        for (int p = 0; p < 3; p++)
        {
            string name = $"sharc process {p}";
            var psi = new System.Diagnostics.ProcessStartInfo(dotnet)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            foreach (var arg in new[] { workerDll, path, name, (300 + p).ToString(), deadline.Subtract(DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerMillisecond + "", Accounts.ToString(), Total.ToString() })
                psi.ArgumentList.Add(arg);
            var proc = System.Diagnostics.Process.Start(psi)!;
            workers.Add((name, proc, proc.StandardOutput.ReadToEndAsync(), proc.StandardError.ReadToEndAsync()));
        }

        foreach (var t in threads) t.Start();
        foreach (var t in threads) t.Join();
        foreach (var (proc, outTask, errTask) in procs)
        {
            proc.WaitForExit(120_000).Should().BeTrue("the sqlite3 process finishes its script");
            errTask.Result.Should().BeEmpty();
            var lines = outTask.Result.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            lines.Where(line => !line.Contains('|')).Should().HaveCount(scripted).And.OnlyContain(line => line == Total.ToString());
            proc.Dispose();
        }
        for (int p = 0; p < procs.Count; p++) committed[$"sqlite3 process {p}"] = scripted;
        long processCommits = 0, processReads = 0;
        foreach (var (name, proc, outTask, errTask) in workers)
        {
            proc.WaitForExit(120_000).Should().BeTrue("the Sharc process stops at the deadline");
            errTask.Result.Should().BeEmpty();
            proc.ExitCode.Should().Be(0);
            var words = outTask.Result.Trim().Split(' ');
            words.Should().HaveCount(4, "{0} prints 'committed N reads M'", name);
            committed[name] = long.Parse(words[1]);
            processCommits += committed[name];
            processReads += long.Parse(words[3]);
            proc.Dispose();
        }

        errors.Should().BeEmpty();
        output.WriteLine($"{seconds} s: {processCommits} Sharc-process commits ({processReads} checked reads), {sharcCommits} in-process Sharc commits, {sqliteCommits} Microsoft.Data.Sqlite commits, {procs.Count * scripted} sqlite3-process commits, {reads} other checked reads");
        processCommits.Should().BeGreaterThan(0);
        Interlocked.Read(ref sharcCommits).Should().BeGreaterThan(0);
        Interlocked.Read(ref sqliteCommits).Should().BeGreaterThan(0);
        Interlocked.Read(ref reads).Should().BeGreaterThan(0);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT sum(bal), count(*) FROM acct")[0].Should().Equal(Total, (long)Accounts);
        // Exactly the transactions each worker saw commit, numbered 1..N without a gap.
        var logged = Oracle.Rows(path, "SELECT worker, count(*), max(n) FROM xfer GROUP BY worker ORDER BY worker");
        logged.Select(r => ((string)r[0]!, (long)r[1]!, (long)r[2]!)).Should().BeEquivalentTo(
            committed.Where(kv => kv.Value > 0).Select(kv => (kv.Key, kv.Value, kv.Value)));
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            db.CheckIntegrity().Should().BeEmpty();
            using var r = db.Query("SELECT sum(bal) FROM acct");
            r.Read().Should().BeTrue();
            r.GetInt64(0).Should().Be(Total);
        }
    }
}
