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
/// is not always correctly rounded: SQLite keeps at most 19 or 20 significant digits (as many as fit in 64 bits;
/// later digits are dropped, not rounded), then scales that integer with <see cref="FloatDigits.ToDouble"/>.
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
        if (digits == 0)
        {
            // SQLite gives up before applying the sign: a lone "-" is +0.0.
            value = 0.0;
            return SqlNumberShape.NotANumber;
        }
        value = s == 0 ? 0.0 : FloatDigits.ToDouble(s, e + d);
        if (negative) value = -value;
        int k = end;
        while (k < n && IsSpace(z[k])) k++;
        if (k == n) return pointOrExponent ? SqlNumberShape.Real : SqlNumberShape.Integer;
        return pointOrExponent ? SqlNumberShape.RealPrefix : SqlNumberShape.NotANumber;
    }

    private static bool IsSpace(byte b) => b is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\f' or (byte)'\r' or 0x0b;

    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';
}
