namespace Sharc.Tests.Infrastructure;

/// <summary>
/// What the zero-allocation tests share: a users table (with a 9,000-byte bio every 50th row, so scans cross
/// overflow chains), two indexes and a WITHOUT ROWID key-value table, built by SQLite; and the allocation measure.
/// </summary>
public static class AllocationFixture
{
    public static string Build(TempDir dir, string encoding, int rows)
    {
        string path = dir.File("alloc.db");
        using var c = Oracle.Open(path);
        Oracle.Exec(c, $"PRAGMA encoding='{encoding}'");
        Oracle.Exec(c, "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, score REAL, age INT, bio TEXT)");
        Oracle.Exec(c, "CREATE INDEX users_age ON users(age)");
        Oracle.Exec(c, "CREATE INDEX users_name ON users(name)");
        Oracle.Exec(c, "CREATE TABLE kv(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID");
        using var tx = c.BeginTransaction();
        for (int i = 1; i <= rows; i++)
        {
            Oracle.Exec(c, "INSERT INTO users VALUES($i, $n, $s, $a, $b)", ("$i", (long)i), ("$n", "user" + i), ("$s", i * 1.5), ("$a", (long)(i % 90)),
                ("$b", i % 50 == 0 ? new string('b', 9000) : "short"));
            Oracle.Exec(c, "INSERT INTO kv VALUES($k, $v)", ("$k", "key" + i), ("$v", (long)i));
        }
        tx.Commit();
        return path;
    }

    /// <summary>File- and memory-backed, UTF-8 and UTF-16 databases.</summary>
    public static IEnumerable<object[]> Sources() => [["file", "UTF-8"], ["memory", "UTF-8"], ["file", "UTF-16le"]];

    public static SharcDatabase OpenAs(string kind, string path)
        => kind == "file" ? SharcDatabase.Open(path) : SharcDatabase.OpenMemory(File.ReadAllBytes(path));

    /// <summary>See <see cref="Sharc.Testing.AllocationMeasure.Measure"/>.</summary>
    public static long Measure(Action action, int iterations) => Sharc.Testing.AllocationMeasure.Measure(action, iterations);
}
