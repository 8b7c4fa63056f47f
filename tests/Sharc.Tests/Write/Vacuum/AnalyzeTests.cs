using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write.Vacuum;

/// <summary>ANALYZE's sqlite_stat1 rows compared with SQLite's ANALYZE of the same file.</summary>
public class AnalyzeTests
{
    private const string Extra =
        "CREATE TABLE n(a, b TEXT COLLATE NOCASE, c); CREATE INDEX n_ab ON n(a, b); CREATE UNIQUE INDEX n_c ON n(c); CREATE INDEX n_b ON n(b);" +
        "CREATE TABLE u(k TEXT UNIQUE, z); CREATE TABLE empty(x); CREATE INDEX empty_x ON empty(x); CREATE TABLE bare(y); CREATE TABLE w(k, v, PRIMARY KEY(k, v)) WITHOUT ROWID; CREATE INDEX w_v ON w(v)";

    private static void Fill(string path, int seed)
    {
        VacuumFixtures.Build(path, seed, rows: 150);
        var rng = new Random(seed);
        using var c = Oracle.Open(path);
        Oracle.Exec(c, Extra);
        using var tx = c.BeginTransaction();
        for (int i = 0; i < 120; i++)
        {
            Oracle.Exec(c, "INSERT INTO n VALUES ($a, $b, $c)", ("$a", rng.Next(6) == 0 ? null : rng.Next(5)), ("$b", new[] { "x", "X", "y", null }[rng.Next(4)]), ("$c", i % 10 == 0 ? null : i));
            Oracle.Exec(c, "INSERT INTO u VALUES ($k, $z)", ("$k", i < 9 ? "k" + i : null), ("$z", i));
            Oracle.Exec(c, "INSERT INTO bare VALUES ($y)", ("$y", i));
            Oracle.Exec(c, "INSERT OR IGNORE INTO w VALUES ($k, $v)", ("$k", rng.Next(30)), ("$v", rng.Next(4)));
        }
        tx.Commit();
    }

    private static List<object?[]> Stat(string path) => Oracle.Rows(path, "SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx");

    [Theory]
    [InlineData("ANALYZE", 1)]
    [InlineData("ANALYZE", 2)]
    [InlineData("ANALYZE main", 3)]
    [InlineData("ANALYZE n", 4)]
    [InlineData("ANALYZE main.n_ab", 5)]
    [InlineData("ANALYZE w", 6)]
    [InlineData("ANALYZE; DELETE FROM n WHERE rowid % 2 = 0; ANALYZE n", 7)]
    public void Stat1_rows_are_the_ones_sqlite_writes(string statements, int seed)
    {
        using var dir = new TempDir();
        string sqlite = dir.File("sqlite.db"), sharc = dir.File("sharc.db");
        Fill(sqlite, seed);
        File.Copy(sqlite, sharc);
        Oracle.Exec(sqlite, statements);
        using (var db = SharcDatabase.Open(sharc, new SharcOpenOptions { Writable = true }))
        {
            db.Execute(statements);
            db.Query("SELECT count(*) FROM sqlite_stat1").Read().Should().BeTrue();
        }
        Stat(sharc).ShouldEqual(Stat(sqlite));
        Oracle.Rows(sharc, "SELECT sql FROM sqlite_schema WHERE name = 'sqlite_stat1'").ShouldEqual(Oracle.Rows(sqlite, "SELECT sql FROM sqlite_schema WHERE name = 'sqlite_stat1'"));
        Oracle.IntegrityCheck(sharc).Should().Be("ok");
    }

    [Fact]
    public void Unknown_names_and_read_only_databases_are_refused()
    {
        using var dir = new TempDir();
        string path = dir.File("a.db");
        Fill(path, 8);
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            db.Invoking(d => d.Execute("ANALYZE nosuch")).Should().Throw<SharcSqlException>().WithMessage("*no such table: nosuch*");
            db.Invoking(d => d.Execute("ANALYZE nosuch.t")).Should().Throw<SharcSqlException>().WithMessage("*unknown database nosuch*");
        }
        using var ro = SharcDatabase.Open(path);
        ro.Invoking(d => d.Execute("ANALYZE")).Should().Throw<SharcException>();
    }
}
