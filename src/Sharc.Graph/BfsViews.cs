namespace Sharc.Graph;

/// <summary>
/// The edge an <see cref="IBfsEdgeFilter"/> is asked about, seen from the node being expanded. A ref struct: valid
/// only during the call, like the spans it returns.
/// </summary>
public readonly ref struct BfsEdge
{
    private readonly EdgeCursor _edges;

    internal BfsEdge(EdgeCursor edges, int fromVisit, int fromDepth)
    {
        _edges = edges;
        FromVisit = fromVisit;
        FromDepth = fromDepth;
    }

    /// <summary>The visit number of the node being expanded (its key: <see cref="PreparedBfs.GetKeyInt64"/>).</summary>
    public int FromVisit { get; }

    /// <summary>The depth of the node being expanded; the neighbour, if new, would be at <c>FromDepth + 1</c>.</summary>
    public int FromDepth { get; }

    /// <summary><see cref="GraphDirection.Out"/> when the expanded node is the edge's source, <see cref="GraphDirection.In"/> when it is the target.</summary>
    public GraphDirection Direction => _edges.EdgeDirection;

    /// <summary>The neighbour's key (integer graphs).</summary>
    public long NeighborInt64 => _edges.NeighborInt64;

    /// <summary>The neighbour's key as UTF-8 (text graphs).</summary>
    public ReadOnlySpan<byte> NeighborUtf8 => _edges.NeighborUtf8;

    /// <summary>True when the edge has a (non-NULL) kind.</summary>
    public bool HasKind => _edges.HasEdgeKind;

    /// <summary>The edge's kind as UTF-8 (empty when NULL or unmapped).</summary>
    public ReadOnlySpan<byte> KindUtf8 => _edges.EdgeKindUtf8;

    /// <summary>The edge's weight (1.0 when unmapped or NULL).</summary>
    public double Weight => _edges.Weight;

    /// <summary>The edge's rowid in the edge table.</summary>
    public long RowId => _edges.EdgeRowId;
}

/// <summary>
/// The node an <see cref="IBfsNodeFilter"/> is asked about, when first reached. A ref struct: valid only during the
/// call, like the span it returns.
/// </summary>
public readonly ref struct BfsNode
{
    private readonly bool _text;
    private readonly long _intKey;
    private readonly ReadOnlySpan<byte> _textKey;

    internal BfsNode(bool text, long intKey, ReadOnlySpan<byte> textKey, int depth, int parentVisit, long edgeRowId)
    {
        _text = text;
        _intKey = intKey;
        _textKey = textKey;
        Depth = depth;
        ParentVisit = parentVisit;
        EdgeRowId = edgeRowId;
    }

    /// <summary>The node's key (integer graphs).</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are text.</exception>
    public long KeyInt64
    {
        get
        {
            if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
            return _intKey;
        }
    }

    /// <summary>The node's key as UTF-8 (text graphs).</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are integers.</exception>
    public ReadOnlySpan<byte> KeyUtf8
    {
        get
        {
            if (!_text) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
            return _textKey;
        }
    }

    /// <summary>The depth the node would be visited at (0 for a start node).</summary>
    public int Depth { get; }

    /// <summary>The visit it is reached from, or −1 for a start node.</summary>
    public int ParentVisit { get; }

    /// <summary>The rowid of the edge it is reached by (0 for a start node).</summary>
    public long EdgeRowId { get; }
}
