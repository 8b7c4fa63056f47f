using Sharc.Schema.Parsing;

namespace Sharc.Schema;

/// <summary>
/// SQLite's type affinity: which affinity a declared type gives a column (section 3.1 of the datatype
/// documentation), and how a value changes when it is stored in, then read from, a column of that affinity.
/// </summary>
internal static class AffinityRules
{
    /// <summary>The affinity of a declared type in an ordinary (non-STRICT) table; no type at all means BLOB.</summary>
    public static SharcAffinity FromDeclaredType(ReadOnlySpan<char> declaredType)
        => declaredType.Length == 0 ? SharcAffinity.Blob : FromTypeText(declaredType);

    /// <summary>
    /// The affinity of a type name that was written, even if it is empty after unquoting: SQLite gives
    /// <c>a ""</c> and <c>CAST(x AS "")</c> NUMERIC affinity; only a column with no type at all gets BLOB.
    /// </summary>
    public static SharcAffinity FromTypeText(ReadOnlySpan<char> typeText)
    {
        // The rules are tried in this order; the first match wins.
        if (SqlText.ContainsIgnoreCase(typeText, "INT")) return SharcAffinity.Integer;
        if (SqlText.ContainsIgnoreCase(typeText, "CHAR")
            || SqlText.ContainsIgnoreCase(typeText, "CLOB")
            || SqlText.ContainsIgnoreCase(typeText, "TEXT")) return SharcAffinity.Text;
        if (SqlText.ContainsIgnoreCase(typeText, "BLOB")) return SharcAffinity.Blob;
        if (SqlText.ContainsIgnoreCase(typeText, "REAL")
            || SqlText.ContainsIgnoreCase(typeText, "FLOA")
            || SqlText.ContainsIgnoreCase(typeText, "DOUB")) return SharcAffinity.Real;
        return SharcAffinity.Numeric;
    }

    /// <summary>
    /// The value a column of <paramref name="affinity"/> returns after <paramref name="value"/> was stored in it:
    /// TEXT turns numbers into text; NUMERIC and INTEGER turn numeric-looking text into numbers and integral
    /// reals into integers; REAL turns numeric text and integers into doubles; BLOB changes nothing.
    /// Values are null, long, double, string or byte[].
    /// </summary>
    public static object? Apply(object? value, SharcAffinity affinity)
    {
        var stored = ApplyForStorage(Normalize(value), affinity);
        return affinity == SharcAffinity.Real && stored is long l ? (double)l : stored;
    }

    /// <summary>
    /// The conversion SQLite makes when it stores a value: like <see cref="Apply"/>, except that REAL keeps
    /// integral values as integers (SQLite only turns them into doubles when the column is read).
    /// </summary>
    public static object? ApplyForStorage(object? value, SharcAffinity affinity)
    {
        switch (affinity)
        {
            case SharcAffinity.Text:
                return value is long or double ? SqlNumeric.ToText(value) : value;
            case SharcAffinity.Numeric:
            case SharcAffinity.Integer:
            case SharcAffinity.Real:
                return value switch
                {
                    double d => SqlNumeric.IntegerIfExact(d),
                    string s => SqlNumeric.TextToNumber(s, preferInteger: true),
                    _ => value,
                };
            default:
                return value;
        }
    }

    private static object? Normalize(object? value) => value switch
    {
        int i => (long)i,
        short s => (long)s,
        sbyte b => (long)b,
        byte b => (long)b,
        uint u => (long)u,
        ushort u => (long)u,
        float f => (double)f,
        bool b => b ? 1L : 0L,
        ReadOnlyMemory<byte> m => m.ToArray(),
        _ => value,
    };
}
