using System.Globalization;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// The scan's specialised test for one integer column against integer constants (a comparison, BETWEEN, or an AND
/// of them on that column), which reads the stored integer in place, answers exactly as SQLite does: integers of
/// every stored width (1 to 8 bytes, and the 0 / 1 serial types), NULLs, reals (integral or not) and text or blobs in
/// the same column, every affinity (TEXT compares as text, so it leaves the shape), columns behind long text (two-byte
/// serial types), a header over 127 bytes, records that overflow their page, a column added later, and empty
/// ranges at the integer extremes. Literals and bound parameters (integers, reals, text) alike.
/// </summary>
public sealed class IntegerRangeFilterTests : IDisposable
{
    private static readonly string[] Numbers =
    [
        "0", "1", "-1", "2", "7", "127", "128", "-128", "-129", "32767", "32768", "-32768", "-32769", "8388607", "8388608",
        "-8388608", "2147483647", "2147483648", "-2147483649", "140737488355327", "140737488355328", "-140737488355329",
        "9223372036854775807", "-9223372036854775808",
    ];

    private static readonly string[] Others = ["NULL", "2.0", "2.5", "-0.0", "'7'", "'abc'", "x'07'", "1e300", "9223372036854775807.0"];

    private readonly QueryOracle _db = new(Setup(3, 400));

    public void Dispose() => _db.Dispose();

    private static string[] Setup(int seed, int rows)
    {
        var rng = new Random(seed);
        var all = new List<string>
        {
            "BEGIN",
            "CREATE TABLE w(id INTEGER PRIMARY KEY, pad TEXT, i INTEGER, n NUMERIC, r REAL, x, t TEXT, b BLOB)",
        };
        for (int id = 1; id <= rows; id++)
        {
            // A pad of 58 or more characters has a two-byte serial type, in front of every tested column.
            int padLength = id % 25 == 0 ? 6000 : rng.Next(0, 120);
            var values = new string[6];
            for (int k = 0; k < values.Length; k++)
                values[k] = rng.Next(5) == 0 ? Others[rng.Next(Others.Length)] : Numbers[rng.Next(Numbers.Length)];
            all.Add($"INSERT INTO w VALUES({id}, '{new string('p', padLength)}', {string.Join(", ", values)})");
        }
        // Old rows lack d: its default stands in.
        all.Add("ALTER TABLE w ADD COLUMN d INTEGER DEFAULT 5");
        for (int id = rows + 1; id <= rows + 30; id++)
            all.Add($"INSERT INTO w(id, i, d) VALUES({id}, {Numbers[rng.Next(Numbers.Length)]}, {Numbers[rng.Next(Numbers.Length)]})");
        // 130 columns: the record header no longer fits a one-byte size.
        all.Add($"CREATE TABLE wide({string.Join(", ", Enumerable.Range(0, 130).Select(c => $"c{c} INT"))})");
        for (int row = 0; row < 40; row++)
            all.Add($"INSERT INTO wide VALUES({string.Join(", ", Enumerable.Range(0, 130).Select(_ => Numbers[rng.Next(Numbers.Length)]))})");
        all.Add("COMMIT");
        return [.. all];
    }

    public static TheoryData<string> HandPicked =>
    [
        "i = 7", "i > 7", "i >= 7", "i < 7", "i <= 7", "7 < i", "i = 0", "i = 1", "i > 1", "i < 0", "i = -129",
        "i > 9223372036854775807", "i >= 9223372036854775807", "i < -9223372036854775808", "i <= -9223372036854775808",
        "i > -9223372036854775808", "i BETWEEN -200 AND 40000", "i BETWEEN 40000 AND -200", "i > 0 AND i < 2147483648",
        "i >= 2 AND i <= 2", "i > 5 AND i < 3", "i = 7 AND i = 8", "i > 127 AND i >= 128 AND i <= 32768", "n = 2", "n > 7",
        "n BETWEEN 0 AND 128", "r = 2", "r > 7", "r < 0", "x = 7", "x > 7", "x < 2", "t = 7", "t > 7", "b = 7", "b > 7",
        "d = 5", "d > 5", "i > 7 AND n < 0", "i = 7.0", "i > 2.5", "i = '7'", "i > '7'",
    ];

    [Theory]
    [MemberData(nameof(HandPicked))]
    public void An_integer_range_on_record_bytes_returns_the_rows_sqlite_returns(string predicate)
        => _db.Check($"SELECT id FROM w WHERE {predicate} ORDER BY id", ordered: true);

    [Fact]
    public void A_column_behind_a_header_of_more_than_127_bytes_is_filtered_as_sqlite_filters_it()
    {
        foreach (var p in new[] { "c129 > 7", "c0 = 1", "c64 BETWEEN -200 AND 40000", "c129 < 0 AND c129 > -32769" })
            _db.Check($"SELECT rowid, c0, c129 FROM wide WHERE {p} ORDER BY rowid", ordered: true);
    }

    [Fact]
    public void A_prepared_range_answers_integer_real_and_text_bindings_as_sqlite_does()
    {
        object?[] bindings = [7L, 0L, -129L, 2147483648L, long.MaxValue, long.MinValue, 2.0, 2.5, "7", null, 9223372036854775807.0];
        string[] shapes =
        [
            "SELECT id FROM w WHERE i = $p1 ORDER BY id", "SELECT id FROM w WHERE i > $p1 ORDER BY id",
            "SELECT id FROM w WHERE n <= $p1 ORDER BY id", "SELECT id FROM w WHERE x >= $p1 ORDER BY id",
            "SELECT id FROM w WHERE t < $p1 ORDER BY id", "SELECT id FROM w WHERE i BETWEEN $p1 AND 40000 ORDER BY id",
            "SELECT id FROM w WHERE r > $p1 AND r < 9000000000 ORDER BY id",
        ];
        foreach (var sql in shapes)
        {
            using var prepared = _db.Db.Prepare(sql);
            foreach (var value in bindings)
            {
                prepared.Bind(1, value);
                QueryOracle.Rows(prepared.Execute()).Should().Equal(_db.Expected(sql, value), "{0} with {1}", sql, value ?? "NULL");
            }
        }
    }

    [Fact]
    public void Random_integer_ranges_over_random_tables_answer_as_sqlite_does()
    {
        var failures = new List<string>();
        foreach (int seed in new[] { 21, 22 })
        {
            using var db = new QueryOracle(Setup(seed, 150));
            var rng = new Random(seed);
            string[] columns = ["i", "n", "r", "x", "t", "b", "d", "id"];
            string[] ops = ["=", "<", "<=", ">", ">="];
            string Constant() => rng.Next(6) == 0 ? Others[rng.Next(Others.Length)] : Numbers[rng.Next(Numbers.Length)];
            var (f, _) = db.Disagreements(() =>
            {
                string col = columns[rng.Next(columns.Length)];
                string term = $"{col} {ops[rng.Next(ops.Length)]} {Constant()}";
                string predicate = rng.Next(3) switch
                {
                    0 => term,
                    1 => $"{term} AND {col} {ops[rng.Next(ops.Length)]} {Constant()}",
                    _ => $"{col} BETWEEN {Constant()} AND {Constant()}",
                };
                return ($"SELECT id FROM w WHERE {predicate} ORDER BY id", true);
            }, 300);
            failures.AddRange(f);
        }
        failures.Should().BeEmpty();
    }

    [Fact]
    public void The_reader_api_filter_uses_the_same_range_and_answers_as_sql_does()
    {
        using var reader = _db.Db.CreateReader("w", SharcFilter.Column("i").Between(-200L, 40000L), "id");
        var actual = new List<string>();
        while (reader.Read()) actual.Add("I:" + reader.GetInt64(0).ToString(CultureInfo.InvariantCulture));
        actual.Sort(StringComparer.Ordinal);
        var expected = _db.Expected("SELECT id FROM w WHERE i BETWEEN -200 AND 40000");
        expected.Sort(StringComparer.Ordinal);
        actual.Should().Equal(expected);
    }
}
