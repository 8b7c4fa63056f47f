namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// A table whose columns cover every affinity and hold every storage class and NULLs, with indexes of every kind the
/// planner can use (single and multi-column, DESC, NOCASE), plus a WITHOUT ROWID table and views. Built by real
/// SQLite, deterministically from a seed.
/// </summary>
internal static class MixedTable
{
    public const string Schema =
        "CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, n NUMERIC, b BLOB, x, c TEXT COLLATE NOCASE)";

    public static readonly string[] Indexes =
    [
        "CREATE INDEX t_i ON t(i)",
        "CREATE INDEX t_s ON t(s)",
        "CREATE INDEX t_ic ON t(i, c)",
        "CREATE INDEX t_r ON t(r DESC)",
        "CREATE INDEX t_c ON t(c)",
        "CREATE INDEX t_x ON t(x)",
        "CREATE INDEX t_n_s ON t(n, s COLLATE RTRIM)",
    ];

    public static readonly string[] Others =
    [
        "CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER, w TEXT) WITHOUT ROWID",
        "CREATE TABLE u(a INTEGER, b TEXT)",
        "CREATE VIEW v_pos AS SELECT id, i, s, i * 2 AS dbl FROM t WHERE i > 0",
        "CREATE VIEW v_groups(k, cnt, total) AS SELECT i % 3, count(*), sum(r) FROM t GROUP BY 1",
    ];

    /// <summary>The statements that create and fill the tables.</summary>
    public static string[] Build(int seed, int rows)
    {
        var rng = new Random(seed);
        var all = new List<string> { Schema };
        all.AddRange(Indexes);
        all.AddRange(Others);
        for (int id = 1; id <= rows; id++)
            all.Add($"INSERT INTO t VALUES({id}, {Value(rng)}, {Value(rng)}, {Value(rng)}, {Value(rng)}, {Value(rng)}, {Value(rng)}, {Value(rng)})");
        for (int k = 0; k < rows / 2; k++)
            all.Add($"INSERT OR IGNORE INTO kv VALUES({Text(rng)}, {Value(rng)}, {Value(rng)})");
        for (int k = 0; k < 8; k++)
            all.Add($"INSERT INTO u VALUES({rng.Next(-3, 6)}, {Text(rng)})");
        return [.. all];
    }

    private static readonly string[] Texts =
    [
        "'abc'", "'ABC'", "'abc  '", "'b'", "'B'", "''", "'12'", "' 3'", "'1e2'", "'-7'", "'4.5'", "'x_y'", "'x%y'",
        "'hello world'", "'Ünïcode'", "'a'", "'zz'", "'10'", "'9'", "'abd'",
    ];

    public static string Text(Random rng) => Texts[rng.Next(Texts.Length)];

    /// <summary>A literal of a random storage class (SQLite applies the column's affinity when storing it).</summary>
    public static string Value(Random rng) => rng.Next(12) switch
    {
        0 or 1 => "NULL",
        2 or 3 or 4 => rng.Next(-5, 12).ToString(System.Globalization.CultureInfo.InvariantCulture),
        5 => rng.Next(3) == 0 ? "9223372036854775807" : "-3000000000",
        6 or 7 => (rng.Next(-40, 80) / 4.0).ToString("0.0##", System.Globalization.CultureInfo.InvariantCulture),
        8 or 9 or 10 => Text(rng),
        _ => rng.Next(2) == 0 ? "x'00ff'" : "x'616263'",
    };
}
