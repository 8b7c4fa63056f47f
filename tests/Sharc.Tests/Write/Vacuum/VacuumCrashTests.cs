using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write.Vacuum;

/// <summary>
/// VACUUM crashed at every write and every sync (whole and torn): SQLite and Sharc then find the database as it was,
/// with integrity_check ok, whichever of the old and the new image the crash left.
/// </summary>
public class VacuumCrashTests
{
    public static IEnumerable<object[]> Cases() =>
    [
        [SharcJournalMode.Delete, false], [SharcJournalMode.Delete, true],
        [SharcJournalMode.Wal, false], [SharcJournalMode.Wal, true],
    ];


    [Theory]
    [MemberData(nameof(Cases))]
    public void A_crash_at_any_write_or_sync_leaves_the_data_whole(SharcJournalMode mode, bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        CrashTests.Seed(seed, mode, checkpoint: true);
        using (var db = SharcDatabase.Open(seed, new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 }))
        {
            db.Execute("DELETE FROM t WHERE id % 3 <> 0");
            if (mode == SharcJournalMode.Wal) db.Checkpoint();
        }
        Oracle.Rows(seed, "PRAGMA freelist_count")[0][0].Should().NotBe(0L);
        // The rows stay the same whichever image a crash leaves; integrity_check covers the index and the freelist.
        int total = CrashHarness.EveryCrashPoint(dir, seed, CrashTests.Content, db => SharcRows.All(db, "t"),
            db => db.Vacuum(), new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 }, tear, mustChange: false);
        total.Should().BeGreaterThan(5);
    }
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_crash_while_vacuum_changes_the_page_size_leaves_the_old_or_the_new_file(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        CrashTests.Seed(seed);
        using (var db = SharcDatabase.Open(seed, new SharcOpenOptions { Writable = true })) db.Execute("DELETE FROM t WHERE id % 3 <> 0");
        int total = CrashHarness.EveryCrashPoint(dir, seed, CrashTests.Content, db => SharcRows.All(db, "t"),
            db => db.Execute("PRAGMA page_size = 4096; VACUUM"), new SharcOpenOptions { Writable = true }, tear, mustChange: false);
        total.Should().BeGreaterThan(5);
    }
}
