using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Seeded random workloads over tables with expression indexes, partial indexes (UNIQUE too), STORED and VIRTUAL
/// generated columns and CHECK constraints, applied to Sharc and SQLite side by side in several page sizes and
/// encodings: each write succeeds or fails in both with the same message; after every transaction SQLite's
/// integrity_check (which recomputes every expression key and partial WHERE) is ok and the contents are equal.
/// </summary>
public sealed class DifferentialComputedWriteTests
{
    private static readonly string[] Schema =
    [
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a INT CHECK(a BETWEEN -40 AND 40), b TEXT, c REAL, " +
            "s TEXT AS (b || ':' || a) STORED, v INT AS (a * 3 + id) VIRTUAL, CONSTRAINT short CHECK(length(b) < 30))",
        "CREATE INDEX t_lower ON t(lower(b), a DESC)",
        "CREATE INDEX t_v ON t(v) WHERE a > 0",
        "CREATE UNIQUE INDEX t_live ON t(b COLLATE NOCASE) WHERE c > 50",
        "CREATE INDEX t_s ON t(substr(s, 1, 4), c)",
        "CREATE UNIQUE INDEX t_ua ON t(abs(a), typeof(c)) WHERE b IS NOT NULL AND a < -30",
        "CREATE TABLE w(k TEXT PRIMARY KEY, n INT, g INT AS (n % 7) STORED, CHECK(n >= 0)) WITHOUT ROWID",
        "CREATE INDEX w_g ON w(g, n * 2) WHERE n > 10",
    ];

    [Theory]
    [InlineData(512, "UTF-8", 41)]
    [InlineData(1024, "UTF-16le", 42)]
    [InlineData(4096, "UTF-8", 43)]
    [InlineData(8192, "UTF-16be", 44)]
    public void Random_workload_over_computed_tables_matches_sqlite(int pageSize, string encoding, int seed)
    {
        using var dir = new TempDir();
        string sharcPath = dir.File("sharc.db"), sqlitePath = dir.File("sqlite.db");
        var enc = encoding switch { "UTF-16le" => SharcTextEncoding.Utf16LE, "UTF-16be" => SharcTextEncoding.Utf16BE, _ => SharcTextEncoding.Utf8 };
        using var db = SharcDatabase.Create(sharcPath, new SharcCreateOptions { PageSize = pageSize, TextEncoding = enc });
        using var o = Oracle.Open(sqlitePath);
        Oracle.Exec(o, $"PRAGMA page_size={pageSize}");
        Oracle.Exec(o, $"PRAGMA encoding='{encoding}'");
        foreach (var stmt in Schema)
        {
            Oracle.Exec(o, stmt);
            if (stmt.StartsWith("CREATE TABLE")) db.CreateTable(stmt);
            else db.CreateIndex(stmt);
        }
        var rng = new Random(seed);
        int ops = 0, refused = 0;
        for (int txn = 0; txn < 20; txn++)
        {
            using (var tx = db.BeginTransaction())
            using (var otx = o.BeginTransaction())
            {
                for (int i = rng.Next(5, 40); i > 0; i--, ops++)
                    if (RandomOp(rng, o, db) is not null) refused++;
                tx.Commit();
                otx.Commit();
            }
            Oracle.IntegrityCheck(sharcPath).Should().Be("ok", "after transaction {0} (seed {1})", txn, seed);
            foreach (var q in new[] { "SELECT rowid, * FROM t ORDER BY rowid", "SELECT * FROM w ORDER BY k" })
                Oracle.Rows(sharcPath, q).ShouldEqual(Oracle.Rows(o, q), $"{q} after transaction {txn}");
        }
        ops.Should().BeGreaterThan(300);
        refused.Should().BeGreaterThan(10, "CHECK and partial UNIQUE refusals must be exercised");
    }

    private static string? RandomOp(Random rng, Microsoft.Data.Sqlite.SqliteConnection o, SharcDatabase db)
    {
        long id = rng.Next(1, 80);
        object? a = rng.Next(8) == 0 ? null : (long)rng.Next(-45, 45);
        object? b = rng.Next(8) == 0 ? null : (rng.Next(2) == 0 ? "Key" : "key") + rng.Next(20) + new string('x', rng.Next(rng.Next(10) == 0 ? 40 : 5));
        object? c = rng.Next(5) == 0 ? null : rng.Next(3) == 0 ? (object)(long)rng.Next(100) : Math.Round(rng.NextDouble() * 100, 2);
        switch (rng.Next(9))
        {
            case 0 or 1 or 2:
                return Both(o, db, "INSERT INTO t(id, a, b, c) VALUES($p0, $p1, $p2, $p3)", d => d.Insert("t", ["id", "a", "b", "c"], [id, a, b, c]), id, a, b, c);
            case 3:
                return Both(o, db, "INSERT OR REPLACE INTO t(id, a, b, c) VALUES($p0, $p1, $p2, $p3)", d => d.Upsert("t", ["id", "a", "b", "c"], [id, a, b, c]), id, a, b, c);
            case 4:
                return Both(o, db, "UPDATE t SET a = $p1, c = $p2 WHERE id = $p0", d => d.Update("t", id, ["a", "c"], [a, c]), id, a, c);
            case 5:
                return Both(o, db, "UPDATE t SET b = $p1 WHERE id = $p0", d => d.Update("t", id, ["b"], [b]), id, b);
            case 6:
                return Both(o, db, "DELETE FROM t WHERE id = $p0", d => d.Delete("t", id), id);
            case 7:
            {
                string k = "k" + rng.Next(30);
                long n = rng.Next(-3, 40);
                return Both(o, db, "INSERT OR REPLACE INTO w(k, n) VALUES($p0, $p1)", d => d.Upsert("w", ["k", "n"], [k, n]), k, n);
            }
            default:
            {
                string k = "k" + rng.Next(30);
                return Both(o, db, "DELETE FROM w WHERE k = $p0", d => d.DeleteByKey("w", k), k);
            }
        }
    }

    private static string? Both(Microsoft.Data.Sqlite.SqliteConnection o, SharcDatabase db, string sql, Action<SharcDatabase> sharc, params object?[] args)
    {
        string? expected = null, actual = null;
        try
        {
            using var cmd = o.CreateCommand();
            cmd.CommandText = sql;
            for (int i = 0; i < args.Length; i++) cmd.Parameters.AddWithValue("$p" + i, args[i] ?? DBNull.Value);
            cmd.ExecuteNonQuery();
        }
        catch (Microsoft.Data.Sqlite.SqliteException e)
        {
            expected = e.Message[(e.Message.IndexOf('\'') + 1)..e.Message.LastIndexOf('\'')];
        }
        try
        {
            sharc(db);
        }
        catch (SharcException e)
        {
            actual = e.Message;
        }
        actual.Should().Be(expected, "SQLite's outcome of {0} with {1}", sql, string.Join(", ", args));
        return actual;
    }
}
