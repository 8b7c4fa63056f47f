using System.Text;

namespace Sharc.Graph;

/// <summary>
/// A prepared k-hop neighbourhood: each <c>Execute</c> finds the nodes within <see cref="MaxHops"/> edges of the start
/// nodes (following <see cref="Direction"/> and <see cref="Kind"/>) and the edges among them — every stored edge of
/// the kind whose two ends are both in that node set (the induced subgraph), once each: a self-loop once, parallel
/// edges as many times as they are stored, whatever the direction followed.
/// <para>
/// Nodes are numbered 0…<see cref="NodeCount"/>−1 in breadth-first order (depths never decrease); edges
/// 0…<see cref="EdgeCount"/>−1 grouped by source node in that order, then in index order. Edges name their ends by
/// node number (<see cref="GetEdgeSource"/>, <see cref="GetEdgeTarget"/>) or key.
/// </para>
/// <para>
/// Results are valid until the next execution of the same object, which overwrites them; copy what you keep.
/// Re-execution allocates nothing once the internal arrays have grown. One thread at a time.
/// </para>
/// </summary>
public sealed class PreparedSubgraph : IDisposable
{
    private readonly PreparedBfs _reach;
    // Edges among the nodes are read from each node's outgoing side: each stored edge has one source, so it is met once.
    private readonly EdgeCursor _out;
    private readonly SharcSnapshot _snapshot;
    private readonly bool _text;
    // The distinct edge kinds met by the last execution, UTF-8, so an edge holds a small number instead of bytes.
    private readonly NodeKeyTable _kinds = new(text: true);
    private int[] _source = new int[64], _target = new int[64], _kind = new int[64];
    private double[] _weight = new double[64];
    private long[] _rowId = new long[64];

    internal PreparedSubgraph(SharcGraph graph, int maxHops, GraphDirection direction, string? kind, int maxNodes)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxHops);
        _text = graph.KeyType == GraphKeyType.Text;
        // The reach and the edges among it are read from one commit.
        _snapshot = graph.Database.CreateSnapshot();
        _reach = new PreparedBfs(graph, new BfsOptions { Direction = direction, Kind = kind, MaxDepth = maxHops, MaxNodes = maxNodes }, _snapshot);
        _out = graph.PrepareEdges(GraphDirection.Out, kind, _snapshot);
    }

    /// <summary>How many edges from the start nodes the neighbourhood reaches.</summary>
    public int MaxHops => _reach.Options.MaxDepth;

    /// <summary>The direction followed to reach nodes (the edges among them are taken whatever their direction).</summary>
    public GraphDirection Direction => _reach.Options.Direction;

    /// <summary>The only edge kind followed and returned, or null for every kind.</summary>
    public string? Kind => _reach.Options.Kind;

    /// <summary>
    /// Why the last execution ended: <see cref="StopReason.NodeBudget"/> when the node budget given to
    /// <see cref="SharcGraph.PrepareSubgraph"/> cut the node set short (the edges are still those among the nodes kept).
    /// </summary>
    public StopReason StopReason => _reach.StopReason;

    /// <summary>How many distinct start nodes are staged.</summary>
    public int StartCount => _reach.StartCount;

    /// <summary>Forgets the staged start nodes.</summary>
    public void ClearStarts() => _reach.ClearStarts();

    /// <summary>Stages a start node (integer keys); a key staged twice counts once.</summary>
    public void AddStart(long key) => _reach.AddStart(key);

    /// <summary>Stages a start node (UTF-8 text keys; the bytes are copied); a key staged twice counts once.</summary>
    public void AddStart(ReadOnlySpan<byte> utf8Key) => _reach.AddStart(utf8Key);

    /// <summary>Stages a start node (text keys; encodes the key, so allocates).</summary>
    public void AddStart(string key) => _reach.AddStart(key);

    /// <summary>Finds the neighbourhood of the staged start nodes.</summary>
    public void Execute()
    {
        try
        {
            _reach.Execute();
            CollectEdges();
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds the neighbourhood of one node (integer keys), which replaces the staged starts.</summary>
    public void Execute(long start)
    {
        try
        {
            _reach.Execute(start);
            CollectEdges();
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds the neighbourhood of several nodes (integer keys), which replace the staged starts.</summary>
    public void Execute(ReadOnlySpan<long> starts)
    {
        try
        {
            _reach.Execute(starts);
            CollectEdges();
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds the neighbourhood of one node (UTF-8 text keys), which replaces the staged starts.</summary>
    public void Execute(ReadOnlySpan<byte> utf8Start)
    {
        try
        {
            _reach.Execute(utf8Start);
            CollectEdges();
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds the neighbourhood of one node (text keys; encodes the key), which replaces the staged starts.</summary>
    public void Execute(string start) => Execute(Encoding.UTF8.GetBytes(start ?? throw new ArgumentNullException(nameof(start))));

    /// <summary>How many nodes the neighbourhood has, the start nodes included.</summary>
    public int NodeCount => _reach.VisitedCount;

    /// <summary>The key of node <paramref name="node"/> (integer graphs).</summary>
    public long GetNodeInt64(int node) => _reach.GetKeyInt64(node);

    /// <summary>The key of node <paramref name="node"/> as UTF-8 (text graphs), valid until the next execution.</summary>
    public ReadOnlySpan<byte> GetNodeUtf8(int node) => _reach.GetKeyUtf8(node);

    /// <summary>The fewest hops from a start node to node <paramref name="node"/> (0 for the start nodes).</summary>
    public int GetNodeDepth(int node) => _reach.GetDepth(node);

    /// <summary>How many edges join nodes of the neighbourhood.</summary>
    public int EdgeCount { get; private set; }

    /// <summary>The node number of edge <paramref name="edge"/>'s source.</summary>
    public int GetEdgeSource(int edge) => _source[CheckEdge(edge)];

    /// <summary>The node number of edge <paramref name="edge"/>'s target.</summary>
    public int GetEdgeTarget(int edge) => _target[CheckEdge(edge)];

    /// <summary>The key of edge <paramref name="edge"/>'s source (integer graphs).</summary>
    public long GetEdgeSourceInt64(int edge) => GetNodeInt64(GetEdgeSource(edge));

    /// <summary>The key of edge <paramref name="edge"/>'s target (integer graphs).</summary>
    public long GetEdgeTargetInt64(int edge) => GetNodeInt64(GetEdgeTarget(edge));

    /// <summary>The key of edge <paramref name="edge"/>'s source as UTF-8 (text graphs), valid until the next execution.</summary>
    public ReadOnlySpan<byte> GetEdgeSourceUtf8(int edge) => GetNodeUtf8(GetEdgeSource(edge));

    /// <summary>The key of edge <paramref name="edge"/>'s target as UTF-8 (text graphs), valid until the next execution.</summary>
    public ReadOnlySpan<byte> GetEdgeTargetUtf8(int edge) => GetNodeUtf8(GetEdgeTarget(edge));

    /// <summary>True when edge <paramref name="edge"/> has a (non-NULL) kind.</summary>
    public bool HasEdgeKind(int edge) => _kind[CheckEdge(edge)] >= 0;

    /// <summary>Edge <paramref name="edge"/>'s kind as UTF-8 (empty when NULL or unmapped), valid until the next execution.</summary>
    public ReadOnlySpan<byte> GetEdgeKindUtf8(int edge)
    {
        int k = _kind[CheckEdge(edge)];
        return k < 0 ? default : _kinds.TextKey(k);
    }

    /// <summary>Edge <paramref name="edge"/>'s kind (allocates), or null.</summary>
    public string? GetEdgeKind(int edge) => HasEdgeKind(edge) ? Encoding.UTF8.GetString(GetEdgeKindUtf8(edge)) : null;

    /// <summary>Edge <paramref name="edge"/>'s weight (1.0 when unmapped or NULL).</summary>
    public double GetEdgeWeight(int edge) => _weight[CheckEdge(edge)];

    /// <summary>Edge <paramref name="edge"/>'s rowid in the edge table.</summary>
    public long GetEdgeRowId(int edge) => _rowId[CheckEdge(edge)];

    private void CollectEdges()
    {
        EdgeCount = 0;
        _kinds.Clear();
        var nodes = _reach.Keys;
        for (int u = 0; u < nodes.Count; u++)
        {
            if (_text) _out.Reset(nodes.TextKey(u));
            else _out.Reset(nodes.IntKey(u));
            while (_out.MoveNext())
            {
                int v;
                if (_text) v = _out.NeighborHasType(SharcColumnType.Text) ? nodes.Find(_out.NeighborUtf8) : -1;
                else v = _out.NeighborHasType(SharcColumnType.Integer) ? nodes.Find(_out.NeighborInt64) : -1;
                if (v >= 0) AddEdge(u, v);
            }
        }
    }

    private void AddEdge(int source, int target)
    {
        int e = EdgeCount;
        if (e == _source.Length)
        {
            int n = e * 2;
            Array.Resize(ref _source, n);
            Array.Resize(ref _target, n);
            Array.Resize(ref _kind, n);
            Array.Resize(ref _weight, n);
            Array.Resize(ref _rowId, n);
        }
        _source[e] = source;
        _target[e] = target;
        _kind[e] = _out.HasEdgeKind ? _kinds.GetOrAdd(_out.EdgeKindUtf8, out _) : -1;
        _weight[e] = _out.Weight;
        _rowId[e] = _out.EdgeRowId;
        EdgeCount = e + 1;
    }

    private int CheckEdge(int edge)
    {
        if ((uint)edge >= (uint)EdgeCount) ThrowEdge(edge);
        return edge;
    }

    private void ThrowEdge(int edge) => throw new ArgumentOutOfRangeException(nameof(edge), edge, $"the last execution found {EdgeCount} edges");

    /// <summary>Releases the readers.</summary>
    public void Dispose()
    {
        _reach.Dispose();
        _out.Dispose();
        _snapshot.Release();
    }
}
