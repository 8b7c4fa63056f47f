namespace Sharc.Graph;

public sealed partial class GraphWriter
{
    /// <summary>
    /// Adds many nodes and edges in one transaction (the caller's when one is open): the nodes in the order given,
    /// each checked for a duplicate key by an index seek, then the edges, ordered by source key first (stable) so
    /// that the outgoing-edge index is filled in key order rather than at random — edge rowids follow that order.
    /// The edges are held in memory (an array of the records) for the sort. Nothing is written when a record is
    /// refused in the load's own transaction.
    /// </summary>
    /// <exception cref="GraphDuplicateNodeException">A node's key exists already or twice in <paramref name="nodes"/>.</exception>
    /// <exception cref="GraphKeyTypeException">A key's type is not the graph's.</exception>
    /// <exception cref="GraphMappingException">A kind, weight or payload is given that the mapping has no column for.</exception>
    public GraphBulkLoadResult BulkLoad(IEnumerable<GraphNodeRecord> nodes, IEnumerable<GraphEdgeRecord> edges)
    {
        ArgumentNullException.ThrowIfNull(nodes);
        ArgumentNullException.ThrowIfNull(edges);
        var ordered = OrderBySource(edges);
        using var tx = Begin();
        int nodeCount = 0;
        foreach (var n in nodes)
        {
            CheckNode(n.Key, n.Kind, n.Data);
            if (FindNode(n.Key)) ThrowDuplicate(n.Key);
            _nodeWrite.Insert(n.Key, n.Kind, n.Data, _key);
            nodeCount++;
        }
        foreach (var e in ordered)
        {
            CheckEdge(e.Source, e.Target, e.Kind, e.Weight, e.Data);
            _edgeWrite.Insert(e.Source, e.Target, e.Kind, e.Weight, e.Data, _key);
        }
        tx.Commit();
        return new GraphBulkLoadResult(nodeCount, ordered.Length);
    }

    private GraphEdgeRecord[] OrderBySource(IEnumerable<GraphEdgeRecord> edges)
    {
        var all = edges.ToArray();
        if (all.Length < 2) return all;
        var keys = new (long Int, string? Text, int At)[all.Length];
        for (int i = 0; i < all.Length; i++) keys[i] = (all[i].Source.Int64, all[i].Source.Text, i);
        // The position breaks ties, so edges of one source keep their order; text compares as the index does (bytes
        // of UTF-8, which orders as code points, as ordinal UTF-16 comparison does outside the surrogate range).
        Array.Sort(keys, static (a, b) =>
        {
            int c = a.Text is null || b.Text is null ? a.Int.CompareTo(b.Int) : string.CompareOrdinal(a.Text, b.Text);
            return c != 0 ? c : a.At.CompareTo(b.At);
        });
        var sorted = new GraphEdgeRecord[all.Length];
        for (int i = 0; i < keys.Length; i++) sorted[i] = all[keys[i].At];
        return sorted;
    }
}
