using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Integrity;

/// <summary>Databases SQLite built and finds intact: CheckIntegrity must find nothing either (no false positives).</summary>
public class IntactDatabaseTests
{
    public static IEnumerable<object[]> Matrix()
    {
        int seed = 100;
        foreach (int page in new[] { 512, 4096 })
            foreach (string enc in new[] { "UTF-8", "UTF-16le", "UTF-16be" })
                foreach (int av in new[] { 0, 1, 2 })
                    yield return [page, enc, av, seed++];
    }

    /// <summary>
    /// The fixture matrix: overflow payloads, ALTER-added columns, WITHOUT ROWID, DESC / NOCASE / expression /
    /// partial indexes, a UNIQUE constraint, freelist pages left by deletes, pointer maps (auto_vacuum full and
    /// incremental).
    /// </summary>
    [Theory]
    [MemberData(nameof(Matrix))]
    public void FixtureIsIntact(int pageSize, string encoding, int autoVacuum, int seed)
    {
        using var dir = new TempDir();
        string path = dir.File("m.db");
        FixtureBuilder.Build(path, new FixtureSpec(pageSize, encoding, autoVacuum, Rows: 200, Seed: seed));
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var db = SharcDatabase.Open(path);
        if (autoVacuum == 0) db.Header.FreelistPageCount.Should().BeGreaterThan(0, "the deletes leave free pages");
        db.CheckIntegrity().Should().BeEmpty();
        db.IsIntact().Should().BeTrue();
    }

    [Theory]
    [InlineData(8)]
    [InlineData(200)]
    public void ReservedBytesAreNotFreeSpace(int reserved)
    {
        using var dir = new TempDir();
        string path = dir.File("r.db");
        FixtureBuilder.Build(path, new FixtureSpec(1024, ReservedBytes: reserved, Seed: reserved));
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var db = SharcDatabase.Open(path);
        db.CheckIntegrity().Should().BeEmpty();
    }

    [Fact]
    public void MemoryImageIsIntact()
    {
        using var dir = new TempDir();
        string path = dir.File("mem.db");
        FixtureBuilder.Build(path, new FixtureSpec(4096, Seed: 7));
        using var db = SharcDatabase.OpenMemory(File.ReadAllBytes(path));
        db.CheckIntegrity().Should().BeEmpty();
    }

    [Fact]
    public void EmptyAndFreshDatabasesAreIntact()
    {
        using var dir = new TempDir();
        string empty = dir.File("empty.db");
        File.WriteAllBytes(empty, []);
        using (var db = SharcDatabase.Open(empty)) db.CheckIntegrity().Should().BeEmpty();

        string fresh = dir.File("fresh.db");
        Oracle.Exec(fresh, "PRAGMA user_version=3");
        using (var db = SharcDatabase.Open(fresh)) db.CheckIntegrity().Should().BeEmpty();

        string dropped = dir.File("dropped.db");
        Oracle.Exec(dropped, "PRAGMA auto_vacuum=1", "CREATE TABLE t(a)", "CREATE INDEX i ON t(a)", "DROP TABLE t");
        using (var db = SharcDatabase.Open(dropped)) db.CheckIntegrity().Should().BeEmpty();
    }

    /// <summary>Schemas the fixture matrix lacks: every kind of key an index can have, and deep trees.</summary>
    [Theory]
    [InlineData("UTF-8", 0)]
    [InlineData("UTF-16le", 1)]
    [InlineData("UTF-16be", 2)]
    public void AssortedSchemasAreIntact(string encoding, int autoVacuum)
    {
        using var dir = new TempDir();
        string path = dir.File("s.db");
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "PRAGMA page_size=512");
            Oracle.Exec(c, $"PRAGMA encoding='{encoding}'");
            Oracle.Exec(c, $"PRAGMA auto_vacuum={autoVacuum}");
            Oracle.Exec(c, "CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE UNIQUE, score REAL, tag TEXT COLLATE RTRIM, n NUMERIC NOT NULL, g INT GENERATED ALWAYS AS (id * 2) VIRTUAL, s INT GENERATED ALWAYS AS (id + 1) STORED)");
            Oracle.Exec(c, "CREATE INDEX a_id ON a(id)");
            Oracle.Exec(c, "CREATE INDEX a_rowid_desc ON a(score DESC, tag)");
            Oracle.Exec(c, "CREATE INDEX a_tag ON a(tag COLLATE NOCASE DESC, name)");
            Oracle.Exec(c, "CREATE INDEX a_g ON a(g)");
            Oracle.Exec(c, "CREATE INDEX a_s ON a(s)");
            Oracle.Exec(c, "CREATE UNIQUE INDEX a_upper ON a(upper(name))");
            Oracle.Exec(c, "CREATE TABLE b(x TEXT, y INT, z BLOB, PRIMARY KEY(y DESC, x COLLATE RTRIM)) WITHOUT ROWID");
            Oracle.Exec(c, "CREATE INDEX b_z ON b(z)");
            Oracle.Exec(c, "CREATE INDEX b_x ON b(x, y)");
            Oracle.Exec(c, "CREATE UNIQUE INDEX b_zy ON b(z, y) WHERE z IS NOT NULL");
            Oracle.Exec(c, "CREATE TABLE c(p INTEGER, q TEXT, PRIMARY KEY(p)) STRICT");
            Oracle.Exec(c, "CREATE TABLE d(k, v, UNIQUE(k, v))");
            Oracle.Exec(c, "CREATE TABLE e(x)"); // empty
            Oracle.Exec(c, "CREATE INDEX e_x ON e(x)");
            var rng = new Random(5);
            using (var tx = c.BeginTransaction())
            {
                for (int i = 0; i < 1500; i++)
                {
                    Oracle.Exec(c, "INSERT INTO a(name, score, tag, n) VALUES($n, $s, $t, $v)",
                        ("$n", $"Name{i}"), ("$s", rng.Next(4) == 0 ? null : (object)(rng.Next(100) / 4.0)),
                        ("$t", FixtureBuilder.RandomText(rng, rng.Next(0, 6)) + new string(' ', rng.Next(3))), ("$v", FixtureBuilder.RandomValue(rng, 512) ?? 0L));
                    Oracle.Exec(c, "INSERT OR IGNORE INTO b VALUES($x, $y, $z)",
                        ("$x", FixtureBuilder.RandomText(rng, rng.Next(1, 300))), ("$y", (long)rng.Next(-50, 50)), ("$z", rng.Next(3) == 0 ? null : FixtureBuilder.RandomBlob(rng, rng.Next(0, 600))));
                    Oracle.Exec(c, "INSERT INTO c VALUES($p, $q)", ("$p", (long)i * 7), ("$q", FixtureBuilder.RandomText(rng, rng.Next(0, 900))));
                    Oracle.Exec(c, "INSERT OR IGNORE INTO d VALUES($k, $v)", ("$k", FixtureBuilder.RandomValue(rng, 512)), ("$v", (long)rng.Next(3)));
                }
                tx.Commit();
            }
            Oracle.Exec(c, "DELETE FROM a WHERE id % 3 = 0");
            Oracle.Exec(c, "DELETE FROM b WHERE y % 4 = 0");
            Oracle.Exec(c, "ALTER TABLE a ADD COLUMN late TEXT DEFAULT 'x' NOT NULL");
            Oracle.Exec(c, "CREATE INDEX a_late ON a(late, n)");
            Oracle.Exec(c, "ANALYZE");
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var db = SharcDatabase.Open(path);
        db.CheckIntegrity().Should().BeEmpty();
    }

    /// <summary>
    /// Pointer-map pages recur every usable/5 + 1 pages: a database big enough for several of them (512-byte pages:
    /// pages 2, 105, 208, …) checks clean in both auto_vacuum modes.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void SeveralPointerMapPages(int autoVacuum)
    {
        using var dir = new TempDir();
        string path = dir.File("ptrmaps.db");
        Oracle.Exec(path, "PRAGMA page_size=512", $"PRAGMA auto_vacuum={autoVacuum}", "CREATE TABLE t(a, b)", "CREATE INDEX t_a ON t(a)",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO t SELECT i, randomblob(300 + i % 700) FROM n",
            "DELETE FROM t WHERE a % 4 = 0");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var db = SharcDatabase.Open(path);
        db.PageCount.Should().BeGreaterThan(208u + 103u, "at least four pointer-map pages");
        db.CheckIntegrity().Should().BeEmpty();
    }

    /// <summary>Committed frames in a -wal file are part of the database: their pages are checked, not the stale ones in the file.</summary>
    [Fact]
    public void WalDatabaseIsIntact()
    {
        using var dir = new TempDir();
        string path = dir.File("wal.db");
        string copy = dir.File("copy.db");
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "PRAGMA journal_mode=WAL");
            Oracle.Exec(c, "PRAGMA wal_autocheckpoint=0");
            Oracle.Exec(c, "CREATE TABLE t(a TEXT, b)");
            Oracle.Exec(c, "CREATE INDEX t_a ON t(a)");
            Oracle.Exec(c, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT 'row ' || i, randomblob(i % 300) FROM n");
            Oracle.Exec(c, "DELETE FROM t WHERE rowid % 3 = 0");
            // Copy while the connection holds the WAL open, so the frames are not checkpointed away.
            File.Copy(path, copy);
            File.Copy(path + "-wal", copy + "-wal");
        }
        new FileInfo(copy + "-wal").Length.Should().BeGreaterThan(0);
        using var db = SharcDatabase.Open(copy);
        db.PageCount.Should().BeGreaterThan((uint)(new FileInfo(copy).Length / db.PageSize), "the WAL holds pages the file lacks");
        db.CheckIntegrity().Should().BeEmpty();
    }

    /// <summary>An index whose collation Sharc does not implement: its order and entries cannot be checked, only counted.</summary>
    [Fact]
    public void UnknownCollationIsNotAFalsePositive()
    {
        using var dir = new TempDir();
        string path = dir.File("coll.db");
        using (var c = Oracle.Open(path))
        {
            c.CreateCollation("BACKWARDS", (x, y) => string.CompareOrdinal(y, x));
            Oracle.Exec(c, "CREATE TABLE t(a TEXT)");
            Oracle.Exec(c, "CREATE INDEX t_a ON t(a COLLATE BACKWARDS)");
            for (int i = 0; i < 300; i++) Oracle.Exec(c, "INSERT INTO t VALUES($a)", ("$a", $"v{i}"));
        }
        using var db = SharcDatabase.Open(path);
        db.CheckIntegrity().Should().BeEmpty();
    }
}
