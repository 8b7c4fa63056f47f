using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>DDL through the write engine: what lands in sqlite_schema is what SQLite itself would store.</summary>
public class DdlTests
{
    /// <summary>Runs the same DDL in SQLite and in Sharc and compares sqlite_schema (except root pages) and integrity.</summary>
    private static void SameSchema(string sharcPath, string sqlitePath)
    {
        Oracle.IntegrityCheck(sharcPath).Should().Be("ok");
        const string q = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid";
        Oracle.Rows(sharcPath, q).ShouldEqual(Oracle.Rows(sqlitePath, q));
    }

    [Fact]
    public void CreateTableStoresTheStatementAndAutoindexesAsSqliteDoes()
    {
        using var dir = new TempDir();
        string s = dir.File("s.db"), o = dir.File("o.db");
        string[] ddl =
        [
            "CREATE TABLE IF NOT EXISTS main.a(id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT UNIQUE, x, y, UNIQUE(x, y))",
            "create table \"B b\"([k 1] TEXT, `v` INT, PRIMARY KEY([k 1] DESC, v)) WITHOUT ROWID",
            "CREATE TABLE c(p TEXT PRIMARY KEY, q REAL NOT NULL DEFAULT 1.5 CHECK (q > 0), r TEXT COLLATE NOCASE UNIQUE)",
        ];
        using (var db = SharcDatabase.Create(s))
            foreach (var d in ddl) db.CreateTable(d);
        Oracle.Exec(o, ddl);
        SameSchema(s, o);
        // IF NOT EXISTS on an existing table is a no-op; without it, an error.
        using var again = SharcDatabase.Open(s, new SharcOpenOptions { Writable = true });
        again.CreateTable(ddl[0]);
        var dup = () => again.CreateTable("CREATE TABLE a(z)");
        dup.Should().Throw<SharcException>().WithMessage("table a already exists");
    }

    [Fact]
    public void AutoincrementKeepsSqliteSequence()
    {
        using var dir = new TempDir();
        string path = dir.File("ai.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)");
            db.Insert("t", null, "a");
            db.Insert("t", null, "b");
            db.Insert("t", 100L, "c");
            db.Delete("t", 100);
            db.Insert("t", null, "d").Should().Be(101, "AUTOINCREMENT never reuses a rowid");
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT name, seq FROM sqlite_sequence")[0].Should().Equal("t", 101L);
        Oracle.Exec(path, "INSERT INTO t(v) VALUES('sqlite')");
        Oracle.Rows(path, "SELECT max(id) FROM t")[0][0].Should().Be(102L);
    }

    [Fact]
    public void CreateIndexOverExistingRowsAndUniqueViolationsAbort()
    {
        using var dir = new TempDir();
        string path = dir.File("ix.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512 });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 2000; i++) db.Insert("t", null, (long)(i % 100), "b" + i);
            tx.Commit();
        }
        db.CreateIndex("CREATE INDEX t_ab ON t(a DESC, b)");
        var unique = () => db.CreateIndex("CREATE UNIQUE INDEX t_a ON t(a)");
        unique.Should().Throw<SharcConstraintException>();
        db.Schema.FindIndex("t_a").Should().BeNull("the failed CREATE INDEX left nothing behind");
        db.CreateIndex("CREATE UNIQUE INDEX t_b ON t(b)");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name").Select(r => r[0]).Should().Equal("t_ab", "t_b");
        SharcRows.All(db, "t_ab").ShouldEqual(Oracle.Rows(path, "SELECT a, b, rowid FROM t ORDER BY a DESC, b, rowid"));
    }

    [Fact]
    public void DropTableAndIndexFreeTheirPages()
    {
        using var dir = new TempDir();
        string path = dir.File("drop.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 1024 });
        db.CreateTable("CREATE TABLE keep(a)");
        db.CreateTable("CREATE TABLE gone(id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
        db.CreateIndex("CREATE INDEX gone_v ON gone(v, id)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 500; i++) db.Insert("gone", null, "value " + i + new string('v', i % 300));
            db.Insert("keep", 1L);
            tx.Commit();
        }
        uint pagesBefore = db.PageCount;
        db.DropIndex("gone_v");
        var auto = () => db.DropIndex("sqlite_autoindex_gone_1");
        auto.Should().Throw<SharcException>().WithMessage("*cannot be dropped*");
        db.DropTable("gone");
        db.DropTable("gone", ifExists: true);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using (var o = Oracle.Open(path, readOnly: true))
            ((long)Oracle.Scalar(o, "PRAGMA freelist_count")!).Should().BeGreaterThan(pagesBefore / 2);
        Oracle.Rows(path, "SELECT name FROM sqlite_schema").Select(r => r[0]).Should().Equal("keep");
        // Freed pages are reused before the file grows.
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 200; i++) db.Insert("keep", (long)i);
            tx.Commit();
        }
        db.PageCount.Should().Be(pagesBefore);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void AlterTableMatchesSqlite()
    {
        using var dir = new TempDir();
        string s = dir.File("s.db"), o = dir.File("o.db");
        string create = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)";
        Oracle.Exec(o, create, "CREATE INDEX t_name ON t(name)", "INSERT INTO t(name) VALUES('x')",
            "ALTER TABLE t ADD COLUMN age INT DEFAULT 7", "ALTER TABLE t ADD COLUMN note TEXT",
            "ALTER TABLE t RENAME COLUMN name TO full_name", "ALTER TABLE t RENAME TO people");
        using (var db = SharcDatabase.Create(s))
        {
            db.CreateTable(create);
            db.CreateIndex("CREATE INDEX t_name ON t(name)");
            db.Insert("t", null, "x");
            db.AddColumn("t", "age INT DEFAULT 7");
            db.AddColumn("t", "note TEXT");
            db.RenameColumn("t", "name", "full_name");
            db.RenameTable("t", "people");
            var bad = () => db.AddColumn("people", "z INT NOT NULL");
            bad.Should().Throw<SharcException>().WithMessage("*NOT NULL*");
            SharcRows.All(db, "people").ShouldEqual([[1L, "x", 7L, null]]);
        }
        SameSchema(s, o);
        Oracle.Rows(s, "SELECT * FROM people").ShouldEqual(Oracle.Rows(o, "SELECT * FROM people"));
    }
}
