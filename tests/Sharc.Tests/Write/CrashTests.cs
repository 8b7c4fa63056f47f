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
        var before = Content(seed);

        // A clean run: the number of operations to crash at, and the state after.
        string clean = dir.File("clean.db");
        File.Copy(seed, clean);
        var counter = new FaultyStorage();
        using (var db = SharcDatabase.OpenWritable(clean, new SharcOpenOptions { Writable = true }, counter)) Work(db);
        int total = counter.Operations;
        var after = Content(clean);
        total.Should().BeGreaterThan(10);
        after.Should().NotBeEquivalentTo(before);

        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string path = dir.File($"crash{crashAt}.db");
            File.Copy(seed, path);
            var fs = new FaultyStorage { CrashAt = crashAt, Tear = tear };
            try
            {
                using var db = SharcDatabase.OpenWritable(path, new SharcOpenOptions { Writable = true }, fs);
                Work(db);
            }
            catch (IOException)
            {
                // the simulated crash
            }
            fs.Crashed.Should().BeTrue();

            // SQLite recovers one copy (rolling any hot journal back)…
            string forSqlite = dir.File($"sqlite{crashAt}.db");
            File.Copy(path, forSqlite);
            if (File.Exists(path + "-journal")) File.Copy(path + "-journal", forSqlite + "-journal");
            using (var c = Oracle.Open(forSqlite)) Oracle.Exec(c, "SELECT count(*) FROM t"); // read-write open rolls back
            Oracle.IntegrityCheck(forSqlite).Should().Be("ok", "SQLite after a crash at operation {0}", crashAt);
            var recovered = Content(forSqlite);
            bool isBefore = Same(recovered, before), isAfter = Same(recovered, after);
            (isBefore || isAfter).Should().BeTrue("after a crash at operation {0} of {1} the state must be before or after", crashAt, total);

            // …and Sharc the other, both read-only (journal served in memory) and writable (journal rolled back on disk).
            using (var ro = SharcDatabase.Open(path))
                Same(SharcRows.All(ro, "t"), recovered).Should().BeTrue("Sharc read-only after a crash at operation {0}", crashAt);
            using (var rw = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
                Same(SharcRows.All(rw, "t"), recovered).Should().BeTrue("Sharc writable after a crash at operation {0}", crashAt);
            // Any journal left behind is no longer hot (a crash before its header was written leaves an empty one).
            if (File.Exists(path + "-journal"))
            {
                var j = File.ReadAllBytes(path + "-journal");
                (j.Length == 0 || j[0] == 0).Should().BeTrue("Sharc rolled the hot journal back (crash at {0})", crashAt);
            }
            Oracle.IntegrityCheck(path).Should().Be("ok");
        }
    }

    private static bool Same(List<object?[]> a, List<object?[]> b)
    {
        if (a.Count != b.Count) return false;
        for (int i = 0; i < a.Count; i++)
        {
            if (a[i].Length != b[i].Length) return false;
            for (int j = 0; j < a[i].Length; j++)
                if (!Equals(a[i][j], b[i][j])) return false;
        }
        return true;
    }
}
