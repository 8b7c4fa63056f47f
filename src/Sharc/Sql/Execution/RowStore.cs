using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// Rows of a fixed width kept for the rest of a run, in one flat array of values instead of an array per row, with
/// the bytes of borrowed text and blobs copied into one <see cref="ValueArena"/>. <see cref="Clear"/> keeps both
/// buffers, so a statement run again (a prepared query, a correlated subquery) reuses them and, once they are big
/// enough, keeps its rows without allocating.
/// </summary>
/// <remarks>
/// The kept values stay borrowed (they point into the arena, which the next run overwrites): whatever keeps one
/// past the run copies it, as it would a value read from a page.
/// </remarks>
internal sealed class RowStore(int width)
{
    private readonly ValueArena _bytes = new();
    private SqlValue[] _values = [];

    /// <summary>The number of values in a row.</summary>
    public int Width => width;

    /// <summary>The number of rows kept.</summary>
    public int Count { get; private set; }

    /// <summary>Forgets the rows, keeping the buffers.</summary>
    public void Clear()
    {
        // Dropping the references lets the arrays of values made by expressions be collected.
        Array.Clear(_values, 0, Count * width);
        Count = 0;
        _bytes.Reset();
    }

    /// <summary>Row <paramref name="index"/>; the row being staged is readable too.</summary>
    public ReadOnlySpan<SqlValue> Row(int index) => new(_values, index * width, width);

    /// <summary>Copies row <paramref name="index"/> into the first <see cref="Width"/> slots of <paramref name="into"/>.</summary>
    public void CopyTo(int index, SqlValue[] into) => Row(index).CopyTo(into);

    /// <summary>Keeps the first <see cref="Width"/> values of <paramref name="row"/>; returns its index.</summary>
    public int Add(SqlValue[] row)
    {
        int index = Stage(row);
        Keep();
        return index;
    }

    /// <summary>
    /// Puts the first <see cref="Width"/> values of <paramref name="row"/> in the next slot without keeping them yet
    /// (their bytes may still be borrowed from <paramref name="row"/>'s source), so that the row can be looked at
    /// through <see cref="Row"/> before deciding; <see cref="Keep"/> keeps it, another Stage replaces it.
    /// </summary>
    public int Stage(SqlValue[] row)
    {
        int at = Count * width;
        if (_values.Length - at < width) Array.Resize(ref _values, Math.Max(at + width, Math.Max(16, _values.Length * 2)));
        row.AsSpan(0, width).CopyTo(_values.AsSpan(at));
        return Count;
    }

    /// <summary>Keeps the staged row: its borrowed bytes are copied into the arena.</summary>
    public void Keep()
    {
        var values = _values.AsSpan(Count * width, width);
        for (int i = 0; i < values.Length; i++) values[i] = _bytes.Keep(values[i]);
        Count++;
    }
}
