using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>auto_vacuum databases written by Sharc keep SQLite's pointer map right and shrink as SQLite's do.</summary>
public class AutoVacuumTests
{
    [Fact]
    public void FullAutoVacuumShrinksTheFileAndKeepsThePointerMap()
    {
        using var dir = new TempDir();
        string path = dir.File("av.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 1024, AutoVacuum = SharcAutoVacuum.Full });
        db.CreateTable("CREATE TABLE a(id INTEGER PRIMARY KEY, v TEXT)");
        db.CreateTable("CREATE TABLE b(id INTEGER PRIMARY KEY, v BLOB)");
        db.CreateIndex("CREATE INDEX a_v ON a(v)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 800; i++)
            {
                db.Insert("a", null, "text " + i + new string('a', i % 100));
                db.Insert("b", null, new byte[i % 7 == 0 ? 3000 : 40]);
            }
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        uint big = db.PageCount;
        using (var tx = db.BeginTransaction())
        {
            for (int i = 1; i <= 800; i += 2) db.Delete("b", i);
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        db.PageCount.Should().BeLessThan(big);
        Oracle.Rows(path, "PRAGMA freelist_count")[0][0].Should().Be(0L);
        // Dropping a table whose root is not the last one moves the last root into its place.
        db.DropTable("a");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        db.CreateTable("CREATE TABLE c(x)");
        db.Insert("c", 1L);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var o = Oracle.Open(path, readOnly: true);
        Oracle.Scalar(o, "PRAGMA auto_vacuum").Should().Be(1L);
        Oracle.Rows(o, "SELECT count(*) FROM b")[0][0].Should().Be(400L);
    }

    [Fact]
    public void IncrementalVacuumFreesPagesOnRequest()
    {
        using var dir = new TempDir();
        string path = dir.File("inc.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512, AutoVacuum = SharcAutoVacuum.Incremental });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 600; i++) db.Insert("t", null, new string('x', 100 + i % 300));
            tx.Commit();
        }
        using (var tx = db.BeginTransaction())
        {
            for (int i = 1; i <= 600; i += 3) db.Delete("t", i);
            tx.Commit();
        }
        long free = (long)Oracle.Rows(path, "PRAGMA freelist_count")[0][0]!;
        free.Should().BeGreaterThan(10);
        uint before = db.PageCount;
        db.IncrementalVacuum(5);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "PRAGMA freelist_count")[0][0].Should().Be(free - 5);
        db.IncrementalVacuum();
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "PRAGMA freelist_count")[0][0].Should().Be(0L);
        db.PageCount.Should().BeLessThan(before);
    }

    [Fact]
    public void SqliteAutoVacuumDatabaseCanBeWrittenBySharc()
    {
        using var dir = new TempDir();
        string path = dir.File("sq.db");
        FixtureBuilder.Build(path, new FixtureSpec(1024, AutoVacuum: 1, Rows: 150, Seed: 5));
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            using var tx = db.BeginTransaction();
            for (int i = 0; i < 100; i++) db.Insert("w", "new" + i, (long)i, new byte[i * 13]);
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}
