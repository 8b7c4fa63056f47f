using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage;

/// <summary>Files over 1 GiB contain the lock-byte page (the page holding byte offset 2^30), which is never used.</summary>
public class LargeFileTests
{
    [Fact]
    public void TablesBeyondTheLockBytePageReadCorrectly()
    {
        using var dir = new TempDir();
        string path = dir.File("big.db");
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "PRAGMA page_size=65536");
            Oracle.Exec(c, "PRAGMA journal_mode=OFF");
            Oracle.Exec(c, "PRAGMA synchronous=OFF");
            Oracle.Exec(c, "CREATE TABLE big(id INTEGER PRIMARY KEY, b BLOB)");
            // SQLite caps one value at 1e9 bytes: two rows of 600 MB take the file past 1 GiB.
            Oracle.Exec(c, "INSERT INTO big(b) VALUES(zeroblob(600000000))");
            Oracle.Exec(c, "INSERT INTO big(b) VALUES(zeroblob(600000000))");
            Oracle.Exec(c, "CREATE TABLE after(id INTEGER PRIMARY KEY, t TEXT)");
            Oracle.Exec(c, "CREATE INDEX after_t ON after(t)");
            using var tx = c.BeginTransaction();
            for (int i = 0; i < 3000; i++) Oracle.Exec(c, "INSERT INTO after(t) VALUES($t)", ("$t", "row " + i + new string('z', i % 200)));
            tx.Commit();
        }
        new FileInfo(path).Length.Should().BeGreaterThan(1L << 30);

        using var db = SharcDatabase.Open(path);
        uint lockBytePage = (uint)((1L << 30) / db.PageSize) + 1;
        db.PageCount.Should().BeGreaterThan(lockBytePage);
        db.Schema.GetTable("after").RootPage.Should().BeGreaterThan(lockBytePage, "the later table lives past the lock-byte page");

        using (var r = db.CreateReader("big", "id", "b"))
        {
            r.Read().Should().BeTrue();
            r.GetColumnType(1).Should().Be(SharcColumnType.Blob);
        }
        var afterRows = SharcRows.All(db, "after");
        afterRows.ShouldEqual(Oracle.Rows(path, "SELECT id, t FROM after ORDER BY id"));
        SharcRows.All(db, "after_t").ShouldEqual(Oracle.Rows(path, "SELECT t, rowid FROM after ORDER BY t, rowid"));
    }
}
