using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The current row of a table as a b-tree reader is positioned on it. A column is decoded from the record only
/// when an expression first asks for it, and then kept for the rest of the row, so a predicate that reads two
/// columns of a wide row decodes two fields. Text and blobs are copied into a reused arena (no allocation, no
/// strings); numbers are not copied at all.
/// </summary>
internal sealed class StorageFrame : RowFrame
{
    private readonly SharcDataReader _reader;
    // Reader ordinal of each source column, at index column + 1 (index 0 is the rowid); -1 when unreadable.
    private readonly int[] _ordinals;
    private readonly SqlValue[] _cache;
    private readonly int[] _cachedAt;
    private readonly ValueArena _arena = new();
    private int _row = 1;

    public StorageFrame(SharcDataReader reader, int[] ordinals)
    {
        _reader = reader;
        _ordinals = ordinals;
        _cache = new SqlValue[ordinals.Length];
        _cachedAt = new int[ordinals.Length];
    }

    public SharcDataReader Reader => _reader;

    /// <summary>The reader moved: forget the previous row's values.</summary>
    public void NewRow()
    {
        _arena.Reset();
        if (++_row == int.MaxValue)
        {
            Array.Clear(_cachedAt);
            _row = 1;
        }
    }

    /// <summary>
    /// The column's value when it is stored as an integer (and its column does not read integers as REAL); false
    /// for anything else, which <see cref="Get"/> then reads. A comparison with an integer on the hot path of a scan
    /// takes this way: no value is built or cached.
    /// </summary>
    public bool TryGetInteger(int column, out long value)
    {
        int slot = column + 1;
        if (_cachedAt[slot] == _row)
        {
            ref readonly var cached = ref _cache[slot];
            value = cached.IntegerValue;
            return cached.Type == SharcColumnType.Integer;
        }
        int ordinal = _ordinals[slot];
        if (ordinal < 0)
        {
            value = 0;
            return false;
        }
        return _reader.TryQueryInteger(ordinal, out value);
    }

    public override SqlValue Get(int column)
    {
        int slot = column + 1;
        if (_cachedAt[slot] == _row) return _cache[slot];
        int ordinal = _ordinals[slot];
        if (ordinal < 0) throw new InvalidOperationException($"column {column} is not readable from this access path");
        var v = _reader.QueryValue(ordinal, _arena);
        _cache[slot] = v;
        _cachedAt[slot] = _row;
        return v;
    }
}
