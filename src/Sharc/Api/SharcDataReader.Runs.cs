using Sharc.BTree;

namespace Sharc;

public partial class SharcDataReader
{
    /// <summary>
    /// Reads column <paramref name="ordinal"/> of a run of index entries as integers: from the current entry on, every
    /// entry whose leading fields equal the key of this reader's last key seek (<see cref="SeekKey(long)"/>,
    /// <see cref="SeekKeyParts"/> and their overloads). The values come straight from the page bytes, entry after
    /// entry, without positioning the reader on each; the usual use is a seek that returned true, then calls until one
    /// returns fewer values than <paramref name="values"/> holds (the adjacency list of a graph node, the rowids of a
    /// foreign key's rows). Entries whose column is not stored as an integer (NULL, a real, text) are passed over.
    /// <para>
    /// Returns how many values were stored; fewer than <paramref name="values"/>.Length means the run has ended, and
    /// the reader then rests before the first entry after it, which the next <see cref="Read"/> returns. A full buffer
    /// leaves the reader before the next unread entry, where the next call continues. On no current entry (after a
    /// seek that returned false, or at the end), returns 0. Reads the same commit as the seek did. Allocates nothing.
    /// </para>
    /// </summary>
    /// <param name="ordinal">A column of this reader that is a field of the index entry (not a rowid alias of a WITHOUT ROWID table's reader).</param>
    /// <param name="values">Receives the column's values in index order.</param>
    /// <exception cref="InvalidOperationException">The reader is over a rowid table, reads through <c>SeekIndex</c>, walks backwards, or has not sought a key yet.</exception>
    /// <exception cref="ArgumentException">The column is not a field of the entry.</exception>
    public int ReadKeyRunInt64(int ordinal, Span<long> values) => ReadKeyRunInt64(ordinal, values, default);

    /// <summary>
    /// <see cref="ReadKeyRunInt64(int, Span{long})"/> that also stores each entry's rowid (the table row the index entry
    /// names) into <paramref name="rowIds"/>, at the same position as its value.
    /// </summary>
    /// <param name="ordinal">A column of this reader that is a field of the index entry.</param>
    /// <param name="values">Receives the column's values in index order.</param>
    /// <param name="rowIds">Receives the rowids; at least as long as <paramref name="values"/>, or empty for none.</param>
    /// <exception cref="InvalidOperationException">As for the other overload, or rowids were asked of a reader that is not over an index of a rowid table.</exception>
    /// <exception cref="ArgumentException">The column is not a field of the entry, or <paramref name="rowIds"/> is shorter than <paramref name="values"/>.</exception>
    public int ReadKeyRunInt64(int ordinal, Span<long> values, Span<long> rowIds)
    {
        ThrowIfDisposed();
        var column = Column(ordinal);
        if (_plan.Mode == ReaderMode.RowIdTable || _query is not null || _indexCursor is not null || _backward)
            ThrowRunMode();
        if (column.Kind != ColumnKind.Field)
            throw new ArgumentException($"column {column.Name} of {_plan.Name} is not a field of the entry", nameof(ordinal));
        if (!rowIds.IsEmpty)
        {
            if (_plan.Mode != ReaderMode.Index || _plan.Table!.IsWithoutRowId)
                throw new InvalidOperationException($"{_plan.Name} is not an index of a rowid table: its entries hold no rowid");
            if (rowIds.Length < values.Length)
                throw new ArgumentException($"rowIds holds {rowIds.Length} values, fewer than the {values.Length} of values", nameof(rowIds));
        }
        if (_comparer.Key is null) ThrowNoSeek();
        if (_state != State.OnRow && _state != State.Pending) return 0;
        CheckVersion();
        var ids = rowIds.IsEmpty ? default : rowIds[..values.Length];
        int n;
        if (Int64KeyComparer.Serves(_comparer))
        {
            var integer = new Int64KeyComparer(_comparer);
            n = _cursor.ReadRunInt64(ref integer, column.Field, values, ids);
        }
        else
        {
            n = _cursor.ReadRunInt64(ref _comparer, column.Field, values, ids);
        }
        if (_cursor.IsValid)
        {
            _state = State.Pending;
        }
        else
        {
            _state = State.AfterEnd;
            EndSession();
        }
        return n;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowRunMode()
        => throw new InvalidOperationException($"ReadKeyRunInt64 reads the entries of an index or a WITHOUT ROWID table forwards after a key seek; this reader over {_plan.Name} is not in that state");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowNoSeek()
        => throw new InvalidOperationException($"ReadKeyRunInt64 reads the entries matching the last key seek, and this reader over {_plan.Name} has not sought a key");
}
