using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>CREATE INDEX over rows stored in another order than the index's: the entries are sorted before they go in.</summary>
public class CreateIndexOrderTests
{
    [Theory]
    [InlineData("CREATE INDEX ix ON t(b COLLATE NOCASE, a DESC)", "SELECT b, a, rowid FROM t ORDER BY b COLLATE NOCASE, a DESC, rowid")]
    [InlineData("CREATE INDEX ix ON t(a) WHERE a % 3 = 0", "SELECT a, rowid FROM t WHERE a % 3 = 0 ORDER BY a, rowid")]
    [InlineData("CREATE INDEX ix ON t(a, b)", "SELECT a, b, rowid FROM t ORDER BY a, b, rowid")]
    public void IndexesBuiltOverScatteredRowsHoldSqlitesEntriesInOrder(string create, string expected)
    {
        using var dir = new TempDir();
        string path = dir.File("ix.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512 });
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT)");
        var rng = new Random(7);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 6000; i++)
                db.Insert("t", null, rng.Next(-500, 500) is int a && a % 17 == 0 ? null : (long)a, rng.Next(4) == 0 ? null : (rng.Next(2) == 0 ? "K" : "k") + rng.Next(900));
            tx.Commit();
        }
        db.Execute(create);
        Oracle.IntegrityCheck(path).Should().Be("ok");
        SharcRows.All(db, "ix").ShouldEqual(Oracle.Rows(path, expected));
    }

    [Fact]
    public void AWithoutRowIdTablesIndexIsBuiltInOrder()
    {
        using var dir = new TempDir();
        string path = dir.File("ix.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512 });
        db.Execute("CREATE TABLE w(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID");
        var rng = new Random(8);
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 4000; i++) db.Insert("w", "key" + i, (long)rng.Next(50));
            tx.Commit();
        }
        db.Execute("CREATE INDEX w_v ON w(v DESC)");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        SharcRows.All(db, "w_v").ShouldEqual(Oracle.Rows(path, "SELECT v, k FROM w ORDER BY v DESC, k"));
    }
}
