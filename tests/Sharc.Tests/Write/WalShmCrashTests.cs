using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Crashes of a Sharc writer at every write and sync of the log and the database file AND at every store into the
/// mapped wal-index (hash-table entries and clears, each header copy, nBackfill, the read marks): a commit (frames
/// written, synced, indexed, header published), the first commit of a new log, a commit that restarts a copied-back
/// log, and each checkpoint kind (backfill, nBackfill, restart, truncation). Another connection keeps the -shm open
/// throughout, so the stores done before the crash are exactly what the survivors find (the -shm is a shared map of
/// the file, as between processes). The engine that did not hold the index opens it first and faces the crashed
/// state: a fresh Sharc connection when SQLite holds it, a fresh SQLite connection when Sharc does; then the holder
/// and the other engine. All must see the same committed state, before or after, and go on writing.
/// </summary>
public class WalShmCrashTests
{
    private static List<object?[]> Content(string path) => Oracle.Rows(path, "SELECT id, a, b FROM t ORDER BY id");

    private static void Seed(string path, string what)
    {
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions
        {
            PageSize = 1024,
            JournalMode = SharcJournalMode.Wal,
            Open = new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 },
        }))
        {
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT)");
            db.CreateIndex("CREATE INDEX t_b ON t(b)");
            using (var tx = db.BeginTransaction())
            {
                for (int i = 1; i <= 40; i++) db.Insert("t", null, (long)i, "before " + i + new string('.', i % 30));
                tx.Commit();
            }
            if (what == "new log") db.Checkpoint(SharcCheckpointMode.Truncate);
            // Everything copied back but the log kept: the next commit restarts it (new salts, read marks reset).
            if (what == "restart log") db.Checkpoint(SharcCheckpointMode.Passive);
        }
    }

    private static void Commit(SharcDatabase db)
    {
        using var tx = db.BeginTransaction();
        for (int i = 0; i < 6; i++) db.Insert("t", null, (long)(100 + i), "after " + i + new string('#', 50));
        db.Delete("t", 3);
        db.Update("t", 2, ["b"], ["updated"]);
        tx.Commit();
    }

    private static Action<SharcDatabase> Work(string what) => what switch
    {
        "passive" => db => db.Checkpoint(SharcCheckpointMode.Passive),
        "full" => db => db.Checkpoint(SharcCheckpointMode.Full),
        "restart" => db => db.Checkpoint(SharcCheckpointMode.Restart),
        "truncate" => db => db.Checkpoint(SharcCheckpointMode.Truncate),
        _ => Commit,
    };

    public static IEnumerable<object[]> Cases()
    {
        foreach (var what in new[] { "commit", "new log", "restart log", "passive", "full", "restart", "truncate" })
            foreach (var holder in new[] { "sqlite", "sharc" })
                yield return [what, holder];
    }

    private sealed class Holder : IDisposable
    {
        private readonly Microsoft.Data.Sqlite.SqliteConnection? _sqlite;
        private readonly SharcDatabase? _sharc;

        public Holder(string path, bool sqlite, string what)
        {
            if (sqlite) _sqlite = Oracle.Open(path);
            else _sharc = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
            Rows().Count.Should().Be(40, "the holder maps the index and reads the seed");
            // Copied back through this index (the first opener's recovery started it with nothing copied back), so the
            // next commit restarts the log.
            if (what == "restart log")
            {
                if (_sqlite is not null) Oracle.Rows(_sqlite, "PRAGMA wal_checkpoint(PASSIVE)")[0][0].Should().Be(0L);
                else _sharc!.Checkpoint(SharcCheckpointMode.Passive).Busy.Should().BeFalse();
            }
        }

        public List<object?[]> Rows() => _sqlite is not null ? Oracle.Rows(_sqlite, "SELECT id, a, b FROM t ORDER BY id") : SharcRows.All(_sharc!, "t");

        public void Dispose()
        {
            _sqlite?.Dispose();
            _sharc?.Dispose();
        }
    }

    private static List<object?[]> FreshSharc(string path)
    {
        using var db = SharcDatabase.Open(path);
        return SharcRows.All(db, "t");
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void ACrashAtAnyLogWriteOrIndexStoreLeavesEveryEngineTheSameCommittedState(string what, string holder)
    {
        if (!Sharc.Storage.Locking.OfdLock.IsSupported) return;
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed, what);
        var work = Work(what);
        var options = new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 };
        bool sqliteHolds = holder == "sqlite";
        var before = Content(seed);

        string clean = dir.File("clean.db");
        CrashHarness.CopyDatabase(seed, clean);
        var counter = new FaultyStorage { CountShm = true };
        using (new Holder(clean, sqliteHolds, what))
        using (var db = SharcDatabase.OpenWritable(clean, options, counter))
            work(db);
        var after = Content(clean);
        string trace = counter.Trace.ToString();
        int total = counter.Operations;
        bool checkpoint = what is "passive" or "full" or "restart" or "truncate";
        if (checkpoint)
        {
            CrashHarness.Same(after, before).Should().BeTrue("a checkpoint does not change the data");
            trace.Should().MatchRegex("w.*s.*m", "the pages are copied back and synced before nBackfill is stored ({0})", trace);
        }
        else
        {
            CrashHarness.Same(after, before).Should().BeFalse();
            trace.Should().MatchRegex("w.*s.*m{6,}$", "frames are written and synced, then indexed and the header published ({0})", trace);
        }
        if (what is "truncate") trace.Should().Contain("t", "TRUNCATE cuts the log");
        if (what == "restart log") trace.Should().MatchRegex("^m{2,}ws", "the index is restarted before the new log's header is written and synced ({0})", trace);
        if (what == "truncate") trace.Should().MatchRegex("m{2,}t$", "the index is restarted before the log is cut ({0})", trace);

        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string path = dir.File($"crash{crashAt}.db");
            CrashHarness.CopyDatabase(seed, path);
            List<object?[]> first;
            using (var live = new Holder(path, sqliteHolds, what))
            {
                CrashHarness.CrashAt(path, options, work, crashAt, tear: false, countShm: true);

                // The other engine faces the -shm exactly as the crash left it.
                first = sqliteHolds ? FreshSharc(path) : Content(path);
                (CrashHarness.Same(first, before) || CrashHarness.Same(first, after)).Should().BeTrue(
                    "{0} opening after a crash at operation {1} of {2} ({3}) finds the state before or after", sqliteHolds ? "Sharc" : "SQLite", crashAt, total, trace[crashAt - 1]);
                CrashHarness.Same(live.Rows(), first).Should().BeTrue("the holder agrees (crash at {0})", crashAt);
                CrashHarness.Same(sqliteHolds ? Content(path) : FreshSharc(path), first).Should().BeTrue("the holder's engine agrees (crash at {0})", crashAt);

                using (var next = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
                    next.Insert("t", 100_000L, 1L, "sharc after the crash");
                live.Rows().Count.Should().Be(first.Count + 1, "the holder sees Sharc's write after a crash at {0} ({1})", crashAt, trace[crashAt - 1]);
                Content(path).Count.Should().Be(first.Count + 1, "SQLite sees Sharc's write after a crash at {0} ({1})", crashAt, trace[crashAt - 1]);
                Oracle.Exec(path, "INSERT INTO t VALUES(100001, 2, 'sqlite after the crash')");
                live.Rows().Count.Should().Be(first.Count + 2, "the holder sees both writes after a crash at {0} ({1})", crashAt, trace[crashAt - 1]);
                Oracle.Rows(path, "PRAGMA integrity_check")[0][0].Should().Be("ok", "crash at {0}", crashAt);
            }
            Oracle.IntegrityCheck(path).Should().Be("ok", "crash at {0}", crashAt);
            using (var last = SharcDatabase.Open(path))
            {
                last.CheckIntegrity().Should().BeEmpty();
                SharcRows.All(last, "t").Count.Should().Be(first.Count + 2);
            }
            File.Delete(path);
        }
    }
}
