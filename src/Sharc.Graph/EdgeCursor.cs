using System.Text;

namespace Sharc.Graph;

/// <summary>
/// A prepared cursor over the edges around one node at a time: <see cref="Reset(long)"/> to a node, then
/// <see cref="MoveNext"/> through its edges, each giving the neighbour, kind, weight and edge rowid. Edges come
/// from the direction's index (and from the edge row only for fields the index lacks). Re-using the cursor for
/// another node allocates nothing after warm-up. Spans it returns are valid until the next move. One thread at a time.
/// </summary>
public sealed class EdgeCursor : IDisposable
{
    private readonly SharcGraph _graph;
    private readonly EdgeSide? _out, _in;
    private EdgeSide? _current;
    private bool _inPending;
    private readonly bool _text;

    // The commit the cursor reads: its own, taken afresh for each node (so a node's out and in edges and each edge's
    // row come from one commit), or a traversal's, held for a whole execution.
    private readonly SharcSnapshot _snapshot;
    private readonly bool _ownsSnapshot;

    internal EdgeCursor(SharcGraph graph, GraphDirection direction, string? kind, SharcSnapshot? traversal = null)
    {
        _graph = graph;
        _text = graph.KeyType == GraphKeyType.Text;
        Direction = direction;
        Kind = kind;
        if (kind is not null && graph.Schema.EdgeKind is null)
            throw new GraphMappingException(GraphMappingProblem.UnknownColumn, $"a kind filter needs an edge kind column, and the mapping of {graph.Schema.EdgeTable} has none");
        byte[]? kindUtf8 = kind is null ? null : Encoding.UTF8.GetBytes(kind);
        if (direction != GraphDirection.In) _out = new EdgeSide(graph.Database, graph.OutEdges, _text, kindUtf8);
        if (direction != GraphDirection.Out) _in = new EdgeSide(graph.Database, graph.InEdges, _text, kindUtf8);
        _ownsSnapshot = traversal is null;
        _snapshot = traversal ?? graph.Database.CreateSnapshot();
        _out?.UseSnapshot(_snapshot);
        _in?.UseSnapshot(_snapshot);
    }

    /// <summary>The direction the cursor follows.</summary>
    public GraphDirection Direction { get; }

    /// <summary>The kind filter, or null for every kind.</summary>
    public string? Kind { get; }

    /// <summary>Positions before the first edge of the node with this integer key.</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are text.</exception>
    public void Reset(long key)
    {
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        if (_ownsSnapshot) _snapshot.Release();
        _current = _out ?? _in;
        _out?.Begin(key);
        _in?.Begin(key);
        _inPending = _out is not null && _in is not null;
    }

    /// <summary>Positions before the first edge of the node with this UTF-8 text key.</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are integers.</exception>
    public void Reset(ReadOnlySpan<byte> utf8Key)
    {
        if (!_text) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        if (_ownsSnapshot) _snapshot.Release();
        _current = _out ?? _in;
        _out?.Begin(utf8Key);
        _in?.Begin(utf8Key);
        _inPending = _out is not null && _in is not null;
    }

    /// <summary>Positions before the first edge of the node with this text key (encodes it; see <see cref="Reset(ReadOnlySpan{byte})"/>).</summary>
    public void Reset(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        Reset(Encoding.UTF8.GetBytes(key));
    }

    /// <summary>Advances to the next edge; false when the node has no more (in this direction and kind).</summary>
    public bool MoveNext()
    {
        if (_current is null) return false;
        if (_current.MoveNext()) return true;
        if (_inPending)
        {
            _inPending = false;
            _current = _in;
            if (_current!.MoveNext()) return true;
        }
        _current = null;
        return false;
    }

    /// <summary>The direction of the current edge as seen from the node: <see cref="GraphDirection.Out"/> or <see cref="GraphDirection.In"/>.</summary>
    public GraphDirection EdgeDirection => Current == _out ? GraphDirection.Out : GraphDirection.In;

    /// <summary>The neighbour's key (integer graphs).</summary>
    public long NeighborInt64 => Current.NeighborInt64;

    /// <summary>The neighbour's key as stored UTF-8 bytes (text graphs), valid until the next move.</summary>
    public ReadOnlySpan<byte> NeighborUtf8 => Current.NeighborUtf8;

    /// <summary>The neighbour's key as a string (allocates).</summary>
    public string NeighborString => _text ? Encoding.UTF8.GetString(Current.NeighborUtf8) : Current.NeighborInt64.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>True when the current edge has a (non-NULL) kind.</summary>
    public bool HasEdgeKind => Current.HasKind;

    /// <summary>The current edge's kind as UTF-8 (empty when NULL or unmapped), valid until the next move.</summary>
    public ReadOnlySpan<byte> EdgeKindUtf8 => Current.KindUtf8;

    /// <summary>The current edge's kind (allocates), or null.</summary>
    public string? EdgeKind => Current.HasKind ? Encoding.UTF8.GetString(Current.KindUtf8) : null;

    /// <summary>The current edge's weight: 1.0 when the mapping has no weight column or the value is NULL.</summary>
    public double Weight => Current.Weight;

    /// <summary>The current edge's rowid in the edge table.</summary>
    public long EdgeRowId => Current.EdgeRowId;

    internal bool NeighborHasType(SharcColumnType type) => Current.NeighborType == type;

    /// <summary>The one side a single-direction cursor walks (null for <see cref="GraphDirection.Both"/>): after
    /// <see cref="Reset(long)"/> a caller may step it directly, and the edge properties still read its current entry.</summary>
    internal EdgeSide? SingleSide => _out is null ? _in : _in is null ? _out : null;

    private EdgeSide Current => _current ?? GraphThrow.NoEdge<EdgeSide>();

    /// <summary>Releases the cursor's readers.</summary>
    public void Dispose()
    {
        _out?.Dispose();
        _in?.Dispose();
        if (_ownsSnapshot) _snapshot.Release();
    }

    internal SharcGraph Graph => _graph;
}

internal static class GraphThrow
{
    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    public static void KeyType(GraphKeyType given, GraphKeyType graph)
        => throw new GraphKeyTypeException($"a {given} key was given, but this graph's node keys are {graph}");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    public static T NoEdge<T>() => throw new InvalidOperationException("the cursor is not on an edge: call MoveNext first, and only while it returns true");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    public static void NegativeWeight(long rowId, double weight) => throw new GraphNegativeWeightException(rowId, weight);
}
