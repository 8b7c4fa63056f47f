using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage;

/// <summary>A hot rollback journal (a writer interrupted mid-transaction) is never read through: Sharc serves the
/// pre-transaction state, exactly what SQLite's rollback restores.</summary>
public class HotJournalTests
{
    /// <summary>
    /// Starts a big transaction with a tiny page cache so SQLite spills changed pages into the database file
    /// before commit, then copies database and journal mid-transaction: the copy is a crashed writer's files.
    /// </summary>
    private static void CrashMidTransaction(string live, string copy)
    {
        using var c = Oracle.Open(live);
        Oracle.Exec(c, "PRAGMA journal_mode=DELETE");
        Oracle.Exec(c, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        Oracle.Exec(c, "CREATE INDEX t_b ON t(b)");
        using (var tx = c.BeginTransaction())
        {
            for (int i = 0; i < 300; i++) Oracle.Exec(c, "INSERT INTO t(b) VALUES($b)", ("$b", "before-" + i));
            tx.Commit();
        }
        Oracle.Exec(c, "PRAGMA cache_size=10");
        using var tx2 = c.BeginTransaction();
        for (int i = 0; i < 3000; i++) Oracle.Exec(c, "INSERT INTO t(b) VALUES($b)", ("$b", new string('y', 100) + i));
        Oracle.Exec(c, "UPDATE t SET b = 'half-written' WHERE a < 100");
        File.Exists(live + "-journal").Should().BeTrue();
        File.Copy(live, copy);
        File.Copy(live + "-journal", copy + "-journal");
        tx2.Rollback();
    }

    [Fact]
    public void HotJournalIsRecoveredInMemoryToThePreTransactionState()
    {
        using var dir = new TempDir();
        string live = dir.File("live.db"), copy = dir.File("copy.db");
        CrashMidTransaction(live, copy);
        byte[] dbBefore = File.ReadAllBytes(copy);

        using (var db = SharcDatabase.Open(copy))
        {
            var rows = SharcRows.All(db, "t");
            rows.Should().HaveCount(300);
            rows.Select(r => (string)r[1]!).Should().OnlyContain(s => s.StartsWith("before-"));
            // Sharc read without writing: the files are still the crashed writer's.
            File.ReadAllBytes(copy).Should().Equal(dbBefore);
            File.Exists(copy + "-journal").Should().BeTrue();

            // SQLite rolls the journal back when a read-write connection first reads; do that on a second copy
            // and compare every table and index with it.
            string rolledBack = dir.File("sqlite.db");
            File.Copy(copy, rolledBack);
            File.Copy(copy + "-journal", rolledBack + "-journal");
            Oracle.Exec(rolledBack, "SELECT count(*) FROM t");
            File.Exists(rolledBack + "-journal").Should().BeFalse("SQLite rolled the journal back");
            OracleComparison.CompareAll(rolledBack, db).Should().Be(2);
        }
    }

    [Fact]
    public void HotJournalCanBeRefused()
    {
        using var dir = new TempDir();
        string live = dir.File("live.db"), copy = dir.File("copy.db");
        CrashMidTransaction(live, copy);
        var act = () => SharcDatabase.Open(copy, new SharcOpenOptions { HotJournal = HotJournalMode.Refuse });
        act.Should().Throw<SharcBusyException>().WithMessage("*hot rollback journal*");
    }

    [Fact]
    public void ZeroedJournalHeaderIsNotHot()
    {
        using var dir = new TempDir();
        string path = dir.File("p.db");
        Oracle.Exec(path, "CREATE TABLE t(a)", "INSERT INTO t VALUES(1)");
        File.WriteAllBytes(path + "-journal", new byte[512]);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { HotJournal = HotJournalMode.Refuse });
        SharcRows.All(db, "t").Should().HaveCount(1);
    }
}
