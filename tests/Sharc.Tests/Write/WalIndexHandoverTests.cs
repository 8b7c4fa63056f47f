using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// SQLite takes the wal-index Sharc maintains as it is: a sqlite3 process (its error log on stderr) reads Sharc's
/// commits with no "recovered N frames" notice, i.e. it did not rebuild the index from the log, and leaves the index
/// header as Sharc published it. The converse: when a Sharc writer dies between the two header copies, SQLite (or
/// Sharc, whichever reads first) does rebuild it, and finds the synced commit. A crash before the header leaves a
/// valid index that nobody needs to rebuild. Another Sharc connection keeps the -shm open throughout, so no opener
/// starts it afresh.
/// </summary>
public class WalIndexHandoverTests
{
    private const string Recovered = "recovered";

    private static byte[] ShmHeaders(string path)
    {
        using var f = new FileStream(path + "-shm", FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        var b = new byte[96];
        f.ReadExactly(b);
        return b;
    }

    /// <summary>One transaction inserting rows <paramref name="from"/> .. <paramref name="from"/> + <paramref name="count"/> - 1.</summary>
    private static void Insert(SharcDatabase db, int from, int count)
    {
        using var tx = db.BeginTransaction();
        for (int i = 0; i < count; i++) db.Insert("t", (long)(from + i), "sharc " + i);
        tx.Commit();
    }

    /// <summary>The commit the crash tests stop: 20 rows.</summary>
    private static void Work(SharcDatabase db) => Insert(db, 1000, 20);

    [NeedsSqlite3ShellFact]
    public void SqliteReadsSharcsPublishedIndexWithoutRebuildingIt()
    {
        if (!Sharc.Storage.Locking.OfdLock.IsSupported) return;
        using var dir = new TempDir();
        string path = dir.File("h.db");
        WalSharingTests.CreateWalDb(path, rows: 5);
        using var holder = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 });
        holder.IsWalShared.Should().BeTrue();
        for (int i = 0; i < 10; i++) Insert(holder, 100 + 10 * i, 10);
        new FileInfo(path + "-wal").Length.Should().BeGreaterThan(0, "the commits are in the log, found through the index");
        var headers = ShmHeaders(path);

        var (stdout, stderr) = Sqlite3Shell.RunLogged(path, "SELECT count(*), sum(a) FROM t;");
        stderr.Should().NotContain(Recovered, "SQLite found a valid index and used it");
        stdout.Trim().Should().Be($"105|{Enumerable.Range(1, 5).Sum() + Enumerable.Range(0, 100).Sum(i => 100 + i)}");
        ShmHeaders(path).Should().Equal(headers, "a SQLite reader leaves the index header (frame count, checksums, salts) as Sharc published it");

        // And the other way: SQLite's commit, published through the same index, is what Sharc reads next.
        (stdout, stderr) = Sqlite3Shell.RunLogged(path, "INSERT INTO t VALUES(5000, 'sqlite');");
        stderr.Should().BeEmpty();
        using var r = holder.Query("SELECT count(*) FROM t");
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(106);
    }

    /// <summary>The crash points of <see cref="Work"/>: the first index store after the log's last sync (nothing published) and the last (only the second header copy written).</summary>
    private static (int BeforeHeader, int BetweenCopies) CrashPoints(TempDir dir, string seed, SharcOpenOptions options)
    {
        string clean = dir.File("clean.db");
        CrashHarness.CopyDatabase(seed, clean);
        var counter = new FaultyStorage { CountShm = true };
        using (var holder = SharcDatabase.Open(clean, new SharcOpenOptions { Writable = true }))
        {
            SharcRows.All(holder, "t").Should().HaveCount(5);
            using var db = SharcDatabase.OpenWritable(clean, options, counter);
            Work(db);
        }
        string trace = counter.Trace.ToString();
        trace.Should().MatchRegex("s(m+)$", "the commit syncs the log, then indexes and publishes ({0})", trace);
        return (trace.LastIndexOf('s') + 2, trace.Length);
    }

    [NeedsSqlite3ShellFact]
    public void AWriterKilledBetweenTheHeaderCopiesLeavesAnIndexTheNextReaderRebuilds()
    {
        if (!Sharc.Storage.Locking.OfdLock.IsSupported) return;
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        WalSharingTests.CreateWalDb(seed, rows: 5);
        var options = new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0 };
        var (beforeHeader, betweenCopies) = CrashPoints(dir, seed, options);

        foreach (var sharcFirst in new[] { false, true })
        {
            string path = dir.File($"torn{sharcFirst}.db");
            CrashHarness.CopyDatabase(seed, path);
            using (var holder = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
            {
                SharcRows.All(holder, "t").Should().HaveCount(5);
                CrashHarness.CrashAt(path, options, Work, betweenCopies, tear: false, countShm: true);
                var headers = ShmHeaders(path);
                headers.AsSpan(0, 48).SequenceEqual(headers.AsSpan(48, 48)).Should().BeFalse("the crash left the two header copies different");
                if (sharcFirst)
                {
                    // Sharc rebuilds it (under the recover lock) and SQLite then finds a valid index.
                    using (var ro = SharcDatabase.Open(path)) SharcRows.All(ro, "t").Should().HaveCount(25, "the commit's frames were synced before the crash");
                    headers = ShmHeaders(path);
                    headers.AsSpan(0, 48).SequenceEqual(headers.AsSpan(48, 48)).Should().BeTrue("Sharc rewrote the header");
                    var (stdout, stderr) = Sqlite3Shell.RunLogged(path, "SELECT count(*) FROM t;");
                    stderr.Should().NotContain(Recovered);
                    stdout.Trim().Should().Be("25");
                }
                else
                {
                    var (stdout, stderr) = Sqlite3Shell.RunLogged(path, "SELECT count(*) FROM t;");
                    stderr.Should().Contain(Recovered, "SQLite found the header copies different and rebuilt the index from the log");
                    stdout.Trim().Should().Be("25", "the commit's frames were synced before the crash");
                    SharcRows.All(holder, "t").Should().HaveCount(25);
                }
            }
            Oracle.IntegrityCheck(path).Should().Be("ok");
        }

        // Killed after the log's sync but before any header store: the index is valid, nothing is rebuilt, and the
        // commit that was never published is not seen.
        string early = dir.File("early.db");
        CrashHarness.CopyDatabase(seed, early);
        using (var holder = SharcDatabase.Open(early, new SharcOpenOptions { Writable = true }))
        {
            SharcRows.All(holder, "t").Should().HaveCount(5);
            CrashHarness.CrashAt(early, options, Work, beforeHeader, tear: false, countShm: true);
            var (stdout, stderr) = Sqlite3Shell.RunLogged(early, "SELECT count(*) FROM t;");
            stderr.Should().NotContain(Recovered);
            stdout.Trim().Should().Be("5");
            SharcRows.All(holder, "t").Should().HaveCount(5);
        }
        Oracle.IntegrityCheck(early).Should().Be("ok");
    }
}
