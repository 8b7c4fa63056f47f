namespace Sharc.Graph;

/// <summary>
/// A prepared breadth-first traversal over a <see cref="GraphSnapshot"/>'s in-memory adjacency, by node number (see
/// <see cref="GraphSnapshot.PrepareBfs"/>): for traversals repeated many times over a graph that does not change, where
/// walking the file's edge indexes (<see cref="PreparedBfs"/>: an index seek per expanded node) costs more than loading
/// the snapshot once. It sees the graph as the snapshot does: the database as it was when loaded, and only the
/// snapshot's kind of edges.
/// <para>
/// Visits are numbered 0…<see cref="VisitedCount"/>−1 in breadth-first order (so depths never decrease), each with
/// its node, its depth and the visit it was first reached from. Results are valid until the next <c>Execute</c>.
/// Its arrays (16 bytes a node of the snapshot) are made once, so executions allocate nothing. One thread at a time;
/// several may each prepare their own over one snapshot.
/// </para>
/// </summary>
public sealed class SnapshotBfs
{
    private readonly GraphSnapshot _snapshot;
    // A node is visited in this execution when its stamp is the current generation: clearing is one increment.
    private readonly int[] _stamp, _node, _depth, _parent;
    private int _generation;

    internal SnapshotBfs(GraphSnapshot snapshot, GraphDirection direction, int maxDepth)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxDepth);
        if (direction is not (GraphDirection.Out or GraphDirection.In or GraphDirection.Both))
            throw new ArgumentOutOfRangeException(nameof(direction), direction, "the direction must be Out, In or Both");
        _snapshot = snapshot;
        Direction = direction;
        MaxDepth = maxDepth;
        int n = snapshot.NodeCount;
        _stamp = new int[n];
        _node = new int[n];
        _depth = new int[n];
        _parent = new int[n];
    }

    /// <summary>Which edges the traversal follows.</summary>
    public GraphDirection Direction { get; }

    /// <summary>No node farther than this from the start is visited.</summary>
    public int MaxDepth { get; }

    /// <summary>How many nodes the last execution visited, the start included.</summary>
    public int VisitedCount { get; private set; }

    /// <summary>
    /// Visits every node within <see cref="MaxDepth"/> of node <paramref name="start"/> (a node number of the
    /// snapshot) along the traversal's direction; returns <see cref="VisitedCount"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">No node has that number.</exception>
    public int Execute(int start)
    {
        if ((uint)start >= (uint)_stamp.Length) ThrowNode(start);
        if (++_generation == int.MaxValue)
        {
            Array.Clear(_stamp);
            _generation = 1;
        }
        int gen = _generation, count = 1;
        _stamp[start] = gen;
        _node[0] = start;
        _depth[0] = 0;
        _parent[0] = -1;
        for (int head = 0; head < count; head++)
        {
            int d = _depth[head];
            if (d >= MaxDepth) break;
            int u = _node[head];
            if (Direction != GraphDirection.In) count = Visit(_snapshot.OutNeighborsOf(u), head, d + 1, count, gen);
            if (Direction != GraphDirection.Out) count = Visit(_snapshot.InNeighborsOf(u), head, d + 1, count, gen);
        }
        VisitedCount = count;
        return count;
    }

    /// <summary>The node number of visit <paramref name="visit"/> (its key: <see cref="GraphSnapshot.GetKeyInt64"/> or <see cref="GraphSnapshot.GetKeyUtf8"/>).</summary>
    public int GetNode(int visit) => _node[Check(visit)];

    /// <summary>The depth of visit <paramref name="visit"/> (0 for the start).</summary>
    public int GetDepth(int visit) => _depth[Check(visit)];

    /// <summary>The visit that first reached <paramref name="visit"/>, or −1 for the start.</summary>
    public int GetParent(int visit) => _parent[Check(visit)];

    private int Visit(ReadOnlySpan<int> neighbors, int head, int depth, int count, int gen)
    {
        int[] stamp = _stamp;
        foreach (int v in neighbors)
        {
            if (stamp[v] == gen) continue;
            stamp[v] = gen;
            _node[count] = v;
            _depth[count] = depth;
            _parent[count] = head;
            count++;
        }
        return count;
    }

    private int Check(int visit)
    {
        if ((uint)visit >= (uint)VisitedCount) ThrowVisit(visit);
        return visit;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowVisit(int visit)
        => throw new ArgumentOutOfRangeException(nameof(visit), visit, $"the last execution visited {VisitedCount} nodes");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowNode(int node)
        => throw new ArgumentOutOfRangeException(nameof(node), node, $"the snapshot has {_stamp.Length} nodes (0…{_stamp.Length - 1})");
}
