namespace Sharc.Graph;

/// <summary>
/// Writes nodes and edges through Sharc's write engine (constraints, indexes, journal), into the mapped columns only:
/// other columns take their defaults. Every operation joins the calling thread's open transaction
/// (<see cref="SharcDatabase.BeginTransaction"/>, SQL BEGIN) when there is one, and is otherwise a transaction of its
/// own. Lookups — duplicate keys, a node's edges, the edges between two nodes — are index seeks, never scans.
/// Made by <see cref="SharcGraph.CreateWriter"/>; one thread at a time; dispose it to release its readers.
/// </summary>
/// <remarks>
/// An operation of several writes (removing a node and its edges, a bulk load) is atomic in its own transaction. In
/// the caller's transaction each write is undone alone when it fails, so a failure part-way (a trigger or foreign key
/// refusing a delete) leaves the writes before it: roll the transaction back.
/// </remarks>
public sealed partial class GraphWriter : IDisposable
{
    private readonly SharcGraph _graph;
    private readonly SharcDatabase _db;
    private readonly GraphSchema _map;
    private readonly bool _text;
    private readonly NodeWrite _nodeWrite;
    private readonly EdgeWrite _edgeWrite;
    // Lookup readers, made again when the schema cookie moves (DDL anywhere makes readers planned before refuse).
    private NodeCursor _nodes = null!;
    private PreparedReader _outIndex = null!, _inIndex = null!;
    private EdgeSide _between = null!;
    private uint _cookie;
    private readonly List<long> _rowIds = [];
    private readonly Utf8Scratch _key = new(), _other = new(), _kind = new();
    private bool _disposed;

    internal GraphWriter(SharcGraph graph)
    {
        _graph = graph;
        _db = graph.Database;
        if (!_db.IsWritable) throw new InvalidOperationException("the database was opened read-only: open it with SharcOpenOptions { Writable = true } to write the graph");
        _map = graph.Schema;
        _text = graph.KeyType == GraphKeyType.Text;
        _nodeWrite = new NodeWrite(_db, graph);
        _edgeWrite = new EdgeWrite(_db, graph);
        OpenReaders();
    }

    private void OpenReaders()
    {
        _cookie = _db.Header.SchemaCookie;
        _nodes = _graph.PrepareNodeLookup();
        _outIndex = _db.PrepareReader(_graph.OutIndexName);
        _inIndex = _db.PrepareReader(_graph.InIndexName);
        _between = new EdgeSide(_db, _graph.OutEdges, _text, null);
    }

    private void CloseReaders()
    {
        _nodes.Dispose();
        _outIndex.Dispose();
        _inIndex.Dispose();
        _between.Dispose();
    }

    private void RenewReadersIfSchemaMoved()
    {
        if (_db.Header.SchemaCookie == _cookie) return;
        CloseReaders();
        OpenReaders();
    }

    /// <summary>The graph written.</summary>
    public SharcGraph Graph => _graph;

    /// <summary>Adds a node; returns its rowid (0 when the node table is WITHOUT ROWID).</summary>
    /// <param name="key">The node's key, of the graph's key type.</param>
    /// <param name="kind">Its kind; NULL when null. A kind needs a mapped node kind column.</param>
    /// <param name="data">Its data payload; NULL when null. A payload needs a mapped node data column.</param>
    /// <exception cref="GraphDuplicateNodeException">A node with this key exists (nothing is written).</exception>
    /// <exception cref="GraphKeyTypeException">The key's type is not the graph's.</exception>
    /// <exception cref="GraphMappingException">A kind or payload is given that the mapping has no column for.</exception>
    public long AddNode(GraphKey key, string? kind = null, string? data = null)
    {
        CheckNode(key, kind, data);
        using var tx = Begin();
        if (FindNode(key)) ThrowDuplicate(key);
        long rowId = _nodeWrite.Insert(key, kind, data, _key);
        tx.Commit();
        return rowId;
    }

    /// <summary>Sets the kind and data of the node with this key (the mapped ones); false when there is no such node.</summary>
    /// <exception cref="GraphKeyTypeException">The key's type is not the graph's.</exception>
    /// <exception cref="GraphMappingException">A kind or payload is given that the mapping has no column for.</exception>
    public bool UpdateNode(GraphKey key, string? kind, string? data)
    {
        CheckNode(key, kind, data);
        using var tx = Begin();
        if (!FindNode(key)) return false;
        _nodeWrite.Update(key, NodeRowId(), kind, data);
        tx.Commit();
        return true;
    }

    /// <summary>
    /// Adds the node, or when one has this key, sets its kind and data (the mapped ones) as <see cref="UpdateNode"/>
    /// does — its rowid and unmapped columns stay. Returns the node's rowid (0 when the node table is WITHOUT ROWID).
    /// </summary>
    /// <exception cref="GraphKeyTypeException">The key's type is not the graph's.</exception>
    /// <exception cref="GraphMappingException">A kind or payload is given that the mapping has no column for.</exception>
    public long UpsertNode(GraphKey key, string? kind = null, string? data = null)
    {
        CheckNode(key, kind, data);
        using var tx = Begin();
        long rowId;
        if (FindNode(key))
        {
            rowId = NodeRowId();
            _nodeWrite.Update(key, rowId, kind, data);
        }
        else rowId = _nodeWrite.Insert(key, kind, data, _key);
        tx.Commit();
        return rowId;
    }

    /// <summary>
    /// Removes the node with this key and every edge it is an end of (outgoing, incoming, self-loops, parallel
    /// edges), found through the two edge indexes. Edges are removed even when no node row has the key. Returns true
    /// when a node row was removed.
    /// </summary>
    /// <exception cref="GraphKeyTypeException">The key's type is not the graph's.</exception>
    public bool RemoveNode(GraphKey key)
    {
        CheckKey(key);
        using var tx = Begin();
        _rowIds.Clear();
        CollectEdges(_outIndex, key);
        CollectEdges(_inIndex, key);
        // A self-loop has an entry in both indexes.
        _rowIds.Sort();
        long previous = 0;
        for (int i = 0; i < _rowIds.Count; i++)
        {
            if (i > 0 && _rowIds[i] == previous) continue;
            previous = _rowIds[i];
            _edgeWrite.Delete(previous);
        }
        bool found = FindNode(key);
        if (found) _nodeWrite.Delete(key, NodeRowId());
        tx.Commit();
        return found;
    }

    /// <summary>Adds an edge; returns its rowid. The ends need not have node rows (the graph is its edges).</summary>
    /// <param name="source">The source node's key.</param>
    /// <param name="target">The target node's key.</param>
    /// <param name="kind">Its kind; NULL when null. A kind needs a mapped edge kind column.</param>
    /// <param name="weight">Its weight. Other than 1.0, it needs a mapped edge weight column.</param>
    /// <param name="data">Its data payload; NULL when null. A payload needs a mapped edge data column.</param>
    /// <exception cref="GraphKeyTypeException">A key's type is not the graph's.</exception>
    /// <exception cref="GraphMappingException">A kind, weight or payload is given that the mapping has no column for.</exception>
    public long AddEdge(GraphKey source, GraphKey target, string? kind = null, double weight = 1.0, string? data = null)
    {
        CheckEdge(source, target, kind, weight, data);
        return _edgeWrite.Insert(source, target, kind, weight, data, _key);
    }

    /// <summary>Sets the kind, weight and data of the edge with this rowid (the mapped ones); false when there is none.</summary>
    /// <exception cref="GraphMappingException">A kind, weight or payload is given that the mapping has no column for.</exception>
    public bool UpdateEdge(long edgeRowId, string? kind, double weight, string? data)
    {
        ThrowIfDisposed();
        CheckEdgeFields(kind, weight, data);
        return _edgeWrite.Update(edgeRowId, kind, weight, data);
    }

    /// <summary>Removes the edge with this rowid; false when there is none.</summary>
    public bool RemoveEdge(long edgeRowId)
    {
        ThrowIfDisposed();
        return _edgeWrite.Delete(edgeRowId);
    }

    /// <summary>
    /// Removes every edge from <paramref name="source"/> to <paramref name="target"/> (only those of
    /// <paramref name="kind"/> when it is given), found through the outgoing-edge index. Returns how many.
    /// </summary>
    /// <exception cref="GraphKeyTypeException">A key's type is not the graph's.</exception>
    /// <exception cref="GraphMappingException">A kind is given and the mapping has no edge kind column.</exception>
    public int RemoveEdges(GraphKey source, GraphKey target, string? kind = null)
    {
        CheckKey(source);
        CheckKey(target);
        if (kind is not null && _map.EdgeKind is null) ThrowUnmapped("edge kind", kind);
        using var tx = Begin();
        _rowIds.Clear();
        CollectBetween(source, target, kind);
        foreach (long rowId in _rowIds) _edgeWrite.Delete(rowId);
        tx.Commit();
        return _rowIds.Count;
    }

    /// <summary>Releases the writer's readers.</summary>
    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        CloseReaders();
    }

    // ---------------------------------------------------------------- lookups (index seeks; readers end their sessions before any write)

    /// <summary>Seeks the node; when found the node cursor stays on it for <see cref="NodeRowId"/>.</summary>
    private bool FindNode(GraphKey key)
    {
        bool found = _text ? _nodes.TrySeek(_key.Encode(key.Text!)) : _nodes.TrySeek(key.Int64);
        if (!found) _nodes.EndRead();
        return found;
    }

    /// <summary>The found node's rowid (0 for WITHOUT ROWID), then the lookup's readers are released.</summary>
    private long NodeRowId()
    {
        long rowId = _nodeWrite.WithoutRowId ? 0 : _nodes.RowId;
        _nodes.EndRead();
        return rowId;
    }

    /// <summary>Adds the rowid of every entry of <paramref name="index"/> whose first column is <paramref name="key"/>.</summary>
    private void CollectEdges(PreparedReader index, GraphKey key)
    {
        bool found;
        if (_text)
        {
            var utf8 = _key.Encode(key.Text!);
            found = index.SeekKey(utf8);
            while (found)
            {
                _rowIds.Add(index.RowId);
                found = index.Read() && index.GetColumnType(0) == SharcColumnType.Text && index.GetUtf8Span(0).SequenceEqual(utf8);
            }
        }
        else
        {
            found = index.SeekKey(key.Int64);
            while (found)
            {
                _rowIds.Add(index.RowId);
                found = index.Read() && index.GetColumnType(0) == SharcColumnType.Integer && index.GetInt64(0) == key.Int64;
            }
        }
        index.Reset();
    }

    private void CollectBetween(GraphKey source, GraphKey target, string? kind)
    {
        ReadOnlySpan<byte> kindUtf8 = kind is null ? default : _kind.Encode(kind);
        if (_text)
        {
            _between.Begin(_key.Encode(source.Text!));
            var targetUtf8 = _other.Encode(target.Text!);
            while (_between.MoveNext())
                if (_between.NeighborType == SharcColumnType.Text && _between.NeighborUtf8.SequenceEqual(targetUtf8) && KindIs(kind, kindUtf8))
                    _rowIds.Add(_between.EdgeRowId);
        }
        else
        {
            _between.Begin(source.Int64);
            while (_between.MoveNext())
                if (_between.NeighborType == SharcColumnType.Integer && _between.NeighborInt64 == target.Int64 && KindIs(kind, kindUtf8))
                    _rowIds.Add(_between.EdgeRowId);
        }
        _between.EndRead();
    }

    private bool KindIs(string? kind, ReadOnlySpan<byte> utf8) => kind is null || (_between.HasKind && _between.KindUtf8.SequenceEqual(utf8));

    // ---------------------------------------------------------------- checks

    private Scope Begin()
    {
        ThrowIfDisposed();
        var scope = new Scope(_db.InTransaction ? null : _db.BeginTransaction());
        RenewReadersIfSchemaMoved();
        return scope;
    }

    private void CheckKey(GraphKey key)
    {
        ThrowIfDisposed();
        if (key.Type != _graph.KeyType) GraphThrow.KeyType(key.Type, _graph.KeyType);
    }

    private void CheckNode(GraphKey key, string? kind, string? data)
    {
        CheckKey(key);
        if (kind is not null && _map.NodeKind is null) ThrowUnmapped("node kind", kind);
        if (data is not null && _map.NodeData is null) ThrowUnmapped("node data", data);
    }

    private void CheckEdge(GraphKey source, GraphKey target, string? kind, double weight, string? data)
    {
        CheckKey(source);
        CheckKey(target);
        CheckEdgeFields(kind, weight, data);
    }

    private void CheckEdgeFields(string? kind, double weight, string? data)
    {
        if (kind is not null && _map.EdgeKind is null) ThrowUnmapped("edge kind", kind);
        if (weight != 1.0 && _map.EdgeWeight is null) ThrowUnmapped("edge weight", weight.ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (data is not null && _map.EdgeData is null) ThrowUnmapped("edge data", data);
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_disposed, this);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowDuplicate(GraphKey key)
    {
        _nodes.EndRead();
        throw new GraphDuplicateNodeException(_map.NodeTable, key);
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowUnmapped(string what, string value)
        => throw new GraphMappingException(GraphMappingProblem.UnknownColumn,
            $"a {what} ({value}) was given, but the mapping of {(what.StartsWith("node", StringComparison.Ordinal) ? _map.NodeTable : _map.EdgeTable)} has no {what} column");

    /// <summary>The operation's own transaction, or none inside the caller's.</summary>
    private readonly struct Scope(SharcTransaction? own) : IDisposable
    {
        public void Commit() => own?.Commit();

        public void Dispose() => own?.Dispose();
    }
}
