namespace Sharc;

public partial class SharcDataReader
{
    // Multi-column seeks without a params array: the key is staged part by part in the reader's own key buffer,
    // so a prepared reader seeking (integer, text) prefixes over and over allocates nothing after warm-up.

    /// <summary>
    /// Stages an integer as part <paramref name="position"/> (0-based) of the key for <see cref="SeekKeyParts"/>.
    /// Only for readers over an index or a WITHOUT ROWID table. Staged parts stay until replaced.
    /// </summary>
    public void SetKeyPart(int position, long value)
    {
        StageKeyPart(position);
        _comparer.Key[position].SetInteger(value);
    }

    /// <summary>Stages a real as part <paramref name="position"/> of the key (see <see cref="SetKeyPart(int, long)"/>).</summary>
    public void SetKeyPart(int position, double value)
    {
        StageKeyPart(position);
        _comparer.Key[position].SetReal(value);
    }

    /// <summary>Stages UTF-8 text as part <paramref name="position"/> of the key; the bytes are copied (see <see cref="SetKeyPart(int, long)"/>).</summary>
    public void SetKeyPart(int position, ReadOnlySpan<byte> utf8)
    {
        StageKeyPart(position);
        _comparer.Key[position].SetUtf8(utf8, _encoding);
    }

    /// <summary>Stages NULL as part <paramref name="position"/> of the key (see <see cref="SetKeyPart(int, long)"/>).</summary>
    public void SetKeyPartNull(int position)
    {
        StageKeyPart(position);
        _comparer.Key[position].SetNull();
    }

    /// <summary>
    /// Seeks by the first <paramref name="count"/> staged key parts, exactly as <see cref="SeekKey(object?[])"/> does
    /// with those values: positions on the first entry whose leading fields are not less than the key and returns
    /// true when they are equal. Allocates nothing after the reader's first seek.
    /// </summary>
    public bool SeekKeyParts(int count)
    {
        ThrowIfDisposed();
        if (_plan.Mode == ReaderMode.RowIdTable)
            throw new InvalidOperationException($"{_plan.Name} is a rowid table: use Seek(rowid), or SeekIndex to go through an index");
        PrepareKey(_plan, count);
        return SeekPrepared(_cursor);
    }

    private void StageKeyPart(int position)
    {
        ThrowIfDisposed();
        if (_plan.Mode == ReaderMode.RowIdTable)
            throw new InvalidOperationException($"{_plan.Name} is a rowid table: its key is the rowid (Seek)");
        ArgumentOutOfRangeException.ThrowIfNegative(position);
        // PrepareKey sizes the buffer for every key column and validates the position against them.
        PrepareKey(_plan, position + 1);
    }
}
