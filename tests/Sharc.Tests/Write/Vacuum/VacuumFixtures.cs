using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write.Vacuum;

/// <summary>Databases with free pages to reclaim, built by SQLite, and the views of them VACUUM must keep.</summary>
public static class VacuumFixtures
{
    /// <summary>
    /// Every kind of object VACUUM copies: an INTEGER PRIMARY KEY table, a rowid table without alias (rowids with
    /// gaps), AUTOINCREMENT (sqlite_sequence), WITHOUT ROWID, indexes (unique, partial, expression), a view, a trigger,
    /// records that overflow, and deletes that leave free pages; rows drawn from <paramref name="seed"/>.
    /// </summary>
    public static void Build(string path, int seed, int rows = 400, string? prelude = null)
    {
        var rng = new Random(seed);
        using var c = Oracle.Open(path);
        if (prelude is not null) Oracle.Exec(c, prelude);
        Oracle.Exec(c, "PRAGMA user_version = 42; PRAGMA application_id = 1234567");
        Oracle.Exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)");
        Oracle.Exec(c, "CREATE TABLE plain(a, b)");
        Oracle.Exec(c, "CREATE TABLE seq(id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)");
        Oracle.Exec(c, "CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID");
        Oracle.Exec(c, "CREATE INDEX t_name ON t(name)");
        Oracle.Exec(c, "CREATE UNIQUE INDEX plain_a ON plain(a)");
        Oracle.Exec(c, "CREATE INDEX t_part ON t(score) WHERE score > 500");
        Oracle.Exec(c, "CREATE INDEX t_expr ON t(lower(name))");
        Oracle.Exec(c, "CREATE VIEW big AS SELECT id, name FROM t WHERE score > 900");
        Oracle.Exec(c, "CREATE TABLE log(msg)");
        Oracle.Exec(c, "CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN INSERT INTO log VALUES('ins ' || new.id); END");
        using (var tx = c.BeginTransaction())
        {
            for (int i = 1; i <= rows; i++)
            {
                int len = i % 13 == 0 ? 5000 + rng.Next(9000) : rng.Next(300);
                var blob = new byte[len];
                rng.NextBytes(blob);
                Oracle.Exec(c, "INSERT INTO t VALUES($i, $n, $s, $d)", ("$i", i), ("$n", i % 7 == 0 ? null : "name " + rng.Next(1000) + new string('x', rng.Next(60))),
                    ("$s", rng.NextDouble() * 1000), ("$d", blob));
                Oracle.Exec(c, "INSERT INTO plain VALUES($a, $b)", ("$a", i * 3 + rng.Next(3)), ("$b", new string('p', rng.Next(200))));
                Oracle.Exec(c, "INSERT INTO seq(v) VALUES($v)", ("$v", "v" + i));
                Oracle.Exec(c, "INSERT OR REPLACE INTO kv VALUES($k, $v)", ("$k", "key" + rng.Next(rows)), ("$v", new string('k', rng.Next(500))));
            }
            tx.Commit();
        }
        Oracle.Exec(c, "DELETE FROM t WHERE id % 3 = 0 OR id > $m", ("$m", rows * 3 / 4));
        Oracle.Exec(c, "DELETE FROM plain WHERE rowid % 4 = 1");
        Oracle.Exec(c, "DELETE FROM seq WHERE id > $m", ("$m", rows / 2));
        Oracle.Exec(c, "DELETE FROM kv WHERE length(v) > 300");
        Oracle.Exec(c, "DELETE FROM log WHERE rowid % 2 = 0");
    }

    /// <summary>What VACUUM keeps: every row of every table with its rowid, the schema's text, the header's settings.</summary>
    public static List<object?[]> Content(string path)
    {
        using var c = Oracle.Open(path, readOnly: true);
        var rows = new List<object?[]>();
        foreach (var (name, type) in Oracle.Rows(c, "SELECT name, type FROM sqlite_schema ORDER BY name").Select(r => ((string)r[0]!, (string)r[1]!)))
        {
            rows.Add([type, name]);
            if (type != "table") continue;
            bool withoutRowId = Oracle.Rows(c, $"SELECT 1 FROM pragma_index_list('{name}') WHERE origin = 'pk'").Count > 0
                && Oracle.Rows(c, $"SELECT sql FROM sqlite_schema WHERE name = '{name}' AND sql LIKE '%WITHOUT ROWID%'").Count > 0;
            rows.AddRange(Oracle.Rows(c, withoutRowId ? $"SELECT * FROM \"{name}\" ORDER BY 1" : $"SELECT rowid, * FROM \"{name}\" ORDER BY rowid"));
        }
        rows.AddRange(Oracle.Rows(c, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name"));
        foreach (var pragma in new[] { "user_version", "application_id", "page_size", "auto_vacuum", "encoding", "journal_mode" })
            rows.Add([pragma, Oracle.Scalar(c, "PRAGMA " + pragma)]);
        return rows;
    }

    public static long Pragma(string path, string name)
    {
        using var c = Oracle.Open(path, readOnly: true);
        return Convert.ToInt64(Oracle.Scalar(c, "PRAGMA " + name));
    }

    /// <summary>SQLite's own VACUUM of a copy, for comparison.</summary>
    public static void SqliteVacuum(string path)
    {
        using var c = Oracle.Open(path);
        Oracle.Exec(c, "VACUUM");
    }
}
