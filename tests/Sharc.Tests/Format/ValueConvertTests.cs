using System.Text;
using Sharc.Format;

namespace Sharc.Tests.Format;

/// <summary>Conversions match what SQLite's sqlite3_column_* return (figures taken from SQLite 3.53 through Microsoft.Data.Sqlite).</summary>
public class ValueConvertTests
{
    [Theory]
    [InlineData(0.1, "0.1")]
    [InlineData(1.0, "1.0")]
    [InlineData(-0.0, "0.0")]
    [InlineData(1e15, "1000000000000000.0")]
    [InlineData(1e17, "1.0e+17")]
    [InlineData(123456789012345678.0, "1.2345678901234568e+17")]
    [InlineData(1.0 / 3, "0.33333333333333332")] // 18 digits rounded to 17, as SQLite 3.53 does
    [InlineData(1e-5, "1.0e-05")]
    [InlineData(3.14e100, "3.14e+100")]
    [InlineData(double.PositiveInfinity, "Inf")]
    [InlineData(100.0, "100.0")]
    [InlineData(-12.5, "-12.5")]
    [InlineData(0.0001, "0.0001")]
    [InlineData(123456789012345.0, "123456789012345.0")]
    public void RealsRenderLikeSqlite(double value, string text) => ValueConvert.RealToText(value).Should().Be(text);

    [Fact]
    public void RealsRenderLikeSqliteForRandomValues()
    {
        using var c = Infrastructure.Oracle.Open(":memory:");
        var rng = new Random(7);
        for (int i = 0; i < 300; i++)
        {
            double v = BitConverter.Int64BitsToDouble(rng.NextInt64());
            if (double.IsNaN(v) || double.IsInfinity(v) || Math.Abs(v) < 1e-300) continue;
            using var cmd = c.CreateCommand();
            cmd.CommandText = "SELECT CAST($v AS TEXT)";
            cmd.Parameters.AddWithValue("$v", v);
            ValueConvert.RealToText(v).Should().Be((string)cmd.ExecuteScalar()!, "value {0:R}", v);
        }
    }

    [Fact]
    public void RealsRenderLikeSqliteWhereShorteningDecides()
    {
        // Short decimals and their neighbours one unit away: SQLite's 17-digit text keeps fewer digits only when
        // they end in zeros or nines and read back exactly, which these values probe from both sides.
        using var c = Infrastructure.Oracle.Open(":memory:");
        using var cmd = c.CreateCommand();
        cmd.CommandText = "SELECT CAST($v AS TEXT)";
        var p = cmd.Parameters.Add("$v", Microsoft.Data.Sqlite.SqliteType.Real);
        var rng = new Random(53);
        int compared = 0;
        for (int i = 0; i < 6000; i++)
        {
            double v = rng.Next(4) switch
            {
                0 => rng.NextInt64(1, 10_000_000_000) / Math.Pow(10, rng.Next(0, 12)),
                1 => Math.BitIncrement(rng.NextInt64(1, 1_000_000) / Math.Pow(10, rng.Next(0, 8))),
                2 => Math.BitDecrement(rng.NextInt64(1, 1_000_000) * Math.Pow(10, rng.Next(0, 25))),
                _ => BitConverter.Int64BitsToDouble(rng.NextInt64(1, 0x0010_0000_0000_0000)), // subnormals
            };
            if (rng.Next(2) == 0) v = -v;
            p.Value = v;
            ValueConvert.RealToText(v).Should().Be((string)cmd.ExecuteScalar()!, "value {0:R}", v);
            compared++;
        }
        compared.Should().Be(6000);
    }

    [Theory]
    [InlineData("  12abc", 12L)]
    [InlineData("1.5e3", 1L)]
    [InlineData("-", 0L)]
    [InlineData("0x10", 0L)]
    [InlineData("99999999999999999999", long.MaxValue)]
    [InlineData("-99999999999999999999", long.MinValue)]
    [InlineData(" -7.5x", -7L)]
    [InlineData("+3", 3L)]
    public void TextToIntegerTakesTheLeadingInteger(string text, long expected)
        => ValueConvert.TextToInt64(Encoding.UTF8.GetBytes(text)).Should().Be(expected);

    [Theory]
    [InlineData("1.5e3", 1500.0)]
    [InlineData(" -7.5x", -7.5)]
    [InlineData(".5", 0.5)]
    [InlineData("12 ", 12.0)]
    [InlineData("abc", 0.0)]
    [InlineData("1e", 1.0)]
    public void TextToRealTakesTheLeadingNumber(string text, double expected)
        => ValueConvert.TextToDouble(Encoding.UTF8.GetBytes(text)).Should().Be(expected);

    [Theory]
    [InlineData(1e300, long.MaxValue)]
    [InlineData(-1e300, long.MinValue)]
    [InlineData(-2.9, -2L)]
    [InlineData(2.9, 2L)]
    public void RealToIntegerTruncatesAndSaturates(double value, long expected)
        => ValueConvert.RealToInt64(value).Should().Be(expected);
}
