namespace Sharc.Graph;

public sealed partial class SharcGraph
{
    /// <summary>A writer of this graph's nodes and edges (see <see cref="GraphWriter"/>); the database must be writable.</summary>
    /// <exception cref="GraphMappingException">A mapped data column does not exist, or the node table's key cannot be written.</exception>
    /// <exception cref="InvalidOperationException">The database was opened read-only.</exception>
    public GraphWriter CreateWriter() => new(this);

    /// <summary>
    /// Creates the indexes that <paramref name="schema"/> (the default layout when null) needs and
    /// <paramref name="db"/> lacks — the statements <see cref="GraphMappingException.CreateIndexSql"/> names, for the
    /// node key and for edges by source and by target — in one transaction (the caller's when one is open), then
    /// returns the graph. <paramref name="created"/> lists the statements run (empty when nothing was missing).
    /// </summary>
    /// <exception cref="GraphMappingException">A problem other than a missing index (unknown table or column, key types).</exception>
    public static SharcGraph EnsureIndexes(SharcDatabase db, GraphSchema? schema, out IReadOnlyList<string> created)
    {
        ArgumentNullException.ThrowIfNull(db);
        var statements = new List<string>();
        created = statements;
        using var own = db.InTransaction ? null : db.BeginTransaction();
        // The node key is resolved before the edges, so each missing index shows up in turn: at most node, then edges.
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                var graph = new SharcGraph(db, schema);
                own?.Commit();
                return graph;
            }
            catch (GraphMappingException e) when (e.Problem == GraphMappingProblem.MissingIndex && e.CreateIndexSql is not null && attempt < 3)
            {
                db.Execute(e.CreateIndexSql);
                statements.Add(e.CreateIndexSql);
            }
        }
    }

    /// <summary>As <see cref="EnsureIndexes(SharcDatabase, GraphSchema?, out IReadOnlyList{string})"/>, without the list.</summary>
    public static SharcGraph EnsureIndexes(SharcDatabase db, GraphSchema? schema = null) => EnsureIndexes(db, schema, out _);
}
