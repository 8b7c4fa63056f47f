using System.Globalization;
using System.Text;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// WHERE clauses a table scan tests on record bytes (comparisons with constants and parameters, BETWEEN, IN lists,
/// IS [NOT] NULL, LIKE/GLOB prefixes, and their AND/OR/NOT) answer exactly as SQLite does: mixed storage classes in one
/// column, affinity conversions ('10' against 10, numbers against TEXT columns), -0.0 and reals at the integer
/// extremes, NULLs, empty strings, NOCASE and RTRIM columns, records that overflow their page, columns added by ALTER
/// TABLE (absent from old records) and VIRTUAL generated columns (absent from every record), UTF-16 text. The table has
/// no index, so every query scans.
/// </summary>
public sealed class RecordFilterTests : IDisposable
{
    private static readonly string[] Columns = ["id", "i", "r", "s", "n", "b", "x", "c", "t", "d", "g"];

    private readonly QueryOracle _db = new(Setup(7, 300, utf16: false));

    public void Dispose() => _db.Dispose();

    private static string[] Setup(int seed, int rows, bool utf16)
    {
        var rng = new Random(seed);
        var all = new List<string>();
        if (utf16) all.Add("PRAGMA encoding = 'UTF-16le'");
        all.Add("BEGIN");
        all.Add("CREATE TABLE f(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, n NUMERIC, b BLOB, x, c TEXT COLLATE NOCASE, t TEXT COLLATE RTRIM)");
        string[] edges =
        [
            "-0.0", "0", "0.0", "9223372036854775807", "-9223372036854775808", "9223372036854775807.0", "-9223372036854775808.0",
            "9.3e18", "-9.3e18", "1e300", "''", "'10'", "10", "'10.0'", "'abc%'", "x''", "'ABC'", "'abc '", "NULL", "2.5", "'2.5'",
        ];
        for (int id = 1; id <= rows; id++)
        {
            var values = new string[8];
            for (int k = 0; k < values.Length; k++)
                values[k] = rng.Next(4) == 0 ? edges[rng.Next(edges.Length)] : MixedTable.Value(rng);
            // Every tenth row overflows its page: the byte path must leave it to the general one.
            if (id % 10 == 0) values[rng.Next(3, 8)] = "'" + new string((char)('a' + rng.Next(26)), 6000) + "'";
            all.Add($"INSERT INTO f VALUES({id}, {string.Join(", ", values)})");
        }
        // Old rows lack d (its default stands in) and no row stores g.
        all.Add("ALTER TABLE f ADD COLUMN d INTEGER DEFAULT 7");
        all.Add("ALTER TABLE f ADD COLUMN g AS (i * 2) VIRTUAL");
        for (int id = rows + 1; id <= rows + 40; id++)
            all.Add($"INSERT INTO f(id, i, s, c, d) VALUES({id}, {MixedTable.Value(rng)}, {MixedTable.Value(rng)}, {MixedTable.Value(rng)}, {MixedTable.Value(rng)})");
        all.Add("COMMIT");
        return [.. all];
    }

    public static TheoryData<string> HandPicked =>
    [
        "i > 5", "i >= 5", "i < 5", "i <= 5", "i = 5", "i <> 5", "i != 5", "5 < i", "i = '10'", "i > '10'", "i = '10.0'",
        "s = 10", "s > 10", "s = '10'", "s < 'b'", "s = ''", "s <> ''", "r = 0", "r = -0.0", "r > 9223372036854775807",
        "r >= 9223372036854775807", "r < -9223372036854775808", "r = 9223372036854775807", "n = 10", "n = '10'", "n > 2.5",
        "n = '2.5'", "x = 10", "x = '10'", "x > 'a'", "x < x'00'", "x = x'616263'", "b = x'00ff'", "b > 'abc'", "b = 10",
        "c = 'abc'", "c > 'ABC'", "c = 'abc' COLLATE BINARY", "s = 'abc' COLLATE NOCASE", "t = 'abc'", "t = 'abc   '",
        "s COLLATE RTRIM = 'abc'", "i IS NULL", "i IS NOT NULL", "s IS NULL", "NOT (i IS NULL)", "i ISNULL", "s NOTNULL",
        "i BETWEEN 2 AND 8", "i NOT BETWEEN 2 AND 8", "s BETWEEN 'a' AND 'b'", "r BETWEEN -1 AND 2.5", "i BETWEEN '2' AND '8'",
        "i IN (1, 2, 3)", "i IN (1, NULL)", "i NOT IN (1, NULL)", "i NOT IN (1, 2)", "s IN ('abc', 'b', 10)", "c IN ('ABC', 'b')",
        "x IN (10, '10', 2.5)", "n IN ('2.5', 10)", "s LIKE 'ab%'", "s LIKE 'AB%'", "s LIKE 'abc'", "s LIKE '%'", "s LIKE ''",
        "s NOT LIKE 'a%'", "c LIKE 'A%'", "s GLOB 'ab*'", "s GLOB 'AB*'", "s GLOB 'abc'", "x LIKE '1%'", "s LIKE 'a_c%'",
        "i > 2 AND s < 'b'", "i > 2 OR s < 'b'", "NOT (i > 2 AND s < 'b')", "NOT (i > 2 OR s IS NULL)",
        "(i > 2 OR r < 0) AND (s IS NOT NULL OR c = 'b')", "i > 2 AND length(s) > 2", "i > 2 OR length(s) > 2",
        "d = 7", "d > 3", "d IS NULL", "g > 4", "g IS NULL", "id > 100", "id BETWEEN 10 AND 20", "rowid < 50", "i = i",
        "i > NULL", "i IN ()", "NOT i IN ()", "i = -i", "s > -5", "i = +5", "i < -'3'",
    ];

    [Theory]
    [MemberData(nameof(HandPicked))]
    public void A_scan_filtered_on_record_bytes_returns_the_rows_sqlite_returns(string predicate)
        => _db.Check($"SELECT id FROM f WHERE {predicate} ORDER BY id", ordered: true);

    [Fact]
    public void Every_row_still_reads_all_its_columns_after_the_filter_accepted_it()
        => _db.Check("SELECT * FROM f WHERE i > 2 OR s LIKE 'a%' ORDER BY id", ordered: true);

    [Fact]
    public void A_prepared_filter_answers_each_new_binding_as_sqlite_does()
    {
        object?[] bindings = [5L, 10L, "10", "abc", 2.5, -0.0, 9223372036854775807.0, null, Encoding.UTF8.GetBytes("abc"), "", 1e300, long.MinValue];
        string[] shapes =
        [
            "SELECT id FROM f WHERE i > $p1 ORDER BY id", "SELECT id FROM f WHERE s = $p1 ORDER BY id",
            "SELECT id FROM f WHERE x <= $p1 ORDER BY id", "SELECT id FROM f WHERE c = $p1 ORDER BY id",
            "SELECT id FROM f WHERE r BETWEEN $p1 AND 50 ORDER BY id", "SELECT id FROM f WHERE n IN ($p1, 3) ORDER BY id",
            "SELECT id FROM f WHERE s LIKE $p1 ORDER BY id",
        ];
        foreach (var sql in shapes)
        {
            using var prepared = _db.Db.Prepare(sql);
            foreach (var value in bindings)
            {
                prepared.Bind(1, value);
                var actual = QueryOracle.Rows(prepared.Execute());
                actual.Should().Equal(_db.Expected(sql, value), "{0} with {1}", sql, value ?? "NULL");
            }
        }
    }

    [Fact]
    public void Random_predicates_over_random_tables_answer_as_sqlite_does()
    {
        var failures = new List<string>();
        int queries = 0;
        foreach (int seed in new[] { 11, 12, 13 })
        {
            using var db = new QueryOracle(Setup(seed, 120, utf16: false));
            var rng = new Random(seed * 31);
            var (f, _) = db.Disagreements(() => ($"SELECT id FROM f WHERE {Predicate(rng, 3)} ORDER BY id", true), 250);
            failures.AddRange(f);
            queries += 250;
        }
        failures.Should().BeEmpty("{0} random predicates were compared", queries);
    }

    [Fact]
    public void Text_in_a_utf16_database_is_compared_as_sqlite_compares_it()
    {
        using var db = new QueryOracle(Setup(5, 150, utf16: true));
        var rng = new Random(5);
        foreach (var p in new[] { "s = 'abc'", "s > 'b'", "c = 'ABC'", "s LIKE 'a%'", "s IN ('abc', 'b')", "t = 'abc'", "i > 3" })
            db.Check($"SELECT id FROM f WHERE {p} ORDER BY id", ordered: true);
        var (failures, _) = db.Disagreements(() => ($"SELECT id FROM f WHERE {Predicate(rng, 2)} ORDER BY id", true), 150);
        failures.Should().BeEmpty();
    }

    /// <summary>A random predicate: leaves of every shape the byte path compiles, some it does not, joined by AND/OR/NOT.</summary>
    private static string Predicate(Random rng, int depth)
    {
        if (depth > 0 && rng.Next(3) > 0)
        {
            string l = Predicate(rng, depth - 1), r = Predicate(rng, depth - 1);
            return rng.Next(5) switch
            {
                0 => $"NOT ({l})",
                1 or 2 => $"({l}) AND ({r})",
                _ => $"({l}) OR ({r})",
            };
        }
        string col = Columns[rng.Next(Columns.Length)];
        string v = Constant(rng);
        return rng.Next(11) switch
        {
            0 => $"{col} {(rng.Next(2) == 0 ? "IS" : "IS NOT")} NULL",
            1 => $"{col} {(rng.Next(2) == 0 ? "" : "NOT ")}BETWEEN {v} AND {Constant(rng)}",
            2 => $"{col} {(rng.Next(2) == 0 ? "" : "NOT ")}IN ({v}, {Constant(rng)}, {Constant(rng)})",
            3 => $"{col} {(rng.Next(2) == 0 ? "LIKE" : "GLOB")} '{"aAbB1x"[rng.Next(6)]}{(rng.Next(2) == 0 ? "%" : "*")}'",
            4 => $"{v} {Op(rng)} {col}",
            5 => $"{col} COLLATE {(rng.Next(2) == 0 ? "NOCASE" : "RTRIM")} {Op(rng)} {v}",
            6 => $"length({col}) {Op(rng)} {v}",
            _ => $"{col} {Op(rng)} {v}",
        };
    }

    private static string Op(Random rng) => new[] { "=", "<>", "<", "<=", ">", ">=" }[rng.Next(6)];

    private static string Constant(Random rng) => rng.Next(6) switch
    {
        0 => "NULL",
        1 => rng.Next(-3, 12).ToString(CultureInfo.InvariantCulture),
        2 => (rng.Next(-20, 40) / 4.0).ToString("0.0##", CultureInfo.InvariantCulture),
        3 => "'" + rng.Next(-3, 12).ToString(CultureInfo.InvariantCulture) + "'",
        4 => MixedTable.Text(rng),
        _ => rng.Next(2) == 0 ? "x'616263'" : "9223372036854775807",
    };
}
