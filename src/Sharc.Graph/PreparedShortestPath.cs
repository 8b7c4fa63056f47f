using System.Text;

namespace Sharc.Graph;

/// <summary>
/// A prepared shortest-path search between two nodes, by fewest hops (<see cref="TryFindFewestHops(long, long)"/>,
/// a bidirectional breadth-first search) or least total weight (<see cref="TryFindLeastWeight(long, long)"/>,
/// Dijkstra's algorithm). The path found is read through <see cref="NodeCount"/>, <c>GetNode…</c> and
/// <see cref="GetEdgeRowId"/>; it is valid until the next search of the same object, which overwrites it.
/// Searching again allocates nothing once the internal arrays have grown. One thread at a time.
/// </summary>
public sealed class PreparedShortestPath : IDisposable
{
    private readonly EdgeCursor _forward, _backward;
    // Both searches read one commit for a whole search, whatever is committed meanwhile.
    private readonly SharcSnapshot _snapshot;
    private readonly NodeKeyTable _keys;
    private readonly bool _text;
    // Per node id: forward and backward distances (-1 = not reached), the neighbour toward each end and the edge to it.
    private int[] _distF = new int[64], _distB = new int[64], _parentF = new int[64], _parentB = new int[64];
    private long[] _edgeF = new long[64], _edgeB = new long[64];
    private double[] _cost = new double[64];
    private bool[] _settled = new bool[64];
    private int[] _frontA = new int[64], _frontB = new int[64], _next = new int[64];
    private int _frontACount, _frontBCount, _nextCount;
    private readonly MinHeap _heap = new();
    private int[] _pathNodes = new int[16];
    private long[] _pathEdges = new long[16];

    internal PreparedShortestPath(SharcGraph graph, GraphDirection direction, string? kind)
    {
        _text = graph.KeyType == GraphKeyType.Text;
        Direction = direction;
        _snapshot = graph.Database.CreateSnapshot();
        _forward = graph.PrepareEdges(direction, kind, _snapshot);
        _backward = graph.PrepareEdges(direction switch
        {
            GraphDirection.Out => GraphDirection.In,
            GraphDirection.In => GraphDirection.Out,
            _ => GraphDirection.Both,
        }, kind, _snapshot);
        _keys = new NodeKeyTable(_text);
    }

    /// <summary>The direction edges are followed in, from the start toward the end.</summary>
    public GraphDirection Direction { get; }

    /// <summary>Nodes on the last path found, both ends included (0 when none was found).</summary>
    public int NodeCount { get; private set; }

    /// <summary>Edges on the last path found (<see cref="NodeCount"/> − 1, or 0).</summary>
    public int Hops => Math.Max(NodeCount - 1, 0);

    /// <summary>The total weight of the last least-weight path (0 after a fewest-hops search, which does not read weights).</summary>
    public double TotalWeight { get; private set; }

    /// <summary>The key of node <paramref name="i"/> of the path (integer graphs), from the start.</summary>
    public long GetNodeInt64(int i) => _keys.IntKey(_pathNodes[CheckNode(i)]);

    /// <summary>The key of node <paramref name="i"/> of the path as UTF-8 (text graphs), valid until the next search.</summary>
    public ReadOnlySpan<byte> GetNodeUtf8(int i) => _keys.TextKey(_pathNodes[CheckNode(i)]);

    /// <summary>The rowid of edge <paramref name="i"/> of the path: the edge between nodes i and i+1.</summary>
    public long GetEdgeRowId(int i)
    {
        if ((uint)i >= (uint)Hops) throw new ArgumentOutOfRangeException(nameof(i), i, $"the path has {Hops} edges");
        return _pathEdges[i];
    }

    /// <summary>Finds a path with the fewest edges from <paramref name="from"/> to <paramref name="to"/>; false when there is none.</summary>
    public bool TryFindFewestHops(long from, long to)
    {
        var (s, t) = Ends(from, to);
        try
        {
            return Bidirectional(s, t);
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds a path with the fewest edges between two UTF-8 text keys; false when there is none.</summary>
    public bool TryFindFewestHops(ReadOnlySpan<byte> from, ReadOnlySpan<byte> to)
    {
        var (s, t) = Ends(from, to);
        try
        {
            return Bidirectional(s, t);
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds a path with the fewest edges between two text keys (encodes them).</summary>
    public bool TryFindFewestHops(string from, string to) => TryFindFewestHops(Encoding.UTF8.GetBytes(from), Encoding.UTF8.GetBytes(to));

    /// <summary>Finds a path of least total weight from <paramref name="from"/> to <paramref name="to"/>; false when there is none.</summary>
    /// <exception cref="GraphNegativeWeightException">An edge the search follows has a negative or NaN weight.</exception>
    public bool TryFindLeastWeight(long from, long to)
    {
        var (s, t) = Ends(from, to);
        try
        {
            return Dijkstra(s, t);
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds a path of least total weight between two UTF-8 text keys; false when there is none.</summary>
    /// <exception cref="GraphNegativeWeightException">An edge the search follows has a negative or NaN weight.</exception>
    public bool TryFindLeastWeight(ReadOnlySpan<byte> from, ReadOnlySpan<byte> to)
    {
        var (s, t) = Ends(from, to);
        try
        {
            return Dijkstra(s, t);
        }
        finally
        {
            _snapshot.Release();
        }
    }

    /// <summary>Finds a path of least total weight between two text keys (encodes them).</summary>
    public bool TryFindLeastWeight(string from, string to) => TryFindLeastWeight(Encoding.UTF8.GetBytes(from), Encoding.UTF8.GetBytes(to));

    /// <summary>Starts a search: forgets the last one's nodes and gives the two ends their ids.</summary>
    private (int S, int T) Ends(long from, long to)
    {
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        _keys.Clear();
        return (Add(_keys.GetOrAdd(from, out _)), Add(_keys.GetOrAdd(to, out _)));
    }

    private (int S, int T) Ends(ReadOnlySpan<byte> from, ReadOnlySpan<byte> to)
    {
        if (!_text) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        _keys.Clear();
        return (Add(_keys.GetOrAdd(from, out _)), Add(_keys.GetOrAdd(to, out _)));
    }

    private bool Bidirectional(int s, int t)
    {
        NodeCount = 0;
        TotalWeight = 0;
        if (s == t) return Found(s, s, 0);
        _distF[s] = 0;
        _distB[t] = 0;
        _frontA[0] = s;
        _frontACount = 1;
        _frontB[0] = t;
        _frontBCount = 1;
        int depthF = 0, depthB = 0;
        while (_frontACount > 0 && _frontBCount > 0)
        {
            // Whole levels only. Before a level, no node was reached from both ends, so the shortest path is longer
            // than depthF + depthB, and every node either side labelled below its frontier was expanded. A node this
            // level reaches that the other side labelled at a depth d below its frontier would have been met already
            // (the other side, expanding it, crossed the same edge and labelled this side's node too); so every
            // meeting in this level is at exactly depthF + depthB + 1 hops, and the first
            // one found is a shortest path. Meetings found while the other side's level is half expanded would carry
            // no such bound: that is what alternating node by node gets wrong.
            int meet;
            if (_frontACount <= _frontBCount)
            {
                meet = ExpandLevel(forward: true, _frontA, _frontACount, depthF);
                (_frontA, _next) = (_next, _frontA);
                _frontACount = _nextCount;
                depthF++;
            }
            else
            {
                meet = ExpandLevel(forward: false, _frontB, _frontBCount, depthB);
                (_frontB, _next) = (_next, _frontB);
                _frontBCount = _nextCount;
                depthB++;
            }
            if (meet >= 0) return Found(s, meet, 0);
        }
        return false;
    }

    /// <summary>Labels the next level of one side until it meets the other side; returns the meeting node, or -1 when the level met nothing.</summary>
    private int ExpandLevel(bool forward, int[] front, int count, int depth)
    {
        // The per-node arrays are re-read after each neighbour: meeting a new node may grow them.
        var edges = forward ? _forward : _backward;
        _nextCount = 0;
        // In key order, so that consecutive seeks land on the same or the next leaf of the edge index.
        _keys.SortByKey(front.AsSpan(0, count));
        for (int i = 0; i < count; i++)
        {
            int u = front[i];
            ResetAt(edges, u);
            while (edges.MoveNext())
            {
                int v = Neighbor(edges);
                if (v < 0) continue;
                var (dist, otherDist) = forward ? (_distF, _distB) : (_distB, _distF);
                if (dist[v] >= 0) continue;
                dist[v] = depth + 1;
                (forward ? _parentF : _parentB)[v] = u;
                (forward ? _edgeF : _edgeB)[v] = edges.EdgeRowId;
                if (_nextCount == _next.Length) Array.Resize(ref _next, _nextCount * 2);
                _next[_nextCount++] = v;
                if (otherDist[v] >= 0) return v;
            }
        }
        return -1;
    }

    private bool Dijkstra(int s, int t)
    {
        NodeCount = 0;
        TotalWeight = 0;
        _heap.Clear();
        _cost[s] = 0;
        _heap.Push(0, s);
        while (_heap.TryPop(out double d, out int u))
        {
            if (_settled[u] || d > _cost[u]) continue;
            _settled[u] = true;
            if (u == t) return Found(s, t, d);
            ResetAt(_forward, u);
            while (_forward.MoveNext())
            {
                double w = _forward.Weight;
                if (!(w >= 0)) GraphThrow.NegativeWeight(_forward.EdgeRowId, w);
                int v = Neighbor(_forward);
                if (v < 0 || _settled[v]) continue;
                double nd = d + w;
                if (_distF[v] < 0 || nd < _cost[v])
                {
                    _distF[v] = 1; // reached
                    _cost[v] = nd;
                    _parentF[v] = u;
                    _edgeF[v] = _forward.EdgeRowId;
                    _heap.Push(nd, v);
                }
            }
        }
        return false;
    }

    /// <summary>Writes the path start → meet (forward parents) → end (backward parents) into the path arrays.</summary>
    private bool Found(int s, int meet, double weight)
    {
        int n = 0;
        for (int v = meet; ; v = _parentF[v])
        {
            Push(ref n, v, v == s ? 0 : _edgeF[v]);
            if (v == s) break;
        }
        // Collected backwards from the meeting node: reverse nodes, and shift edges to sit between nodes i and i+1.
        Array.Reverse(_pathNodes, 0, n);
        Array.Reverse(_pathEdges, 0, n);
        for (int i = 0; i < n - 1; i++) _pathEdges[i] = _pathEdges[i + 1];
        for (int v = meet; _distB[v] > 0; v = _parentB[v])
        {
            _pathEdges[n - 1] = _edgeB[v];
            Push(ref n, _parentB[v], 0);
        }
        NodeCount = n;
        TotalWeight = weight;
        return true;
    }

    private void Push(ref int n, int node, long edge)
    {
        if (n == _pathNodes.Length)
        {
            Array.Resize(ref _pathNodes, n * 2);
            Array.Resize(ref _pathEdges, n * 2);
        }
        _pathNodes[n] = node;
        _pathEdges[n] = edge;
        n++;
    }

    private void ResetAt(EdgeCursor edges, int id)
    {
        if (_text) edges.Reset(_keys.TextKey(id));
        else edges.Reset(_keys.IntKey(id));
    }

    private int Neighbor(EdgeCursor edges)
    {
        int id;
        bool added;
        if (_text)
        {
            if (!edges.NeighborHasType(SharcColumnType.Text)) return -1;
            id = _keys.GetOrAdd(edges.NeighborUtf8, out added);
        }
        else
        {
            if (!edges.NeighborHasType(SharcColumnType.Integer)) return -1;
            id = _keys.GetOrAdd(edges.NeighborInt64, out added);
        }
        if (added) Add(id);
        return id;
    }

    /// <summary>Fresh state for a node id first seen in this search.</summary>
    private int Add(int id)
    {
        if (id >= _distF.Length)
        {
            int n = Math.Max(id + 1, _distF.Length * 2);
            Array.Resize(ref _distF, n);
            Array.Resize(ref _distB, n);
            Array.Resize(ref _parentF, n);
            Array.Resize(ref _parentB, n);
            Array.Resize(ref _edgeF, n);
            Array.Resize(ref _edgeB, n);
            Array.Resize(ref _cost, n);
            Array.Resize(ref _settled, n);
        }
        _distF[id] = -1;
        _distB[id] = -1;
        _settled[id] = false;
        _cost[id] = double.PositiveInfinity;
        return id;
    }

    private int CheckNode(int i)
    {
        if ((uint)i >= (uint)NodeCount) throw new ArgumentOutOfRangeException(nameof(i), i, $"the path has {NodeCount} nodes");
        return i;
    }

    /// <summary>Releases the search's readers.</summary>
    public void Dispose()
    {
        _forward.Dispose();
        _backward.Dispose();
        _snapshot.Release();
    }

    /// <summary>A binary min-heap of (distance, node) with lazy deletion: stale entries are skipped when popped.</summary>
    private sealed class MinHeap
    {
        private double[] _keys = new double[64];
        private int[] _values = new int[64];
        private int _count;

        public void Clear() => _count = 0;

        public void Push(double key, int value)
        {
            if (_count == _keys.Length)
            {
                Array.Resize(ref _keys, _count * 2);
                Array.Resize(ref _values, _count * 2);
            }
            int i = _count++;
            while (i > 0)
            {
                int p = (i - 1) / 2;
                if (_keys[p] <= key) break;
                _keys[i] = _keys[p];
                _values[i] = _values[p];
                i = p;
            }
            _keys[i] = key;
            _values[i] = value;
        }

        public bool TryPop(out double key, out int value)
        {
            if (_count == 0)
            {
                key = 0;
                value = -1;
                return false;
            }
            key = _keys[0];
            value = _values[0];
            double lastKey = _keys[--_count];
            int lastValue = _values[_count];
            int i = 0;
            while (true)
            {
                int c = 2 * i + 1;
                if (c >= _count) break;
                if (c + 1 < _count && _keys[c + 1] < _keys[c]) c++;
                if (_keys[c] >= lastKey) break;
                _keys[i] = _keys[c];
                _values[i] = _values[c];
                i = c;
            }
            _keys[i] = lastKey;
            _values[i] = lastValue;
            return true;
        }
    }
}
