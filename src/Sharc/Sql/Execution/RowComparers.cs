using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// Equality of rows on their first <see cref="_width"/> values, each under its own collation, as DISTINCT and
/// GROUP BY see it (NULLs are equal to each other; 1 and 1.0 are the same value).
/// </summary>
internal sealed class RowKeyComparer : IEqualityComparer<SqlValue[]>
{
    private readonly int _width;
    private readonly SqlValueComparer[] _columns;

    public RowKeyComparer(IReadOnlyList<Collation> collations)
    {
        _width = collations.Count;
        _columns = new SqlValueComparer[_width];
        for (int i = 0; i < _width; i++) _columns[i] = SqlValueComparer.For(collations[i]);
    }

    public bool Equals(SqlValue[]? x, SqlValue[]? y)
    {
        if (x is null || y is null) return ReferenceEquals(x, y);
        return Equals(x.AsSpan(), y.AsSpan());
    }

    /// <summary>Equality of two rows held as spans (a <see cref="RowStore"/>'s rows).</summary>
    public bool Equals(ReadOnlySpan<SqlValue> x, ReadOnlySpan<SqlValue> y)
    {
        for (int i = 0; i < _width; i++)
            if (!_columns[i].Equals(x[i], y[i])) return false;
        return true;
    }

    public int GetHashCode(SqlValue[] row)
    {
        var h = new HashCode();
        for (int i = 0; i < _width; i++) h.Add(_columns[i].GetHashCode(row[i]));
        return h.ToHashCode();
    }
}

/// <summary>
/// The ORDER BY order of two rows: key by key, NULLs first or last as asked, values in SQLite's sort order under
/// the key's collation, descending keys reversed.
/// </summary>
internal sealed class RowOrderComparer(IReadOnlyList<OrderingIntent> keys)
{
    // An array, not the list interface: a sort calls Compare for every pair it weighs.
    private readonly OrderingIntent[] _keys = [.. keys];

    public int Compare(ReadOnlySpan<SqlValue> a, ReadOnlySpan<SqlValue> b)
    {
        foreach (var k in _keys)
        {
            ref readonly var x = ref a[k.Projection];
            ref readonly var y = ref b[k.Projection];
            int c;
            if (x.IsNull || y.IsNull)
            {
                if (x.IsNull && y.IsNull) continue;
                // NULL placement is absolute: it does not flip with DESC.
                return x.IsNull == k.NullsFirst ? -1 : 1;
            }
            c = SqlCompare.Compare(x, y, k.Collation);
            if (c != 0) return k.Descending ? -c : c;
        }
        return 0;
    }
}

/// <summary>Copies a row so that it can be kept past the current one.</summary>
internal static class Rows
{
    public static SqlValue[] Own(SqlValue[] row) => Own(row, row.Length);

    /// <summary>An owned copy of the first <paramref name="width"/> values of a row.</summary>
    public static SqlValue[] Own(SqlValue[] row, int width)
    {
        var copy = new SqlValue[width];
        for (int i = 0; i < width; i++) copy[i] = row[i].ToOwned();
        return copy;
    }

    public static void OwnInto(SqlValue[] row, SqlValue[] into)
    {
        for (int i = 0; i < row.Length; i++) into[i] = row[i].ToOwned();
    }
}
