using System.Text;

namespace Sharc.Graph;

/// <summary>
/// A prepared lookup of nodes by key: <see cref="TrySeek(long)"/> returns false for a key with no node row.
/// 0 bytes per lookup after warm-up. One thread at a time.
/// </summary>
public sealed class NodeCursor : IDisposable
{
    private readonly NodeAccess _access;
    private readonly PreparedReader? _index;
    private readonly PreparedReader _table;
    private readonly bool _text;
    private readonly int _kindOrdinal;
    private bool _on, _rowPending;

    internal NodeCursor(SharcGraph graph)
    {
        _access = graph.Node;
        _text = graph.KeyType == GraphKeyType.Text;
        var db = graph.Database;
        var table = db.Schema.GetTable(_access.TableName);
        var cols = new List<string>();
        if (!table.IsWithoutRowId) cols.Add("rowid");
        _kindOrdinal = _access.KindColumn is null ? -1 : cols.Count;
        if (_access.KindColumn is not null) cols.Add(_access.KindColumn);
        if (cols.Count == 0) cols.Add(table.Columns[0].Name);
        _table = db.PrepareReader(_access.TableName, [.. cols]);
        if (_access.How == NodeAccess.Mode.Index) _index = db.PrepareReader(_access.IndexName!);
        // A seek through the key index and the row it names read one commit (taken afresh at each seek).
        _snapshot = db.CreateSnapshot();
        _table.UseSnapshot(_snapshot);
        _index?.UseSnapshot(_snapshot);
    }

    private readonly SharcSnapshot _snapshot;

    /// <summary>Finds the node with this integer key.</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are text.</exception>
    public bool TrySeek(long key)
    {
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        _snapshot.Release();
        _on = _access.How switch
        {
            NodeAccess.Mode.RowId => _table.Seek(key),
            NodeAccess.Mode.WithoutRowIdKey => _table.SeekKey(key),
            _ => SeekIndex(_index!.SeekKey(key)),
        };
        return _on;
    }

    /// <summary>Finds the node with this UTF-8 text key.</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are integers.</exception>
    public bool TrySeek(ReadOnlySpan<byte> utf8Key)
    {
        if (!_text) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        _snapshot.Release();
        _on = _access.How switch
        {
            NodeAccess.Mode.WithoutRowIdKey => _table.SeekKey(utf8Key),
            _ => SeekIndex(_index!.SeekKey(utf8Key)),
        };
        return _on;
    }

    /// <summary>
    /// After an index seek: the node's rowid is in the index entry, so the row is sought only when a field of it is
    /// read (<see cref="EnsureRow"/>), and a lookup that wants the rowid or existence reads one b-tree, not two.
    /// </summary>
    private bool SeekIndex(bool found)
    {
        _rowPending = found;
        return found;
    }

    /// <summary>Finds the node with this text key (encodes it; see <see cref="TrySeek(ReadOnlySpan{byte})"/>).</summary>
    public bool TrySeek(string key) => TrySeek(Encoding.UTF8.GetBytes(key ?? throw new ArgumentNullException(nameof(key))));

    /// <summary>The found node's rowid in the node table.</summary>
    /// <exception cref="InvalidOperationException">No node is found, or the node table is WITHOUT ROWID.</exception>
    public long RowId
    {
        get
        {
            EnsureOn();
            if (_access.How == NodeAccess.Mode.WithoutRowIdKey) throw new InvalidOperationException($"{_access.TableName} is WITHOUT ROWID: nodes have no rowid");
            return _access.How == NodeAccess.Mode.Index ? _index!.RowId : _table.GetInt64(0);
        }
    }

    /// <summary>The found node's kind (allocates), or null when NULL or unmapped.</summary>
    public string? Kind
    {
        get
        {
            EnsureRow();
            return _kindOrdinal < 0 || _table.IsNull(_kindOrdinal) ? null : _table.GetString(_kindOrdinal);
        }
    }

    /// <summary>The found node's kind as UTF-8 (empty when NULL or unmapped), valid until the next seek.</summary>
    public ReadOnlySpan<byte> KindUtf8
    {
        get
        {
            EnsureRow();
            return _kindOrdinal < 0 ? default : _table.GetUtf8Span(_kindOrdinal);
        }
    }

    private void EnsureOn()
    {
        if (!_on) throw new InvalidOperationException("no node is found: call TrySeek first, and only read after it returns true");
    }

    /// <summary>Ends the readers' read sessions (the writer looks up, then writes: nothing may stay positioned).</summary>
    internal void EndRead()
    {
        _on = false;
        _rowPending = false;
        _index?.Reset();
        _table.Reset();
    }

    private void EnsureRow()
    {
        EnsureOn();
        if (!_rowPending) return;
        _rowPending = false;
        if (!_table.Seek(_index!.RowId)) ThrowMissingRow();
    }

    private void ThrowMissingRow()
        => throw new SharcCorruptException($"index {_access.IndexName} has an entry for rowid {_index!.RowId}, which is not in {_access.TableName}");

    /// <summary>Releases the readers.</summary>
    public void Dispose()
    {
        _index?.Dispose();
        _table.Dispose();
        _snapshot.Release();
    }
}
