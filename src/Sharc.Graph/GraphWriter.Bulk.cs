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
    /// <param name="nodes">The nodes to add.</param>
    /// <param name="edges">The edges to add.</param>
    /// <param name="rebuildIndexes">
    /// When true, the edge table's indexes that are not UNIQUE are dropped before the edges are written and created
    /// again after (from their own SQL; CREATE INDEX sorts the entries and builds each b-tree bottom-up), in the same
    /// transaction: far less work for a large load than keeping them up to date row by row (100,000 nodes and
    /// 1,000,000 edges in a few seconds), but it rebuilds them over the edges already there too, and the schema
    /// changes, so prepared readers and queries made before (other threads' too) must be made again.
    /// </param>
    /// <exception cref="GraphDuplicateNodeException">A node's key exists already or twice in <paramref name="nodes"/>.</exception>
    /// <exception cref="GraphKeyTypeException">A key's type is not the graph's.</exception>
    /// <exception cref="GraphMappingException">A kind, weight or payload is given that the mapping has no column for.</exception>
    public GraphBulkLoadResult BulkLoad(IEnumerable<GraphNodeRecord> nodes, IEnumerable<GraphEdgeRecord> edges, bool rebuildIndexes = false)
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
        foreach (var e in ordered) CheckEdge(e.Source, e.Target, e.Kind, e.Weight, e.Data);
        var dropped = rebuildIndexes ? DropEdgeIndexes() : null;
        foreach (var e in ordered) _edgeWrite.Insert(e.Source, e.Target, e.Kind, e.Weight, e.Data, _key);
        if (dropped is not null)
        {
            foreach (string sql in dropped) _db.Execute(sql);
            RenewReadersIfSchemaMoved();
        }
        tx.Commit();
        return new GraphBulkLoadResult(nodeCount, ordered.Length);
    }

    /// <summary>Drops the edge table's indexes that no constraint needs; returns the statements that create them again.</summary>
    private List<string> DropEdgeIndexes()
    {
        var sql = new List<string>();
        var indexes = _db.Schema.Indexes
            .Where(i => !i.IsUnique && i.Sql is not null && string.Equals(i.TableName, _map.EdgeTable, StringComparison.OrdinalIgnoreCase)).ToList();
        foreach (var index in indexes)
        {
            sql.Add(index.Sql!);
            _db.Execute("DROP INDEX " + SharcGraph.Quote(index.Name));
        }
        return sql;
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
