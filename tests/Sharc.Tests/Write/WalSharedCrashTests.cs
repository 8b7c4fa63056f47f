using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Crashes of a Sharc writer on a shared log while another connection keeps the -shm open throughout, so nobody
/// rebuilds the index from scratch: at every write and sync (and, in a second pass, torn writes) of a commit, of a
/// commit that starts a new log, of a spilling transaction and of each checkpoint kind, the surviving SQLite connection
/// and later Sharc and SQLite connections must find exactly the state before or after, append after it, and pass
/// integrity_check. (WalCrashTests covers the other case: the next opener rebuilds the index from the log alone.)
/// </summary>
public class WalSharedCrashTests
{
    public static IEnumerable<object[]> Cases()
    {
        foreach (bool tear in new[] { false, true })
        {
            yield return ["commit", tear];
            yield return ["new log", tear];
            yield return ["spill", tear];
            yield return ["passive", tear];
            yield return ["truncate", tear];
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void ACrashedWriterLeavesBeforeOrAfterForConnectionsThatKeptTheIndexOpen(string what, bool tear)
    {
        if (!Sharc.Storage.Locking.OfdLock.IsSupported) return;
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        CrashTests.Seed(seed, SharcJournalMode.Wal, checkpoint: what == "new log");
        Action<SharcDatabase> work = what switch
        {
            "passive" => db => db.Checkpoint(SharcCheckpointMode.Passive),
            "truncate" => db => db.Checkpoint(SharcCheckpointMode.Truncate),
            _ => CrashTests.Work,
        };
        var options = new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0, SpillPages = what == "spill" ? 16 : 2000 };
        var before = CrashTests.Content(seed);

        string clean = dir.File("clean.db");
        CrashHarness.CopyDatabase(seed, clean);
        var counter = new FaultyStorage();
        // Counted as the crash runs go: with another connection holding the -shm, so nobody empties it at open.
        using (var live = Oracle.Open(clean))
        {
            Oracle.Scalar(live, "SELECT count(*) FROM t").Should().Be(300L);
            using var db = SharcDatabase.OpenWritable(clean, options, counter);
            work(db);
        }
        var after = CrashTests.Content(clean);
        int total = counter.Operations;
        total.Should().BeGreaterThan(1);

        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string path = dir.File($"crash{crashAt}.db");
            CrashHarness.CopyDatabase(seed, path);
            using (var live = Oracle.Open(path))
            {
                Oracle.Scalar(live, "SELECT count(*) FROM t").Should().Be(300L);
                CrashHarness.CrashAt(path, options, work, crashAt, tear);

                var seen = Oracle.Rows(live, "SELECT id, a, b FROM t ORDER BY id");
                (CrashHarness.Same(seen, before) || CrashHarness.Same(seen, after)).Should().BeTrue("the live connection after a crash at {0} of {1}", crashAt, total);
                Oracle.Rows(live, "PRAGMA integrity_check")[0][0].Should().Be("ok", "crash at {0}", crashAt);
                using (var next = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
                {
                    CrashHarness.Same(SharcRows.All(next, "t"), seen).Should().BeTrue("Sharc after a crash at {0}", crashAt);
                    next.Insert("t", 100_000L, 1L, "after the crash");
                }
                Oracle.Exec(live, "INSERT INTO t VALUES(100001, 2, 'sqlite after the crash')");
                Oracle.Scalar(live, "SELECT count(*) FROM t").Should().Be(seen.Count + 2L);
            }
            Oracle.IntegrityCheck(path).Should().Be("ok", "crash at {0}", crashAt);
            Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().NotBe(0L);
            File.Delete(path);
        }
    }
}
