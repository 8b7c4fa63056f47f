using System.Globalization;
using System.Text.Json;
using Sharc.Cli.Output;

namespace Sharc.Tests.Cli;

public sealed class ValueTextTests
{
    [Theory]
    [InlineData(1.0, "1.0")]
    [InlineData(-1.0, "-1.0")]
    [InlineData(0.0, "0.0")]
    [InlineData(-0.0, "-0.0")]
    [InlineData(0.1, "0.1")]
    [InlineData(123.456, "123.456")]
    [InlineData(1e14, "100000000000000.0")]
    [InlineData(1e15, "1e+15")]
    [InlineData(1e16, "1e+16")]
    [InlineData(9.999e15, "9.999e+15")]
    [InlineData(123456789012345.6, "123456789012345.6")]
    [InlineData(1.2345678901234568e17, "1.2345678901234568e+17")]
    [InlineData(0.00012345, "0.00012345")]
    [InlineData(1.5e-5, "1.5e-5")]
    [InlineData(-1234.5, "-1234.5")]
    [InlineData(1e20, "1e+20")]
    [InlineData(1.5e300, "1.5e+300")]
    [InlineData(1e300, "1e+300")]
    [InlineData(0.0001, "0.0001")]
    [InlineData(0.00001, "1e-5")]
    [InlineData(-2.5e-10, "-2.5e-10")]
    [InlineData(double.Epsilon, "5e-324")]
    [InlineData(double.MaxValue, "1.7976931348623157e+308")]
    [InlineData(double.PositiveInfinity, "1e999")]
    [InlineData(double.NegativeInfinity, "-1e999")]
    public void Reals_are_spelled_in_the_documented_form(double value, string expected)
    {
        ValueText.Real(value).Should().Be(expected);
    }

    [Fact]
    public void Every_finite_real_is_a_json_number_that_reads_back_bit_for_bit_and_never_looks_like_an_integer()
    {
        var rng = new Random(7);
        for (int i = 0; i < 20000; i++)
        {
            double d = BitConverter.Int64BitsToDouble(rng.NextInt64(long.MinValue, long.MaxValue));
            if (!double.IsFinite(d)) continue;
            if (i % 3 == 0) d = Math.Round(d % 1e6, rng.Next(0, 6));

            string text = ValueText.Real(d);

            text.AsSpan().IndexOfAny(".e").Should().BeGreaterThanOrEqualTo(0, text);
            using var doc = JsonDocument.Parse(text);
            doc.RootElement.ValueKind.Should().Be(JsonValueKind.Number, text);
            BitConverter.DoubleToInt64Bits(double.Parse(text, CultureInfo.InvariantCulture))
                .Should().Be(BitConverter.DoubleToInt64Bits(d), text);
        }
    }

    [Fact]
    public void Blobs_are_lowercase_hex()
    {
        ValueText.Hex([0x00, 0xAB, 0xcd, 0xEF, 0x10]).Should().Be("00abcdef10");
        ValueText.Hex([]).Should().BeEmpty();
    }

    [Fact]
    public void Json_strings_escape_quotes_backslashes_and_every_control_character()
    {
        var w = new StringWriter();
        JsonlWriter.WriteString(w, "\"\\/\u0000\u0008\u000c\u001f\u007f é😀");

        w.ToString().Should().Be("\"\\\"\\\\/\\u0000\\u0008\\u000c\\u001f\u007f é😀\"");
        JsonDocument.Parse(w.ToString()).RootElement.GetString().Should().Be("\"\\/\u0000\u0008\u000c\u001f\u007f é😀");
    }

    [Fact]
    public void Json_strings_replace_unpaired_surrogates()
    {
        var w = new StringWriter();
        JsonlWriter.WriteString(w, "a\ud800b\udc00c");

        w.ToString().Should().Be("\"a\ufffdb\ufffdc\"");
    }
}
