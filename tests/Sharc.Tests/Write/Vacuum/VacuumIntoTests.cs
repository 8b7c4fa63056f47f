using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write.Vacuum;

/// <summary>VACUUM INTO: a compact copy from one snapshot, refused onto an existing file as SQLite refuses it.</summary>
public class VacuumIntoTests
{
    [Fact]
    public void The_copy_holds_what_sqlites_vacuum_into_holds()
    {
        using var dir = new TempDir();
        string source = dir.File("source.db");
        VacuumFixtures.Build(source, 11, rows: 300);
        string ours = dir.File("ours.db"), theirs = dir.File("theirs.db");
        using (var db = SharcDatabase.Open(source)) db.Execute("VACUUM INTO ?", ours);
        using (var c = Oracle.Open(source)) Oracle.Exec(c, $"VACUUM INTO '{theirs}'");
        Oracle.IntegrityCheck(ours).Should().Be("ok");
        VacuumFixtures.Content(ours).ShouldEqual(VacuumFixtures.Content(theirs));
        VacuumFixtures.Pragma(ours, "freelist_count").Should().Be(0);
        VacuumFixtures.Pragma(ours, "page_count").Should().BeLessThan(VacuumFixtures.Pragma(source, "page_count"));
        // The source is untouched.
        VacuumFixtures.Pragma(source, "freelist_count").Should().BeGreaterThan(0);
    }

    [Fact]
    public void The_target_must_not_exist_unless_it_is_empty()
    {
        using var dir = new TempDir();
        string source = dir.File("source.db");
        VacuumFixtures.Build(source, 12, rows: 30);
        string existing = dir.File("existing.db"), empty = dir.File("empty.db");
        File.WriteAllText(existing, "keep me");
        File.WriteAllBytes(empty, []);
        using var db = SharcDatabase.Open(source, new SharcOpenOptions { Writable = true });
        db.Invoking(d => d.Execute("VACUUM INTO ?", existing)).Should().Throw<SharcSqlException>().WithMessage("*output file already exists*");
        db.Invoking(d => d.VacuumInto(existing)).Should().Throw<SharcException>().WithMessage("output file already exists");
        File.ReadAllText(existing).Should().Be("keep me");
        db.Invoking(d => d.Execute("VACUUM INTO NULL")).Should().Throw<SharcSqlException>().WithMessage("*non-text filename*");
        db.Execute("VACUUM main INTO ?", empty);
        VacuumFixtures.Content(empty).ShouldEqual(VacuumFixtures.Content(source));
        File.Exists(empty + ".sharc-copy").Should().BeFalse();
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void Copies_made_while_another_thread_writes_are_each_one_committed_state(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = dir.File("bank.db");
        using var db = BankFixture.Create(path, mode);
        using var writer = new BankFixture.Writer(db);
        writer.WaitForCommits(5);
        for (int copy = 0; copy < 4; copy++)
        {
            long commitsBefore = writer.Commits;
            string target = dir.File($"copy{copy}.db");
            db.VacuumInto(target);
            writer.WaitForCommits(commitsBefore + 3);
            Oracle.IntegrityCheck(target).Should().Be("ok");
            BankFixture.Total(target).Should().Be(BankFixture.ExpectedTotal, "a copy is one committed state");
            VacuumFixtures.Pragma(target, "freelist_count").Should().Be(0);
        }
        writer.Stop();
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}

/// <summary>Accounts whose balances always add up to the same total: transfers move money in one transaction each.</summary>
public static class BankFixture
{
    public const int Accounts = 200;
    public const long ExpectedTotal = Accounts * 1000L;

    public static SharcDatabase Create(string path, SharcJournalMode mode)
    {
        var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 1024, JournalMode = mode });
        db.Execute("CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL, note TEXT)");
        db.Execute("CREATE INDEX account_balance ON account(balance)");
        using var tx = db.BeginTransaction();
        for (int i = 1; i <= Accounts; i++) db.Execute("INSERT INTO account VALUES (?, 1000, ?)", i, new string('n', i % 90));
        tx.Commit();
        return db;
    }

    public static long Total(string path) => (long)Oracle.Rows(path, "SELECT sum(balance) FROM account")[0][0]!;

    /// <summary>Moves money between random accounts on its own thread until stopped; each transfer a commit.</summary>
    public sealed class Writer : IDisposable
    {
        private readonly Thread _thread;
        private volatile bool _stop;
        private long _commits;
        private Exception? _failure;

        public Writer(SharcDatabase db)
        {
            _thread = new Thread(() =>
            {
                var rng = new Random(99);
                try
                {
                    while (!_stop)
                    {
                        int from = rng.Next(1, Accounts + 1), to = rng.Next(1, Accounts + 1), amount = rng.Next(1, 50);
                        using (var tx = db.BeginTransaction())
                        {
                            db.Execute("UPDATE account SET balance = balance - ?, note = ? WHERE id = ?", amount, new string('w', rng.Next(120)), from);
                            db.Execute("UPDATE account SET balance = balance + ? WHERE id = ?", amount, to);
                            tx.Commit();
                        }
                        lock (this)
                        {
                            _commits++;
                            Monitor.PulseAll(this);
                        }
                    }
                }
                catch (Exception e)
                {
                    _failure = e;
                    lock (this) Monitor.PulseAll(this);
                }
            });
            _thread.Start();
        }

        public long Commits => Interlocked.Read(ref _commits);

        /// <summary>Waits (a handshake, not a sleep) until the writer has committed <paramref name="n"/> transfers.</summary>
        public void WaitForCommits(long n)
        {
            lock (this)
            {
                while (_commits < n && _failure is null)
                    Monitor.Wait(this, TimeSpan.FromSeconds(60)).Should().BeTrue("the writer keeps committing");
            }
            if (_failure is not null) throw new InvalidOperationException("the writer failed", _failure);
        }

        public void Stop()
        {
            _stop = true;
            _thread.Join();
            if (_failure is not null) throw new InvalidOperationException("the writer failed", _failure);
        }

        public void Dispose()
        {
            _stop = true;
            _thread.Join();
        }
    }
}
