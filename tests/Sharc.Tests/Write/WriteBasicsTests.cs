using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>Every test ends with real SQLite opening the file: integrity_check is ok and the content is what was written.</summary>
public class WriteBasicsTests
{
    private static void AssertSqliteAgrees(string path, string table, List<object?[]> expected, string columns = "*", string order = "rowid")
    {
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, $"SELECT {columns} FROM {table} ORDER BY {order}").ShouldEqual(expected);
    }

    [Fact]
    public void CreatedDatabaseIsValidForSqlite()
    {
        using var dir = new TempDir();
        string path = dir.File("new.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 1024 }))
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, data BLOB)");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT type, name, tbl_name, sql FROM sqlite_schema")[0]
            .Should().Equal("table", "t", "t", "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, data BLOB)");
        using var o = Oracle.Open(path, readOnly: true);
        Oracle.Scalar(o, "PRAGMA page_size").Should().Be(1024L);
    }

    [Theory]
    [InlineData(512)]
    [InlineData(4096)]
    [InlineData(65536)]
    public void ThousandsOfInsertsInOneTransactionReadBackInSqlite(int pageSize)
    {
        using var dir = new TempDir();
        string path = dir.File("ins.db");
        var expected = new List<object?[]>();
        var rng = new Random(pageSize);
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = pageSize }))
        {
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)");
            db.CreateIndex("CREATE INDEX t_name ON t(name)");
            using (var tx = db.BeginTransaction())
            {
                for (int i = 1; i <= 3000; i++)
                {
                    string name = "n" + rng.Next(1000) + new string('x', rng.Next(0, i % 97 == 0 ? pageSize * 2 : 30));
                    double score = rng.NextDouble();
                    byte[] data = FixtureBuilder.RandomBlob(rng, rng.Next(0, i % 53 == 0 ? pageSize * 3 : 20));
                    long id = db.Insert("t", null, name, score, data);
                    id.Should().Be(i);
                    expected.Add([(long)i, name, score, data]);
                }
                tx.Commit();
            }
        }
        AssertSqliteAgrees(path, "t", expected);
        Oracle.Rows(path, "SELECT name, rowid FROM t ORDER BY name, rowid").Count.Should().Be(3000);
    }

    [Fact]
    public void DeletesDownToEmptyAndRegrowKeepTheFileValid()
    {
        using var dir = new TempDir();
        string path = dir.File("del.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512 });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        db.CreateIndex("CREATE INDEX t_v ON t(v)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 1; i <= 2000; i++) db.Insert("t", null, "value " + i + new string('z', i % 50));
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        var order = Enumerable.Range(1, 2000).OrderBy(i => (i * 7919) % 2003).ToList();
        using (var tx = db.BeginTransaction())
        {
            foreach (int i in order.Take(1500)) db.Delete("t", i).Should().BeTrue();
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using (var tx = db.BeginTransaction())
        {
            foreach (int i in order.Skip(1500)) db.Delete("t", i).Should().BeTrue();
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(0L);
        using (var o = Oracle.Open(path, readOnly: true))
            ((long)Oracle.Scalar(o, "PRAGMA freelist_count")!).Should().BeGreaterThan(0, "freed pages go to the freelist");
        for (int i = 0; i < 500; i++) db.Insert("t", null, "again " + i);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(500L);
    }

    [Fact]
    public void DisposingATransactionWithoutCommitRollsBack()
    {
        using var dir = new TempDir();
        string path = dir.File("rb.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(a)");
        db.Insert("t", 1L);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 100; i++) db.Insert("t", (long)i);
        }
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(1L);
        SharcRows.All(db, "t").Should().HaveCount(1);
        File.Exists(path + "-journal").Should().BeFalse();
    }

    [Fact]
    public void ConstraintsAreEnforcedAndAFailedWriteChangesNothing()
    {
        using var dir = new TempDir();
        string path = dir.File("c.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL)");
        db.Insert("t", 1L, "a@x", "A");
        var dupEmail = () => db.Insert("t", 2L, "a@x", "B");
        dupEmail.Should().Throw<SharcConstraintException>().WithMessage("UNIQUE constraint failed: t.email");
        var dupId = () => db.Insert("t", 1L, "b@x", "B");
        dupId.Should().Throw<SharcConstraintException>().WithMessage("UNIQUE constraint failed: t.id");
        var nullName = () => db.Insert("t", 3L, "c@x", null);
        nullName.Should().Throw<SharcConstraintException>().WithMessage("NOT NULL constraint failed: t.name");
        db.Insert("t", 4L, null, "nulls never conflict");
        db.Insert("t", 5L, null, "nor here");
        using (var tx = db.BeginTransaction())
        {
            db.Insert("t", 6L, "f@x", "F");
            var bad = () => db.Insert("t", 7L, "f@x", "G");
            bad.Should().Throw<SharcConstraintException>();
            tx.Commit(); // the failed statement alone was undone
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT id FROM t ORDER BY id").Select(r => (long)r[0]!).Should().Equal(1, 4, 5, 6);
        Oracle.Rows(path, "SELECT name FROM sqlite_schema WHERE type='index'").Select(r => (string)r[0]!).Should().Equal("sqlite_autoindex_t_1");
    }

    [Fact]
    public void UpsertReplacesConflictingRows()
    {
        using var dir = new TempDir();
        string path = dir.File("u.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE kv(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID");
        db.Upsert("kv", "a", 1L);
        db.Upsert("kv", "b", 2L);
        db.Upsert("kv", "a", 3L);
        AssertSqliteAgrees(path, "kv", [["a", 3L], ["b", 2L]], order: "k");
        db.DeleteByKey("kv", "a").Should().BeTrue();
        db.DeleteByKey("kv", "zz").Should().BeFalse();
        AssertSqliteAgrees(path, "kv", [["b", 2L]], order: "k");
    }

    [Fact]
    public void UpdateChangesColumnsAndIndexes()
    {
        using var dir = new TempDir();
        string path = dir.File("up.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT)");
        db.CreateIndex("CREATE INDEX t_a ON t(a)");
        for (int i = 1; i <= 50; i++) db.Insert("t", null, (long)i, "b" + i);
        db.Update("t", 10, ["a", "b"], [999L, "changed"]).Should().BeTrue();
        db.Update("t", 77, ["a"], [1L]).Should().BeFalse();
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT id, b FROM t WHERE a = 999").Should().HaveCount(1);
        Oracle.Rows(path, "SELECT b FROM t WHERE id = 10")[0][0].Should().Be("changed");
    }

    [Fact]
    public void AffinityIsAppliedAsSqliteStoresValues()
    {
        using var dir = new TempDir();
        string path = dir.File("aff.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(i INTEGER, r REAL, n NUMERIC, t TEXT, b BLOB)");
        db.Insert("t", "12", "3", "4.0", 5L, "x");
        db.Insert("t", 1.0, 2L, "abc", 2.5, 7L);
        using var o = Oracle.Open(dir.File("oracle.db"));
        Oracle.Exec(o, "CREATE TABLE t(i INTEGER, r REAL, n NUMERIC, t TEXT, b BLOB)");
        Oracle.Exec(o, "INSERT INTO t VALUES('12', '3', '4.0', 5, 'x')");
        Oracle.Exec(o, "INSERT INTO t VALUES(1.0, 2, 'abc', 2.5, 7)");
        var expected = Oracle.Rows(o, "SELECT i, typeof(i), r, typeof(r), n, typeof(n), t, typeof(t), b, typeof(b) FROM t ORDER BY rowid");
        Oracle.Rows(path, "SELECT i, typeof(i), r, typeof(r), n, typeof(n), t, typeof(t), b, typeof(b) FROM t ORDER BY rowid").ShouldEqual(expected);
    }

    [Fact]
    public void PreparedInsertWritesTheSameRows()
    {
        using var dir = new TempDir();
        string path = dir.File("p.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL)");
        var ins = db.PrepareInsert("t", "name", "score");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 1000; i++)
            {
                ins.SetText(0, System.Text.Encoding.UTF8.GetBytes("name" + i));
                ins.SetDouble(1, i * 0.5);
                ins.Execute().Should().Be(i + 1);
            }
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*), sum(score) FROM t")[0].Should().Equal(1000L, 249750.0);
    }

    [Fact]
    public void SqliteWritesAfterSharcAndSharcReadsThem()
    {
        using var dir = new TempDir();
        string path = dir.File("mix.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.CreateTable("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            for (int i = 0; i < 100; i++) db.Insert("t", null, "sharc" + i);
        }
        Oracle.Exec(path, "INSERT INTO t(b) VALUES('sqlite')", "CREATE INDEX t_b ON t(b)");
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            db.Insert("t", null, "sharc again");
            SharcRows.All(db, "t").Should().HaveCount(102);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT b FROM t INDEXED BY t_b WHERE b = 'sharc again'").Should().HaveCount(1);
    }
}

/// <summary>The prepared insert's hot path: once warm, an insert that fits its leaf page allocates nothing.</summary>
public class WriteAllocationTests
{
    [Fact]
    public void PreparedInsertIntoAPageWithRoomAllocatesNothing()
    {
        using var dir = new TempDir();
        string path = dir.File("alloc.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 65536 });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, n INT)");
        var ins = db.PrepareInsert("t", "name", "score", "n");
        byte[] name = "sharc"u8.ToArray();
        using var tx = db.BeginTransaction();
        void One(int i)
        {
            ins.SetText(0, name);
            ins.SetDouble(1, i * 0.25);
            ins.SetInt64(2, i);
            ins.Execute();
        }
        for (int i = 0; i < 50; i++) One(i); // warm-up: pools, buffers, JIT
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 200; i++) One(i); // ~24-byte rows: all fit the 64 KiB root leaf
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        tx.Commit();
        allocated.Should().Be(0);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(250L);
    }

    [Fact]
    public void BatchInsertsAllocateLittlePerRowIncludingPageSplits()
    {
        using var dir = new TempDir();
        string path = dir.File("batch.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL)");
        var ins = db.PrepareInsert("t", "name", "score");
        byte[] name = "a typical name value"u8.ToArray();
        using (var warm = db.BeginTransaction())
        {
            for (int i = 0; i < 1000; i++) { ins.SetText(0, name); ins.SetDouble(1, i); ins.Execute(); }
            warm.Commit();
        }
        using var tx = db.BeginTransaction();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10_000; i++) { ins.SetText(0, name); ins.SetDouble(1, i); ins.Execute(); }
        long perRow = (GC.GetAllocatedBytesForCurrentThread() - before) / 10_000;
        tx.Commit();
        // A page split allocates little beyond the new page's 4 KiB buffer (one page per ~100 rows here, ~40 B a row).
        perRow.Should().BeLessThan(64, "only page splits (about one per hundred rows here) allocate");
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}

public class RowIdAndKeyTests
{
    [Fact]
    public void AtTheLargestRowidNewRowsGetRandomUnusedRowids()
    {
        using var dir = new TempDir();
        string path = dir.File("max.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(v)");
        db.Insert("t", ["rowid", "v"], [long.MaxValue, "top"]).Should().Be(long.MaxValue);
        var ids = Enumerable.Range(0, 20).Select(i => db.Insert("t", (object?)("r" + i))).ToList();
        ids.Should().OnlyHaveUniqueItems();
        ids.Should().OnlyContain(id => id > 0 && id < long.MaxValue);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(21L);
    }

    [Fact]
    public void UpdateByPrimaryKeyWorksForEveryKind()
    {
        using var dir = new TempDir();
        string path = dir.File("pk.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE w(k TEXT, n INT, v TEXT, PRIMARY KEY(k, n)) WITHOUT ROWID");
        db.CreateTable("CREATE TABLE r(code TEXT PRIMARY KEY, v TEXT)");
        db.CreateTable("CREATE TABLE i(id INTEGER PRIMARY KEY, v TEXT)");
        db.Insert("w", "a", 1L, "old");
        db.Insert("r", "c1", "old");
        db.Insert("i", 7L, "old");
        db.UpdateByKey("w", ["a", 1L], ["v"], ["new"]).Should().BeTrue();
        db.UpdateByKey("r", ["c1"], ["v"], ["new"]).Should().BeTrue();
        db.UpdateByKey("i", [7L], ["v"], ["new"]).Should().BeTrue();
        db.UpdateByKey("w", ["zz", 1L], ["v"], ["x"]).Should().BeFalse();
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT (SELECT v FROM w), (SELECT v FROM r), (SELECT v FROM i)")[0].Should().Equal("new", "new", "new");
    }
}
