using System.Globalization;
using System.Text;
using FluentAssertions;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// RANGE frames with offsets over keys near ±2^63, REAL keys and offsets, NULLs and text, ASC and DESC: SQLite adds
/// the offset to a boundary row's key (an integer overflowing to REAL) and moves its frame cursors forward only, so
/// its frames are not those of exact arithmetic. Sharc must give its answers (hand-picked and seeded random).
/// </summary>
public sealed class WindowRangeExtremesTests
{
    private static readonly string[] Keys =
    [
        "9223372036854775807", "9223372036854775806", "9223372036854775296", "-9223372036854775808", "-9223372036854775807",
        "-9223372036854775296", "4611686018427387904", "-4611686018427387904", "0", "1", "-1", "2",
        "9.2233720368547758e18", "-9.2233720368547758e18", "1e19", "-1e19", "0.5", "-0.5", "1.5", "NULL", "NULL", "'a'", "x'00'",
    ];

    private static readonly string[] Offsets =
        ["0", "1", "2", "0.5", "9223372036854775807", "9223372036854775806", "4611686018427387904", "1e19", "1e300", "1.5"];

    private static QueryOracle NewOracle(Random r, int rows, bool numbersOnly)
    {
        var sb = new StringBuilder("INSERT INTO r(id, p, x) VALUES ");
        for (int i = 0; i < rows; i++)
        {
            string x;
            do x = Keys[r.Next(Keys.Length)];
            while (numbersOnly && (x.StartsWith('\'') || x.StartsWith('x')));
            sb.Append(CultureInfo.InvariantCulture, $"{(i > 0 ? ", " : "")}({i + 1}, {r.Next(2)}, {x})");
        }
        return new QueryOracle("CREATE TABLE r(id INTEGER PRIMARY KEY, p INTEGER, x)", sb.ToString());
    }

    [Theory]
    [InlineData("RANGE BETWEEN 9223372036854775807 PRECEDING AND 9223372036854775807 FOLLOWING")]
    [InlineData("RANGE BETWEEN 0.5 PRECEDING AND 1e19 FOLLOWING")]
    [InlineData("RANGE BETWEEN 0.5 FOLLOWING AND 1e19 FOLLOWING")]
    [InlineData("RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING")]
    [InlineData("RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING")]
    [InlineData("RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING")]
    [InlineData("RANGE BETWEEN 2 PRECEDING AND 1 PRECEDING")]
    [InlineData("RANGE BETWEEN 0 PRECEDING AND 1 PRECEDING")]
    [InlineData("RANGE BETWEEN 2 FOLLOWING AND 1 FOLLOWING")]
    [InlineData("RANGE BETWEEN CURRENT ROW AND 9223372036854775807 FOLLOWING")]
    [InlineData("RANGE BETWEEN 9223372036854775807 PRECEDING AND CURRENT ROW")]
    [InlineData("RANGE 1e300 PRECEDING")]
    public void Hand_picked_frames_near_the_integer_extremes_answer_as_sqlite(string frame)
    {
        using var o = NewOracle(new Random(frame.Length), 24, numbersOnly: false);
        foreach (var order in new[] { "x", "x DESC", "x NULLS LAST", "x DESC NULLS FIRST" })
            o.Check($"SELECT id, count(*) OVER w, sum(id) OVER w, min(id) OVER w, max(id) OVER w FROM r WINDOW w AS (ORDER BY {order} {frame}) ORDER BY id", ordered: true);
    }

    [Theory]
    [InlineData(1, false)]
    [InlineData(2, false)]
    [InlineData(3, true)]
    [InlineData(4, true)]
    public void Random_range_frames_over_extreme_keys_answer_as_sqlite(int seed, bool numbersOnly)
    {
        var r = new Random(seed);
        using var o = NewOracle(r, 12 + r.Next(20), numbersOnly);
        string Bound(bool start)
        {
            int k = r.Next(4);
            return k switch
            {
                0 => start ? "UNBOUNDED PRECEDING" : "UNBOUNDED FOLLOWING",
                1 => "CURRENT ROW",
                2 => Offsets[r.Next(Offsets.Length)] + " PRECEDING",
                _ => Offsets[r.Next(Offsets.Length)] + " FOLLOWING",
            };
        }
        (string, bool) Next()
        {
            string order = new[] { "x", "x DESC", "x NULLS LAST", "x DESC NULLS FIRST", "x ASC NULLS FIRST" }[r.Next(5)];
            string partition = r.Next(3) == 0 ? "PARTITION BY p " : "";
            string exclude = r.Next(5) == 0 ? " EXCLUDE " + new[] { "CURRENT ROW", "GROUP", "TIES" }[r.Next(3)] : "";
            string start = Bound(true), end = Bound(false);
            // UNBOUNDED PRECEDING AND a fractional n PRECEDING: SQLite's aggregates disagree with each other there
            // (a listed divergence), so that shape takes an integer offset.
            if (start == "UNBOUNDED PRECEDING" && end.EndsWith(" PRECEDING", StringComparison.Ordinal) && end.Contains('.', StringComparison.Ordinal))
                end = "1 PRECEDING";
            string frame = $"RANGE BETWEEN {start} AND {end}{exclude}";
            return ($"SELECT id, count(*) OVER w, sum(id) OVER w, min(id) OVER w, first_value(id) OVER w IS NOT NULL FROM r WINDOW w AS ({partition}ORDER BY {order} {frame}) ORDER BY id", true);
        }
        var (failures, errors) = o.Disagreements(Next, 150);
        failures.Should().BeEmpty();
        errors.Should().BeLessThan(150, "most generated frames are valid");
    }
}
