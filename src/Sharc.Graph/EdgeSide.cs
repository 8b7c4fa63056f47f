namespace Sharc.Graph;

/// <summary>
/// Walks one direction's index entries for one node key: a seek to the key (and kind, when the index holds it right
/// after the key), then entries while the key matches. Fields the index lacks come from the edge row, by rowid.
/// </summary>
internal sealed class EdgeSide : IDisposable
{
    private readonly EdgeAccess _access;
    private readonly PreparedReader _index;
    private readonly PreparedReader? _row;
    private readonly bool _text;
    private readonly byte[]? _kind;
    private readonly bool _kindInPrefix;
    // Where each field is read: the index reader (ordinal = position) or the row reader.
    private readonly SharcDataReader _otherReader, _kindReader, _weightReader;
    private readonly int _otherOrdinal, _kindOrdinal = -1, _weightOrdinal = -1;
    private long _intKey;
    private byte[] _textKey = new byte[32];
    private int _textKeyLength;
    private bool _onFirst, _done = true, _rowRead, _rowIdRead;
    private long _rowId;
    // The neighbour as read by MoveNext when the index holds it (integer graphs): BFS asks for its type, then its value.
    private long _neighbor;
    private bool _neighborCached;

    public EdgeSide(SharcDatabase db, EdgeAccess access, bool text, byte[]? kindUtf8)
    {
        _access = access;
        _text = text;
        _kind = kindUtf8;
        _kindInPrefix = kindUtf8 is not null && access.KindPos == 1;
        _index = db.PrepareReader(access.IndexName);
        // Traversals expand their frontier in key order, so consecutive seeks mostly land on the leaf already held.
        _index.SeekNearby = true;
        if (!access.Covers)
        {
            var cols = new List<string> { access.OtherColumn };
            if (access.KindColumn is not null) cols.Add(access.KindColumn);
            if (access.WeightColumn is not null) cols.Add(access.WeightColumn);
            _row = db.PrepareReader(access.TableName, [.. cols]);
        }
        _otherReader = _kindReader = _weightReader = _index;
        if (access.OtherPos > 0) _otherOrdinal = access.OtherPos;
        else { _otherReader = _row!; _otherOrdinal = 0; }
        if (access.KindColumn is not null)
        {
            if (access.KindPos > 0) _kindOrdinal = access.KindPos;
            else { _kindReader = _row!; _kindOrdinal = 1; }
        }
        if (access.WeightColumn is not null)
        {
            if (access.WeightPos > 0) _weightOrdinal = access.WeightPos;
            else { _weightReader = _row!; _weightOrdinal = access.KindColumn is null ? 1 : 2; }
        }
    }

    /// <summary>Makes both readers read <paramref name="snapshot"/>'s commit, so an entry and its edge row agree.</summary>
    public void UseSnapshot(SharcSnapshot snapshot)
    {
        _index.UseSnapshot(snapshot);
        _row?.UseSnapshot(snapshot);
    }

    /// <summary>The edge's rowid, read from the index entry when first asked for (a BFS wants it only for nodes it adds).</summary>
    public long EdgeRowId
    {
        get
        {
            if (!_rowIdRead)
            {
                _rowId = _index.GetInt64(_access.RowIdPos);
                _rowIdRead = true;
            }
            return _rowId;
        }
    }

    public void Begin(long key)
    {
        _intKey = key;
        if (_kindInPrefix) _index.SetKeyPart(0, key);
        Settle(_kindInPrefix ? SeekKeyAndKind() : _index.SeekKey(key));
    }

    public void Begin(ReadOnlySpan<byte> key)
    {
        if (_textKey.Length < key.Length) _textKey = new byte[Math.Max(key.Length, _textKey.Length * 2)];
        key.CopyTo(_textKey);
        _textKeyLength = key.Length;
        if (_kindInPrefix) _index.SetKeyPart(0, key);
        Settle(_kindInPrefix ? SeekKeyAndKind() : _index.SeekKey(key));
    }

    /// <summary>Seeks (key, kind), the key part already staged.</summary>
    private bool SeekKeyAndKind()
    {
        _index.SetKeyPart(1, _kind);
        return _index.SeekKeyParts(2);
    }

    private void Settle(bool found)
    {
        _onFirst = found;
        _done = !found;
    }

    public bool MoveNext()
    {
        while (!_done)
        {
            if (_onFirst) _onFirst = false;
            else if (!_index.Read() || !KeyMatches() || (_kindInPrefix && !KindMatches(_index, 1)))
            {
                _done = true;
                break;
            }
            _rowIdRead = false;
            _rowRead = false;
            _neighborCached = false;
            if (_kind is not null && !_kindInPrefix && !KindMatches(From(_kindReader), _kindOrdinal)) continue;
            if (!_text && ReferenceEquals(_otherReader, _index) && _index.TryGetInt64(_otherOrdinal, out _neighbor))
            {
                _neighborCached = true;
                return true;
            }
            // An edge whose other end is NULL leads nowhere.
            if (From(_otherReader).IsNull(_otherOrdinal)) continue;
            return true;
        }
        return false;
    }

    public void Stop() => _done = true;

    /// <summary>True when the index entry holds the neighbour of an integer graph, so <see cref="MoveNextInt64"/> serves.</summary>
    public bool IndexHoldsIntNeighbor => !_text && ReferenceEquals(_otherReader, _index);

    /// <summary>
    /// <see cref="MoveNext"/> for a walk that wants only integer neighbours (when <see cref="IndexHoldsIntNeighbor"/>):
    /// the neighbour comes straight from the entry, and an entry whose neighbour is not an integer (NULL, or a key of
    /// another type, which names no node) is passed over without stopping.
    /// </summary>
    public bool MoveNextInt64(out long neighbor)
    {
        while (!_done)
        {
            if (_onFirst) _onFirst = false;
            else if (!_index.Read() || !_index.TryGetInt64(0, out long key) || key != _intKey || (_kindInPrefix && !KindMatches(_index, 1)))
            {
                _done = true;
                break;
            }
            _rowIdRead = false;
            _rowRead = false;
            if (_kind is not null && !_kindInPrefix && !KindMatches(From(_kindReader), _kindOrdinal)) continue;
            if (_index.TryGetInt64(_otherOrdinal, out neighbor))
            {
                _neighbor = neighbor;
                _neighborCached = true;
                return true;
            }
        }
        neighbor = 0;
        return false;
    }

    /// <summary>
    /// True when <see cref="ReadRun"/> serves: integer neighbours held by the index, and no kind to check per entry
    /// (none asked, or the kind is part of the sought prefix).
    /// </summary>
    public bool CanReadRuns => IndexHoldsIntNeighbor && (_kind is null || _kindInPrefix);

    /// <summary>
    /// The next integer neighbours of the node and their edges' rowids, read from the index page by page (see
    /// <see cref="SharcDataReader.ReadKeyRunInt64(int, Span{long}, Span{long})"/>); fewer than the buffer holds means
    /// the node has no more. Only when <see cref="CanReadRuns"/>.
    /// </summary>
    public int ReadRun(Span<long> neighbors, Span<long> rowIds)
    {
        if (_done) return 0;
        int n = _index.ReadKeyRunInt64(_otherOrdinal, neighbors, rowIds);
        if (n < neighbors.Length) _done = true;
        return n;
    }

    public long NeighborInt64 => _neighborCached ? _neighbor : From(_otherReader).GetInt64(_otherOrdinal);

    public ReadOnlySpan<byte> NeighborUtf8 => From(_otherReader).GetUtf8Span(_otherOrdinal);

    public SharcColumnType NeighborType => _neighborCached ? SharcColumnType.Integer : From(_otherReader).GetColumnType(_otherOrdinal);

    public bool HasKind => _kindOrdinal >= 0 && !From(_kindReader).IsNull(_kindOrdinal);

    public ReadOnlySpan<byte> KindUtf8 => _kindOrdinal >= 0 ? From(_kindReader).GetUtf8Span(_kindOrdinal) : default;

    public double Weight => _weightOrdinal < 0 || From(_weightReader).IsNull(_weightOrdinal) ? 1.0 : From(_weightReader).GetDouble(_weightOrdinal);

    /// <summary>
    /// The reader to take a field from: the edge row is sought only when a field the index lacks is first asked
    /// for, so a walk that needs only what the index holds (a BFS over neighbours) never reads the table.
    /// </summary>
    private SharcDataReader From(SharcDataReader reader)
    {
        if (reader == _index || _rowRead) return reader;
        if (!_row!.Seek(EdgeRowId)) ThrowMissingRow(EdgeRowId);
        _rowRead = true;
        return reader;
    }

    private bool KeyMatches()
    {
        if (!_text) return _index.TryGetInt64(0, out long key) && key == _intKey;
        return _index.GetColumnType(0) == SharcColumnType.Text && _index.GetUtf8Span(0).SequenceEqual(_textKey.AsSpan(0, _textKeyLength));
    }

    private bool KindMatches(SharcDataReader reader, int ordinal)
        => reader.GetColumnType(ordinal) == SharcColumnType.Text && reader.GetUtf8Span(ordinal).SequenceEqual(_kind);

    private void ThrowMissingRow(long rowId)
        => throw new SharcCorruptException($"index {_access.IndexName} has an entry for rowid {rowId}, which is not in {_access.TableName}");

    /// <summary>Ends the readers' read sessions (the writer collects edges, then writes).</summary>
    public void EndRead()
    {
        _done = true;
        _index.Reset();
        _row?.Reset();
    }

    public void Dispose()
    {
        _index.Dispose();
        _row?.Dispose();
    }
}
