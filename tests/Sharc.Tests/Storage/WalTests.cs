using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage;

/// <summary>A database with a -wal file beside it reads as SQLite reads it: committed frames only, no -shm needed.</summary>
public class WalTests
{
    /// <summary>Writes through SQLite in WAL mode and snapshots db + -wal while the connection is still open (so nothing is checkpointed).</summary>
    private static void SnapshotWithWal(string livePath, string copyPath, Action<Microsoft.Data.Sqlite.SqliteConnection> write)
    {
        using var c = Oracle.Open(livePath);
        Oracle.Exec(c, "PRAGMA journal_mode=WAL");
        Oracle.Exec(c, "PRAGMA wal_autocheckpoint=0");
        write(c);
        File.Copy(livePath, copyPath);
        File.Copy(livePath + "-wal", copyPath + "-wal");
    }

    [Fact]
    public void CommittedFramesInTheWalAreRead()
    {
        using var dir = new TempDir();
        string live = dir.File("live.db"), copy = dir.File("copy.db");
        SnapshotWithWal(live, copy, c =>
        {
            Oracle.Exec(c, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            for (int i = 0; i < 500; i++) Oracle.Exec(c, "INSERT INTO t(b) VALUES($b)", ("$b", new string('x', i % 300)));
            Oracle.Exec(c, "CREATE INDEX t_b ON t(b)");
            Oracle.Exec(c, "UPDATE t SET b = 'changed' WHERE a % 10 = 0");
        });
        new FileInfo(copy + "-wal").Length.Should().BeGreaterThan(0);
        File.Exists(copy + "-shm").Should().BeFalse();

        using var db = SharcDatabase.Open(copy);
        db.Header.IsWal.Should().BeTrue();
        db.Schema.FindTable("t").Should().NotBeNull("the table exists only in the WAL");
        OracleComparison.CompareAll(copy, db).Should().Be(2);
    }

    [Fact]
    public void FramesAfterTheLastCommitAreIgnored()
    {
        using var dir = new TempDir();
        string live = dir.File("live.db"), copy = dir.File("copy.db");
        using var c = Oracle.Open(live);
        Oracle.Exec(c, "PRAGMA journal_mode=WAL");
        Oracle.Exec(c, "PRAGMA wal_autocheckpoint=0");
        Oracle.Exec(c, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        Oracle.Exec(c, "INSERT INTO t(b) VALUES('one')");
        File.Copy(live, copy);
        File.Copy(live + "-wal", copy + "-wal");
        long committed = new FileInfo(copy + "-wal").Length;

        // A second transaction touching several pages; graft all its frames but the final (commit) one onto the
        // copy, as if the writer died before writing its commit frame.
        using (var tx = c.BeginTransaction())
        {
            for (int i = 0; i < 50; i++) Oracle.Exec(c, "INSERT INTO t(b) VALUES($b)", ("$b", new string('q', 500)));
            tx.Commit();
        }
        var liveWal = File.ReadAllBytes(live + "-wal");
        int frame = 24 + 4096;
        ((liveWal.Length - committed) / frame).Should().BeGreaterThan(2);
        using (var fs = new FileStream(copy + "-wal", FileMode.Append))
            fs.Write(liveWal, (int)committed, liveWal.Length - (int)committed - frame);

        using var db = SharcDatabase.Open(copy);
        SharcRows.All(db, "t").Select(r => r[1]).Should().Equal("one");
        Oracle.Rows(copy, "SELECT b FROM t").Select(r => r[0]).Should().Equal("one");
    }

    [Fact]
    public void FrameWithBadChecksumEndsTheLog()
    {
        using var dir = new TempDir();
        string live = dir.File("live.db"), copy = dir.File("copy.db");
        SnapshotWithWal(live, copy, c =>
        {
            Oracle.Exec(c, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            Oracle.Exec(c, "INSERT INTO t(b) VALUES('one')");
            Oracle.Exec(c, "INSERT INTO t(b) VALUES('two')");
        });
        // Corrupt a byte of the last frame's page data: its transaction must vanish, the first must remain.
        var wal = File.ReadAllBytes(copy + "-wal");
        wal[^10] ^= 0xFF;
        File.WriteAllBytes(copy + "-wal", wal);

        using var db = SharcDatabase.Open(copy);
        var sharc = SharcRows.All(db, "t").Select(r => r[1]).ToList();
        var sqlite = Oracle.Rows(copy, "SELECT b FROM t ORDER BY a").Select(r => r[0]).ToList();
        sharc.Should().Equal(sqlite);
        sharc.Should().Equal("one");
    }

    [Fact]
    public void WalCanBeIgnoredOnRequest()
    {
        using var dir = new TempDir();
        string live = dir.File("live.db"), copy = dir.File("copy.db");
        SnapshotWithWal(live, copy, c =>
        {
            Oracle.Exec(c, "CREATE TABLE t(a)");
        });
        using var db = SharcDatabase.Open(copy, new SharcOpenOptions { ReadWal = false });
        db.Schema.FindTable("t").Should().BeNull("the table was only ever committed to the WAL");
    }
}
