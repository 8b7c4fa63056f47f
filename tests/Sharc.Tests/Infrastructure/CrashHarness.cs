namespace Sharc.Tests.Infrastructure;

/// <summary>
/// Runs a write operation once per write and sync it performs, crashing it there (see <see cref="FaultyStorage"/>),
/// and checks that SQLite and Sharc (read-only and writable) then find exactly the state before or after it, with
/// SQLite's integrity_check ok. Works for rollback-journal and WAL databases: the side files travel with the copies.
/// </summary>
public static class CrashHarness
{
    private static readonly string[] Sides = ["-journal", "-wal"];

    public static void CopyDatabase(string from, string to)
    {
        File.Copy(from, to, overwrite: true);
        foreach (var side in Sides)
            if (File.Exists(from + side)) File.Copy(from + side, to + side, overwrite: true);
    }

    /// <summary>Returns the number of crash points exercised.</summary>
    public static int EveryCrashPoint(TempDir dir, string seed, Func<string, List<object?[]>> content, Func<SharcDatabase, List<object?[]>> sharcContent,
        Action<SharcDatabase> work, SharcOpenOptions options, bool tear, bool mustChange = true)
    {
        var before = content(seed);
        string clean = dir.File("clean.db");
        CopyDatabase(seed, clean);
        var counter = new FaultyStorage();
        using (var db = SharcDatabase.OpenWritable(clean, options, counter)) work(db);
        int total = counter.Operations;
        var after = content(clean);
        total.Should().BeGreaterThan(1);
        if (mustChange) Same(after, before).Should().BeFalse("the operation under test changes the data");

        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string path = dir.File($"crash{crashAt}.db");
            CopyDatabase(seed, path);
            CrashAt(path, options, work, crashAt, tear);

            // SQLite recovers one copy (rolling a hot journal back, or rebuilding its wal-index from the log)…
            string forSqlite = dir.File($"sqlite{crashAt}.db");
            CopyDatabase(path, forSqlite);
            using (var c = Oracle.Open(forSqlite)) Oracle.Exec(c, "SELECT count(*) FROM sqlite_schema");
            Oracle.IntegrityCheck(forSqlite).Should().Be("ok", "SQLite after a crash at operation {0}", crashAt);
            var recovered = content(forSqlite);
            (Same(recovered, before) || Same(recovered, after)).Should().BeTrue("after a crash at operation {0} of {1} the state must be before or after", crashAt, total);

            // …and Sharc the other, read-only and then writable (a hot journal is rolled back on disk).
            using (var ro = SharcDatabase.Open(path))
                Same(sharcContent(ro), recovered).Should().BeTrue("Sharc read-only after a crash at operation {0}", crashAt);
            using (var rw = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
                Same(sharcContent(rw), recovered).Should().BeTrue("Sharc writable after a crash at operation {0}", crashAt);
            if (File.Exists(path + "-journal"))
            {
                var j = File.ReadAllBytes(path + "-journal");
                (j.Length == 0 || j[0] == 0).Should().BeTrue("Sharc rolled the hot journal back (crash at {0})", crashAt);
            }
            Oracle.IntegrityCheck(path).Should().Be("ok");
            File.Delete(path);
            File.Delete(forSqlite);
        }
        return total;
    }

    /// <summary>Runs <paramref name="work"/> on <paramref name="path"/> and crashes it at operation <paramref name="crashAt"/>.</summary>
    public static void CrashAt(string path, SharcOpenOptions options, Action<SharcDatabase> work, int crashAt, bool tear, bool countShm = false)
    {
        var fs = new FaultyStorage { CrashAt = crashAt, Tear = tear, CountShm = countShm };
        try
        {
            using var db = SharcDatabase.OpenWritable(path, options, fs);
            work(db);
        }
        catch (IOException)
        {
            // the simulated crash
        }
        fs.Crashed.Should().BeTrue();
    }

    public static bool Same(List<object?[]> a, List<object?[]> b)
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
