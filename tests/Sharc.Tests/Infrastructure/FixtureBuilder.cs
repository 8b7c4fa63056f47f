using System.Text;
using Microsoft.Data.Sqlite;

namespace Sharc.Tests.Infrastructure;

/// <summary>Settings of one generated fixture database.</summary>
public sealed record FixtureSpec(int PageSize = 4096, string Encoding = "UTF-8", int AutoVacuum = 0, int Rows = 200, int Seed = 1, int ReservedBytes = 0)
{
    public override string ToString() => $"page={PageSize} enc={Encoding} av={AutoVacuum} rows={Rows} seed={Seed} reserved={ReservedBytes}";
}

/// <summary>
/// Builds fixture databases with real SQLite: mixed storage classes (every integer width, reals, text, blobs,
/// NULLs), payloads that overflow, ALTER TABLE ADD COLUMN defaults, several indexes (DESC, NOCASE, expression,
/// partial), a WITHOUT ROWID table and deletions that leave freelist pages.
/// </summary>
public static class FixtureBuilder
{
    public static void Build(string path, FixtureSpec spec)
    {
        if (spec.ReservedBytes > 0) CreateWithReservedBytes(path, spec.PageSize, spec.ReservedBytes);
        using var c = Oracle.Open(path);
        Oracle.Exec(c, $"PRAGMA page_size={spec.PageSize}");
        Oracle.Exec(c, $"PRAGMA encoding='{spec.Encoding}'");
        Oracle.Exec(c, $"PRAGMA auto_vacuum={spec.AutoVacuum}");
        Oracle.Exec(c, "CREATE TABLE t1(id INTEGER PRIMARY KEY, i INT, r REAL, t TEXT, b BLOB, n NUMERIC, x)");
        Oracle.Exec(c, "CREATE TABLE w(k TEXT COLLATE NOCASE, k2 INT, v, PRIMARY KEY(k, k2 DESC)) WITHOUT ROWID");
        Oracle.Exec(c, "CREATE TABLE \"odd name\"([a b] TEXT, `c` INTEGER UNIQUE, \"d\"\"q\" REAL DEFAULT 1.5)");

        var rng = new Random(spec.Seed);
        using (var tx = c.BeginTransaction())
        {
            for (int i = 0; i < spec.Rows; i++) InsertT1(c, rng, spec.PageSize);
            for (int i = 0; i < spec.Rows / 2; i++)
                Oracle.Exec(c, "INSERT OR IGNORE INTO w VALUES($k, $k2, $v)", ("$k", RandomText(rng, 1 + rng.Next(spec.PageSize / 50 + 3))), ("$k2", (long)rng.Next(-3, 3)), ("$v", RandomValue(rng, spec.PageSize)));
            for (int i = 0; i < 20; i++)
                Oracle.Exec(c, "INSERT INTO \"odd name\" VALUES($a, $c, $d)", ("$a", RandomText(rng, 5)), ("$c", (long)i * 3), ("$d", rng.Next(2) == 0 ? null : rng.NextDouble()));
            tx.Commit();
        }
        Oracle.Exec(c, "CREATE INDEX t1_t ON t1(t)");
        Oracle.Exec(c, "CREATE INDEX t1_i_r ON t1(i DESC, r)");
        Oracle.Exec(c, "CREATE INDEX t1_nocase ON t1(t COLLATE NOCASE, id)");
        Oracle.Exec(c, "CREATE INDEX t1_expr ON t1(abs(i), n)");
        Oracle.Exec(c, "CREATE INDEX t1_partial ON t1(r) WHERE r > 0");
        Oracle.Exec(c, "CREATE INDEX w_v ON w(v)");
        Oracle.Exec(c, "CREATE VIEW v1 AS SELECT id, t FROM t1 WHERE i > 0");

        // Columns added later: old rows lack them and must read as the DEFAULT.
        Oracle.Exec(c, "ALTER TABLE t1 ADD COLUMN added INT DEFAULT 42");
        Oracle.Exec(c, "ALTER TABLE t1 ADD COLUMN added2 TEXT DEFAULT 'dflt'");
        Oracle.Exec(c, "ALTER TABLE t1 ADD COLUMN added3 REAL DEFAULT -7");
        Oracle.Exec(c, "ALTER TABLE t1 ADD COLUMN added4 BLOB DEFAULT x'00ff'");
        Oracle.Exec(c, "ALTER TABLE t1 ADD COLUMN added5");
        using (var tx = c.BeginTransaction())
        {
            for (int i = 0; i < spec.Rows / 4; i++) InsertT1(c, rng, spec.PageSize, withAdded: true);
            tx.Commit();
        }
        // Deletions leave free pages (freelist) and, with auto_vacuum, move pages around.
        Oracle.Exec(c, "DELETE FROM t1 WHERE id % 7 = 3");
        Oracle.Exec(c, "DELETE FROM w WHERE k2 = 0");
    }

    private static void InsertT1(SqliteConnection c, Random rng, int pageSize, bool withAdded = false)
    {
        string sql = withAdded
            ? "INSERT INTO t1(i, r, t, b, n, x, added, added2) VALUES($i, $r, $t, $b, $n, $x, $a, $a2)"
            : "INSERT INTO t1(i, r, t, b, n, x) VALUES($i, $r, $t, $b, $n, $x)";
        var ps = new List<(string, object?)>
        {
            ("$i", RandomInteger(rng)),
            ("$r", rng.Next(5) switch { 0 => null, 1 => (double)rng.Next(-100, 100), _ => (rng.NextDouble() - 0.5) * Math.Pow(10, rng.Next(-10, 20)) }),
            ("$t", rng.Next(6) == 0 ? null : RandomText(rng, rng.Next(8) == 0 ? rng.Next(pageSize, pageSize * 3) : rng.Next(0, 40))),
            ("$b", rng.Next(4) == 0 ? null : RandomBlob(rng, rng.Next(8) == 0 ? rng.Next(pageSize, pageSize * 4) : rng.Next(0, 30))),
            ("$n", RandomValue(rng, pageSize)),
            ("$x", RandomValue(rng, pageSize)),
        };
        if (withAdded)
        {
            ps.Add(("$a", rng.Next(3) == 0 ? null : RandomInteger(rng)));
            ps.Add(("$a2", RandomText(rng, 4)));
        }
        Oracle.Exec(c, sql, ps.ToArray());
    }

    public static object? RandomValue(Random rng, int pageSize) => rng.Next(6) switch
    {
        0 => null,
        1 => RandomInteger(rng),
        2 => rng.NextDouble() * 1000 - 500,
        3 => RandomText(rng, rng.Next(0, 20)),
        4 => RandomBlob(rng, rng.Next(0, rng.Next(10) == 0 ? pageSize * 2 : 20)),
        _ => rng.Next(3).ToString(),
    };

    /// <summary>Integers of every stored width: 0 and 1 (serial types 8, 9) up to full 64-bit values.</summary>
    public static long RandomInteger(Random rng)
    {
        int bits = rng.Next(0, 64);
        long v = bits == 0 ? rng.Next(2) : rng.NextInt64() >> (63 - bits);
        return rng.Next(2) == 0 ? v : -v;
    }

    private static readonly string[] Pieces = ["a", "B", "z", " ", "é", "ß", "日本", "😀", "0", "9", "-", "'", "\"", "\t", "Ω"];

    public static string RandomText(Random rng, int length)
    {
        var sb = new StringBuilder(length);
        while (sb.Length < length) sb.Append(Pieces[rng.Next(Pieces.Length)]);
        return sb.ToString();
    }

    public static byte[] RandomBlob(Random rng, int length)
    {
        var b = new byte[length];
        rng.NextBytes(b);
        return b;
    }

    /// <summary>
    /// Creates an empty database whose header reserves bytes at the end of every page. The SQLite build in
    /// Microsoft.Data.Sqlite offers no file-control call, so the one-page file is patched: header byte 20 and the
    /// page-1 content-area start; SQLite then keeps that reserve on every page it writes.
    /// </summary>
    public static void CreateWithReservedBytes(string path, int pageSize, int reserved)
    {
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
            Oracle.Exec(c, "PRAGMA user_version=1");
        }
        byte[] image = File.ReadAllBytes(path);
        image[20] = (byte)reserved;
        int contentStart = pageSize - reserved;
        image[105] = (byte)(contentStart >> 8);
        image[106] = (byte)contentStart;
        File.WriteAllBytes(path, image);
    }
}
