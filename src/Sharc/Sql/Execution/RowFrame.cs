using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>The current row of one query level, read column by column.</summary>
internal abstract class RowFrame
{
    /// <summary>
    /// The value of a column (<see cref="Intent.SourceColumn.RowId"/> for the rowid). Text and blobs may be borrowed:
    /// valid until the frame moves to another row.
    /// </summary>
    public abstract SqlValue Get(int column);
}

/// <summary>A row held as values: a subquery's output row, or an aggregated row.</summary>
internal sealed class ValuesFrame : RowFrame
{
    /// <summary>The values; operators point this at their current row.</summary>
    public SqlValue[] Row { get; set; } = [];

    public override SqlValue Get(int column) => Row[column];
}

/// <summary>A query level with no FROM clause: one row without columns.</summary>
internal sealed class EmptyFrame : RowFrame
{
    public static readonly EmptyFrame Instance = new();

    public override SqlValue Get(int column) => throw new InvalidOperationException("a query without FROM has no columns");
}

/// <summary>
/// Bytes of text and blob values copied out of records for the current row, so that they can be handed around as
/// <see cref="SqlValue"/>s (which need an array) without allocating: the buffer is reused from row to row. When it
/// grows, values made earlier keep the old array, so they stay valid until their row ends.
/// </summary>
internal sealed class ValueArena
{
    private byte[] _buffer = new byte[256];
    private int _used;

    /// <summary>Forgets the previous row's bytes.</summary>
    public void Reset() => _used = 0;

    /// <summary>
    /// <paramref name="v"/> made to last until the next <see cref="Reset"/>: borrowed text and blob bytes are copied
    /// here (the copy is still borrowed, from this arena); anything else is returned as is.
    /// </summary>
    public SqlValue Keep(in SqlValue v) => !v.IsBorrowed ? v
        : v.Type == SharcColumnType.Text ? Text(v.Bytes) : Blob(v.Bytes);

    public SqlValue Text(ReadOnlySpan<byte> utf8)
    {
        if (utf8.IsEmpty) return SqlValue.EmptyText;
        int at = Reserve(utf8.Length);
        utf8.CopyTo(_buffer.AsSpan(at));
        return SqlValue.BorrowedText(_buffer, at, utf8.Length);
    }

    public SqlValue Blob(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty) return SqlValue.EmptyBlob;
        int at = Reserve(bytes.Length);
        bytes.CopyTo(_buffer.AsSpan(at));
        return SqlValue.BorrowedBlob(_buffer, at, bytes.Length);
    }

    private int Reserve(int n)
    {
        if (_buffer.Length - _used < n)
        {
            _buffer = new byte[Math.Max(n, _buffer.Length * 2)];
            _used = 0;
        }
        int at = _used;
        _used += n;
        return at;
    }
}
