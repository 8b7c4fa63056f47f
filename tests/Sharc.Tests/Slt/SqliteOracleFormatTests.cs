using System.Globalization;
using Microsoft.Data.Sqlite;
using Sharc.Cli.Slt;
using Xunit.Abstractions;

namespace Sharc.Tests.Slt;

/// <summary>
/// The renderers against real SQLite on thousands of values: <c>printf('%.3f')</c>, REAL-to-TEXT, column_int64 and
/// column_double. SQLite computes decimal digits approximately (about 18 correct significant digits for magnitudes
/// up to 1e±40, fewer beyond), so it may round either way when a value lies that close to a rounding tie; we round
/// the exact value. Only there may the two differ, and each difference is checked to be such a case.
/// </summary>
public sealed class SqliteOracleFormatTests : IDisposable
{
    private readonly SqliteConnection _c;
    private readonly ITestOutputHelper _output;

    public SqliteOracleFormatTests(ITestOutputHelper output)
    {
        _output = output;
        _c = new SqliteConnection("Data Source=:memory:;Pooling=False");
        _c.Open();
    }

    public void Dispose() => _c.Dispose();

    public static IEnumerable<double> Doubles()
    {
        var rnd = new Random(20261121);
        double[] special =
        [
            0.0, -0.0, 0.0005, 0.0015, 0.0625, -0.0004, 1e20, -9223372036854775808.0, 9223372036854775807.0,
            -18446744073709551616.0, 1e-320, double.Epsilon, double.MaxValue, double.MinValue, 1e15, 1e16, 1e17,
            123456789012345.6, 0.1, 0.2, 0.30000000000000004, 1.0 / 3, 2.0 / 3, 1e-5, 1e-4, 99.9995, 999999.9995,
        ];
        foreach (var d in special) yield return d;
        // Values with a few decimals: where ties and near-ties live, and what averages of integers produce.
        for (int k = 0; k < 3000; k++) yield return k / 10000.0 + rnd.Next(0, 3) * Math.Pow(10, rnd.Next(0, 6));
        for (int k = 0; k < 1500; k++) yield return rnd.Next(-1_000_000, 1_000_000) / (double)rnd.Next(1, 400);
        for (int k = 0; k < 1500; k++) yield return (rnd.NextDouble() - 0.5) * Math.Pow(10, rnd.Next(-10, 25));
        for (int k = 0; k < 1500; k++) yield return (rnd.NextDouble() + 0.1) * Math.Pow(10, rnd.Next(-40, 41));
        for (int k = 0; k < 1500; k++)
        {
            double d = BitConverter.Int64BitsToDouble(rnd.NextInt64());
            if (double.IsFinite(d)) yield return d;
        }
    }

    [Fact]
    public void Percent_3f_matches_sqlite_printf_except_at_near_ties()
    {
        using var cmd = Command("SELECT printf('%.3f', $v)", out var p);
        int compared = 0, differed = 0;
        foreach (var v in Doubles())
        {
            p.Value = v;
            string sqlite = (string)cmd.ExecuteScalar()!;
            string mine = SqliteRealFormat.Fixed(v, 3);
            compared++;
            if (mine == sqlite) continue;
            differed++;
            var (digits, point) = SqliteRealFormat.ExactDigits(Math.Abs(v));
            CloseToTie(v, digits, Math.Min(point + 3, 16), mine, sqlite).Should().BeTrue(
                $"{v:R} (exactly 0.{digits[..Math.Min(digits.Length, 25)]}e{point}) printed as {mine}, SQLite says {sqlite}");
        }
        _output.WriteLine($"{compared} values, {differed} printed differently (all at near-ties)");
        compared.Should().BeGreaterThan(7000);
    }

    [Fact]
    public void Real_to_text_matches_sqlite_except_at_near_ties()
    {
        using var cmd = Command("SELECT $v", out var p);
        int compared = 0, differed = 0;
        foreach (var v in Doubles())
        {
            p.Value = v;
            using var r = cmd.ExecuteReader();
            r.Read();
            string sqlite = r.GetString(0); // sqlite3_column_text
            string mine = SqliteRealFormat.Text(v);
            compared++;
            if (mine == sqlite) continue;
            differed++;
            var (digits, _) = SqliteRealFormat.ExactDigits(Math.Abs(v));
            // SQLite's 18 digits are approximate: near a rounding tie it may round the other way, and then also cut
            // the digits shorter or not. Both texts must still name the same double.
            double.Parse(mine, CultureInfo.InvariantCulture).Should().Be(double.Parse(sqlite, CultureInfo.InvariantCulture), $"{v:R} printed as {mine}, SQLite says {sqlite}");
            CloseToTie(v, digits, 17, mine, sqlite).Should().BeTrue($"{v:R} printed as {mine}, SQLite says {sqlite}");
        }
        _output.WriteLine($"{compared} values, {differed} printed differently (all at near-ties)");
    }

    [Fact]
    public void Reals_convert_to_integers_as_sqlite3_column_int64()
    {
        using var cmd = Command("SELECT $v", out var p);
        foreach (var v in Doubles())
        {
            p.Value = v;
            using var r = cmd.ExecuteReader();
            r.Read();
            SltValueFormat.ToInt64(v).Should().Be(r.GetInt64(0), $"{v:R}");
        }
    }

    [Fact]
    public void Text_converts_to_numbers_as_sqlite3_column_int64_and_column_double()
    {
        string[] texts =
        [
            "1e3", " 12abc", "-9223372036854775809", "9223372036854775808", "9223372036854775807", "-9223372036854775808",
            "0x10", "1.9", "+7", "", "  -  5", "\t\n42", "1e", "1e+", "1e-2", ".5", "5.", "-", "abc", " 3.5 ", "1e400",
            "-1e400", "-0", "00012", "1_000", "\u0661\u0662", "12345678901", "1e3x", "  +.5e1z", "99999999999999999999999",
            "0.1", "2.5e-3", "1.7976931348623157e308", "4.9e-324", "--5", "+-5", ".", "e5", "\v\f7", "123456789012345678901234567890",
        ];
        using var cmd = Command("SELECT $v", out var p);
        foreach (var t in texts)
        {
            p.Value = t;
            using var r = cmd.ExecuteReader();
            r.Read();
            SltValueFormat.ToInt64(t).Should().Be(r.GetInt64(0), $"'{t}' as an integer");
            double expected = r.GetDouble(0);
            SltValueFormat.ToDouble(t).Should().Be(expected, $"'{t}' as a real");
            SltValueFormat.Render(t, 'R').Should().Be(SqliteRealFormat.Fixed(expected, 3));
        }
    }

    [Fact]
    public void The_integer_type_is_the_low_32_bits_of_the_64_bit_value()
    {
        using var cmd = Command("SELECT printf('%d', $v)", out var p);
        long[] values = [0, 1, -1, int.MaxValue, int.MinValue, 2147483648L, 4294967296L + 5, -4294967296L - 5, long.MaxValue, long.MinValue];
        foreach (var v in values)
        {
            p.Value = v;
            // printf's %d reads the full 64-bit value; sqlite3_column_int is its low 32 bits, as C's cast gives.
            long full = long.Parse((string)cmd.ExecuteScalar()!, CultureInfo.InvariantCulture);
            SltValueFormat.Render(v, 'I').Should().Be(unchecked((int)full).ToString(CultureInfo.InvariantCulture));
        }
    }

    /// <summary>
    /// True when SQLite's approximate digits may explain the difference: up to 1e±40, the exact digits from
    /// <paramref name="keep"/> on (the first dropped one) read 4999… or 5000… to the 18th significant digit; beyond,
    /// the two results are within one unit of the last significant digit kept.
    /// </summary>
    private static bool CloseToTie(double v, string digits, int keep, string mine, string sqlite)
    {
        double magnitude = Math.Abs(v);
        if (magnitude is < 1e-40 or >= 1e41)
        {
            double a = double.Parse(mine, CultureInfo.InvariantCulture), b = double.Parse(sqlite, CultureInfo.InvariantCulture);
            // One unit of the last kept digit is at most magnitude × 10^(1 - keep); doubling it absorbs the rounding
            // of both texts back to doubles.
            return Math.Abs(a - b) <= 2 * magnitude * Math.Pow(10, 1 - keep);
        }
        const int accurate = 18;
        if (keep < 0 || keep >= accurate) return false;
        string tail = digits.PadRight(accurate, '0')[keep..accurate];
        return tail == "4" + new string('9', tail.Length - 1) || tail == "5" + new string('0', tail.Length - 1);
    }

    private SqliteCommand Command(string sql, out SqliteParameter parameter)
    {
        var cmd = _c.CreateCommand();
        cmd.CommandText = sql;
        parameter = cmd.CreateParameter();
        parameter.ParameterName = "$v";
        cmd.Parameters.Add(parameter);
        return cmd;
    }
}
