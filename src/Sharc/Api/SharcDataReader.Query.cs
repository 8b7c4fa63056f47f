using Sharc.Format;
using Sharc.Sql.Execution;
using Sharc.Sql.Values;

namespace Sharc;

public partial class SharcDataReader
{
    // Query-row mode: rows come from the SQL executor instead of a b-tree. The b-tree fields are unused then.
    private QueryExecution? _query;

    private static readonly ReaderPlan QueryPlanStub = new()
    {
        Mode = ReaderMode.WithoutRowId,
        Root = 0,
        Name = "(query result)",
        Columns = [],
    };

    /// <summary>A reader over the rows of a SQL query.</summary>
    internal SharcDataReader(SharcDatabase db, QueryExecution query)
    {
        _db = db;
        _plan = QueryPlanStub;
        _columns = query.Columns;
        // The executor's text is always UTF-8, whatever the database encoding.
        _encoding = SharcTextEncoding.Utf8;
        _cursor = null!;
        _layout = null!;
        _pages = null!;
        _query = query;
    }

    /// <summary>Makes this reader serve the rows of <paramref name="query"/>, planned again in place of its execution.</summary>
    private protected void ReplaceQuery(QueryExecution query)
    {
        _query = query;
        _columns = query.Columns;
        _queryReleased = false;
    }

    /// <summary>True for a reader over a SQL query's rows.</summary>
    internal bool IsQuery => _query is not null;

    private bool QueryRead()
    {
        ThrowIfDisposed();
        if (_state == State.AfterEnd) return false;
        if (_query!.MoveNext())
        {
            _state = State.OnRow;
            return true;
        }
        _state = State.AfterEnd;
        ReleaseQuery();
        return false;
    }

    private Raw QueryRaw(int ordinal)
    {
        EnsureRow();
        if ((uint)ordinal >= (uint)_columns.Length) ThrowHelper.ColumnOutOfRange(ordinal, _columns.Length);
        ref readonly var v = ref _query!.Current[ordinal];
        Raw raw = default;
        raw.Type = v.Type;
        switch (v.Type)
        {
            case SharcColumnType.Integer:
                raw.Integer = v.IntegerValue;
                break;
            case SharcColumnType.Real:
                raw.Real = v.RealValue;
                break;
            case SharcColumnType.Text:
            case SharcColumnType.Blob:
                raw.Bytes = v.Bytes;
                break;
        }
        return raw;
    }

    /// <summary>Makes a prepared query's reader ready for another execution (even after the caller disposed it).</summary>
    internal void RestartQuery()
    {
        _disposed = false;
        _state = State.BeforeFirst;
    }

    private void DisposeQuery()
    {
        if (_query is null) return;
        ReleaseQuery();
    }

    // A reader-owned execution goes back to its plan's pool once: after that another caller may be running it.
    private bool _queryReleased;

    private void ReleaseQuery()
    {
        if (!_query!.OwnedByReader)
        {
            _query.Close();
            return;
        }
        if (_queryReleased) return;
        _queryReleased = true;
        _query.Release();
    }

    // ---- hooks the executor uses on b-tree readers --------------------------------------------------------------

    /// <summary>
    /// The value of column <paramref name="ordinal"/> of the current row as a <see cref="SqlValue"/>: numbers as they
    /// are, text as UTF-8 and blobs copied into <paramref name="arena"/> (borrowed: valid for this row).
    /// </summary>
    internal SqlValue QueryValue(int ordinal, ValueArena arena)
    {
        var raw = GetRaw(ordinal);
        return raw.Type switch
        {
            SharcColumnType.Integer => SqlValue.Integer(raw.Integer),
            SharcColumnType.Real => SqlValue.Real(raw.Real),
            SharcColumnType.Text => arena.Text(Utf8Of(raw.Bytes)),
            SharcColumnType.Blob => arena.Blob(raw.Bytes),
            _ => SqlValue.Null,
        };
    }

    /// <summary>
    /// The value of column <paramref name="ordinal"/> when the current b-tree row stores it as an integer on its page
    /// and the column reads it as one (not a REAL column); false otherwise, for <see cref="QueryValue"/> to read.
    /// </summary>
    internal bool TryQueryInteger(int ordinal, out long value)
    {
        value = 0;
        if (_state != State.OnRow || (uint)ordinal >= (uint)_columns.Length) return false;
        var col = _columns[ordinal];
        if (col.Kind != ColumnKind.Field || col.RealAffinity || !_cursor.IsPayloadLocal) return false;
        if (!TryLocalField(col.Field, out long type, out var bytes) || !SerialType.IsInteger(type)) return false;
        value = SerialType.ReadInteger(type, bytes);
        return true;
    }

    /// <summary>The rowid of the current row, without the checks of <see cref="RowId"/>'s public contract.</summary>
    internal long QueryRowId => RowId;

    /// <summary>Back to before the first row, releasing the read session; buffers are kept.</summary>
    internal void QueryRewind() => Rewind();

    /// <summary>
    /// Reads this rowid table through <paramref name="indexName"/> from the first entry not less than
    /// <paramref name="key"/> (see <see cref="SeekIndex(string, object?[])"/>), without allocating.
    /// </summary>
    internal bool QuerySeekIndex(string indexName, ReadOnlySpan<SqlValue> key)
    {
        ThrowIfDisposed();
        PrepareIndex(indexName, key.Length);
        for (int i = 0; i < key.Length; i++) SetKeyValue(ref _comparer.Key[i], key[i]);
        return SeekThroughIndex();
    }

    /// <summary>Reads this rowid table through <paramref name="indexName"/> from its first entry.</summary>
    internal bool QueryFirstThroughIndex(string indexName)
    {
        ThrowIfDisposed();
        PrepareIndex(indexName, 1);
        _indexCursor = _indexCursorStore;
        _backward = false;
        _state = State.BeforeFirst;
        // From BeforeFirst, Read walks the index cursor from its first entry.
        return Read();
    }

    // Backward walks: each positions on the last entry of its range and leaves the reader walking towards the
    // first, so that every following Read returns the previous entry in key order.

    /// <summary>Positions on the last entry of the b-tree this reader reads (table, WITHOUT ROWID table or index).</summary>
    internal bool QueryLast()
    {
        StartBackward(null);
        return Land(_cursor.MoveLast());
    }

    /// <summary>Reads this rowid table through <paramref name="indexName"/> from its last entry.</summary>
    internal bool QueryLastThroughIndex(string indexName)
    {
        ThrowIfDisposed();
        PrepareIndex(indexName, 1);
        StartBackward(_indexCursorStore);
        return Land(_indexCursorStore!.MoveLast() && FollowIndex());
    }

    /// <summary>Positions on the last row whose rowid is at most (or below) <paramref name="rowId"/>.</summary>
    internal bool QuerySeekRowIdLast(long rowId, bool inclusive)
    {
        StartBackward(null);
        return Land(_cursor.SeekRowIdLast(rowId, inclusive));
    }

    /// <summary>Positions on the last entry not above (or below) <paramref name="key"/> in a WITHOUT ROWID table or index reader.</summary>
    internal bool QuerySeekKeyLast(ReadOnlySpan<SqlValue> key, bool inclusive)
    {
        ThrowIfDisposed();
        PrepareKey(_plan, key.Length);
        for (int i = 0; i < key.Length; i++) SetKeyValue(ref _comparer.Key[i], key[i]);
        StartBackward(null);
        return Land(_cursor.SeekKeyLast(ref _comparer, inclusive));
    }

    /// <summary>Reads this rowid table through <paramref name="indexName"/> from the last entry not above (or below) <paramref name="key"/>.</summary>
    internal bool QuerySeekIndexLast(string indexName, ReadOnlySpan<SqlValue> key, bool inclusive)
    {
        ThrowIfDisposed();
        PrepareIndex(indexName, key.Length);
        for (int i = 0; i < key.Length; i++) SetKeyValue(ref _comparer.Key[i], key[i]);
        StartBackward(_indexCursorStore);
        return Land(_indexCursorStore!.SeekKeyLast(ref _comparer, inclusive) && FollowIndex());
    }

    private void StartBackward(BTree.BTreeCursor? indexCursor)
    {
        ThrowIfDisposed();
        _indexCursor = indexCursor;
        _backward = true;
        BeginSession();
    }

    /// <summary>Seeks a WITHOUT ROWID table or an index reader by key prefix (see <see cref="SeekKey(object?[])"/>), without allocating.</summary>
    internal bool QuerySeekKey(ReadOnlySpan<SqlValue> key)
    {
        ThrowIfDisposed();
        PrepareKey(_plan, key.Length);
        for (int i = 0; i < key.Length; i++) SetKeyValue(ref _comparer.Key[i], key[i]);
        return SeekPrepared(_cursor);
    }

    private void SetKeyValue(ref BTree.KeyValue k, in SqlValue value)
    {
        switch (value.Type)
        {
            case SharcColumnType.Integer: k.SetInteger(value.IntegerValue); break;
            case SharcColumnType.Real: k.SetReal(value.RealValue); break;
            case SharcColumnType.Text: k.SetUtf8(value.Bytes, _encoding); break;
            case SharcColumnType.Blob: k.SetBlob(value.Bytes); break;
            default: k.SetNull(); break;
        }
    }
}
