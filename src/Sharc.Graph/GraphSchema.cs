namespace Sharc.Graph;

/// <summary>
/// Maps a graph onto ordinary tables: a node table with a key column (INTEGER or TEXT) and an optional kind column,
/// and an edge table with source and target columns (holding node keys) and optional kind and weight columns.
/// Edges are found through indexes whose first column is the source (outgoing) or the target (incoming);
/// <see cref="SharcGraph"/> refuses a mapping without them rather than scanning.
/// </summary>
/// <param name="NodeTable">The table holding one row per node.</param>
/// <param name="NodeKey">The node table's key column: the rowid, an INTEGER PRIMARY KEY, a UNIQUE (indexed) column or a WITHOUT ROWID primary key.</param>
/// <param name="EdgeTable">The table holding one row per edge (a rowid table).</param>
/// <param name="EdgeSource">The edge table's column holding the source node's key.</param>
/// <param name="EdgeTarget">The edge table's column holding the target node's key.</param>
public sealed record GraphSchema(string NodeTable, string NodeKey, string EdgeTable, string EdgeSource, string EdgeTarget)
{
    /// <summary>The node table's kind (label) column, or null.</summary>
    public string? NodeKind { get; init; }

    /// <summary>The edge table's kind (relation type) column, or null: then kind filters are refused.</summary>
    public string? EdgeKind { get; init; }

    /// <summary>The edge table's weight column, or null: then every edge weighs 1.0 (as does a NULL weight).</summary>
    public string? EdgeWeight { get; init; }

    /// <summary>The node table's data (payload) column, or null. Only <see cref="GraphWriter"/> uses it.</summary>
    public string? NodeData { get; init; }

    /// <summary>The edge table's data (payload) column, or null. Only <see cref="GraphWriter"/> uses it.</summary>
    public string? EdgeData { get; init; }

    /// <summary>Name of the index on the default layout's edges by source: (source_key, kind, target_key).</summary>
    public const string DefaultOutIndex = "_relations_out";

    /// <summary>Name of the index on the default layout's edges by target: (target_key, kind, source_key).</summary>
    public const string DefaultInIndex = "_relations_in";

    /// <summary>
    /// The default layout: <c>_concepts(id INTEGER PRIMARY KEY, key INTEGER NOT NULL UNIQUE, kind TEXT, data TEXT)</c> and
    /// <c>_relations(id INTEGER PRIMARY KEY, source_key INTEGER NOT NULL, target_key INTEGER NOT NULL, kind TEXT,
    /// weight REAL NOT NULL DEFAULT 1.0, data TEXT)</c>, with indexes (source_key, kind, target_key) and
    /// (target_key, kind, source_key).
    /// </summary>
    public static GraphSchema Default { get; } = new("_concepts", "key", "_relations", "source_key", "target_key")
    {
        NodeKind = "kind",
        EdgeKind = "kind",
        EdgeWeight = "weight",
        NodeData = "data",
        EdgeData = "data",
    };

    /// <summary>The SQL script that creates the default layout (idempotent: every statement says IF NOT EXISTS).</summary>
    public const string DefaultLayoutSql =
        "CREATE TABLE IF NOT EXISTS _concepts(id INTEGER PRIMARY KEY, key INTEGER NOT NULL UNIQUE, kind TEXT, data TEXT);\n" +
        "CREATE TABLE IF NOT EXISTS _relations(id INTEGER PRIMARY KEY, source_key INTEGER NOT NULL, target_key INTEGER NOT NULL, " +
        "kind TEXT, weight REAL NOT NULL DEFAULT 1.0, data TEXT);\n" +
        "CREATE INDEX IF NOT EXISTS " + DefaultOutIndex + " ON _relations(source_key, kind, target_key);\n" +
        "CREATE INDEX IF NOT EXISTS " + DefaultInIndex + " ON _relations(target_key, kind, source_key);";

    /// <summary>
    /// Creates the default layout's tables and indexes in <paramref name="db"/> (opened writable) where they do not
    /// exist yet, in one transaction, and returns <see cref="Default"/>.
    /// </summary>
    public static GraphSchema CreateDefault(SharcDatabase db)
    {
        ArgumentNullException.ThrowIfNull(db);
        db.Execute("BEGIN;\n" + DefaultLayoutSql + "\nCOMMIT;");
        return Default;
    }
}
