using Sharc.Cli.Slt;

namespace Sharc.Tests.Slt;

/// <summary>The rendering rules of the reference harness, value by value (SqliteOracleFormatTests checks them against SQLite).</summary>
public sealed class SltValueFormatTests
{
    [Theory]
    [InlineData('I')]
    [InlineData('R')]
    [InlineData('T')]
    public void Null_prints_as_NULL_whatever_the_type(char type)
    {
        SltValueFormat.Render(null, type).Should().Be("NULL");
    }

    [Theory]
    [InlineData(0.0005, "0.001")] // rounds half up on the first dropped digit
    [InlineData(0.0004, "0.000")]
    [InlineData(-0.0004, "-0.000")] // a negative value keeps its sign even when it rounds to zero …
    [InlineData(-0.0, "0.000")] // … but negative zero has none
    [InlineData(0.0625, "0.063")] // an exact tie rounds up (C's printf would give 0.062)
    [InlineData(1.25, "1.250")]
    [InlineData(-1.5, "-1.500")]
    [InlineData(0.9995, "1.000")] // exactly 0.99950000000000005507…: above the tie, and the carry ripples up
    [InlineData(9.9995, "9.999")] // exactly 9.99949999999999938893…: below the tie
    [InlineData(1e20, "100000000000000000000.000")]
    [InlineData(-9223372036854775808.0, "-9223372036854776000.000")] // at most 16 significant digits
    [InlineData(-18446744073709551616.0, "-18446744073709550000.000")]
    [InlineData(123456789012345.6, "123456789012345.600")]
    [InlineData(1e-320, "0.000")] // subnormal
    [InlineData(double.PositiveInfinity, "Inf")]
    [InlineData(double.NegativeInfinity, "-Inf")]
    public void Real_type_prints_a_double_with_sqlite_percent_3f(double value, string expected)
    {
        SltValueFormat.Render(value, 'R').Should().Be(expected);
    }

    [Theory]
    [InlineData(5L, "5.000")]
    [InlineData(-7L, "-7.000")]
    [InlineData(long.MaxValue, "9223372036854776000.000")]
    [InlineData("1e3x", "1000.000")]
    [InlineData(" -2.5 apples", "-2.500")]
    [InlineData(".5", "0.500")]
    [InlineData("abc", "0.000")]
    [InlineData("", "0.000")]
    [InlineData("-", "0.000")]
    public void Real_type_converts_integers_and_text_as_sqlite3_column_double(object value, string expected)
    {
        SltValueFormat.Render(value, 'R').Should().Be(expected);
    }

    [Theory]
    [InlineData(42L, "42")]
    [InlineData(-42L, "-42")]
    [InlineData(2147483648L, "-2147483648")] // 64-bit value, then its low 32 bits
    [InlineData(4294967301L, "5")]
    [InlineData(long.MinValue, "0")]
    [InlineData(3.9, "3")] // truncation toward zero
    [InlineData(-3.9, "-3")]
    [InlineData(-0.5, "0")]
    [InlineData(1e19, "-1")] // clamped to long.MaxValue first
    [InlineData(-1e19, "0")] // clamped to long.MinValue
    [InlineData("12abc", "12")]
    [InlineData(" \t+7", "7")]
    [InlineData("1e3", "1")] // an integer prefix only
    [InlineData("1.9", "1")]
    [InlineData("0x10", "0")]
    [InlineData("abc", "0")]
    [InlineData("", "0")]
    [InlineData("99999999999999999999", "-1")] // clamped to long.MaxValue
    [InlineData("-9223372036854775808", "0")]
    public void Integer_type_reads_the_value_as_sqlite3_column_int(object value, string expected)
    {
        SltValueFormat.Render(value, 'I').Should().Be(expected);
    }

    [Fact]
    public void Integer_type_reads_a_blob_as_text()
    {
        SltValueFormat.Render("123x"u8.ToArray(), 'I').Should().Be("123");
        SltValueFormat.Render("2.5"u8.ToArray(), 'R').Should().Be("2.500");
    }

    [Theory]
    [InlineData("hello world", "hello world")]
    [InlineData("", "(empty)")]
    [InlineData("a\tb\nc", "a@b@c")]
    [InlineData("caf\u00e9", "caf@@")] // one '@' per UTF-8 byte
    [InlineData("\u20ac", "@@@")]
    [InlineData("~\u007f", "~@")]
    [InlineData(" ", " ")]
    [InlineData("NULL", "NULL")]
    public void Text_type_prints_the_text_with_unprintable_bytes_as_at_signs(string value, string expected)
    {
        SltValueFormat.Render(value, 'T').Should().Be(expected);
    }

    [Fact]
    public void Text_type_prints_a_blob_byte_by_byte()
    {
        SltValueFormat.Render(new byte[] { 0x41, 0x00, 0x42, 0xff }, 'T').Should().Be("A@B@");
        SltValueFormat.Render(Array.Empty<byte>(), 'T').Should().Be("(empty)");
    }

    [Theory]
    [InlineData(1.5, "1.5")]
    [InlineData(1.0, "1.0")]
    [InlineData(-0.0, "0.0")]
    [InlineData(100.0, "100.0")]
    [InlineData(0.30000000000000004, "0.30000000000000004")] // 17 significant digits where fewer do not read back
    [InlineData(1.0 / 3, "0.33333333333333332")]
    [InlineData(1e14, "100000000000000.0")]
    [InlineData(1e15, "1000000000000000.0")]
    [InlineData(1e20, "1.0e+20")]
    [InlineData(123456789012345678.0, "1.2345678901234568e+17")]
    [InlineData(-1.5e-7, "-1.5e-07")]
    [InlineData(0.0001, "0.0001")]
    [InlineData(0.00001, "1.0e-05")]
    [InlineData(9.9999999999999999e22, "1.0e+23")]
    [InlineData(1e300, "1.0e+300")]
    [InlineData(double.NegativeInfinity, "-Inf")]
    public void Text_type_prints_a_real_as_sqlite_converts_it_to_text(double value, string expected)
    {
        SltValueFormat.Render(value, 'T').Should().Be(expected);
    }

    [Fact]
    public void Text_type_prints_an_integer_in_decimal()
    {
        SltValueFormat.Render(-9223372036854775808L, 'T').Should().Be("-9223372036854775808");
    }

    [Theory]
    [InlineData(0.1, "1000000000000000055511151231257827021181583404541015625", 0)]
    [InlineData(1.5, "15", 1)]
    [InlineData(1e20, "1", 21)]
    [InlineData(0.0625, "625", -1)]
    [InlineData(9007199254740993.0, "9007199254740992", 16)] // rounds to 2^53 on the way in; exact beyond the long fast path
    [InlineData(5e-324, "4940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625", -323)]
    public void Exact_digits_are_the_full_binary_expansion(double value, string digits, int point)
    {
        SqliteRealFormat.ExactDigits(value).Should().Be((digits, point));
    }
}
