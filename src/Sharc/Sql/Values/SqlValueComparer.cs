using Sharc.Format;

namespace Sharc.Sql.Values;

/// <summary>
/// Equality of values as DISTINCT, GROUP BY and count(DISTINCT) see it: <see cref="SqlCompare.Compare"/> returns 0
/// (so 1 and 1.0 are equal, 1 and '1' are not, and TEXT equality follows the collation). The hash is only a
/// shortcut: it is consistent with that equality, and equality always decides.
/// </summary>
internal sealed class SqlValueComparer : IEqualityComparer<SqlValue>
{
    private static readonly SqlValueComparer[] ByCollation = [new(Collation.Binary), new(Collation.NoCase), new(Collation.RTrim), new(Collation.EfDecimal)];

    private SqlValueComparer(Collation collation) => Collation = collation;

    /// <summary>The comparer for <paramref name="collation"/>.</summary>
    public static SqlValueComparer For(Collation collation) => (int)collation < ByCollation.Length ? ByCollation[(int)collation] : new(collation);

    /// <summary>The collation TEXT values are compared with.</summary>
    public Collation Collation { get; }

    /// <summary>True when the values sort as equal.</summary>
    public bool Equals(SqlValue x, SqlValue y) => SqlCompare.Compare(x, y, Collation) == 0;

    /// <summary>A hash equal for equal values.</summary>
    public int GetHashCode(SqlValue v)
    {
        switch (v.Type)
        {
            case SharcColumnType.Null:
                return 0;
            case SharcColumnType.Integer:
                return v.IntegerValue.GetHashCode();
            case SharcColumnType.Real:
            {
                // A real equal to an integer must hash like it; -0.0 == 0.0 falls out of the same rule.
                double r = v.RealValue;
                if (r >= -9223372036854775808.0 && r < 9223372036854775808.0 && r == Math.Truncate(r)) return ((long)r).GetHashCode();
                return r.GetHashCode();
            }
            case SharcColumnType.Text:
                return HashText(v.Bytes);
            default:
            {
                var h = new HashCode();
                h.AddBytes(v.Bytes);
                return h.ToHashCode() ^ 0x5bd1e995;
            }
        }
    }

    private int HashText(ReadOnlySpan<byte> s)
    {
        // A user collation may call any two texts equal: only a constant hash is consistent with it.
        if (Functions.UserCollations.IsUser(Collation)) return 0x2545f491;
        // "1.0" and "1.00" are equal under EF_DECIMAL: hash the decimal (whose hash ignores trailing zeros).
        if (Collation == Collation.EfDecimal && CollationCompare.DecimalText(s) is { } d) return d.GetHashCode();
        if (Collation == Collation.RTrim)
        {
            int n = s.Length;
            while (n > 0 && s[n - 1] == ' ') n--;
            s = s[..n];
        }
        if (Collation != Collation.NoCase)
        {
            var h = new HashCode();
            h.AddBytes(s);
            return h.ToHashCode();
        }
        var hc = new HashCode();
        foreach (byte b in s) hc.Add(b is >= (byte)'A' and <= (byte)'Z' ? (byte)(b + 32) : b);
        return hc.ToHashCode();
    }
}
