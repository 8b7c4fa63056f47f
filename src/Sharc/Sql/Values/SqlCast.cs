using Sharc.Format;

namespace Sharc.Sql.Values;

/// <summary>
/// <c>CAST(x AS type)</c>. The type name picks an affinity by the declared-type rules (so CAST(x AS VARCHAR(9)) is
/// TEXT and CAST(x AS "") is NUMERIC), and the affinity decides the conversion. NULL always stays NULL.
/// </summary>
internal static class SqlCast
{
    /// <summary>CAST to a type written in SQL.</summary>
    public static SqlValue To(in SqlValue value, ReadOnlySpan<char> typeName) => To(value, SqlAffinities.FromTypeName(typeName));

    /// <summary>
    /// CAST to the type of an affinity. TEXT renders numbers and relabels blobs; BLOB takes the text's bytes;
    /// INTEGER reads text's leading integer ("12abc" and "1e3" give 12 and 1) and truncates reals, saturating;
    /// REAL reads text's leading number; NUMERIC reads text's leading number and makes it an INTEGER when it is
    /// integral ("4.0" gives 4) but leaves INTEGER and REAL values alone.
    /// </summary>
    public static SqlValue To(in SqlValue value, SqlAffinity affinity)
    {
        if (value.IsNull) return value;
        switch (affinity)
        {
            case SqlAffinity.Text:
                return value.ToTextValue();
            case SqlAffinity.Integer:
                return value.Type == SharcColumnType.Integer ? value : SqlValue.Integer(value.ToInt64());
            case SqlAffinity.Real:
                return value.Type == SharcColumnType.Real ? value : SqlValue.Real(value.ToDouble());
            case SqlAffinity.Numeric:
                return value.IsNumber ? value : SqlTextNumber.NumericPrefix(value.Bytes);
            default:
                return value.ToBlobValue();
        }
    }

    /// <summary>Real to integer as CAST does it: truncation toward zero, saturating at the ends of the range.</summary>
    public static long RealToInteger(double r) => ValueConvert.RealToInt64(r);
}
