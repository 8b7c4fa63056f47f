using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// CREATE INDEX builds the b-tree bottom-up from sorted entries: every level's page boundaries, overflowing entries
/// on leaves and interior pages, pointer maps, the first-field fast sort (integers, NULLs, DESC, the extremes) and its
/// fallback (mixed storage classes), all checked against SQLite's own ordering and integrity_check.
/// </summary>
public class CreateIndexBulkBuildTests
{
    [Fact]
    public void EveryRowCountUpToSeveralLevelsBuildsAValidTree()
    {
        using var dir = new TempDir();
        string path = dir.File("n.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512 });
        var rng = new Random(11);
        // Row counts that end a page exactly, leave one entry to go up alone, and need a third level.
        int[] counts = [.. Enumerable.Range(0, 90), 120, 250, 251, 252, 253, 600, 2_000, 9_000];
        using (var tx = db.BeginTransaction())
        {
            foreach (int n in counts)
            {
                db.Execute($"CREATE TABLE t{n}(a INT, b TEXT)");
                for (int i = 0; i < n; i++) db.Insert($"t{n}", (long)rng.Next(-1000, 1000), "v" + rng.Next(100_000));
            }
            tx.Commit();
        }
        foreach (int n in counts) db.Execute($"CREATE INDEX i{n} ON t{n}(a, b)");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        foreach (int n in counts)
            SharcRows.All(db, $"i{n}").ShouldEqual(Oracle.Rows(path, $"SELECT a, b, rowid FROM t{n} ORDER BY a, b, rowid"), $"index i{n}");
    }

    [Theory]
    [InlineData(SharcAutoVacuum.None)]
    [InlineData(SharcAutoVacuum.Full)]
    public void EntriesThatOverflowSitOnLeavesAndInteriorPagesWithTheirChainsMapped(SharcAutoVacuum vacuum)
    {
        using var dir = new TempDir();
        string path = dir.File("o.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512, AutoVacuum = vacuum });
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT, v BLOB)");
        var rng = new Random(12);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 1500; i++)
            {
                var blob = new byte[rng.Next(0, 3) == 0 ? rng.Next(100, 2500) : rng.Next(0, 40)];
                rng.NextBytes(blob);
                db.Insert("t", null, new string((char)('a' + rng.Next(26)), rng.Next(1, 400)) + i, blob);
            }
            tx.Commit();
        }
        db.Execute("CREATE INDEX t_k ON t(k); CREATE INDEX t_v ON t(v DESC, k)");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        SharcRows.All(db, "t_k").ShouldEqual(Oracle.Rows(path, "SELECT k, id FROM t ORDER BY k, id"));
        SharcRows.All(db, "t_v").ShouldEqual(Oracle.Rows(path, "SELECT v, k, id FROM t ORDER BY v DESC, k, id"));
        // The tree must also take ordinary inserts and deletes afterwards.
        using (var tx = db.BeginTransaction())
        {
            db.Execute("DELETE FROM t WHERE id % 3 = 0");
            for (int i = 0; i < 300; i++) db.Insert("t", null, "z" + new string('q', rng.Next(1, 600)), new byte[rng.Next(0, 900)]);
            tx.Commit();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        SharcRows.All(db, "t_k").ShouldEqual(Oracle.Rows(path, "SELECT k, id FROM t ORDER BY k, id"));
    }

    [Theory]
    [InlineData("a")]
    [InlineData("a DESC")]
    [InlineData("a, b DESC")]
    [InlineData("a DESC, b COLLATE NOCASE")]
    public void IntegerFirstFieldsWithNullsAndTheExtremesSortAsSqliteDoes(string columns)
    {
        using var dir = new TempDir();
        string path = dir.File("i.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 1024 });
        db.Execute("CREATE TABLE t(a INT, b TEXT)");
        var rng = new Random(13);
        long[] specials = [long.MinValue, long.MinValue + 1, -1, 0, 1, long.MaxValue - 1, long.MaxValue];
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 5000; i++)
            {
                object? a = rng.Next(10) switch { 0 => null, 1 => specials[rng.Next(specials.Length)], _ => (long)rng.Next(-300, 300) };
                db.Insert("t", a, rng.Next(5) == 0 ? null : (rng.Next(2) == 0 ? "X" : "x") + rng.Next(20));
            }
            tx.Commit();
        }
        db.Execute($"CREATE INDEX ix ON t({columns})");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        int fields = columns.Split(',').Length;
        string select = fields == 1 ? "a" : "a, b";
        SharcRows.All(db, "ix").ShouldEqual(Oracle.Rows(path, $"SELECT {select}, rowid FROM t ORDER BY {columns}, rowid"));
    }

    [Fact]
    public void MixedStorageClassesInTheFirstFieldFallBackToWholeRecordOrder()
    {
        using var dir = new TempDir();
        string path = dir.File("m.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512 });
        db.Execute("CREATE TABLE t(a, b)");
        var rng = new Random(14);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 3000; i++)
            {
                object? a = rng.Next(6) switch
                {
                    0 => null,
                    1 => rng.Next(-50, 50) + 0.5,
                    2 => (double)rng.Next(-50, 50),
                    3 => "t" + rng.Next(50),
                    4 => new byte[] { (byte)rng.Next(4), (byte)rng.Next(4) },
                    _ => (long)rng.Next(-50, 50),
                };
                db.Insert("t", a, (long)rng.Next(3));
            }
            tx.Commit();
        }
        db.Execute("CREATE INDEX ix ON t(a, b)");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        SharcRows.All(db, "ix").ShouldEqual(Oracle.Rows(path, "SELECT a, b, rowid FROM t ORDER BY a, b, rowid"));
    }

    [Fact]
    public void AUniqueIndexOverDuplicatesFailsAsSqliteDoesAndNullsNeverConflict()
    {
        using var dir = new TempDir();
        string path = dir.File("u.db");
        using var db = SharcDatabase.Create(path);
        db.Execute("CREATE TABLE t(a INT, b TEXT)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 2000; i++) db.Insert("t", i % 7 == 0 ? null : (long)i, i % 5 == 0 ? null : "B" + (i % 11));
            tx.Commit();
        }
        db.Execute("CREATE UNIQUE INDEX ua ON t(a)");
        db.Execute("CREATE UNIQUE INDEX uab ON t(a, b)");
        var act = () => db.Execute("CREATE UNIQUE INDEX ub ON t(b COLLATE NOCASE)");
        act.Should().Throw<SharcConstraintException>().WithMessage("UNIQUE constraint failed: t.b");
        db.Schema.FindIndex("ub").Should().BeNull();
        db.Execute("REINDEX ua");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        SharcRows.All(db, "uab").ShouldEqual(Oracle.Rows(path, "SELECT a, b, rowid FROM t ORDER BY a, b, rowid"));
        using var oracle = Oracle.Open(path);
        var sqlite = () => Oracle.Exec(oracle, "CREATE UNIQUE INDEX ub ON t(b COLLATE NOCASE)");
        sqlite.Should().Throw<Microsoft.Data.Sqlite.SqliteException>().WithMessage("*UNIQUE constraint failed: t.b*");
    }
}
