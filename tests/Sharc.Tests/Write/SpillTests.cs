using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// A transaction larger than <see cref="SharcOpenOptions.SpillPages"/> spills its pages before commit (to the database
/// file behind a synced journal, or to the -wal file as uncommitted frames), and still commits or rolls back exactly.
/// </summary>
[Collection(MemoryMeasurement.Name)]
public class SpillTests
{
    public static IEnumerable<object[]> JournalModes() => [[SharcJournalMode.Delete], [SharcJournalMode.Wal]];

    private static SharcDatabase Create(string path, SharcJournalMode mode, int spillPages = 16)
    {
        var db = SharcDatabase.Create(path, new SharcCreateOptions
        {
            PageSize = 1024,
            JournalMode = mode,
            Open = new SharcOpenOptions { Writable = true, SpillPages = spillPages, WalAutoCheckpoint = 0 },
        });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, b TEXT UNIQUE)");
        return db;
    }

    private static long SpillTarget(string path, SharcJournalMode mode)
        => mode == SharcJournalMode.Wal ? (File.Exists(path + "-wal") ? new FileInfo(path + "-wal").Length : 0) : new FileInfo(path).Length;

    [Theory]
    [MemberData(nameof(JournalModes))]
    public void PagesReachTheFileBeforeCommitAndTheCommitIsExact(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = dir.File("s.db");
        using (var db = Create(path, mode))
        {
            db.Insert("t", 1L, "seed");
            long sizeBefore = SpillTarget(path, mode);
            using var tx = db.BeginTransaction();
            for (int i = 2; i <= 2000; i++) db.Insert("t", (long)i, "row " + i + new string('s', 50));
            SpillTarget(path, mode).Should().BeGreaterThan(sizeBefore + 16 * 1024, "pages were spilled before commit");
            if (mode == SharcJournalMode.Delete) File.Exists(path + "-journal").Should().BeTrue();
            SharcRows.All(db, "t").Should().HaveCount(2000, "the transaction reads its own spilled pages");
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*), sum(id) FROM t")[0].Should().Equal(2000L, 2000L * 2001 / 2);
    }

    [Theory]
    [MemberData(nameof(JournalModes))]
    public void RollbackAfterASpillRestoresTheFileExactly(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = dir.File("s.db");
        List<object?[]> before;
        using (var db = Create(path, mode))
        {
            for (int i = 1; i <= 300; i++) db.Insert("t", (long)i, "keep " + i);
            before = SharcRows.All(db, "t");
            using (db.BeginTransaction())
            {
                for (int i = 1; i <= 300; i += 2) db.Delete("t", i);
                for (int i = 1000; i < 3000; i++) db.Insert("t", (long)i, "gone " + i + new string('g', 40));
                // disposed without commit
            }
            SharcRows.All(db, "t").ShouldEqual(before);
            db.Insert("t", 5000L, "after rollback");
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(301L);
        if (mode == SharcJournalMode.Delete) (new FileInfo(path).Length / 1024).Should().BeLessThan(100, "the file was cut back to its size");
    }

    [Theory]
    [MemberData(nameof(JournalModes))]
    public void AFailedStatementAfterASpillIsUndoneAloneAndTheRestCommits(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        string path = dir.File("s.db");
        using (var db = Create(path, mode))
        {
            using var tx = db.BeginTransaction();
            for (int i = 1; i <= 1500; i++) db.Insert("t", (long)i, "v" + i + new string('v', 30));
            var dup = () => db.Upsert("t", ["id", "b"], [9999L, "v7" + new string('v', 30)]);
            dup.Should().NotThrow("OR REPLACE removes the conflicting row");
            var fail = () => db.Insert("t", 10000L, "v8" + new string('v', 30));
            fail.Should().Throw<SharcConstraintException>();
            db.Insert("t", 10001L, "last");
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        var rows = Oracle.Rows(path, "SELECT count(*), max(id) FROM t")[0];
        rows.Should().Equal(1501L, 10001L);
    }

    [Fact]
    public void ALargeTransactionKeepsManagedMemoryBounded()
    {
        using var dir = new TempDir();
        string path = dir.File("big.db");
        const int RowBytes = 2000, Rows = 100_000; // 200 MB of row data in one transaction
        var payload = new byte[RowBytes];
        new Random(7).NextBytes(payload);
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { Open = new SharcOpenOptions { Writable = true, CachePages = 500, SpillPages = 1000 } }))
        {
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, data BLOB)");
            var insert = db.PrepareInsert("t", "id", "data");
            GC.Collect();
            long baseline = GC.GetTotalMemory(forceFullCollection: true);
            long peak = 0;
            using (var tx = db.BeginTransaction())
            {
                for (int i = 1; i <= Rows; i++)
                {
                    payload[0] = (byte)i;
                    insert.SetInt64(0, i);
                    insert.SetBlob(1, payload);
                    insert.Execute();
                    if (i % 10_000 == 0) peak = Math.Max(peak, GC.GetTotalMemory(forceFullCollection: true) - baseline);
                }
                tx.Commit();
            }
            // 1000 spilled pages and 500 cached pages of 4 KiB are 6 MB; 200 MB of rows must not be held.
            peak.Should().BeLessThan(48L << 20, "the transaction's pages were spilled, not kept");
        }
        new FileInfo(path).Length.Should().BeGreaterThan((long)RowBytes * Rows);
        Oracle.Rows(path, "SELECT count(*), sum(length(data)) FROM t")[0].Should().Equal((long)Rows, (long)Rows * RowBytes);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}
