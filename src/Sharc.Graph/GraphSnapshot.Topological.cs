namespace Sharc.Graph;

public sealed partial class GraphSnapshot
{
    /// <summary>
    /// The node numbers in an order in which every edge goes forward (Kahn's algorithm: nodes without incoming
    /// edges first, in node order, then each node once its predecessors are placed). Isolated nodes are included.
    /// </summary>
    /// <exception cref="GraphCycleException">The graph has a cycle (a self-loop is one); the exception names the keys of one.</exception>
    public int[] TopologicalOrder()
    {
        int n = NodeCount;
        var waiting = new int[n];
        var order = new int[n];
        int tail = 0;
        for (int v = 0; v < n; v++)
        {
            waiting[v] = _inOffsets[v + 1] - _inOffsets[v];
            if (waiting[v] == 0) order[tail++] = v;
        }
        for (int head = 0; head < tail; head++)
        {
            int u = order[head];
            for (int i = _outOffsets[u], end = _outOffsets[u + 1]; i < end; i++)
                if (--waiting[_outTargets[i]] == 0) order[tail++] = _outTargets[i];
        }
        if (tail < n) ThrowCycle(waiting);
        return order;
    }

    /// <summary>
    /// Names one cycle among the nodes left unplaced: each still waits for an unplaced predecessor, so walking from
    /// predecessor to predecessor must come back to a node already on the walk.
    /// </summary>
    private void ThrowCycle(int[] waiting)
    {
        int start = 0;
        while (waiting[start] == 0) start++;
        var walk = new List<int>();
        var placeOnWalk = new Dictionary<int, int>();
        int v = start;
        while (!placeOnWalk.ContainsKey(v))
        {
            placeOnWalk[v] = walk.Count;
            walk.Add(v);
            int next = -1;
            for (int i = _inOffsets[v], end = _inOffsets[v + 1]; i < end && next < 0; i++)
                if (waiting[_inSources[i]] > 0) next = _inSources[i];
            v = next;
        }
        // The walk went against the edges: reversed, from its last node back to where it closed, it follows them.
        var cycle = new List<string>();
        for (int i = walk.Count - 1; i >= placeOnWalk[v]; i--) cycle.Add(GetKeyString(walk[i]));
        throw new GraphCycleException(cycle);
    }
}
