using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// A fault-injecting file layer stops the process at every write and every sync of a transaction in turn (and, in
/// a second pass, tears that write in half). Reopening with SQLite and with Sharc must give exactly the state
/// before or after the transaction, with integrity_check ok.
/// </summary>
public class CrashTests
{
    internal static List<object?[]> Content(string path) => Oracle.Rows(path, "SELECT id, a, b FROM t ORDER BY id");

    /// <summary>The database every crash test starts from; in WAL mode its commit stays in the log unless checkpointed.</summary>
    internal static void Seed(string path, SharcJournalMode mode = SharcJournalMode.Delete, bool checkpoint = false)
    {
        using var db = SharcDatabase.Create(path, new SharcCreateOptions
        {
            PageSize = 1024,
            JournalMode = mode,
            Open = new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 },
        });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT)");
        db.CreateIndex("CREATE INDEX t_b ON t(b)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 1; i <= 300; i++) db.Insert("t", null, (long)i, "before " + i + new string('.', i % 40));
            tx.Commit();
        }
        if (checkpoint) db.Checkpoint();
    }

    /// <summary>The transaction under test: it grows the file, moves index entries and frees pages.</summary>
    internal static void Work(SharcDatabase db)
    {
        using var tx = db.BeginTransaction();
        for (int i = 1; i <= 300; i += 3) db.Delete("t", i);
        for (int i = 0; i < 200; i++) db.Insert("t", null, (long)(1000 + i), "after " + i + new string('#', 60));
        db.Update("t", 2, ["b"], ["updated"]);
        tx.Commit();
    }

    public static IEnumerable<object[]> Modes() => [[false], [true]];

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashAtAnyWriteOrSyncLeavesBeforeOrAfter(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed);
        int total = CrashHarness.EveryCrashPoint(dir, seed, Content, db => SharcRows.All(db, "t"), Work,
            new SharcOpenOptions { Writable = true }, tear);
        total.Should().BeGreaterThan(10);
    }
}
