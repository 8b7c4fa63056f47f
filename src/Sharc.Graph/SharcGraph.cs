using System.Text;

namespace Sharc.Graph;

/// <summary>
/// A graph over a <see cref="SharcDatabase"/>, described by a <see cref="GraphSchema"/> checked against the schema
/// when it is made. Makes prepared node lookups, edge cursors and traversals. A SharcGraph may be shared by
/// threads (it holds only the resolved mapping); each prepared object it makes is used by one thread at a time.
/// The mapping is resolved once: after DDL that changes the mapped tables or indexes, make a new SharcGraph.
/// </summary>
public sealed partial class SharcGraph
{
    /// <summary>Resolves <paramref name="schema"/> (the default layout when null) against <paramref name="db"/>.</summary>
    /// <exception cref="GraphMappingException">A table, column or index the mapping needs is missing or unusable.</exception>
    public SharcGraph(SharcDatabase db, GraphSchema? schema = null)
    {
        ArgumentNullException.ThrowIfNull(db);
        Database = db;
        Schema = schema ?? GraphSchema.Default;
        var dbSchema = db.Schema;
        var nodes = dbSchema.FindTable(Schema.NodeTable)
            ?? throw new GraphMappingException(GraphMappingProblem.UnknownTable, $"node table {Schema.NodeTable} does not exist");
        var edges = dbSchema.FindTable(Schema.EdgeTable)
            ?? throw new GraphMappingException(GraphMappingProblem.UnknownTable, $"edge table {Schema.EdgeTable} does not exist");
        if (edges.IsWithoutRowId)
            throw new GraphMappingException(GraphMappingProblem.UnsupportedTable, $"edge table {edges.Name} is WITHOUT ROWID: edges need a rowid to be named");

        KeyType = ResolveNodeKey(nodes);
        Node = NodeAccess.Resolve(dbSchema, nodes, Schema.NodeKey, Schema.NodeKind);

        var source = EdgeColumn(edges, Schema.EdgeSource, "source");
        var target = EdgeColumn(edges, Schema.EdgeTarget, "target");
        if (Schema.EdgeKind is not null) EdgeColumn(edges, Schema.EdgeKind, "kind");
        if (Schema.EdgeWeight is not null) EdgeColumn(edges, Schema.EdgeWeight, "weight");
        CheckKeyAffinity(edges, source);
        CheckKeyAffinity(edges, target);

        var outSide = EdgeAccess.Find(dbSchema, edges, Schema.EdgeSource, Schema.EdgeTarget, Schema);
        var inSide = EdgeAccess.Find(dbSchema, edges, Schema.EdgeTarget, Schema.EdgeSource, Schema);
        if (outSide is null || inSide is null)
        {
            var sql = new StringBuilder();
            if (outSide is null) sql.Append(EdgeAccess.SuggestIndex(edges.Name, Schema.EdgeSource, Schema.EdgeKind, Schema.EdgeTarget, "source")).Append(';');
            if (inSide is null) sql.Append(sql.Length > 0 ? " " : "").Append(EdgeAccess.SuggestIndex(edges.Name, Schema.EdgeTarget, Schema.EdgeKind, Schema.EdgeSource, "target")).Append(';');
            string which = outSide is null && inSide is null ? $"({Schema.EdgeSource}, …) nor ({Schema.EdgeTarget}, …)"
                : outSide is null ? $"({Schema.EdgeSource}, …)" : $"({Schema.EdgeTarget}, …)";
            throw new GraphMappingException(GraphMappingProblem.MissingIndex,
                $"edge table {edges.Name} has no usable index on {which}: edges are never found by scanning the table. Create it with: {sql}",
                sql.ToString());
        }
        OutEdges = outSide;
        InEdges = inSide;
    }

    /// <summary>The database the graph reads.</summary>
    public SharcDatabase Database { get; }

    /// <summary>The mapping in use.</summary>
    public GraphSchema Schema { get; }

    /// <summary>The type of node keys, from the node key column's affinity.</summary>
    public GraphKeyType KeyType { get; }

    /// <summary>The index serving outgoing edges (first column the source).</summary>
    public string OutIndexName => OutEdges.IndexName;

    /// <summary>The index serving incoming edges (first column the target).</summary>
    public string InIndexName => InEdges.IndexName;

    internal NodeAccess Node { get; }
    internal EdgeAccess OutEdges { get; }
    internal EdgeAccess InEdges { get; }

    /// <summary>A prepared lookup of nodes by key (0 bytes per lookup after warm-up).</summary>
    public NodeCursor PrepareNodeLookup() => new(this);

    /// <summary>A prepared cursor over the edges around a node, optionally only those of one kind.</summary>
    /// <exception cref="GraphMappingException">A kind is given but the mapping has no edge kind column.</exception>
    public EdgeCursor PrepareEdges(GraphDirection direction, string? kind = null) => new(this, direction, kind);

    /// <summary>An edge cursor reading a traversal's snapshot (held by the traversal for a whole execution).</summary>
    internal EdgeCursor PrepareEdges(GraphDirection direction, string? kind, SharcSnapshot traversal) => new(this, direction, kind, traversal);

    /// <summary>A prepared breadth-first traversal (see <see cref="PreparedBfs"/>).</summary>
    public PreparedBfs PrepareBfs(BfsOptions? options = null) => new(this, options ?? new BfsOptions());

    /// <summary>
    /// A prepared k-hop neighbourhood (see <see cref="PreparedSubgraph"/>): the nodes within <paramref name="maxHops"/>
    /// edges of the start nodes and the edges among them, stopping at <paramref name="maxNodes"/> nodes.
    /// </summary>
    /// <exception cref="GraphMappingException">A kind is given but the mapping has no edge kind column.</exception>
    public PreparedSubgraph PrepareSubgraph(int maxHops, GraphDirection direction = GraphDirection.Out, string? kind = null, int maxNodes = int.MaxValue)
        => new(this, maxHops, direction, kind, maxNodes);

    /// <summary>A prepared shortest-path search (see <see cref="PreparedShortestPath"/>).</summary>
    public PreparedShortestPath PrepareShortestPath(GraphDirection direction = GraphDirection.Out, string? kind = null)
        => new(this, direction, kind);

    /// <summary>
    /// Loads the graph's adjacency into memory for analytics (see <see cref="GraphSnapshot"/>): every node of the node
    /// table and every key an edge refers to, and the edges (only those of <paramref name="kind"/>, when given),
    /// read by walking the node key's b-tree and the out-edge index once each.
    /// </summary>
    /// <exception cref="GraphMappingException">A kind is given but the mapping has no edge kind column.</exception>
    public GraphSnapshot LoadSnapshot(string? kind = null) => GraphSnapshotLoader.Load(this, kind);

    private GraphKeyType ResolveNodeKey(SharcTable nodes)
    {
        var col = FindColumn(nodes, Schema.NodeKey);
        if (col is null)
        {
            if (IsRowIdName(Schema.NodeKey) && !nodes.IsWithoutRowId) return GraphKeyType.Integer;
            throw new GraphMappingException(GraphMappingProblem.UnknownColumn, $"node table {nodes.Name} has no column {Schema.NodeKey} (the node key)");
        }
        if (col.IsRowIdAlias) return GraphKeyType.Integer;
        return col.Affinity switch
        {
            SharcAffinity.Integer => GraphKeyType.Integer,
            SharcAffinity.Text => GraphKeyType.Text,
            _ => throw new GraphMappingException(GraphMappingProblem.KeyType,
                $"node key {nodes.Name}.{col.Name} is declared '{col.DeclaredType}' ({col.Affinity} affinity): node keys must be INTEGER or TEXT"),
        };
    }

    private void CheckKeyAffinity(SharcTable edges, SharcColumn column)
    {
        var expected = KeyType == GraphKeyType.Integer ? SharcAffinity.Integer : SharcAffinity.Text;
        if (column.Affinity != expected)
            throw new GraphMappingException(GraphMappingProblem.KeyType,
                $"edge column {edges.Name}.{column.Name} has {column.Affinity} affinity but node keys are {KeyType}: declare it {(expected == SharcAffinity.Integer ? "INTEGER" : "TEXT")} so stored keys compare equal");
    }

    private static SharcColumn EdgeColumn(SharcTable edges, string name, string role)
        => FindColumn(edges, name)
           ?? throw new GraphMappingException(GraphMappingProblem.UnknownColumn, $"edge table {edges.Name} has no column {name} (the edge {role})");

    internal static SharcColumn? FindColumn(SharcTable table, string name)
    {
        foreach (var c in table.Columns)
            if (string.Equals(c.Name, name, StringComparison.OrdinalIgnoreCase)) return c;
        return null;
    }

    internal static bool IsRowIdName(string name)
        => name.Equals("rowid", StringComparison.OrdinalIgnoreCase) || name.Equals("oid", StringComparison.OrdinalIgnoreCase)
           || name.Equals("_rowid_", StringComparison.OrdinalIgnoreCase);

    internal static string Quote(string name)
    {
        bool plain = name.Length > 0 && (char.IsAsciiLetter(name[0]) || name[0] == '_');
        foreach (char c in name) plain &= char.IsAsciiLetterOrDigit(c) || c == '_';
        return plain ? name : "\"" + name.Replace("\"", "\"\"") + "\"";
    }
}
