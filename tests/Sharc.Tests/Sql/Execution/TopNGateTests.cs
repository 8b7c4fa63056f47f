using System.Globalization;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// ORDER BY … LIMIT over a plain scan, where the scan drops on record bytes the rows whose first key sorts after the
/// worst row the top-N keeps: answers match SQLite's over a table mixing storage classes and NULLs in every column,
/// NOCASE and RTRIM collations, records that overflow their page and a column added by ALTER TABLE (absent from old
/// records), with ASC/DESC, NULLS FIRST/LAST, several keys, WHERE clauses tested on bytes or not, LIMIT/OFFSET edges.
/// With a total order the rows must be SQLite's sequence; without one (ties at the LIMIT boundary, whose choice SQLite
/// leaves undefined) the keys must be SQLite's position by position and every row a real row of the table that
/// satisfies WHERE.
/// </summary>
public sealed class TopNGateTests : IDisposable
{
    private const int Rows = 700;

    private static readonly string[] KeyColumns = ["i", "r", "s", "n", "x", "c", "t", "late", "id", "big"];

    private static readonly string[] Wheres =
    [
        "", "i > 2", "s IS NOT NULL", "r BETWEEN -3 AND 10", "c LIKE 'a%'", "n IN (1, 2, 'abc')", "x <> 3", "late > 3",
        "i > 2 OR s < 'b'", "abs(i) > 1", "typeof(x) = 'text'", "id > 650", "id < 0",
    ];

    private readonly QueryOracle _db = new(Setup(11));

    public void Dispose() => _db.Dispose();

    private static string[] Setup(int seed)
    {
        var rng = new Random(seed);
        var all = new List<string>
        {
            "BEGIN",
            "CREATE TABLE g(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, n NUMERIC, x, c TEXT COLLATE NOCASE, t TEXT COLLATE RTRIM, big TEXT)",
        };
        for (int id = 1; id <= Rows - 100; id++)
        {
            var v = new string[7];
            for (int k = 0; k < v.Length; k++) v[k] = MixedTable.Value(rng);
            // Every ninth row overflows its page: the byte path must leave it to the heap's own comparison.
            string big = id % 9 == 0 ? "'" + new string((char)('a' + rng.Next(26)), 5000 + rng.Next(50)) + "'" : MixedTable.Value(rng);
            all.Add($"INSERT INTO g VALUES({id}, {string.Join(", ", v)}, {big})");
        }
        // Old rows lack late (its default stands in for them).
        all.Add("ALTER TABLE g ADD COLUMN late INTEGER DEFAULT 7");
        for (int id = Rows - 99; id <= Rows; id++)
            all.Add($"INSERT INTO g(id, i, s, c, t, late) VALUES({id}, {MixedTable.Value(rng)}, {MixedTable.Value(rng)}, {MixedTable.Value(rng)}, {MixedTable.Value(rng)}, {MixedTable.Value(rng)})");
        all.Add("COMMIT");
        return [.. all];
    }

    public static TheoryData<string> HandPicked =>
    [
        "SELECT id, i FROM g ORDER BY i LIMIT 10",
        "SELECT id, i FROM g ORDER BY i DESC LIMIT 10",
        "SELECT id, r FROM g ORDER BY r DESC NULLS FIRST LIMIT 25",
        "SELECT id, r FROM g ORDER BY r NULLS LAST LIMIT 25",
        "SELECT id, s FROM g WHERE i > 2 ORDER BY s LIMIT 7 OFFSET 3",
        "SELECT id, c FROM g ORDER BY c LIMIT 30",
        "SELECT id, s FROM g ORDER BY s COLLATE NOCASE DESC LIMIT 30",
        "SELECT id, t FROM g ORDER BY t LIMIT 30",
        "SELECT id, s FROM g ORDER BY s COLLATE RTRIM LIMIT 30",
        "SELECT id, big FROM g ORDER BY big DESC LIMIT 12",
        "SELECT id, late FROM g ORDER BY late DESC LIMIT 15",
        "SELECT id, late FROM g ORDER BY late LIMIT 120",
        "SELECT id, x, n FROM g ORDER BY x, n DESC LIMIT 40",
        "SELECT id FROM g ORDER BY id DESC LIMIT 5",
        "SELECT id, i FROM g ORDER BY i LIMIT 0",
        "SELECT id, i FROM g ORDER BY i LIMIT 1",
        "SELECT id, i FROM g ORDER BY i LIMIT 5 OFFSET 695",
        "SELECT id, i FROM g ORDER BY i LIMIT 10 OFFSET 5000",
        "SELECT id, i FROM g ORDER BY i LIMIT 100000",
        "SELECT id, i FROM g ORDER BY i LIMIT -1 OFFSET 690",
        "SELECT id, s FROM g WHERE abs(i) > 1 ORDER BY s DESC LIMIT 9",
        "SELECT id, 'k', $p1 FROM g ORDER BY r LIMIT 9",
    ];

    [Theory]
    [MemberData(nameof(HandPicked))]
    public void Hand_picked_top_n_queries_answer_as_sqlite_does(string sql) => CheckTopN(sql);

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Random_top_n_queries_with_a_total_order_return_sqlites_rows_in_sqlites_order(int seed)
    {
        var rng = new Random(seed);
        for (int q = 0; q < 150; q++)
        {
            var (sql, _) = RandomQuery(rng, totalOrder: true);
            _db.Check(sql, ordered: true);
        }
    }

    [Theory]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    public void Random_top_n_queries_with_ties_return_sqlites_keys_and_valid_rows(int seed)
    {
        var rng = new Random(seed);
        for (int q = 0; q < 150; q++) CheckTopN(RandomQuery(rng, totalOrder: false).Sql);
    }

    [Fact]
    public void A_prepared_top_n_run_again_with_a_new_bound_answers_as_sqlite_does()
    {
        // The heap's bar is raised during one run: the next run must start without it.
        const string Sql = "SELECT id, r FROM g WHERE i > $p1 ORDER BY r DESC, id LIMIT 8";
        using var q = _db.Db.Prepare(Sql);
        foreach (long bound in new long[] { 5, -10, 100, 0, 5 })
        {
            q.Bind(1, bound);
            QueryOracle.Rows(q.Execute()).Should().Equal(_db.Expected(Sql, bound), $"bound {bound}");
        }
    }

    private static (string Sql, int Keys) RandomQuery(Random rng, bool totalOrder)
    {
        int keys = rng.Next(1, 3);
        var order = new List<string>();
        var select = new List<string> { "id" };
        for (int k = 0; k < keys; k++)
        {
            string col = KeyColumns[rng.Next(KeyColumns.Length)];
            select.Add(col);
            string term = col;
            if (rng.Next(4) == 0) term += rng.Next(3) switch { 0 => " COLLATE NOCASE", 1 => " COLLATE RTRIM", _ => " COLLATE BINARY" };
            if (rng.Next(2) == 0) term += " DESC";
            if (rng.Next(3) == 0) term += rng.Next(2) == 0 ? " NULLS FIRST" : " NULLS LAST";
            order.Add(term);
        }
        if (totalOrder) order.Add(rng.Next(2) == 0 ? "id" : "id DESC");
        if (rng.Next(5) == 0) select.Add("big");
        string where = Wheres[rng.Next(Wheres.Length)];
        int limit = rng.Next(6) switch { 0 => 0, 1 => 1, 2 => rng.Next(2, 10), 3 => rng.Next(10, 200), 4 => 1000, _ => 10 };
        string offset = rng.Next(4) == 0 ? $" OFFSET {rng.Next(0, 50)}" : "";
        string sql = $"SELECT {string.Join(", ", select)} FROM g{(where.Length > 0 ? " WHERE " + where : "")} ORDER BY {string.Join(", ", order)} LIMIT {limit}{offset}";
        return (sql, keys);
    }

    /// <summary>
    /// SQLite's answer, where rows tied on every key may legitimately differ: the ORDER BY values position by position
    /// (compared as the keys' collations compare them), and every row Sharc gives a distinct row of the table that
    /// satisfies WHERE, with its own values.
    /// </summary>
    private void CheckTopN(string sql)
    {
        var expected = _db.Expected(sql, 0L);
        var actual = _db.Actual(sql, 0L);
        if (expected is ["ERROR"] || actual is ["ERROR"])
        {
            actual.Should().Equal(expected, sql);
            return;
        }
        actual.Should().HaveCount(expected.Count, sql);
        var (selectList, from) = SplitSelect(sql);
        string tail = from[..from.IndexOf(" ORDER BY", StringComparison.Ordinal)];
        var keyCollations = KeyCollations(sql, selectList);
        var rowsById = _db.Expected($"SELECT {string.Join(", ", selectList)} FROM g", 0L).ToDictionary(r => r.Split(" | ")[0]);
        var matching = _db.Expected($"SELECT id FROM g{tail["FROM g".Length..]}", 0L).ToHashSet();
        var seen = new HashSet<string>();
        for (int p = 0; p < actual.Count; p++)
        {
            var a = actual[p].Split(" | ");
            var e = expected[p].Split(" | ");
            foreach (var (column, collation) in keyCollations)
                Normalize(a[column], collation).Should().Be(Normalize(e[column], collation), $"key {column} of row {p} of {sql}");
            seen.Add(a[0]).Should().BeTrue($"row {a[0]} is given once by {sql}");
            matching.Should().Contain(a[0], $"row {a[0]} satisfies the WHERE of {sql}");
            actual[p].Should().Be(rowsById[a[0]], $"row {a[0]} has its own values in {sql}");
        }
    }

    private static (string[] SelectList, string From) SplitSelect(string sql)
    {
        int from = sql.IndexOf(" FROM g", StringComparison.Ordinal);
        return (sql["SELECT ".Length..from].Split(", "), sql[(from + 1)..]);
    }

    /// <summary>For each ORDER BY term naming a selected column: its position in the row and the collation it sorts by.</summary>
    private static List<(int Column, string Collation)> KeyCollations(string sql, string[] selectList)
    {
        int at = sql.IndexOf(" ORDER BY ", StringComparison.Ordinal) + " ORDER BY ".Length;
        string order = sql[at..sql.IndexOf(" LIMIT ", StringComparison.Ordinal)];
        var keys = new List<(int, string)>();
        foreach (var term in order.Split(", "))
        {
            var words = term.Split(' ');
            int column = Array.IndexOf(selectList, words[0]);
            if (column < 0) continue;
            int collate = Array.IndexOf(words, "COLLATE");
            string collation = collate >= 0 ? words[collate + 1] : words[0] == "c" ? "NOCASE" : words[0] == "t" ? "RTRIM" : "BINARY";
            keys.Add((column, collation));
        }
        return keys;
    }

    /// <summary>A rendered value as its sort key: 3 and 3.0 tie; NOCASE folds ASCII case; RTRIM drops trailing spaces.</summary>
    private static string Normalize(string value, string collation)
    {
        if (value.StartsWith("I:", StringComparison.Ordinal) || value.StartsWith("R:", StringComparison.Ordinal))
            return "N:" + double.Parse(value[2..], CultureInfo.InvariantCulture).ToString("G12", CultureInfo.InvariantCulture);
        if (!value.StartsWith("T:", StringComparison.Ordinal)) return value;
        return collation switch
        {
            "NOCASE" => string.Concat(value.Select(ch => ch is >= 'A' and <= 'Z' ? (char)(ch + 32) : ch)),
            "RTRIM" => "T:'" + value[3..^1].TrimEnd(' ') + "'",
            _ => value,
        };
    }
}
