using System.Text.RegularExpressions;

namespace Sharc.Tests.Sql.Execution;

public sealed class ReverseScanFixture : IDisposable
{
    internal QueryOracle Oracle { get; } = new(Build());

    private static string[] Build()
    {
        var rng = new Random(3);
        var setup = new List<string>
        {
            // Small pages: every b-tree has several levels, and index b-trees have entries in interior cells.
            "PRAGMA page_size=512",
            "CREATE TABLE t(id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, s TEXT, p TEXT)",
            "CREATE INDEX t_x ON t(x)",
            "CREATE INDEX t_xy ON t(x, y)",
            "CREATE INDEX t_s ON t(s COLLATE NOCASE)",
            "CREATE INDEX t_yd ON t(y DESC)",
            "CREATE TABLE w(a INTEGER, b TEXT, c, PRIMARY KEY(a, b)) WITHOUT ROWID",
            "CREATE TABLE wd(a INTEGER, b TEXT, c, PRIMARY KEY(a DESC, b)) WITHOUT ROWID",
            "BEGIN",
        };
        string[] words = ["a", "A", "b", "B", "mm", "MM", "z", "Zz", "é", "É"];
        string V(int nullOneIn, Func<string> value) => rng.Next(nullOneIn) == 0 ? "NULL" : value();
        for (int i = 1; i <= 2000; i++)
        {
            string x = V(10, () => rng.Next(21).ToString(System.Globalization.CultureInfo.InvariantCulture));
            string y = V(8, () => rng.Next(11).ToString(System.Globalization.CultureInfo.InvariantCulture));
            string s = V(9, () => $"'{words[rng.Next(words.Length)]}'");
            setup.Add($"INSERT INTO t VALUES({i * 2 - 1000}, {x}, {y}, {s}, printf('%030d', {i}))");
        }
        for (int i = 0; i < 600; i++)
        {
            string row = $"{rng.Next(12)}, '{words[rng.Next(words.Length)]}{rng.Next(40)}', {i}";
            setup.Add($"INSERT OR IGNORE INTO w VALUES({row})");
            setup.Add($"INSERT OR IGNORE INTO wd VALUES({row})");
        }
        setup.Add("COMMIT");
        return [.. setup];
    }

    public void Dispose() => Oracle.Dispose();
}

/// <summary>
/// ORDER BY … DESC over the rowid, an INTEGER PRIMARY KEY, an index (with equality prefixes, ranges, IN lists,
/// LIMIT/OFFSET, NULLs, a NOCASE collation), a WITHOUT ROWID primary key, and ORDER BY … ASC over DESC key columns:
/// SQLite 3.53 walks the b-tree backwards instead of sorting (its query plan has no temp b-tree), and Sharc walks
/// the same b-tree backwards too, so the rows come in exactly SQLite's order, equal ORDER BY values included.
/// </summary>
public sealed class ReverseScanTests(ReverseScanFixture fixture) : IClassFixture<ReverseScanFixture>
{
    private QueryOracle Db => fixture.Oracle;

    public static TheoryData<string> Backward => new()
    {
        "SELECT id, x FROM t ORDER BY id DESC",
        "SELECT * FROM t ORDER BY rowid DESC LIMIT 5",
        "SELECT id FROM t WHERE id < 500 ORDER BY id DESC",
        "SELECT id FROM t WHERE id <= 500 ORDER BY id DESC",
        "SELECT id FROM t WHERE id <= 500.5 AND id > 20 ORDER BY id DESC",
        "SELECT id FROM t WHERE id < 499.0 ORDER BY id DESC LIMIT 4",
        "SELECT id FROM t WHERE id < 'abc' ORDER BY id DESC LIMIT 3",
        "SELECT id FROM t WHERE id > 2990 ORDER BY id DESC",
        "SELECT id FROM t WHERE id < -5000 ORDER BY id DESC",
        "SELECT id, x FROM t ORDER BY x DESC",
        "SELECT id, x FROM t ORDER BY x DESC, id DESC",
        "SELECT * FROM t ORDER BY x DESC LIMIT 10",
        "SELECT * FROM t ORDER BY x DESC",
        "SELECT * FROM t ORDER BY s COLLATE NOCASE DESC",
        "SELECT * FROM t ORDER BY x DESC LIMIT 10 OFFSET 7",
        "SELECT id, x FROM t WHERE x < 10 ORDER BY x DESC",
        "SELECT id, x FROM t WHERE x <= 10 AND x > 3 ORDER BY x DESC",
        "SELECT id, x FROM t WHERE x >= 15 ORDER BY x DESC",
        "SELECT id, x FROM t WHERE x > 25 ORDER BY x DESC",
        "SELECT * FROM t WHERE x < 10 ORDER BY x DESC LIMIT 20",
        "SELECT id, x, y FROM t WHERE x = 4 ORDER BY y DESC",
        "SELECT id, x, y FROM t WHERE x = 4 AND y < 6 ORDER BY y DESC",
        "SELECT id, x, y FROM t WHERE x = 4 AND y >= 6 ORDER BY y DESC",
        "SELECT id, x, y FROM t WHERE x = 4 ORDER BY y DESC, id DESC",
        "SELECT id, x, y FROM t ORDER BY x DESC, y DESC",
        "SELECT id, x FROM t WHERE x IN (3, 9, 1, 9) ORDER BY x DESC",
        "SELECT id, y FROM t ORDER BY y",
        "SELECT id, y FROM t WHERE y > 3 ORDER BY y",
        "SELECT id, y FROM t WHERE y < 7 ORDER BY y ASC",
        "SELECT id, s FROM t ORDER BY s COLLATE NOCASE DESC",
        "SELECT id, s FROM t ORDER BY s COLLATE NOCASE DESC LIMIT 30",
        "SELECT * FROM w ORDER BY a DESC, b DESC",
        "SELECT * FROM w ORDER BY a DESC",
        "SELECT * FROM w WHERE a = 3 ORDER BY b DESC",
        "SELECT * FROM w WHERE a < 5 ORDER BY a DESC LIMIT 7",
        "SELECT * FROM wd ORDER BY a, b DESC",
        "SELECT * FROM wd WHERE a > 4 ORDER BY a LIMIT 9",
    };

    [Theory]
    [MemberData(nameof(Backward))]
    public void Walks_backwards_where_SQLite_does(string sql)
    {
        var sqlite = SqlitePlan(sql);
        sqlite.Should().NotContain("TEMP B-TREE", "SQLite walks the b-tree backwards here");
        string plan = Db.Db.Explain(sql);
        plan.Should().Contain("ORDER BY FROM INDEX ORDER, WALKED BACKWARD");
        // The same b-tree as SQLite's, or ties would come in another order.
        Using(plan).Should().Be(Using(sqlite));
        Db.Check(sql, ordered: true);
    }

    [Fact]
    public void Walks_backwards_with_parameters_and_again_on_re_execution()
    {
        using var q = Db.Db.Prepare("SELECT id, x, y FROM t WHERE x = $p1 AND y < $p2 ORDER BY y DESC LIMIT 5");
        for (int x = 0; x < 21; x += 4)
        {
            for (int y = 0; y < 12; y += 3)
            {
                q.Bind(1, (long)x);
                q.Bind(2, (long)y);
                QueryOracle.Rows(q.Execute()).Should().Equal(Db.Expected(q.Sql, (long)x, (long)y));
            }
        }
    }

    [Theory]
    // Mixed directions need a sort in SQLite too: rows then come in the order of the sort over the walk.
    [InlineData("SELECT id, x, y FROM t ORDER BY x DESC, y")]
    [InlineData("SELECT id, x FROM t ORDER BY x DESC, id")]
    [InlineData("SELECT id FROM t ORDER BY x DESC, id LIMIT 9")]
    [InlineData("SELECT * FROM t WHERE x < 10 ORDER BY x DESC, y")]
    [InlineData("SELECT * FROM t ORDER BY x DESC, p")]
    [InlineData("SELECT * FROM t ORDER BY x DESC NULLS FIRST")]
    [InlineData("SELECT * FROM t WHERE x = 3 ORDER BY y DESC, s")]
    [InlineData("SELECT id, x FROM t ORDER BY x DESC NULLS FIRST")]
    [InlineData("SELECT id, x FROM t ORDER BY x NULLS LAST")]
    [InlineData("SELECT id, x FROM t WHERE x < 5 ORDER BY x DESC NULLS FIRST")]
    [InlineData("SELECT id, x, y FROM t WHERE x = 5 ORDER BY y DESC NULLS FIRST")]
    [InlineData("SELECT id, y FROM t ORDER BY y NULLS LAST")]
    [InlineData("SELECT id, x FROM t ORDER BY x DESC NULLS FIRST LIMIT 300")]
    [InlineData("SELECT * FROM t ORDER BY x DESC NULLS FIRST LIMIT 30")]
    public void Sorts_when_directions_are_mixed(string sql)
    {
        Db.Db.Explain(sql).Should().NotContain("WALKED BACKWARD");
        Db.Check(sql, ordered: true);
    }

    /// <summary>The "USING … INDEX name" part of a plan, or "" for a plain SCAN/SEARCH of the table.</summary>
    private static string Using(string plan)
    {
        var m = Regex.Match(plan, @"USING (?:COVERING )?INDEX (\w+)|USING (INTEGER )?PRIMARY KEY");
        return m.Success ? m.Groups[1].Value : "";
    }

    private string SqlitePlan(string sql)
    {
        using var cmd = Db.Sqlite.CreateCommand();
        cmd.CommandText = "EXPLAIN QUERY PLAN " + sql;
        using var r = cmd.ExecuteReader();
        var lines = new List<string>();
        while (r.Read()) lines.Add(r.GetString(3));
        return string.Join("\n", lines);
    }
}
