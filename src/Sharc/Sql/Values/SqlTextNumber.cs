using System.Buffers;
using Sharc.Format;
using Sharc.Schema.Parsing;

namespace Sharc.Sql.Values;

/// <summary>
/// The three ways SQLite reads a number out of text (UTF-8 bytes): affinity (the whole text must be a number),
/// arithmetic (a numeric prefix, integer when it can be) and CAST AS NUMERIC (a numeric prefix, integer when the
/// value is integral). Reals come from <see cref="SqlRealParser"/>, integers from <see cref="SqlNumeric.ParseInteger"/>.
/// None of them allocates.
/// </summary>
internal static class SqlTextNumber
{
    private const int StackChars = 128;

    /// <summary>
    /// Numeric affinity: when the whole text (surrounding spaces allowed) is a well-formed number, the INTEGER or
    /// REAL it denotes; otherwise false. With <paramref name="preferInteger"/> an integral real in range becomes an
    /// INTEGER, as NUMERIC and INTEGER columns store it; without it "1.0" stays REAL, as in comparisons.
    /// </summary>
    public static bool TryAffinity(ReadOnlySpan<byte> utf8, bool preferInteger, out SqlValue number)
    {
        var shape = SqlRealParser.Parse(utf8, out double r);
        if (shape is SqlNumberShape.NotANumber or SqlNumberShape.RealPrefix)
        {
            number = default;
            return false;
        }
        if (shape == SqlNumberShape.Integer)
        {
            long iv = SqlNumeric.RealToInteger(r);
            if (SqlNumeric.RealSameAsInteger(r, iv) || ParseInteger(utf8, out iv) == SqlNumeric.IntegerParse.Exact)
            {
                number = SqlValue.Integer(iv);
                return true;
            }
        }
        number = preferInteger ? IntegerIfExact(r) : SqlValue.Real(r);
        return true;
    }

    /// <summary>
    /// How arithmetic classifies text: an INTEGER when the text, or its numeric prefix, is an integer that fits in
    /// 64 bits ("12", "12abc", "1e" are 12, 12, 1); otherwise the REAL of the longest numeric prefix ("1.0", "1e3",
    /// "9223372036854775808"); text without a number is 0.
    /// </summary>
    public static SqlValue Arithmetic(ReadOnlySpan<byte> utf8)
    {
        var shape = SqlRealParser.Parse(utf8, out double r);
        if (shape is SqlNumberShape.NotANumber or SqlNumberShape.Integer
            && ParseInteger(utf8, out long iv) <= SqlNumeric.IntegerParse.ExtraText)
        {
            return SqlValue.Integer(iv);
        }
        return SqlValue.Real(r);
    }

    /// <summary>CAST(text AS NUMERIC): the numeric prefix, as an INTEGER when it holds an integer exactly ("4.0" is 4).</summary>
    public static SqlValue NumericPrefix(ReadOnlySpan<byte> utf8)
    {
        var v = Arithmetic(utf8);
        if (v.Type != SharcColumnType.Real) return v;
        double r = v.RealValue;
        long ix = SqlNumeric.RealToInteger(r);
        return SqlNumeric.RealSameAsInteger(r, ix) ? SqlValue.Integer(ix) : v;
    }

    /// <summary>A REAL holding an integer strictly inside the 64-bit range becomes that INTEGER.</summary>
    public static SqlValue IntegerIfExact(double r)
    {
        long ix = ValueConvert.RealToInt64(r);
        return r == ix && ix > long.MinValue && ix < long.MaxValue ? SqlValue.Integer(ix) : SqlValue.Real(r);
    }

    /// <summary><see cref="SqlNumeric.ParseInteger"/> on UTF-8.</summary>
    public static SqlNumeric.IntegerParse ParseInteger(ReadOnlySpan<byte> utf8, out long value)
    {
        // Every byte that matters to a number is ASCII; others widen to chars the parser treats as "not a number".
        char[]? rented = null;
        Span<char> chars = utf8.Length <= StackChars ? stackalloc char[StackChars] : (rented = ArrayPool<char>.Shared.Rent(utf8.Length));
        chars = chars[..utf8.Length];
        for (int i = 0; i < utf8.Length; i++) chars[i] = (char)utf8[i];
        try
        {
            return SqlNumeric.ParseInteger(chars, out value);
        }
        finally
        {
            if (rented is not null) ArrayPool<char>.Shared.Return(rented);
        }
    }
}
