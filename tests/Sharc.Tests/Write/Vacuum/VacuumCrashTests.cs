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

    private static List<object?[]> Content(string path)
    {
        var rows = Oracle.Rows(path, "SELECT id, a, b FROM t ORDER BY id");
        rows.AddRange(Oracle.Rows(path, "SELECT b, id FROM t INDEXED BY t_b ORDER BY b, id"));
        return rows;
    }

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
        int total = CrashHarness.EveryCrashPoint(dir, seed, Content,
            db =>
            {
                var rows = SharcRows.All(db, "t");
                using var r = db.Query("SELECT b, id FROM t INDEXED BY t_b ORDER BY b, id");
                rows.AddRange(SharcRows.All(r));
                return rows;
            },
            db => db.Vacuum(), new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 }, tear, mustChange: false);
        total.Should().BeGreaterThan(5);
    }
}
