using System.Globalization;
using System.Text;
using FluentAssertions;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// Window answers where SQLite's implementation shows through: group_concat()/string_agg() over a frame whose
/// values concatenate to nothing (a one-byte text holding NUL), and RANGE frames from UNBOUNDED PRECEDING to a
/// fractional n PRECEDING. Hand-picked and seeded random, against SQLite.
/// </summary>
public sealed class WindowQuirkTests
{
    private static QueryOracle EmptyStrings(Random r, int rows)
    {
        var sb = new StringBuilder("INSERT INTO s(id, p, v) VALUES ");
        string[] values = ["''", "''", "NULL", "'a'", "x''", "0"];
        for (int i = 0; i < rows; i++)
            sb.Append(CultureInfo.InvariantCulture, $"{(i > 0 ? ", " : "")}({i + 1}, {r.Next(2)}, {values[r.Next(values.Length)]})");
        return new QueryOracle("CREATE TABLE s(id INTEGER PRIMARY KEY, p INTEGER, v)", sb.ToString());
    }

    [Theory]
    [InlineData("group_concat(v) OVER ()")]
    [InlineData("group_concat(v, '') OVER (ORDER BY id)")]
    [InlineData("group_concat(v, '') OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)")]
    [InlineData("string_agg(v, '') OVER (PARTITION BY p ORDER BY id ROWS 2 PRECEDING)")]
    [InlineData("group_concat(v) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND CURRENT ROW)")]
    [InlineData("group_concat(v, ',') OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING)")]
    [InlineData("group_concat(v, '') OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND 1 PRECEDING)")]
    [InlineData("group_concat(v, NULL) OVER (ORDER BY id)")]
    [InlineData("group_concat(v) FILTER (WHERE v IS NOT NULL) OVER (ORDER BY id GROUPS 1 PRECEDING EXCLUDE CURRENT ROW)")]
    [InlineData("group_concat(v) OVER (ORDER BY id), group_concat(v)")]
    public void Group_concat_over_frames_of_empty_strings_answers_as_sqlite(string call)
    {
        using var o = EmptyStrings(new Random(call.Length), 12);
        string sql = call.EndsWith("group_concat(v)", StringComparison.Ordinal)
            ? "SELECT group_concat(v) FROM s WHERE v = ''"
            : $"SELECT id, {call}, length({call.Split(" OVER")[0]} OVER w), hex({call.Split(" OVER")[0]} OVER w) FROM s WINDOW w AS (ORDER BY id ROWS 1 PRECEDING) ORDER BY id";
        o.Check(sql, ordered: true);
        o.Check("SELECT id, typeof(group_concat(v, '') OVER (ORDER BY id ROWS CURRENT ROW)) FROM s ORDER BY id", ordered: true);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Random_group_concat_windows_over_empty_strings_answer_as_sqlite(int seed)
    {
        var r = new Random(seed);
        using var o = EmptyStrings(r, 8 + r.Next(12));
        (string, bool) Next()
        {
            string fn = r.Next(2) == 0 ? "group_concat" : "string_agg";
            string sep = new[] { "''", "','", "NULL", "v", "'--'" }[r.Next(5)];
            string args = fn == "group_concat" && r.Next(3) == 0 ? "v" : $"v, {sep}";
            string unit = new[] { "ROWS", "GROUPS", "RANGE" }[r.Next(3)];
            // A frame starting n FOLLOWING is left out: SQLite steps the rows before it and removes them again,
            // which Sharc does not copy (COMPAT lists it).
            string start = new[] { "UNBOUNDED PRECEDING", "1 PRECEDING", "CURRENT ROW", "2 PRECEDING" }[r.Next(4)];
            string end = new[] { "CURRENT ROW", "1 FOLLOWING", "UNBOUNDED FOLLOWING", "0 PRECEDING", "1 PRECEDING", "2 FOLLOWING" }[r.Next(6)];
            string partition = r.Next(3) == 0 ? "PARTITION BY p " : "";
            string filter = r.Next(4) == 0 ? " FILTER (WHERE id % 2 = 0)" : "";
            string call = $"{fn}({args}){filter} OVER ({partition}ORDER BY id {unit} BETWEEN {start} AND {end})";
            return ($"SELECT id, {call}, hex({call}) FROM s ORDER BY id", true);
        }
        var (failures, _) = o.Disagreements(Next, 120);
        failures.Should().BeEmpty();
    }

    private static readonly string[] Keys =
    [
        "9223372036854775807", "-9223372036854775808", "0", "1", "-1", "2", "3", "0.5", "-0.5", "1.5", "2.25", "1e19",
        "NULL", "NULL", "'a'", "x'00'",
    ];

    [Theory]
    [InlineData(1, "0.5")]
    [InlineData(2, "1.5")]
    [InlineData(3, "0.25")]
    [InlineData(4, "2.5")]
    [InlineData(5, "1e-300")]
    public void Range_from_unbounded_preceding_to_a_fractional_preceding_answers_as_sqlite(int seed, string offset)
    {
        var r = new Random(seed);
        var sb = new StringBuilder("INSERT INTO r(id, p, x) VALUES ");
        int rows = 10 + r.Next(14);
        for (int i = 0; i < rows; i++)
            sb.Append(CultureInfo.InvariantCulture, $"{(i > 0 ? ", " : "")}({i + 1}, {r.Next(2)}, {Keys[r.Next(Keys.Length)]})");
        using var o = new QueryOracle("CREATE TABLE r(id INTEGER PRIMARY KEY, p INTEGER, x)", sb.ToString());
        (string, bool) Next()
        {
            string order = new[] { "x", "x DESC", "x NULLS LAST", "x DESC NULLS FIRST" }[r.Next(4)];
            string partition = r.Next(3) == 0 ? "PARTITION BY p " : "";
            string exclude = r.Next(5) == 0 ? " EXCLUDE " + new[] { "CURRENT ROW", "GROUP", "TIES" }[r.Next(3)] : "";
            string frame = $"RANGE BETWEEN UNBOUNDED PRECEDING AND {offset} PRECEDING{exclude}";
            return ($"SELECT id, count(*) OVER w, sum(id) OVER w, min(id) OVER w, max(id) OVER w, group_concat(id) OVER w, first_value(id) OVER w, last_value(id) OVER w, count(x) OVER w FROM r WINDOW w AS ({partition}ORDER BY {order} {frame}) ORDER BY id", true);
        }
        var (failures, _) = o.Disagreements(Next, 40);
        failures.Should().BeEmpty();
    }
}
