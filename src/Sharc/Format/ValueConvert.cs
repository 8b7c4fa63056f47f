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

    /// <summary>Renders a REAL as SQLite's text conversion does (SQLite 3.53): 15 significant digits when they
    /// read back as the same double, else 17; laid out as <c>%!.17g</c> (exponent form below 1e-4 or from 1e17 on)
    /// and always with a decimal point or an exponent, so 1.0 stays "1.0".</summary>
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
        // SQLite's printf does not produce correctly rounded digits: it scales the value into [~9.2e17, ~9.2e18]
        // in double-double arithmetic, truncates to an integer of 18–19 digits, then rounds that digit string
        // half-up. Reproducing those steps gives the same text in the cases where correct rounding would differ
        // (e.g. 1.450884119077035e223 → …704, 6.312336106236186e282 → …618, 1/3 at 17 digits → …332).
        ulong v = ScaledDigits(r, out int exp10);
        Span<byte> all = stackalloc byte[24];
        int na = 0;
        for (ulong t = v; t != 0; t /= 10) all[na++] = (byte)('0' + (int)(t % 10));
        all[..na].Reverse();
        Span<byte> digits = stackalloc byte[18];
        int exp = RoundDigits(all[..na], 15, digits, out int nd) + na + exp10 - 1; // decimal exponent of the first digit
        if (!ReadsBack(digits[..nd], exp, r))
            exp = RoundDigits(all[..na], 17, digits, out nd) + na + exp10 - 1;
        return pos + Layout(digits[..nd], exp, dst[pos..]);
    }

    /// <summary>Rounds a digit string half-up to <paramref name="keep"/> digits into <paramref name="digits"/>, trailing
    /// zeros dropped; returns 1 when rounding carried into a new leading digit (the exponent grows by one), else 0.</summary>
    private static int RoundDigits(ReadOnlySpan<byte> all, int keep, Span<byte> digits, out int nd)
    {
        nd = Math.Min(keep, all.Length);
        all[..nd].CopyTo(digits);
        int carry = 0;
        if (all.Length > keep && all[keep] >= '5')
        {
            int j = keep - 1;
            while (true)
            {
                digits[j]++;
                if (digits[j] <= '9') break;
                digits[j] = (byte)'0';
                if (j == 0)
                {
                    // 9.99…9 rounded up: one more leading digit.
                    digits[..(keep - 1)].CopyTo(digits[1..]);
                    digits[0] = (byte)'1';
                    carry = 1;
                    break;
                }
                j--;
            }
        }
        while (nd > 1 && digits[nd - 1] == '0') nd--;
        return carry;
    }

    /// <summary>Whether d.ddd×10^exp parses back (as SQLite parses text) to exactly <paramref name="r"/>.</summary>
    private static bool ReadsBack(ReadOnlySpan<byte> digits, int exp, double r)
    {
        Span<byte> text = stackalloc byte[32];
        int p = 0;
        text[p++] = digits[0];
        text[p++] = (byte)'.';
        for (int i = 1; i < digits.Length; i++) text[p++] = digits[i];
        if (digits.Length == 1) text[p++] = (byte)'0';
        text[p++] = (byte)'e';
        if (exp < 0) text[p++] = (byte)'-';
        int a = Math.Abs(exp);
        if (a >= 100) text[p++] = (byte)('0' + a / 100);
        if (a >= 10) text[p++] = (byte)('0' + a / 10 % 10);
        text[p++] = (byte)('0' + a % 10);
        return SqlRealParser.Parse(text[..p]) == r;
    }

    /// <summary>%!.17g's layout of a positive value's digits (d.ddd×10^exp).</summary>
    private static int Layout(ReadOnlySpan<byte> digits, int exp, Span<byte> dst)
    {
        int pos = 0;
        int nd = digits.Length;
        if (exp < -4 || exp >= 17)
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

    /// <summary>
    /// The value's leading decimal digits as an integer v with r ≈ v × 10^exp10, computed as SQLite's
    /// sqlite3FpDecode does: repeated multiplication by powers of ten in Dekker double-double arithmetic.
    /// </summary>
    internal static ulong ScaledDigits(double r, out int exp10)
    {
        double hi = r, lo = 0;
        int exp = 0;
        if (hi > 9.223372036854774784e+18)
        {
            while (hi > 9.223372036854774784e+118) { exp += 100; SqlRealParser.DekkerMultiply(ref hi, ref lo, 1.0e-100, -1.99918998026028836196e-117); }
            while (hi > 9.223372036854774784e+28) { exp += 10; SqlRealParser.DekkerMultiply(ref hi, ref lo, 1.0e-10, -3.6432197315497741579e-27); }
            while (hi > 9.223372036854774784e+18) { exp += 1; SqlRealParser.DekkerMultiply(ref hi, ref lo, 1.0e-01, -5.5511151231257827021e-18); }
        }
        else
        {
            while (hi < 9.223372036854774784e-83) { exp -= 100; SqlRealParser.DekkerMultiply(ref hi, ref lo, 1.0e+100, -1.5902891109759918046e+83); }
            while (hi < 9.223372036854774784e+07) { exp -= 10; SqlRealParser.DekkerMultiply(ref hi, ref lo, 1.0e+10, 0.0); }
            while (hi < 9.22337203685477478e+17) { exp -= 1; SqlRealParser.DekkerMultiply(ref hi, ref lo, 1.0e+01, 0.0); }
        }
        exp10 = exp;
        return lo < 0 ? (ulong)hi - (ulong)(-lo) : (ulong)hi + (ulong)lo;
    }

    private static int Copy(ReadOnlySpan<byte> s, Span<byte> dst)
    {
        s.CopyTo(dst);
        return s.Length;
    }

    private static bool IsSpace(byte b) => b is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\f' or (byte)'\r' or 0x0b;
    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';
}
