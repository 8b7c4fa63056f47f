namespace Sharc.Format;

/// <summary>How much of a text is a number, as SQLite's text-to-real conversion reports it.</summary>
internal enum SqlNumberShape
{
    /// <summary>Not wholly a number; any leading digits were still converted.</summary>
    NotANumber = 0,
    /// <summary>Wholly an integer: optional spaces and sign, digits, optional spaces.</summary>
    Integer = 1,
    /// <summary>Wholly a number with a decimal point or an exponent.</summary>
    Real = 2,
    /// <summary>Not wholly a number, but a prefix with a decimal point or exponent was converted.</summary>
    RealPrefix = -1,
}

/// <summary>
/// Text to REAL exactly as SQLite converts it (CAST, arithmetic, affinity, and the SQL tokenizer's literals), which
/// is not correctly rounded: SQLite keeps at most 19 or 20 significant digits (as many as fit in 64 bits) (later digits are dropped, not
/// rounded), then scales that integer by powers of ten in double-double arithmetic. Parsing "1.5e-300" this way
/// gives a double one unit away from the nearest one, and so must we.
/// </summary>
internal static class SqlRealParser
{
    // Digits stop accumulating (the rest are dropped, not rounded) once the significand reaches this.
    private const ulong DigitLimit = (ulong.MaxValue - 9) / 10;

    /// <summary>The value of the longest numeric prefix (0.0 when there is none, -0.0 for a lone minus).</summary>
    public static double Parse(ReadOnlySpan<byte> text)
    {
        Parse(text, out double value);
        return value;
    }

    /// <summary>
    /// Reads leading spaces, a sign, digits, a fraction and an exponent (only when digits follow the 'e'); sets
    /// <paramref name="value"/> from that prefix and reports whether the whole text (trailing spaces allowed) was it.
    /// </summary>
    public static SqlNumberShape Parse(ReadOnlySpan<byte> z, out double value)
    {
        int i = 0, n = z.Length;
        while (i < n && IsSpace(z[i])) i++;
        bool negative = false;
        if (i < n && (z[i] == '-' || z[i] == '+'))
        {
            negative = z[i] == '-';
            i++;
        }
        ulong s = 0;
        int d = 0, digits = 0;
        while (i < n && IsDigit(z[i]))
        {
            if (s < DigitLimit) s = s * 10 + (ulong)(z[i] - '0');
            else d++;
            i++;
            digits++;
        }
        bool pointOrExponent = false;
        int end = i;
        if (i < n && z[i] == '.')
        {
            i++;
            while (i < n && IsDigit(z[i]))
            {
                if (s < DigitLimit)
                {
                    s = s * 10 + (ulong)(z[i] - '0');
                    d--;
                }
                i++;
                digits++;
            }
            if (digits > 0)
            {
                pointOrExponent = true;
                end = i;
            }
        }
        int e = 0;
        if (digits > 0 && end < n && (z[end] == 'e' || z[end] == 'E'))
        {
            int j = end + 1;
            int esign = 1;
            if (j < n && (z[j] == '-' || z[j] == '+'))
            {
                if (z[j] == '-') esign = -1;
                j++;
            }
            int expStart = j;
            while (j < n && IsDigit(z[j]))
            {
                e = e < 10000 ? e * 10 + (z[j] - '0') : 10000;
                j++;
            }
            if (j > expStart)
            {
                pointOrExponent = true;
                end = j;
                e *= esign;
            }
            else
            {
                e = 0;
            }
        }
        value = digits == 0 ? 0.0 : Scale(s, e + d);
        if (negative) value = -value;
        if (digits == 0) return SqlNumberShape.NotANumber;
        int k = end;
        while (k < n && IsSpace(z[k])) k++;
        if (k == n) return pointOrExponent ? SqlNumberShape.Real : SqlNumberShape.Integer;
        return pointOrExponent ? SqlNumberShape.RealPrefix : SqlNumberShape.NotANumber;
    }

    /// <summary>s × 10^e, computed as SQLite does.</summary>
    private static double Scale(ulong s, int e)
    {
        // Move factors of ten between the significand and the exponent while that is exact.
        while (e > 0 && s < (ulong.MaxValue - 0x7ff) / 10)
        {
            s *= 10;
            e--;
        }
        while (e < 0 && s % 10 == 0 && s != 0)
        {
            s /= 10;
            e++;
        }
        double hi = s, lo;
        if (hi <= 18446744073709549568.0)
        {
            // The part of s the conversion to double lost, kept as the low half.
            ulong s2 = (ulong)hi;
            lo = s >= s2 ? s - s2 : -(double)(s2 - s);
        }
        else
        {
            lo = 0.0;
        }
        if (e > 0)
        {
            while (e >= 100) { e -= 100; DekkerMultiply(ref hi, ref lo, 1.0e+100, -1.5902891109759918046e+83); }
            while (e >= 10) { e -= 10; DekkerMultiply(ref hi, ref lo, 1.0e+10, 0.0); }
            while (e >= 1) { e -= 1; DekkerMultiply(ref hi, ref lo, 1.0e+01, 0.0); }
        }
        else
        {
            while (e <= -100) { e += 100; DekkerMultiply(ref hi, ref lo, 1.0e-100, -1.99918998026028836196e-117); }
            while (e <= -10) { e += 10; DekkerMultiply(ref hi, ref lo, 1.0e-10, -3.6432197315497741579e-27); }
            while (e <= -1) { e += 1; DekkerMultiply(ref hi, ref lo, 1.0e-01, -5.5511151231257827021e-18); }
        }
        double r = hi + lo;
        return double.IsNaN(r) ? double.PositiveInfinity : r;
    }

    /// <summary>(hi, lo) *= (y, yy) in double-double arithmetic (T. J. Dekker, 1971).</summary>
    public static void DekkerMultiply(ref double hi, ref double lo, double y, double yy)
    {
        // Split each factor into a high part with the low 26 mantissa bits cleared and the exact remainder.
        const long Mask = unchecked((long)0xfffffffffc000000UL);
        double hx = BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(hi) & Mask);
        double tx = hi - hx;
        double hy = BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(y) & Mask);
        double ty = y - hy;
        double p = hx * hy;
        double q = hx * ty + tx * hy;
        double c = p + q;
        double cc = p - c + q + tx * ty;
        cc = hi * yy + lo * y + cc;
        double h = c + cc;
        lo = c - h + cc;
        hi = h;
    }

    private static bool IsSpace(byte b) => b is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\f' or (byte)'\r' or 0x0b;

    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';
}
