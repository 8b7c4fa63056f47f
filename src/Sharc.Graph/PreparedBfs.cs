using System.Text;

namespace Sharc.Graph;

/// <summary>Options of a breadth-first traversal.</summary>
public sealed record BfsOptions
{
    /// <summary>Which edges to follow (default: outgoing).</summary>
    public GraphDirection Direction { get; init; } = GraphDirection.Out;

    /// <summary>Follow only edges of this kind; null follows every edge.</summary>
    public string? Kind { get; init; }

    /// <summary>Nodes closer than this are traversed but not among the results (default 0: the start nodes too).</summary>
    public int MinDepth { get; init; }

    /// <summary>No node farther than this is visited (default: unlimited).</summary>
    public int MaxDepth { get; init; } = int.MaxValue;

    /// <summary>Stops after this many nodes are visited, start nodes included (default: unlimited);
    /// <see cref="PreparedBfs.BudgetExhausted"/> then says so.</summary>
    public int MaxNodes { get; init; } = int.MaxValue;
}

/// <summary>
/// A prepared breadth-first traversal. Each <c>Execute</c> visits the nodes reachable from the start nodes in
/// breadth-first order, giving each its depth and the edge it was first reached by. Visits are numbered
/// 0…<see cref="VisitedCount"/>−1 in that order, so depths never decrease; the results are the visits from
/// <see cref="FirstResult"/> on (those at <see cref="BfsOptions.MinDepth"/> or deeper).
/// <para>
/// Results are valid until the next <c>Execute</c> of the same object, which overwrites them; copy what you keep.
/// Re-execution allocates nothing once the internal arrays have grown to the largest traversal's size.
/// One thread at a time. The graph is defined by its edges: a start key needs no row in the node table.
/// </para>
/// </summary>
public sealed class PreparedBfs : IDisposable
{
    private readonly EdgeCursor _edges;
    private readonly NodeKeyTable _keys;
    private readonly bool _text;
    private int[] _depth = new int[64];
    private int[] _parent = new int[64];
    private long[] _parentEdge = new long[64];

    internal PreparedBfs(SharcGraph graph, BfsOptions options)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(options.MinDepth);
        ArgumentOutOfRangeException.ThrowIfNegative(options.MaxDepth);
        ArgumentOutOfRangeException.ThrowIfLessThan(options.MaxNodes, 1);
        Options = options;
        _text = graph.KeyType == GraphKeyType.Text;
        _edges = graph.PrepareEdges(options.Direction, options.Kind);
        _keys = new NodeKeyTable(_text);
    }

    /// <summary>The traversal's options.</summary>
    public BfsOptions Options { get; }

    /// <summary>How many nodes the last execution visited.</summary>
    public int VisitedCount => _keys.Count;

    /// <summary>The first visit at <see cref="BfsOptions.MinDepth"/> or deeper: results are visits FirstResult…VisitedCount−1.</summary>
    public int FirstResult { get; private set; }

    /// <summary>How many results the last execution produced.</summary>
    public int ResultCount => VisitedCount - FirstResult;

    /// <summary>True when the last execution stopped on reaching <see cref="BfsOptions.MaxNodes"/> visits (more nodes may have been reachable).</summary>
    public bool BudgetExhausted { get; private set; }

    /// <summary>Traverses from one node (integer keys).</summary>
    public void Execute(long start)
    {
        Begin();
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        AddStart(_keys.GetOrAdd(start, out bool added), added);
        Run();
    }

    /// <summary>Traverses from several nodes at once, all at depth 0 (integer keys; duplicates count once).</summary>
    public void Execute(ReadOnlySpan<long> starts)
    {
        Begin();
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        foreach (long s in starts)
        {
            if (_keys.Count >= Options.MaxNodes) { BudgetExhausted = true; break; }
            AddStart(_keys.GetOrAdd(s, out bool added), added);
        }
        Run();
    }

    /// <summary>Traverses from one node (UTF-8 text keys).</summary>
    public void Execute(ReadOnlySpan<byte> utf8Start)
    {
        Begin();
        if (!_text) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        AddStart(_keys.GetOrAdd(utf8Start, out bool added), added);
        Run();
    }

    /// <summary>Traverses from one node (text keys; encodes the key).</summary>
    public void Execute(string start) => Execute(Encoding.UTF8.GetBytes(start ?? throw new ArgumentNullException(nameof(start))));

    /// <summary>The key of visit <paramref name="visit"/> (integer graphs).</summary>
    public long GetKeyInt64(int visit) => _keys.IntKey(Check(visit));

    /// <summary>The key of visit <paramref name="visit"/> as UTF-8 (text graphs), valid until the next execution.</summary>
    public ReadOnlySpan<byte> GetKeyUtf8(int visit) => _keys.TextKey(Check(visit));

    /// <summary>The depth of visit <paramref name="visit"/> (0 for start nodes).</summary>
    public int GetDepth(int visit) => _depth[Check(visit)];

    /// <summary>
    /// The visit that first reached <paramref name="visit"/> and the rowid of the edge it came by; false for start
    /// nodes. Following parents back to depth 0 rebuilds a shortest path.
    /// </summary>
    public bool TryGetParent(int visit, out int parentVisit, out long edgeRowId)
    {
        parentVisit = _parent[Check(visit)];
        edgeRowId = parentVisit < 0 ? 0 : _parentEdge[visit];
        return parentVisit >= 0;
    }

    private int Check(int visit)
    {
        if ((uint)visit >= (uint)_keys.Count) ThrowVisit(visit);
        return visit;
    }

    private void ThrowVisit(int visit) => throw new ArgumentOutOfRangeException(nameof(visit), visit, $"the last execution visited {_keys.Count} nodes");

    private void Begin()
    {
        _keys.Clear();
        BudgetExhausted = false;
        FirstResult = 0;
    }

    private void AddStart(int id, bool added)
    {
        if (!added) return;
        EnsureCapacity(id);
        _depth[id] = 0;
        _parent[id] = -1;
    }

    private void Run()
    {
        int maxDepth = Options.MaxDepth, maxNodes = Options.MaxNodes;
        // Ids are handed out in order of first sight, which in a breadth-first walk is the queue order itself.
        for (int head = 0; head < _keys.Count && !BudgetExhausted; head++)
        {
            int depth = _depth[head], id;
            if (depth >= maxDepth) continue;
            if (_text) _edges.Reset(_keys.TextKey(head));
            else _edges.Reset(_keys.IntKey(head));
            while (_edges.MoveNext())
            {
                bool added;
                if (_text)
                {
                    // A key stored with another type names no node of this graph.
                    if (!_edges.NeighborHasType(SharcColumnType.Text)) continue;
                    id = _keys.GetOrAdd(_edges.NeighborUtf8, out added);
                }
                else
                {
                    if (!_edges.NeighborHasType(SharcColumnType.Integer)) continue;
                    id = _keys.GetOrAdd(_edges.NeighborInt64, out added);
                }
                if (!added) continue;
                EnsureCapacity(id);
                _depth[id] = depth + 1;
                _parent[id] = head;
                _parentEdge[id] = _edges.EdgeRowId;
                if (_keys.Count >= maxNodes)
                {
                    BudgetExhausted = true;
                    break;
                }
            }
        }
        int first = 0;
        while (first < _keys.Count && _depth[first] < Options.MinDepth) first++;
        FirstResult = first;
    }

    private void EnsureCapacity(int id)
    {
        if (id < _depth.Length) return;
        int n = Math.Max(id + 1, _depth.Length * 2);
        Array.Resize(ref _depth, n);
        Array.Resize(ref _parent, n);
        Array.Resize(ref _parentEdge, n);
    }

    /// <summary>Releases the traversal's readers.</summary>
    public void Dispose() => _edges.Dispose();
}
