using System.Globalization;

namespace Sharc.Schema.Parsing;

/// <summary>
/// SQLite's conversions between text and numbers: what counts as a number when affinity is applied, how much of
/// a string a CAST reads, and how a REAL is written as text ("%!.15g").
/// </summary>
internal static class SqlNumeric
{
    /// <summary>Outcome of <see cref="ParseReal"/>, mirroring SQLite's sqlite3AtoF return codes.</summary>
    public enum RealParse
    {
        /// <summary>Not a number; a prefix holding only digits may still have been converted.</summary>
        Invalid = 0,
        /// <summary>The whole text is an integer (digits only, optional sign and surrounding spaces).</summary>
        PureInteger = 1,
        /// <summary>The whole text is a number with a decimal point or exponent.</summary>
        Real = 2,
        /// <summary>Not a number, but a prefix with a decimal point or exponent was converted.</summary>
        InvalidRealPrefix = -1,
    }

    /// <summary>Outcome of <see cref="ParseInteger"/>, mirroring SQLite's sqlite3Atoi64 return codes.</summary>
    public enum IntegerParse
    {
        /// <summary>The whole text is an integer that fits in 64 bits.</summary>
        Exact = 0,
        /// <summary>Text follows the digits (or there are no digits); the value is the digits' prefix.</summary>
        ExtraText = 1,
        /// <summary>The integer does not fit; the value is clamped.</summary>
        Overflow = 2,
        /// <summary>Exactly 9223372036854775808 without a minus sign; the value is clamped to long.MaxValue.</summary>
        MaxPlusOne = 3,
    }

    /// <summary>
    /// Reads a real number the way SQLite does when applying affinity: optional spaces, sign, digits,
    /// fraction, exponent, spaces. <paramref name="value"/> is set from the longest numeric prefix.
    /// </summary>
    public static RealParse ParseReal(ReadOnlySpan<char> s, out double value)
    {
        value = 0;
        int i = 0, n = s.Length;
        while (i < n && SqlText.IsSpace(s[i])) i++;
        int numberStart = i;
        if (i < n && s[i] is '+' or '-') i++;
        int digitsStart = i;
        while (i < n && char.IsAsciiDigit(s[i])) i++;
        int mantissaDigits = i - digitsStart;
        bool hasPointOrExponent = false;
        if (i < n && s[i] == '.')
        {
            int afterPoint = i + 1, j = afterPoint;
            while (j < n && char.IsAsciiDigit(s[j])) j++;
            mantissaDigits += j - afterPoint;
            if (mantissaDigits > 0)
            {
                hasPointOrExponent = true;
                i = j;
            }
        }
        if (mantissaDigits == 0) return RealParse.Invalid;
        if (i < n && s[i] is 'e' or 'E')
        {
            int j = i + 1;
            if (j < n && s[j] is '+' or '-') j++;
            int expStart = j;
            while (j < n && char.IsAsciiDigit(s[j])) j++;
            if (j > expStart)
            {
                hasPointOrExponent = true;
                i = j;
            }
        }
        value = ParseInvariant(s[numberStart..i]);
        int end = i;
        while (end < n && SqlText.IsSpace(s[end])) end++;
        if (end == n) return hasPointOrExponent ? RealParse.Real : RealParse.PureInteger;
        return hasPointOrExponent ? RealParse.InvalidRealPrefix : RealParse.Invalid;
    }

    private static double ParseInvariant(ReadOnlySpan<char> number)
    {
        // .NET wants a digit before the point; SQLite accepts ".5" and "5.".
        Span<char> buffer = number.Length <= 256 ? stackalloc char[number.Length + 1] : new char[number.Length + 1];
        int k = 0;
        for (int i = 0; i < number.Length; i++)
        {
            if (number[i] == '.' && (i == 0 || !char.IsAsciiDigit(number[i - 1]))) buffer[k++] = '0';
            buffer[k++] = number[i];
        }
        return double.Parse(buffer[..k], NumberStyles.Float, CultureInfo.InvariantCulture);
    }

    /// <summary>Reads a 64-bit integer the way SQLite does: spaces, sign, digits, spaces.</summary>
    public static IntegerParse ParseInteger(ReadOnlySpan<char> s, out long value)
    {
        value = 0;
        int i = 0, n = s.Length;
        while (i < n && SqlText.IsSpace(s[i])) i++;
        bool negative = false;
        if (i < n && s[i] is '+' or '-')
        {
            negative = s[i] == '-';
            i++;
        }
        int start = i;
        while (i < n && s[i] == '0') i++;
        int significant = i;
        ulong u = 0;
        while (i < n && char.IsAsciiDigit(s[i]))
        {
            if (i - significant < 20) u = unchecked(u * 10 + (ulong)(s[i] - '0'));
            i++;
        }
        int digitCount = i - significant;
        bool noDigits = i == start;
        int end = i;
        while (end < n && SqlText.IsSpace(s[end])) end++;
        bool extra = noDigits || end < n;

        const ulong MaxPlusOne = 9223372036854775808UL;
        if (digitCount > 19 || (digitCount == 19 && u > MaxPlusOne))
        {
            value = negative ? long.MinValue : long.MaxValue;
            return IntegerParse.Overflow;
        }
        if (u == MaxPlusOne)
        {
            value = negative ? long.MinValue : long.MaxValue;
            if (!negative) return IntegerParse.MaxPlusOne;
            return extra ? IntegerParse.ExtraText : IntegerParse.Exact;
        }
        value = negative ? -(long)u : (long)u;
        return extra ? IntegerParse.ExtraText : IntegerParse.Exact;
    }

    /// <summary>SQLite's double-to-integer conversion, saturating at the 64-bit limits.</summary>
    public static long RealToInteger(double r) => Format.ValueConvert.RealToInt64(r);

    /// <summary>True when <paramref name="r"/> and <paramref name="i"/> are the same value and small enough that a double holds it exactly.</summary>
    public static bool RealSameAsInteger(double r, long i)
    {
        const long limit = 2251799813685248L; // 2^51
        return r == 0.0 || (BitConverter.DoubleToInt64Bits(r) == BitConverter.DoubleToInt64Bits((double)i) && i >= -limit && i < limit);
    }

    /// <summary>A REAL that holds an integer within range becomes that integer, as REAL, NUMERIC and INTEGER affinity store it.</summary>
    public static object IntegerIfExact(double r)
    {
        long ix = RealToInteger(r);
        return r == ix && ix > long.MinValue && ix < long.MaxValue ? (object)ix : r;
    }

    /// <summary>
    /// SQLite's numeric affinity on text: a well-formed number becomes a long or double; anything else stays text.
    /// With <paramref name="preferInteger"/> an integral real becomes a long (what NUMERIC columns store).
    /// </summary>
    public static object TextToNumber(string text, bool preferInteger)
    {
        var rc = ParseReal(text, out double r);
        if (rc is RealParse.Invalid or RealParse.InvalidRealPrefix) return text;
        if (rc == RealParse.PureInteger)
        {
            long iv = RealToInteger(r);
            if (RealSameAsInteger(r, iv)) return iv;
            if (ParseInteger(text, out iv) == IntegerParse.Exact) return iv;
        }
        return preferInteger ? IntegerIfExact(r) : r;
    }

    /// <summary>
    /// SQLite's "numerify" used by unary minus and CAST AS NUMERIC: reads as much of the text as forms a number
    /// (never failing: "abc" is 0, "12abc" is 12).
    /// </summary>
    public static object NumberPrefix(string text)
    {
        var rc = ParseReal(text, out double r);
        if (rc is RealParse.Invalid or RealParse.PureInteger && ParseInteger(text, out long prefix) <= IntegerParse.ExtraText)
        {
            return prefix;
        }
        long ix = RealToInteger(r);
        return RealSameAsInteger(r, ix) ? (object)ix : r;
    }

    /// <summary>The integer a CAST(text AS INTEGER) reads: the leading digits, clamped.</summary>
    public static long IntegerPrefix(string text)
    {
        ParseInteger(text, out long value);
        return value;
    }

    /// <summary>The real a CAST(text AS REAL) reads: the longest numeric prefix, or 0.</summary>
    public static double RealPrefix(string text)
    {
        ParseReal(text, out double value);
        return value;
    }

    /// <summary>Writes a REAL as SQLite does when converting to text (one implementation: <see cref="Format.ValueConvert.RealToText"/>).</summary>
    public static string FormatReal(double r) => Format.ValueConvert.RealToText(r);

    /// <summary>Writes a value of any storage class as SQLite's text conversion would.</summary>
    public static string ToText(object value) => value switch
    {
        long l => l.ToString(CultureInfo.InvariantCulture),
        double d => FormatReal(d),
        string s => s,
        byte[] b => System.Text.Encoding.UTF8.GetString(b),
        _ => string.Empty,
    };
}
