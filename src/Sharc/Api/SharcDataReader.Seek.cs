using System.Diagnostics.CodeAnalysis;
using Sharc.BTree;
using Sharc.Format;
using Sharc.Schema.Parsing;

namespace Sharc;

public partial class SharcDataReader
{
    // Reading a rowid table in the order of one of its indexes (after SeekIndex).
    private BTreeCursor? _indexCursor;
    private BTreeCursor? _indexCursorStore;
    private ReaderPlan? _indexPlan;
    private RecordLayout? _indexLayout;
    private KeyComparer _comparer;

    /// <summary>
    /// Seeks by key. On a WITHOUT ROWID table the key is (a prefix of) its primary key; on an index reader it is
    /// (a prefix of) the index key. Positions on the first entry whose leading fields are not less than
    /// <paramref name="key"/> and returns true when they are equal; otherwise returns false and the next
    /// <see cref="Read"/> returns that first larger entry. Following reads continue in key order.
    /// Key values may be null, integers, doubles, strings or byte arrays; text compares with the key's collation.
    /// </summary>
    public bool SeekKey(params object?[] key)
    {
        ThrowIfDisposed();
        if (_plan.Mode == ReaderMode.RowIdTable)
            throw new InvalidOperationException($"{_plan.Name} is a rowid table: use Seek(rowid), or SeekIndex(indexName, key) to go through an index");
        PrepareKey(_plan, key.Length);
        for (int i = 0; i < key.Length; i++) SetKeyValue(ref _comparer.Key[i], key[i]);
        return SeekPrepared(_cursor);
    }

    /// <summary>
    /// When true, key seeks on this reader (<see cref="SeekKey(object?[])"/> and its overloads,
    /// <see cref="SeekKeyParts"/>) start from the b-tree pages the reader holds from its last seek or read when the key
    /// lies within them — the same leaf, or the same interior page — instead of descending from the root; a key
    /// elsewhere is sought from the root as usual. The result is the same either way. Worth setting when the keys come
    /// in ascending order or in clusters (a sorted batch of lookups, the frontier of a graph traversal): a seek on the
    /// current leaf is then one binary search of that leaf. Random keys pay up to two extra comparisons per tree level.
    /// Default false. On a rowid table, <see cref="Seek(long)"/> likewise first looks on the leaf held from the last
    /// seek or read, when its first and last rowids bracket the one sought. Pages changed by a commit are never used.
    /// </summary>
    public bool SeekNearby
    {
        get => _cursor.SeekNearby;
        set => _cursor.SeekNearby = value;
    }

    /// <summary>Seeks a one-column integer key without allocating (see <see cref="SeekKey(object?[])"/>).</summary>
    public bool SeekKey(long key)
    {
        ThrowIfDisposed();
        if (_plan.Mode == ReaderMode.RowIdTable) return Seek(key);
        PrepareKey(_plan, 1);
        _comparer.Key[0].SetInteger(key);
        return SeekPrepared(_cursor);
    }

    /// <summary>Seeks a one-column UTF-8 text key without allocating (see <see cref="SeekKey(object?[])"/>).</summary>
    public bool SeekKey(ReadOnlySpan<byte> utf8Key)
    {
        ThrowIfDisposed();
        if (_plan.Mode == ReaderMode.RowIdTable)
            throw new InvalidOperationException($"{_plan.Name} is a rowid table: use Seek(rowid)");
        PrepareKey(_plan, 1);
        _comparer.Key[0].SetUtf8(utf8Key, _encoding);
        return SeekPrepared(_cursor);
    }

    /// <summary>
    /// Reads this rowid table through one of its indexes: positions on the first row whose index key is not less
    /// than <paramref name="key"/> (a prefix of the index columns) and returns true when equal; following
    /// <see cref="Read"/> calls continue in index order. <see cref="Seek(long)"/> returns to rowid order.
    /// </summary>
    public bool SeekIndex(string indexName, params object?[] key)
    {
        ThrowIfDisposed();
        PrepareIndex(indexName, key.Length);
        for (int i = 0; i < key.Length; i++) SetKeyValue(ref _comparer.Key[i], key[i]);
        return SeekThroughIndex();
    }

    /// <summary>Seeks a one-column integer index key without allocating (see <see cref="SeekIndex(string, object?[])"/>).</summary>
    public bool SeekIndex(string indexName, long key)
    {
        ThrowIfDisposed();
        PrepareIndex(indexName, 1);
        _comparer.Key[0].SetInteger(key);
        return SeekThroughIndex();
    }

    /// <summary>Seeks a one-column UTF-8 text index key without allocating (see <see cref="SeekIndex(string, object?[])"/>).</summary>
    public bool SeekIndex(string indexName, ReadOnlySpan<byte> utf8Key)
    {
        ThrowIfDisposed();
        PrepareIndex(indexName, 1);
        _comparer.Key[0].SetUtf8(utf8Key, _encoding);
        return SeekThroughIndex();
    }

    /// <summary>
    /// After the reader moved to another schema: the index <see cref="SeekIndex(string, object?[])"/> reads through,
    /// found again there. Gone or keyed differently, it is forgotten (the seek under way fails; the next one prepares
    /// it anew). False never: the reader itself can carry on.
    /// </summary>
    private bool ReplanIndex(SharcSchema schema)
    {
        if (_indexPlan is null) return true;
        if (schema.FindIndex(_indexPlan.Name) is { } index && schema.FindTable(index.TableName) is { } table
            && SqlNameComparer.Instance.Equals(table.Name, _plan.Table!.Name))
        {
            var next = ReaderPlan.ForIndex(table, index, []);
            if (_indexPlan.ReadsAs(next))
            {
                _indexPlan = next;
                _indexCursorStore!.Reroot(index.RootPage);
                return true;
            }
        }
        _lostIndex = _indexPlan.Name;
        _indexPlan = null;
        _indexCursorStore?.Dispose();
        _indexCursorStore = null;
        return true;
    }

    private string? _lostIndex;

    [DoesNotReturn]
    private void ThrowIndexGone()
    {
        EndSession();
        throw new SharcException($"index {_lostIndex} was dropped or changed by another connection since this reader last used it: seek through it again to use it as it is now");
    }

    private void PrepareIndex(string indexName, int keyCount)
    {
        if (_plan.Mode != ReaderMode.RowIdTable)
            throw new InvalidOperationException("SeekIndex reads a rowid table through an index; use SeekKey on this reader");
        if (_indexPlan is null || !SqlNameComparer.Instance.Equals(_indexPlan.Name, indexName))
        {
            // The index as the reader's own schema has it (its root page belongs to the pages the reader reads). One
            // created since the reader was planned is there once a session has moved the reader to a newer schema.
            var schema = _plan.Schema ?? _db.Schema;
            if (schema.FindIndex(indexName) is null && _plan.Schema is not null)
            {
                BeginSession();
                schema = _plan.Schema ?? _db.Schema;
            }
            var index = schema.GetIndex(indexName);
            if (!SqlNameComparer.Instance.Equals(index.TableName, _plan.Table!.Name))
                throw new SharcException($"index {index.Name} belongs to {index.TableName}, not {_plan.Table.Name}");
            _indexPlan = ReaderPlan.ForIndex(_plan.Table, index, []);
            _indexCursorStore?.Dispose();
            _indexCursorStore = new BTreeCursor(_pages, index.RootPage, _db.Header.UsableSize, isIndex: true);
            _indexLayout = new RecordLayout(_indexPlan.FieldCountHint + 1);
        }
        PrepareKey(_indexPlan, keyCount);
    }

    private bool SeekThroughIndex()
    {
        BeginSession();
        if (_indexPlan is null) ThrowIndexGone();
        _indexCursor = _indexCursorStore;
        _backward = false;
        var ic = _indexCursor!;
        ic.SeekKey(ref _comparer);
        bool equal = ic.IsValid && _comparer.CompareRecordToKey(ic.GetPayload(ic.PayloadSize)) == 0;
        if (!ic.IsValid)
        {
            _state = State.AfterEnd;
            return false;
        }
        if (!FollowIndex())
        {
            _state = State.AfterEnd;
            return false;
        }
        if (equal)
        {
            _state = State.OnRow;
            _layout.Reset(RowCursor.PayloadSize, RowCursor.CurrentPage);
        }
        else
        {
            _state = State.Pending;
        }
        return equal;
    }

    private bool SeekPrepared(BTreeCursor cursor)
    {
        _indexCursor = null;
        _backward = false;
        BeginSession();
        bool equal;
        if (Int64KeyComparer.Serves(_comparer))
        {
            // The commonest seek, one integer, with a comparer the descent can inline.
            var integer = new Int64KeyComparer(_comparer);
            cursor.SeekKey(ref integer);
            equal = cursor.IsValid && integer.CompareRecordToKey(cursor.GetPayload(cursor.PayloadSize)) == 0;
        }
        else
        {
            cursor.SeekKey(ref _comparer);
            equal = cursor.IsValid && _comparer.CompareRecordToKey(cursor.GetPayload(cursor.PayloadSize)) == 0;
        }
        SettleAfterSeek(equal);
        return equal;
    }

    private void PrepareKey(ReaderPlan plan, int count)
    {
        if (count == 0) throw new ArgumentException("A key needs at least one value.", nameof(count));
        if (count > plan.KeyCollations.Length)
            throw new ArgumentException($"{plan.Name} has {plan.KeyCollations.Length} key columns; {count} values were given.", nameof(count));
        if (plan.UnsupportedCollation is not null)
            throw new SharcException($"no such collation sequence: {plan.UnsupportedCollation} (needed to seek {plan.Name})");
        if (_comparer.Key is null || _comparer.Key.Length < plan.KeyCollations.Length)
            _comparer.Key = new KeyValue[plan.KeyCollations.Length];
        _comparer.KeyCount = count;
        _comparer.Collations = plan.KeyCollations;
        _comparer.Descending = plan.KeyDescending;
        _comparer.Encoding = _encoding;
        _comparer.Page = plan.Root;
    }

    private void SetKeyValue(ref KeyValue k, object? value)
    {
        switch (value)
        {
            case null: k.SetNull(); break;
            case long l: k.SetInteger(l); break;
            case int i: k.SetInteger(i); break;
            case short s: k.SetInteger(s); break;
            case byte b: k.SetInteger(b); break;
            case bool b: k.SetInteger(b ? 1 : 0); break;
            case double d: k.SetReal(d); break;
            case float f: k.SetReal(f); break;
            case string s: k.SetText(s, _encoding); break;
            case byte[] bytes: k.SetBlob(bytes); break;
            default: throw new ArgumentException($"Key values must be null, integers, doubles, strings or byte arrays, not {value.GetType().Name}.");
        }
    }

    /// <summary>Moves the table cursor to the row the current index entry points at.</summary>
    private bool FollowIndex()
    {
        long rowId = ReadIndexRowId();
        if (!_cursor.SeekRowId(rowId))
            ThrowHelper.Corrupt($"index {_indexPlan!.Name} has an entry for rowid {rowId}, which is not in {_plan.Name}", _indexCursor!.CurrentPage);
        return true;
    }

    private long ReadIndexRowId()
    {
        var ic = _indexCursor!;
        var layout = _indexLayout!;
        layout.Reset(ic.PayloadSize, ic.CurrentPage);
        var payload = ic.GetPayload(ic.PayloadSize);
        layout.HeaderSize(payload);
        return LastFieldInteger(layout, payload, ic.CurrentPage);
    }

    /// <summary>The rowid at the end of the current index entry (for readers over an index).</summary>
    private long ReadLastFieldAsInteger()
    {
        var payload = _cursor.GetPayload(_cursor.PayloadSize);
        if (SerialType.TryReadLastInteger(payload, out long rowId)) return rowId;
        _layout.HeaderSize(payload);
        return LastFieldInteger(_layout, payload, _cursor.CurrentPage);
    }

    private static long LastFieldInteger(RecordLayout layout, ReadOnlySpan<byte> payload, uint page)
    {
        int n = layout.FieldCount(payload);
        if (n > 0 && layout.TryGetField(n - 1, payload, out long type, out int off, out int size) &&
            SerialType.StorageClass(type) == SharcColumnType.Integer)
            return SerialType.ReadInteger(type, payload.Slice(off, size));
        return ThrowHelper.Corrupt<long>("index entry does not end with an integer rowid", page);
    }
}
