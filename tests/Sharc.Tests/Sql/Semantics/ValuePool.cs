using System.Text;
using Sharc.Sql.Values;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>Operands for differential tests: values known to sit on SQLite's edges, and seeded random ones.</summary>
internal static class ValuePool
{
    public static SqlValue I(long v) => SqlValue.Integer(v);
    public static SqlValue R(double v) => SqlValue.Real(v);
    public static SqlValue T(string v) => SqlValue.Text(v);
    public static SqlValue B(string hex) => SqlValue.OwnedBlob(Convert.FromHexString(hex));
    public static SqlValue RawText(string hex) => SqlValue.OwnedText(Convert.FromHexString(hex));

    public static readonly SqlValue[] Interesting =
    [
        SqlValue.Null,
        I(0), I(1), I(-1), I(2), I(3), I(-7), I(10), I(100), I(255), I(64), I(63), I(-64), I(65),
        I(long.MaxValue), I(long.MinValue), I(long.MaxValue - 1), I(long.MinValue + 1),
        I((1L << 53) - 1), I(1L << 53), I((1L << 53) + 1), I(-((1L << 53) + 1)), I((1L << 52) + 1),
        I(1L << 31), I(1L << 32), I(-(1L << 62)), I(1234567), I(0x10FFFF), I(0xD800), I(0x1F600), I(233),
        R(0.0), R(-0.0), R(0.5), R(-0.5), R(1.5), R(2.5), R(-2.5), R(1.0), R(-1.0), R(3.14159), R(1e308), R(-1e308),
        R(1e-308), R(4.9e-324), R(1e15), R(1e16), R(1e-5), R(0.1), R(123456.789), R(9.223372036854775807e18),
        R(-9.223372036854775808e18), R(1e20), R(double.PositiveInfinity), R(double.NegativeInfinity),
        R(0.49999999999999994), R(2.675), R(1.005), R(9007199254740993.0), R(4503599627370497.0), R(1e100), R(7.0),
        R(-0.4), R(0.95), R(9.995), R(1.0 / 3), R(2.0 / 3), R(12345678.9), R(-1234.5678), R(5e-324), R(65.0),
        T(""), T(" "), T("abc"), T("ABC"), T("aBc"), T("12"), T(" 12 "), T("12abc"), T("1e3"), T("1.5"), T(".5"),
        T("5."), T("1e"), T("-0"), T("+5"), T("0x10"), T("1.0"), T("9223372036854775807"), T("9223372036854775808"),
        T("-9223372036854775808"), T("-9223372036854775809"), T("1e999"), T("inf"), T("NaN"), T("É"), T("é"),
        T("aÉb"), T("%"), T("_"), T("a%b"), T("a_c"), T("\\"), T("it's"), T("\"q\""), T("😀"), T("  -12.5e-1xyz"),
        T("x"), T("hello world"), T("[a]"), T("*"), T("?"), T("ß"), T(" \t12\n"), T("-"), T("."), T("1e+2"),
        T("0.0"), T("-0.0"), T("3"), T("2"), T("a b "), T("  "), T("ab"), T("b"), T("abcabc"), T("ÉÉÉ"),
        T("%d"), T("%s"), T("41"), T("4142"), T("1,5"), T("00012"), T("1.5e-300"), T("12.0"), T("A"),
        B(""), B("00"), B("00FF"), B("3132"), B("41"), B("FF"), B("C3A9"), B("4142430044"), B("2E35"), B("61"),
        RawText("FF"), RawText("80"), RawText("41004243"), RawText("C3"), RawText("E282"), RawText("41808042"),
        RawText("C380"), RawText("F09F9880C3"), RawText("00"),
    ];

    /// <summary>Small integers, for arguments such as substr's start and length.</summary>
    public static readonly SqlValue[] SmallIntegers =
    [
        SqlValue.Null, I(0), I(1), I(-1), I(2), I(-2), I(3), I(-3), I(4), I(-4), I(5), I(-5), I(7), I(-7), I(100),
        I(-100), I(long.MaxValue), I(long.MinValue), I(int.MaxValue), I(int.MinValue), R(1.5), R(-1.5), R(2.9),
        T("2"), T("-1"), T("x"), B("33"),
    ];

    public static SqlValue Pick(Random rng, SqlValue[] pool) => pool[rng.Next(pool.Length)];

    /// <summary>Mostly <see cref="Interesting"/>, sometimes a generated number, text or blob.</summary>
    public static SqlValue Any(Random rng)
    {
        int k = rng.Next(10);
        if (k < 6) return Pick(rng, Interesting);
        return k switch
        {
            6 => RandomInteger(rng),
            7 => RandomReal(rng),
            8 => RandomText(rng, "aAbB01 9.-e+É"),
            _ => rng.Next(4) == 0 ? RandomBlob(rng) : RandomNumericText(rng),
        };
    }

    public static SqlValue RandomInteger(Random rng) => rng.Next(4) switch
    {
        0 => I(rng.Next(-20, 21)),
        1 => I(rng.NextInt64(-1_000_000, 1_000_000)),
        2 => I(rng.NextInt64() >> rng.Next(64)),
        _ => I(-(rng.NextInt64() >> rng.Next(64))),
    };

    public static SqlValue RandomReal(Random rng)
    {
        switch (rng.Next(4))
        {
            case 0:
                return R(Math.Round(rng.NextDouble() * 200 - 100, rng.Next(4)));
            case 1:
                return R((rng.NextDouble() - 0.5) * Math.Pow(10, rng.Next(-30, 30)));
            case 2:
            {
                double d;
                do d = BitConverter.Int64BitsToDouble(rng.NextInt64()); while (double.IsNaN(d));
                return R(d);
            }
            default:
                return R(rng.Next(-1000, 1000) + 0.5 * rng.Next(-1, 2));
        }
    }

    public static SqlValue RandomText(Random rng, string alphabet, int maxLength = 6)
    {
        int n = rng.Next(maxLength + 1);
        var sb = new StringBuilder();
        var runes = alphabet.EnumerateRunes().ToArray();
        for (int i = 0; i < n; i++) sb.Append(runes[rng.Next(runes.Length)].ToString());
        return T(sb.ToString());
    }

    public static SqlValue RandomNumericText(Random rng)
    {
        var sb = new StringBuilder();
        if (rng.Next(3) == 0) sb.Append(' ', rng.Next(1, 3));
        if (rng.Next(3) == 0) sb.Append(rng.Next(2) == 0 ? '-' : '+');
        int digits = rng.Next(0, 22);
        for (int i = 0; i < digits; i++) sb.Append((char)('0' + rng.Next(10)));
        if (rng.Next(2) == 0)
        {
            sb.Append('.');
            for (int i = rng.Next(0, 5); i > 0; i--) sb.Append((char)('0' + rng.Next(10)));
        }
        if (rng.Next(3) == 0)
        {
            sb.Append(rng.Next(2) == 0 ? 'e' : 'E');
            if (rng.Next(2) == 0) sb.Append(rng.Next(2) == 0 ? '-' : '+');
            for (int i = rng.Next(0, 4); i > 0; i--) sb.Append((char)('0' + rng.Next(10)));
        }
        if (rng.Next(4) == 0) sb.Append(rng.Next(2) == 0 ? " " : "x");
        return T(sb.ToString());
    }

    public static SqlValue RandomBlob(Random rng)
    {
        var b = new byte[rng.Next(0, 5)];
        rng.NextBytes(b);
        return SqlValue.OwnedBlob(b);
    }
}
