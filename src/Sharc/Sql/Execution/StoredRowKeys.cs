using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// Rows of a <see cref="RowStore"/>, named by index, as equal when they sort equal on a list of ORDER BY keys (each
/// column under its key's collation, NULLs equal): a hash set of indexes with this comparer finds, as a row arrives,
/// whether one equal to it is already kept. The hash of each key is <see cref="SqlValueComparer"/>'s under the key's
/// collation, which is consistent with that order.
/// </summary>
internal sealed class StoredRowKeys(RowStore store, RowOrderComparer order, IReadOnlyList<OrderingIntent> keys) : IEqualityComparer<int>
{
    private readonly int[] _columns = [.. keys.Select(k => k.Projection)];
    private readonly SqlValueComparer[] _hashers = [.. keys.Select(k => SqlValueComparer.For(k.Collation))];

    public bool Equals(int x, int y) => order.Compare(store.Row(x), store.Row(y)) == 0;

    public int GetHashCode(int index)
    {
        var row = store.Row(index);
        int h = 0;
        for (int i = 0; i < _columns.Length; i++) h = h * 31 + _hashers[i].GetHashCode(row[_columns[i]]);
        return h;
    }
}
