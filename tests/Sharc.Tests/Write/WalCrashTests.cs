using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Crashes at every write and sync (and, in a second pass, a torn write) of a WAL commit, of a checkpoint, and of
/// transactions that spill (to the -wal file or, in rollback-journal mode, to the database file behind the journal):
/// SQLite and Sharc must then find exactly the state before or after, with integrity_check ok.
/// </summary>
public class WalCrashTests
{
    private static List<object?[]> Content(string path) => CrashTests.Content(path);
    private static List<object?[]> SharcContent(SharcDatabase db) => SharcRows.All(db, "t");

    private static void Seed(string path, SharcJournalMode mode, bool leaveFramesInWal)
        => CrashTests.Seed(path, mode, checkpoint: !leaveFramesInWal);

    /// <summary>The rollback-journal crash tests' transaction: many statements, so a spill can happen between them.</summary>
    private static void Work(SharcDatabase db) => CrashTests.Work(db);

    public static IEnumerable<object[]> Modes() => [[false], [true]];

    private static SharcOpenOptions Options(int spillPages = 2000, int autoCheckpoint = 0)
        => new() { Writable = true, SpillPages = spillPages, WalAutoCheckpoint = autoCheckpoint };

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashDuringAWalCommitLeavesBeforeOrAfter(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed, SharcJournalMode.Wal, leaveFramesInWal: true);
        CrashHarness.EveryCrashPoint(dir, seed, Content, SharcContent, Work, Options(), tear).Should().BeGreaterThan(20);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashDuringTheFirstCommitOfANewLogLeavesBeforeOrAfter(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed, SharcJournalMode.Wal, leaveFramesInWal: false);
        File.Exists(seed + "-wal").Should().BeTrue();
        new FileInfo(seed + "-wal").Length.Should().Be(0, "the checkpoint truncated the log");
        CrashHarness.EveryCrashPoint(dir, seed, Content, SharcContent, Work, Options(), tear);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashDuringACheckpointLosesNothing(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed, SharcJournalMode.Wal, leaveFramesInWal: true);
        CrashHarness.EveryCrashPoint(dir, seed, Content, SharcContent, db => db.Checkpoint().Should().BeGreaterThan(5),
            Options(), tear, mustChange: false).Should().BeGreaterThan(5);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashDuringACommitFollowedByAnAutomaticCheckpointLeavesBeforeOrAfter(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed, SharcJournalMode.Wal, leaveFramesInWal: true);
        CrashHarness.EveryCrashPoint(dir, seed, Content, SharcContent, Work, Options(autoCheckpoint: 10), tear);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashDuringASpillingWalTransactionLeavesBeforeOrAfter(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed, SharcJournalMode.Wal, leaveFramesInWal: true);
        CrashHarness.EveryCrashPoint(dir, seed, Content, SharcContent, Work, Options(spillPages: 16), tear);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashDuringASpillingJournalTransactionLeavesBeforeOrAfter(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed, SharcJournalMode.Delete, leaveFramesInWal: false);
        CrashHarness.EveryCrashPoint(dir, seed, Content, SharcContent, Work, Options(spillPages: 16), tear);
    }
}
