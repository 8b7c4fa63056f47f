using System.Globalization;
using System.Text;

namespace Sharc.Cli.Slt;

/// <summary>
/// Turns one result value into the text a test file expects, following the reference harness: the column's type
/// letter picks the conversion (SQLite's <c>sqlite3_column_int</c>, <c>sqlite3_column_double</c> printed with
/// <c>%.3f</c>, or <c>sqlite3_column_text</c>), NULL prints as <c>NULL</c>, an empty text as <c>(empty)</c>, and every
/// byte outside printable ASCII as <c>@</c>.
/// </summary>
internal static class SltValueFormat
{
    /// <summary>The text of a NULL, whatever the column type.</summary>
    public const string Null = "NULL";

    /// <summary>The text of an empty string.</summary>
    public const string Empty = "(empty)";

    /// <summary>Renders <paramref name="value"/> (null, long, double, string or byte[]) for column type <paramref name="type"/>.</summary>
    public static string Render(object? value, char type)
    {
        if (value is null or DBNull) return Null;
        return type switch
        {
            'I' => ToInt32(value).ToString(CultureInfo.InvariantCulture),
            'R' => SqliteRealFormat.Fixed(ToDouble(value), 3),
            _ => Printable(ToTextBytes(value)),
        };
    }

    /// <summary><c>sqlite3_column_int</c>: the value as a 64-bit integer, then its low 32 bits.</summary>
    public static int ToInt32(object value) => unchecked((int)ToInt64(value));

    /// <summary>
    /// <c>sqlite3_column_int64</c>: a REAL is truncated toward zero (clamped to the 64-bit range); a TEXT or BLOB gives
    /// its integer prefix ("12abc" → 12, "1e3" → 1, "abc" → 0), clamped on overflow.
    /// </summary>
    public static long ToInt64(object value) => value switch
    {
        long l => l,
        int i => i,
        double d => DoubleToInt64(d),
        float f => DoubleToInt64(f),
        string s => IntegerPrefix(s),
        byte[] b => IntegerPrefix(Encoding.Latin1.GetString(b)),
        bool flag => flag ? 1 : 0,
        IConvertible c => c.ToInt64(CultureInfo.InvariantCulture),
        _ => IntegerPrefix(Convert.ToString(value, CultureInfo.InvariantCulture) ?? ""),
    };

    /// <summary>
    /// <c>sqlite3_column_double</c>: an INTEGER converts exactly as C does; a TEXT or BLOB gives its numeric prefix
    /// ("1e3x" → 1000, ".5" → 0.5, "abc" → 0).
    /// </summary>
    public static double ToDouble(object value) => value switch
    {
        double d => d,
        long l => l,
        int i => i,
        float f => f,
        string s => RealPrefix(s),
        byte[] b => RealPrefix(Encoding.Latin1.GetString(b)),
        bool flag => flag ? 1 : 0,
        IConvertible c => c.ToDouble(CultureInfo.InvariantCulture),
        _ => RealPrefix(Convert.ToString(value, CultureInfo.InvariantCulture) ?? ""),
    };

    /// <summary><c>sqlite3_column_text</c>, as bytes: text in UTF-8, a BLOB as is, numbers as SQLite prints them.</summary>
    private static byte[] ToTextBytes(object value) => value switch
    {
        string s => Encoding.UTF8.GetBytes(s),
        byte[] b => b,
        double d => Encoding.ASCII.GetBytes(SqliteRealFormat.Text(d)),
        float f => Encoding.ASCII.GetBytes(SqliteRealFormat.Text(f)),
        bool flag => flag ? "1"u8.ToArray() : "0"u8.ToArray(),
        _ => Encoding.UTF8.GetBytes(Convert.ToString(value, CultureInfo.InvariantCulture) ?? ""),
    };

    /// <summary>
    /// The harness works on bytes, so each byte of a multi-byte UTF-8 character becomes its own '@'; that keeps every
    /// rendered value on one line and hashes identical to the reference's.
    /// </summary>
    private static string Printable(byte[] bytes)
    {
        if (bytes.Length == 0) return Empty;
        return string.Create(bytes.Length, bytes, static (span, b) =>
        {
            for (int k = 0; k < b.Length; k++) span[k] = b[k] is < 0x20 or > 0x7e ? '@' : (char)b[k];
        });
    }

    private static long DoubleToInt64(double d)
    {
        if (double.IsNaN(d)) return 0;
        // 2^63 is exactly representable, long.MaxValue is not: compare against the double bounds.
        if (d <= -9223372036854775808.0) return long.MinValue;
        if (d >= 9223372036854775808.0) return long.MaxValue;
        return (long)d;
    }

    /// <summary>The integer at the start of <paramref name="s"/> after white space and a sign; 0 when there is none.</summary>
    private static long IntegerPrefix(string s)
    {
        int i = SkipSpace(s, 0);
        bool negative = false;
        if (i < s.Length && s[i] is '+' or '-') negative = s[i++] == '-';
        const ulong limit = 9223372036854775808UL; // |long.MinValue|
        ulong magnitude = 0;
        bool overflow = false;
        for (; i < s.Length && char.IsAsciiDigit(s[i]); i++)
        {
            if (overflow) continue;
            ulong next = magnitude * 10 + (ulong)(s[i] - '0');
            if (magnitude > limit / 10 || next > limit) overflow = true;
            else magnitude = next;
        }
        if (negative) return overflow || magnitude == limit ? long.MinValue : -(long)magnitude;
        return overflow || magnitude >= limit ? long.MaxValue : (long)magnitude;
    }

    /// <summary>The number at the start of <paramref name="s"/> (digits, a fraction, an exponent); 0 when there is none.</summary>
    private static double RealPrefix(string s)
    {
        int start = SkipSpace(s, 0);
        int i = start;
        bool negative = false;
        if (i < s.Length && s[i] is '+' or '-') negative = s[i++] == '-';
        int digits = 0;
        while (i < s.Length && char.IsAsciiDigit(s[i])) { i++; digits++; }
        if (i < s.Length && s[i] == '.')
        {
            i++;
            while (i < s.Length && char.IsAsciiDigit(s[i])) { i++; digits++; }
        }
        if (digits == 0) return negative ? -0.0 : 0.0;
        if (i < s.Length && s[i] is 'e' or 'E')
        {
            // An exponent counts only when it has digits: "1e" is 1.
            int e = i + 1;
            if (e < s.Length && s[e] is '+' or '-') e++;
            if (e < s.Length && char.IsAsciiDigit(s[e]))
            {
                while (e < s.Length && char.IsAsciiDigit(s[e])) e++;
                i = e;
            }
        }
        return double.Parse(s.AsSpan(start, i - start), NumberStyles.Float, CultureInfo.InvariantCulture);
    }

    /// <summary>Skips SQLite's white space (space, \t, \n, \v, \f, \r).</summary>
    private static int SkipSpace(string s, int i)
    {
        while (i < s.Length && s[i] is ' ' or '\t' or '\n' or '\v' or '\f' or '\r') i++;
        return i;
    }
}
