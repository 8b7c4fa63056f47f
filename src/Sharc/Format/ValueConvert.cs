using System.Globalization;
using System.Text;

namespace Sharc.Format;

/// <summary>
/// SQLite's conversions between storage classes, as <c>sqlite3_column_int64 / _double / _text</c> perform them,
/// so that a getter of the "wrong" type returns what SQLite would.
/// </summary>
internal static class ValueConvert
{
    /// <summary>A double to a 64-bit integer: truncation toward zero, saturating at the ends of the range.</summary>
    public static long RealToInt64(double r)
    {
        if (double.IsNaN(r)) return 0;
        if (r <= -9223372036854775808.0) return long.MinValue;
        if (r >= 9223372036854775807.0) return long.MaxValue;
        return (long)r;
    }

    /// <summary>The integer prefix of a text value (leading spaces, a sign, digits), saturating on overflow.</summary>
    public static long TextToInt64(ReadOnlySpan<byte> utf8)
    {
        int i = 0;
        while (i < utf8.Length && IsSpace(utf8[i])) i++;
        bool neg = false;
        if (i < utf8.Length && (utf8[i] == '-' || utf8[i] == '+'))
        {
            neg = utf8[i] == '-';
            i++;
        }
        ulong v = 0;
        bool overflow = false;
        for (; i < utf8.Length && utf8[i] is >= (byte)'0' and <= (byte)'9'; i++)
        {
            ulong d = (ulong)(utf8[i] - '0');
            if (v > (ulong.MaxValue - d) / 10) overflow = true;
            else v = v * 10 + d;
        }
        if (neg)
        {
            if (overflow || v > 9223372036854775808UL) return long.MinValue;
            return (long)(0 - v);
        }
        if (overflow || v > long.MaxValue) return long.MaxValue;
        return (long)v;
    }

    /// <summary>The longest prefix of a text value that reads as a real number, or 0 — rounded exactly as SQLite's
    /// own parser rounds (which is not always the nearest double).</summary>
    public static double TextToDouble(ReadOnlySpan<byte> utf8) => SqlRealParser.Parse(utf8);

    /// <summary>Renders a REAL as SQLite 3.53's text conversion does (<c>%!.17g</c>): 17 significant digits, fewer
    /// when they end in a run of 0s or 9s and the shorter number reads back as the same double (see
    /// <see cref="FloatDigits"/>), exponent form below 1e-4 or from 1e17 on, and always a decimal point or an
    /// exponent, so 1.0 stays "1.0".</summary>
    public static string RealToText(double r)
    {
        Span<byte> buf = stackalloc byte[40];
        int n = FormatReal(r, buf);
        return Encoding.ASCII.GetString(buf[..n]);
    }

    /// <summary>Writes <see cref="RealToText"/>'s text into <paramref name="dst"/> (at least 32 bytes); returns its length.</summary>
    public static int FormatReal(double r, Span<byte> dst)
    {
        if (double.IsPositiveInfinity(r)) return Copy("Inf"u8, dst);
        if (double.IsNegativeInfinity(r)) return Copy("-Inf"u8, dst);
        if (double.IsNaN(r)) return Copy("NaN"u8, dst);
        if (r == 0) return Copy("0.0"u8, dst);

        int pos = 0;
        if (r < 0)
        {
            dst[pos++] = (byte)'-';
            r = -r;
        }
        Span<byte> digits = stackalloc byte[24];
        int nd = FloatDigits.Decode(r, 17, 20, digits, out int dp);
        int exp = dp - 1;
        if (exp < -4 || exp > 16)
        {
            dst[pos++] = digits[0];
            dst[pos++] = (byte)'.';
            if (nd == 1) dst[pos++] = (byte)'0';
            for (int i = 1; i < nd; i++) dst[pos++] = digits[i];
            dst[pos++] = (byte)'e';
            dst[pos++] = exp < 0 ? (byte)'-' : (byte)'+';
            int a = Math.Abs(exp);
            if (a >= 100) dst[pos++] = (byte)('0' + a / 100);
            dst[pos++] = (byte)('0' + a / 10 % 10);
            dst[pos++] = (byte)('0' + a % 10);
            return pos;
        }
        if (exp < 0)
        {
            dst[pos++] = (byte)'0';
            dst[pos++] = (byte)'.';
            for (int i = -1; i > exp; i--) dst[pos++] = (byte)'0';
            for (int i = 0; i < nd; i++) dst[pos++] = digits[i];
            return pos;
        }
        for (int i = 0; i <= exp; i++) dst[pos++] = i < nd ? digits[i] : (byte)'0';
        dst[pos++] = (byte)'.';
        if (nd <= exp + 1) dst[pos++] = (byte)'0';
        for (int i = exp + 1; i < nd; i++) dst[pos++] = digits[i];
        return pos;
    }

    private static int Copy(ReadOnlySpan<byte> s, Span<byte> dst)
    {
        s.CopyTo(dst);
        return s.Length;
    }

    private static bool IsSpace(byte b) => b is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\f' or (byte)'\r' or 0x0b;
    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';
}
