using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// A fault-injecting file layer stops the process at every write and every sync of a transaction in turn (and, in
/// a second pass, tears that write in half). Reopening with SQLite and with Sharc must give exactly the state
/// before or after the transaction, with integrity_check ok.
/// </summary>
public class CrashTests
{
    private static List<object?[]> Content(string path) => Oracle.Rows(path, "SELECT id, a, b FROM t ORDER BY id");

    private static void Seed(string path)
    {
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 1024 });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT)");
        db.CreateIndex("CREATE INDEX t_b ON t(b)");
        using var tx = db.BeginTransaction();
        for (int i = 1; i <= 300; i++) db.Insert("t", null, (long)i, "before " + i + new string('.', i % 40));
        tx.Commit();
    }

    /// <summary>The transaction under test: it grows the file, moves index entries and frees pages.</summary>
    private static void Work(SharcDatabase db)
    {
        using var tx = db.BeginTransaction();
        for (int i = 1; i <= 300; i += 3) db.Delete("t", i);
        for (int i = 0; i < 200; i++) db.Insert("t", null, (long)(1000 + i), "after " + i + new string('#', 60));
        db.Update("t", 2, ["b"], ["updated"]);
        tx.Commit();
    }

    public static IEnumerable<object[]> Modes() => [[false], [true]];

    [Theory]
    [MemberData(nameof(Modes))]
    public void CrashAtAnyWriteOrSyncLeavesBeforeOrAfter(bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        Seed(seed);
        int total = CrashHarness.EveryCrashPoint(dir, seed, Content, db => SharcRows.All(db, "t"), Work,
            new SharcOpenOptions { Writable = true }, tear);
        total.Should().BeGreaterThan(10);
    }
}
