using Microsoft.Data.Sqlite;
using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Seeded random workloads — inserts (values that overflow, long text index keys), updates, deletes down to an
/// empty table and regrowth, WITHOUT ROWID tables, UNIQUE conflicts — applied to Sharc and to SQLite side by side.
/// After every transaction SQLite's integrity_check of Sharc's file is ok; the contents are compared throughout.
/// </summary>
public class DifferentialWriteTests
{
    private const string Schema = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT, c BLOB, d REAL);
        CREATE INDEX t_a ON t(a);
        CREATE INDEX t_bd ON t(b DESC, a);
        CREATE TABLE w(k TEXT, n INT, v BLOB, PRIMARY KEY(k, n)) WITHOUT ROWID;
        CREATE INDEX w_v ON w(v);
        CREATE TABLE u(id INTEGER PRIMARY KEY, code TEXT UNIQUE COLLATE NOCASE, x);
        """;

    public static IEnumerable<object[]> Cases() =>
    [
        [512, "UTF-8", 11, 0],
        [1024, "UTF-16le", 12, 0],
        [2048, "UTF-8", 16, 0],
        [4096, "UTF-8", 13, 0],
        [8192, "UTF-16be", 14, 0],
        [16384, "UTF-8", 17, 0],
        [32768, "UTF-8", 18, 0],
        [65536, "UTF-8", 15, 0],
        [1024, "UTF-8", 21, 1],
        [4096, "UTF-16le", 22, 1],
        [512, "UTF-8", 23, 2],
    ];

    [Theory]
    [MemberData(nameof(Cases))]
    public void RandomWorkloadMatchesSqlite(int pageSize, string encoding, int seed, int autoVacuum)
        => Run(pageSize, encoding, seed, autoVacuum, SharcJournalMode.Delete, new SharcOpenOptions { Writable = true });

    /// <summary>WAL databases (SQLite in WAL mode alongside): automatic checkpoints at several log lengths, spills.</summary>
    public static IEnumerable<object[]> WalCases() =>
    [
        [512, "UTF-8", 41, 0, 0, 2000],
        [1024, "UTF-16le", 42, 0, 40, 2000],
        [4096, "UTF-8", 43, 0, 1000, 8],
        [8192, "UTF-8", 44, 1, 25, 2000],
        [1024, "UTF-8", 45, 0, 0, 16],
    ];

    [Theory]
    [MemberData(nameof(WalCases))]
    public void RandomWalWorkloadMatchesSqlite(int pageSize, string encoding, int seed, int autoVacuum, int autoCheckpoint, int spillPages)
        => Run(pageSize, encoding, seed, autoVacuum, SharcJournalMode.Wal,
            new SharcOpenOptions { Writable = true, WalAutoCheckpoint = autoCheckpoint, SpillPages = spillPages });

    /// <summary>Rollback-journal databases whose transactions spill to the file every few pages.</summary>
    [Theory]
    [InlineData(1024, "UTF-8", 51, 0)]
    [InlineData(4096, "UTF-8", 52, 1)]
    public void RandomSpillingWorkloadMatchesSqlite(int pageSize, string encoding, int seed, int autoVacuum)
        => Run(pageSize, encoding, seed, autoVacuum, SharcJournalMode.Delete, new SharcOpenOptions { Writable = true, SpillPages = 16 });

    private static void Run(int pageSize, string encoding, int seed, int autoVacuum, SharcJournalMode mode, SharcOpenOptions open)
    {
        using var dir = new TempDir();
        string sharcPath = dir.File("sharc.db"), sqlitePath = dir.File("sqlite.db");
        var enc = encoding switch { "UTF-16le" => SharcTextEncoding.Utf16LE, "UTF-16be" => SharcTextEncoding.Utf16BE, _ => SharcTextEncoding.Utf8 };
        using var db = SharcDatabase.Create(sharcPath, new SharcCreateOptions
        {
            PageSize = pageSize, TextEncoding = enc, AutoVacuum = (SharcAutoVacuum)autoVacuum, JournalMode = mode, Open = open,
        });
        using var o = Oracle.Open(sqlitePath);
        Oracle.Exec(o, $"PRAGMA page_size={pageSize}");
        Oracle.Exec(o, $"PRAGMA auto_vacuum={autoVacuum}");
        Oracle.Exec(o, $"PRAGMA encoding='{encoding}'");
        if (mode == SharcJournalMode.Wal) Oracle.Exec(o, "PRAGMA journal_mode=WAL");
        foreach (var stmt in Schema.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            Oracle.Exec(o, stmt);
            if (stmt.StartsWith("CREATE TABLE")) db.CreateTable(stmt);
            else db.CreateIndex(stmt);
        }

        var rng = new Random(seed);
        int ops = 0;
        for (int txn = 0; txn < 36; txn++)
        {
            bool wipe = txn == 20; // delete everything, then regrow
            using (var tx = db.BeginTransaction())
            using (var otx = o.BeginTransaction())
            {
                int count = wipe ? 0 : rng.Next(1, 60);
                if (wipe)
                {
                    foreach (var r in Oracle.Rows(o, "SELECT id FROM t")) Both(o, db, "DELETE FROM t WHERE id = $p0", d => d.Delete("t", (long)r[0]!), r[0]);
                    foreach (var r in Oracle.Rows(o, "SELECT k, n FROM w")) Both(o, db, "DELETE FROM w WHERE k = $p0 AND n = $p1", d => d.DeleteByKey("w", r[0], r[1]), r[0], r[1]);
                }
                for (int i = 0; i < count; i++, ops++) RandomOp(rng, o, db, pageSize);
                tx.Commit();
                otx.Commit();
            }
            Oracle.IntegrityCheck(sharcPath).Should().Be("ok", "after transaction {0} (seed {1})", txn, seed);
            db.CheckIntegrity().Should().BeEmpty("Sharc's own check agrees after transaction {0} (seed {1})", txn, seed);
            if (autoVacuum == 1)
                Oracle.Rows(sharcPath, "PRAGMA freelist_count")[0][0].Should().Be(0L, "auto_vacuum=FULL leaves no free page after a commit");
            if (autoVacuum == 2 && txn % 7 == 6)
            {
                db.IncrementalVacuum(3);
                Oracle.IntegrityCheck(sharcPath).Should().Be("ok", "after incremental_vacuum (seed {0})", seed);
            }
            if (mode == SharcJournalMode.Wal && txn % 9 == 8) db.Checkpoint();
            if (txn % 5 == 4 || txn == 35) CompareContents(sharcPath, o, $"after transaction {txn}");
            if (wipe) Oracle.Rows(sharcPath, "SELECT count(*) FROM t")[0][0].Should().Be(0L);
        }
        ops.Should().BeGreaterThan(500);
        // Sharc reads its own file the way SQLite does. (A WAL database is compared through a read-only snapshot: the
        // writable one waits for the sole use of its log, which SQLite's open connection would deny it.)
        if (mode == SharcJournalMode.Wal)
        {
            using var snapshot = SharcDatabase.Open(sharcPath);
            OracleComparison.CompareAll(sharcPath, snapshot).Should().BeGreaterThan(4);
        }
        else OracleComparison.CompareAll(sharcPath, db).Should().BeGreaterThan(4);
        if (mode == SharcJournalMode.Wal)
        {
            Oracle.Rows(sharcPath, "PRAGMA journal_mode")[0][0].Should().Be("wal");
            // The file SQLite would have after its own checkpoint equals Sharc's after Sharc's.
            db.Checkpoint();
            Oracle.Exec(o, "PRAGMA wal_checkpoint(TRUNCATE)");
            CompareContents(sharcPath, o, "after the final checkpoints");
            Oracle.IntegrityCheck(sharcPath).Should().Be("ok");
        }
    }

    private static void RandomOp(Random rng, SqliteConnection o, SharcDatabase db, int pageSize)
    {
        switch (rng.Next(10))
        {
            case 0 or 1 or 2:
            {
                object? a = rng.Next(5) == 0 ? null : (long)rng.Next(-50, 50);
                string? b = rng.Next(6) == 0 ? null : Text(rng, pageSize);
                byte[]? c = rng.Next(4) == 0 ? null : FixtureBuilder.RandomBlob(rng, rng.Next(8) == 0 ? rng.Next(pageSize, pageSize * 3) : rng.Next(0, 40));
                object? d = rng.Next(3) == 0 ? null : rng.NextDouble() * 100;
                long id = db.Insert("t", null, a, b, c, d);
                Oracle.Exec(o, "INSERT INTO t VALUES($id, $a, $b, $c, $d)", ("$id", id), ("$a", a), ("$b", b), ("$c", c), ("$d", d));
                break;
            }
            case 3:
            {
                var ids = Oracle.Rows(o, "SELECT id FROM t");
                if (ids.Count == 0) break;
                long id = (long)ids[rng.Next(ids.Count)][0]!;
                object? a = (long)rng.Next(-50, 50);
                string b = Text(rng, pageSize);
                Both(o, db, "UPDATE t SET a = $p0, b = $p1 WHERE id = $p2", d => d.Update("t", id, ["a", "b"], [a, b]), a, b, id);
                break;
            }
            case 4 or 5:
            {
                var ids = Oracle.Rows(o, "SELECT id FROM t");
                if (ids.Count == 0) break;
                int n = rng.Next(1, Math.Max(2, ids.Count / 5));
                for (int i = 0; i < n && ids.Count > 0; i++)
                {
                    int at = rng.Next(ids.Count);
                    long id = (long)ids[at][0]!;
                    ids.RemoveAt(at);
                    Both(o, db, "DELETE FROM t WHERE id = $p0", d => d.Delete("t", id), id);
                }
                break;
            }
            case 6 or 7:
            {
                string k = "k" + rng.Next(60) + (rng.Next(6) == 0 ? new string('K', rng.Next(pageSize / 4, pageSize)) : "");
                long n = rng.Next(4);
                byte[] v = FixtureBuilder.RandomBlob(rng, rng.Next(0, rng.Next(10) == 0 ? pageSize * 2 : 24));
                Both(o, db, "INSERT OR REPLACE INTO w VALUES($p0, $p1, $p2)", d => d.Upsert("w", k, n, v), k, n, v);
                break;
            }
            case 8:
            {
                var keys = Oracle.Rows(o, "SELECT k, n FROM w");
                if (keys.Count == 0) break;
                var key = keys[rng.Next(keys.Count)];
                Both(o, db, "DELETE FROM w WHERE k = $p0 AND n = $p1", d => d.DeleteByKey("w", key[0], key[1]), key[0], key[1]);
                break;
            }
            default:
            {
                // Codes collide on purpose (NOCASE): both engines must refuse the same inserts.
                string code = (rng.Next(2) == 0 ? "code" : "CODE") + rng.Next(30);
                object x = rng.Next(3) == 0 ? (object)rng.Next() : Text(rng, pageSize);
                long next = Oracle.Rows(o, "SELECT coalesce(max(id), 0) + 1 FROM u")[0][0] is long l ? l : 1;
                Both(o, db, "INSERT INTO u VALUES($p0, $p1, $p2)", d => d.Insert("u", next, code, x), next, code, x);
                break;
            }
        }
    }

    /// <summary>Applies one statement to both engines; either both succeed or both report a constraint failure.</summary>
    private static void Both(SqliteConnection o, SharcDatabase db, string sql, Action<SharcDatabase> sharc, params object?[] args)
    {
        string? sqliteError = null, sharcError = null;
        try
        {
            using var cmd = o.CreateCommand();
            cmd.CommandText = sql;
            for (int i = 0; i < args.Length; i++) cmd.Parameters.AddWithValue("$p" + i, args[i] ?? DBNull.Value);
            cmd.ExecuteNonQuery();
        }
        catch (SqliteException e) when (e.SqliteErrorCode == 19)
        {
            sqliteError = e.Message;
        }
        try
        {
            sharc(db);
        }
        catch (SharcConstraintException e)
        {
            sharcError = e.Message;
        }
        (sharcError is null).Should().Be(sqliteError is null, "SQLite said {0}, Sharc said {1}, for {2}", sqliteError, sharcError, sql);
    }

    private static string Text(Random rng, int pageSize)
    {
        int len = rng.Next(10) switch
        {
            0 => rng.Next(pageSize / 2, pageSize * 2), // long index keys, overflowing
            _ => rng.Next(0, 24),
        };
        return FixtureBuilder.RandomText(rng, len);
    }

    private static void CompareContents(string sharcPath, SqliteConnection o, string when)
    {
        Oracle.Rows(sharcPath, "SELECT * FROM t ORDER BY id").ShouldEqual(Oracle.Rows(o, "SELECT * FROM t ORDER BY id"), "t " + when);
        Oracle.Rows(sharcPath, "SELECT * FROM w ORDER BY k, n").ShouldEqual(Oracle.Rows(o, "SELECT * FROM w ORDER BY k, n"), "w " + when);
        Oracle.Rows(sharcPath, "SELECT * FROM u ORDER BY id").ShouldEqual(Oracle.Rows(o, "SELECT * FROM u ORDER BY id"), "u " + when);
    }
}
