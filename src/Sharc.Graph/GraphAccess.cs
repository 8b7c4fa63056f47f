namespace Sharc.Graph;

/// <summary>How a node is found by key: which b-tree is sought and how.</summary>
internal sealed class NodeAccess
{
    public enum Mode { RowId, WithoutRowIdKey, Index }

    public required Mode How { get; init; }
    public required string TableName { get; init; }
    public string? IndexName { get; init; }
    public string? KindColumn { get; init; }

    public static NodeAccess Resolve(SharcSchema schema, SharcTable nodes, string keyName, string? kindName)
    {
        var key = SharcGraph.FindColumn(nodes, keyName);
        if (kindName is not null && SharcGraph.FindColumn(nodes, kindName) is null)
            throw new GraphMappingException(GraphMappingProblem.UnknownColumn, $"node table {nodes.Name} has no column {kindName} (the node kind)");
        if (key is null || key.IsRowIdAlias)
            return new NodeAccess { How = Mode.RowId, TableName = nodes.Name, KindColumn = kindName };
        if (nodes.IsWithoutRowId && nodes.PrimaryKey.Count > 0 && nodes.PrimaryKey[0] == key.Ordinal && IsBinary(nodes.PrimaryKeyCollations, 0))
            return new NodeAccess { How = Mode.WithoutRowIdKey, TableName = nodes.Name, KindColumn = kindName };
        SharcIndex? best = null;
        foreach (var index in schema.Indexes)
        {
            if (!Leads(index, nodes, key.Name)) continue;
            // A unique index finds the one node directly; any other still finds it as the first entry.
            if (best is null || (index.IsUnique && !best.IsUnique)) best = index;
        }
        if (best is null)
        {
            string sql = $"CREATE UNIQUE INDEX {SharcGraph.Quote(nodes.Name + "_" + key.Name)} ON {SharcGraph.Quote(nodes.Name)}({SharcGraph.Quote(key.Name)})";
            throw new GraphMappingException(GraphMappingProblem.MissingIndex,
                $"node table {nodes.Name} has no usable index on its key {key.Name}: nodes are never found by scanning the table. Create it with: {sql};", sql + ";");
        }
        return new NodeAccess { How = Mode.Index, TableName = nodes.Name, IndexName = best.Name, KindColumn = kindName };
    }

    /// <summary>True when <paramref name="index"/> can seek <paramref name="table"/> by <paramref name="column"/>: it
    /// holds every row (not partial) and its first column is that column, compared bytewise (so keys match exactly).</summary>
    internal static bool Leads(SharcIndex index, SharcTable table, string column)
        => string.Equals(index.TableName, table.Name, StringComparison.OrdinalIgnoreCase) && !index.IsPartial
           && index.Columns.Count > 0 && index.Columns[0].ExpressionSql is null
           && string.Equals(index.Columns[0].Name, column, StringComparison.OrdinalIgnoreCase)
           && string.Equals(index.Columns[0].Collation, "BINARY", StringComparison.OrdinalIgnoreCase);

    private static bool IsBinary(IReadOnlyList<string> collations, int i)
        => i >= collations.Count || string.Equals(collations[i], "BINARY", StringComparison.OrdinalIgnoreCase);
}

/// <summary>One direction's index over the edge table and where the edge's fields sit in its entries.</summary>
internal sealed class EdgeAccess
{
    public required string IndexName { get; init; }
    public required string TableName { get; init; }
    /// <summary>Positions in the index entry (key columns, then the rowid), or -1 when the table row must be read.</summary>
    public required int OtherPos { get; init; }
    public required int KindPos { get; init; }
    public required int WeightPos { get; init; }
    public required int RowIdPos { get; init; }
    public required string OtherColumn { get; init; }
    public string? KindColumn { get; init; }
    public string? WeightColumn { get; init; }

    public static EdgeAccess? Find(SharcSchema schema, SharcTable edges, string first, string other, GraphSchema mapping)
    {
        EdgeAccess? best = null;
        int bestScore = -1;
        foreach (var index in schema.Indexes)
        {
            if (!NodeAccess.Leads(index, edges, first)) continue;
            int otherPos = Position(index, other), kindPos = Position(index, mapping.EdgeKind), weightPos = Position(index, mapping.EdgeWeight);
            // Kind right after the node key lets a kind filter seek instead of skipping; covering avoids a row read per edge.
            int score = (kindPos == 1 ? 8 : 0) + (otherPos > 0 ? 4 : 0)
                        + (mapping.EdgeKind is null || kindPos > 0 ? 2 : 0) + (mapping.EdgeWeight is null || weightPos > 0 ? 1 : 0);
            if (score <= bestScore) continue;
            bestScore = score;
            best = new EdgeAccess
            {
                IndexName = index.Name,
                TableName = edges.Name,
                OtherPos = otherPos,
                KindPos = kindPos,
                WeightPos = weightPos,
                RowIdPos = index.Columns.Count,
                OtherColumn = other,
                KindColumn = mapping.EdgeKind,
                WeightColumn = mapping.EdgeWeight,
            };
        }
        return best;
    }

    /// <summary>True when the index alone gives everything an edge needs.</summary>
    public bool Covers => OtherPos > 0 && (KindColumn is null || KindPos > 0) && (WeightColumn is null || WeightPos > 0);

    public static string SuggestIndex(string table, string first, string? kind, string other, string role)
    {
        string cols = SharcGraph.Quote(first) + (kind is null ? "" : ", " + SharcGraph.Quote(kind)) + ", " + SharcGraph.Quote(other);
        return $"CREATE INDEX {SharcGraph.Quote(table + "_by_" + role)} ON {SharcGraph.Quote(table)}({cols})";
    }

    private static int Position(SharcIndex index, string? column)
    {
        if (column is null) return -1;
        for (int i = 1; i < index.Columns.Count; i++)
            if (index.Columns[i].ExpressionSql is null && string.Equals(index.Columns[i].Name, column, StringComparison.OrdinalIgnoreCase))
                return i;
        return -1;
    }
}
