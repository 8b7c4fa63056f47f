using System.Globalization;
using System.Text;

namespace Sharc.Graph;

/// <summary>
/// A compact in-memory copy of a graph's adjacency (see <see cref="SharcGraph.LoadSnapshot"/>), for analytics over
/// the whole graph: PageRank, weakly connected components, degree centrality, topological order.
/// <para>
/// Nodes are numbered 0…<see cref="NodeCount"/>−1 in key order (integers ascending; text by its UTF-8 bytes). They
/// are the node table's keys and every key an edge refers to, whether or not it has a node row; with a kind filter,
/// still the same nodes (so node numbers agree between snapshots of one graph), but only that kind's edges.
/// Edges are kept twice, as compressed sparse rows: each node's out-neighbours and in-neighbours as node numbers.
/// A parallel edge appears once per edge row; a self-loop once among the node's out-neighbours and once among its
/// in-neighbours. Weights are not kept.
/// </para>
/// <para>
/// Memory: 16 bytes a node (its key, two 4-byte offsets) for integer keys, 12 plus the UTF-8 key for text keys,
/// and 8 bytes an edge. The snapshot is immutable and may be shared by threads; it does not change when the
/// database does.
/// </para>
/// </summary>
public sealed partial class GraphSnapshot
{
    private readonly long[]? _intKeys;
    private readonly byte[]? _textArena;
    private readonly int[]? _textOffsets;
    private readonly int[] _outOffsets, _outTargets, _inOffsets, _inSources;

    internal GraphSnapshot(string? kind, long[]? intKeys, byte[]? textArena, int[]? textOffsets, int nodeCount,
                           int[] outOffsets, int[] outTargets, int[] inOffsets, int[] inSources)
    {
        Kind = kind;
        _intKeys = intKeys;
        _textArena = textArena;
        _textOffsets = textOffsets;
        NodeCount = nodeCount;
        _outOffsets = outOffsets;
        _outTargets = outTargets;
        _inOffsets = inOffsets;
        _inSources = inSources;
    }

    /// <summary>The number of nodes.</summary>
    public int NodeCount { get; }

    /// <summary>The number of edges (of <see cref="Kind"/>, when the snapshot was loaded with one).</summary>
    public int EdgeCount => _outTargets.Length;

    /// <summary>The type of the node keys.</summary>
    public GraphKeyType KeyType => _intKeys is null ? GraphKeyType.Text : GraphKeyType.Integer;

    /// <summary>The edge kind the snapshot was restricted to, or null for every edge.</summary>
    public string? Kind { get; }

    /// <summary>The key of node <paramref name="node"/> (integer keys).</summary>
    /// <exception cref="GraphKeyTypeException">The keys are text.</exception>
    public long GetKeyInt64(int node)
    {
        CheckNode(node);
        if (_intKeys is null) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        return _intKeys[node];
    }

    /// <summary>The key of node <paramref name="node"/> as UTF-8 (text keys), without copying.</summary>
    /// <exception cref="GraphKeyTypeException">The keys are integers.</exception>
    public ReadOnlySpan<byte> GetKeyUtf8(int node)
    {
        CheckNode(node);
        if (_textOffsets is null) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        return _textArena.AsSpan(_textOffsets[node], _textOffsets[node + 1] - _textOffsets[node]);
    }

    /// <summary>The key of node <paramref name="node"/> as a string: the text, or the integer formatted invariantly (allocates).</summary>
    public string GetKeyString(int node)
        => _intKeys is null ? Encoding.UTF8.GetString(GetKeyUtf8(node)) : GetKeyInt64(node).ToString(CultureInfo.InvariantCulture);

    /// <summary>Finds the node with this integer key (a binary search).</summary>
    /// <exception cref="GraphKeyTypeException">The keys are text.</exception>
    public bool TryGetNode(long key, out int node)
    {
        if (_intKeys is null) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        node = Array.BinarySearch(_intKeys, key);
        if (node >= 0) return true;
        node = -1;
        return false;
    }

    /// <summary>Finds the node with this UTF-8 text key (a binary search).</summary>
    /// <exception cref="GraphKeyTypeException">The keys are integers.</exception>
    public bool TryGetNode(ReadOnlySpan<byte> utf8Key, out int node)
    {
        if (_textOffsets is null) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        int lo = 0, hi = NodeCount - 1;
        while (lo <= hi)
        {
            int mid = lo + ((hi - lo) >> 1);
            int c = KeyAt(mid).SequenceCompareTo(utf8Key);
            if (c == 0)
            {
                node = mid;
                return true;
            }
            if (c < 0) lo = mid + 1;
            else hi = mid - 1;
        }
        node = -1;
        return false;
    }

    /// <summary>Finds the node with this text key (encodes it; see <see cref="TryGetNode(ReadOnlySpan{byte}, out int)"/>).</summary>
    public bool TryGetNode(string key, out int node)
        => TryGetNode(Encoding.UTF8.GetBytes(key ?? throw new ArgumentNullException(nameof(key))), out node);

    /// <summary>The number of edges leaving <paramref name="node"/> (each parallel edge counts; a self-loop counts once).</summary>
    public int OutDegree(int node)
    {
        CheckNode(node);
        return _outOffsets[node + 1] - _outOffsets[node];
    }

    /// <summary>The number of edges reaching <paramref name="node"/> (each parallel edge counts; a self-loop counts once).</summary>
    public int InDegree(int node)
    {
        CheckNode(node);
        return _inOffsets[node + 1] - _inOffsets[node];
    }

    /// <summary>The targets of the edges leaving <paramref name="node"/>, once per edge, in the out index's order.</summary>
    public ReadOnlySpan<int> OutNeighbors(int node)
    {
        CheckNode(node);
        return _outTargets.AsSpan(_outOffsets[node], _outOffsets[node + 1] - _outOffsets[node]);
    }

    /// <summary>The sources of the edges reaching <paramref name="node"/>, once per edge.</summary>
    public ReadOnlySpan<int> InNeighbors(int node)
    {
        CheckNode(node);
        return _inSources.AsSpan(_inOffsets[node], _inOffsets[node + 1] - _inOffsets[node]);
    }

    /// <summary>
    /// Prepares a breadth-first traversal over this snapshot (see <see cref="SnapshotBfs"/>): 16 bytes a node, made
    /// now; each execution then allocates nothing.
    /// </summary>
    public SnapshotBfs PrepareBfs(GraphDirection direction = GraphDirection.Out, int maxDepth = int.MaxValue) => new(this, direction, maxDepth);

    // Unchecked neighbour spans, for traversals that hold valid node numbers.
    internal ReadOnlySpan<int> OutNeighborsOf(int node) => _outTargets.AsSpan(_outOffsets[node], _outOffsets[node + 1] - _outOffsets[node]);

    internal ReadOnlySpan<int> InNeighborsOf(int node) => _inSources.AsSpan(_inOffsets[node], _inOffsets[node + 1] - _inOffsets[node]);

    /// <summary>The bytes the snapshot's arrays take (keys, offsets and neighbours; not the object headers).</summary>
    public long MemoryBytes
        => 8L * (_intKeys?.Length ?? 0) + (_textArena?.Length ?? 0) + 4L * (_textOffsets?.Length ?? 0)
           + 4L * (_outOffsets.Length + _outTargets.Length + _inOffsets.Length + _inSources.Length);

    private ReadOnlySpan<byte> KeyAt(int node) => _textArena.AsSpan(_textOffsets![node], _textOffsets[node + 1] - _textOffsets[node]);

    private void CheckNode(int node)
    {
        if ((uint)node >= (uint)NodeCount) ThrowNode(node);
    }

    private void ThrowNode(int node)
        => throw new ArgumentOutOfRangeException(nameof(node), node, $"the snapshot has {NodeCount} nodes (0…{NodeCount - 1})");
}
