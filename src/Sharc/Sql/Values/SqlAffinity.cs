using Sharc.Schema;

namespace Sharc.Sql.Values;

/// <summary>
/// The affinity of an expression, as far as comparisons care. <see cref="None"/> is an expression with no affinity
/// (a literal, a parameter, a function call, <c>+column</c>); <see cref="Blob"/> is a column or CAST whose type gives
/// BLOB affinity — the two differ when compared with TEXT.
/// </summary>
internal enum SqlAffinity : byte
{
    /// <summary>No affinity.</summary>
    None = 0,
    /// <summary>BLOB affinity (a column declared without a type, CAST AS BLOB).</summary>
    Blob,
    /// <summary>TEXT affinity.</summary>
    Text,
    /// <summary>NUMERIC affinity.</summary>
    Numeric,
    /// <summary>INTEGER affinity.</summary>
    Integer,
    /// <summary>REAL affinity.</summary>
    Real,
}

/// <summary>Choosing and applying affinities.</summary>
internal static class SqlAffinities
{
    /// <summary>The affinity of a column of the schema layer.</summary>
    public static SqlAffinity FromColumn(SharcAffinity affinity) => affinity switch
    {
        SharcAffinity.Text => SqlAffinity.Text,
        SharcAffinity.Numeric => SqlAffinity.Numeric,
        SharcAffinity.Integer => SqlAffinity.Integer,
        SharcAffinity.Real => SqlAffinity.Real,
        _ => SqlAffinity.Blob,
    };

    /// <summary>The affinity of <c>CAST(x AS typeName)</c> (the declared-type rules; "" is NUMERIC).</summary>
    public static SqlAffinity FromTypeName(ReadOnlySpan<char> typeName) => FromColumn(AffinityRules.FromTypeText(typeName));

    /// <summary>True for INTEGER, REAL and NUMERIC.</summary>
    public static bool IsNumeric(SqlAffinity a) => a >= SqlAffinity.Numeric;

    /// <summary>
    /// The affinity a comparison applies to both operands (datatype3 §4.2). When both operands have an affinity
    /// (columns, CASTs): NUMERIC if either is numeric, else none. When one has none: the other's (TEXT, INTEGER,
    /// REAL or NUMERIC; BLOB converts nothing). Applying the result to the operand that already has it changes
    /// nothing, so callers apply it to both.
    /// </summary>
    public static SqlAffinity ForComparison(SqlAffinity left, SqlAffinity right)
    {
        if (left != SqlAffinity.None && right != SqlAffinity.None)
            return IsNumeric(left) || IsNumeric(right) ? SqlAffinity.Numeric : SqlAffinity.None;
        var a = left == SqlAffinity.None ? right : left;
        return a == SqlAffinity.Blob ? SqlAffinity.None : a;
    }

    /// <summary>
    /// Affinity as a comparison applies it: numeric affinity turns text that is wholly a number into that number
    /// (blobs are left alone); TEXT affinity renders numbers as text; NONE and BLOB change nothing.
    /// </summary>
    public static SqlValue ApplyForComparison(in SqlValue value, SqlAffinity affinity)
    {
        if (IsNumeric(affinity))
        {
            if (value.Type == SharcColumnType.Text && SqlTextNumber.TryAffinity(value.Bytes, preferInteger: false, out var n)) return n;
            return value;
        }
        if (affinity == SqlAffinity.Text && value.IsNumber) return value.ToTextValue();
        return value;
    }

    /// <summary>
    /// The value a column of <paramref name="affinity"/> holds after <paramref name="value"/> is stored in it and
    /// read back: TEXT renders numbers; NUMERIC and INTEGER turn numeric text into numbers and integral reals into
    /// integers; REAL turns numeric text and integers into reals; BLOB and NONE change nothing.
    /// </summary>
    public static SqlValue ApplyForStorage(in SqlValue value, SqlAffinity affinity)
    {
        switch (affinity)
        {
            case SqlAffinity.Text:
                return value.IsNumber ? value.ToTextValue() : value;
            case SqlAffinity.Numeric:
            case SqlAffinity.Integer:
                if (value.Type == SharcColumnType.Real) return SqlTextNumber.IntegerIfExact(value.RealValue);
                if (value.Type == SharcColumnType.Text && SqlTextNumber.TryAffinity(value.Bytes, preferInteger: true, out var n)) return n;
                return value;
            case SqlAffinity.Real:
            {
                var number = value;
                if (value.Type == SharcColumnType.Text && !SqlTextNumber.TryAffinity(value.Bytes, preferInteger: true, out number)) return value;
                if (number.Type == SharcColumnType.Integer) return SqlValue.Real(number.IntegerValue);
                if (number.Type != SharcColumnType.Real) return value;
                // An integral real is stored as an integer and read back as a real, which drops the sign of -0.0.
                var exact = SqlTextNumber.IntegerIfExact(number.RealValue);
                return exact.Type == SharcColumnType.Integer ? SqlValue.Real(exact.IntegerValue) : number;
            }
            default:
                return value;
        }
    }
}
