namespace Sharc.Graph;

/// <summary>The base of the graph layer's errors.</summary>
public class GraphException : SharcException
{
    /// <summary>Creates the exception.</summary>
    public GraphException(string message) : base(message) { }
}

/// <summary>What is wrong with a <see cref="GraphSchema"/> mapping.</summary>
public enum GraphMappingProblem
{
    /// <summary>A mapped table does not exist.</summary>
    UnknownTable,
    /// <summary>A mapped column does not exist in its table.</summary>
    UnknownColumn,
    /// <summary>No index serves a lookup the graph needs (see <see cref="GraphMappingException.CreateIndexSql"/>).</summary>
    MissingIndex,
    /// <summary>The node key is neither INTEGER nor TEXT, or the edge columns' affinity differs from the key's.</summary>
    KeyType,
    /// <summary>The table cannot be used that way (for example a WITHOUT ROWID edge table, whose edges have no rowid).</summary>
    UnsupportedTable,
}

/// <summary>A <see cref="GraphSchema"/> that does not fit the database.</summary>
public sealed class GraphMappingException : GraphException
{
    /// <summary>Creates the exception.</summary>
    public GraphMappingException(GraphMappingProblem problem, string message, string? createIndexSql = null) : base(message)
    {
        Problem = problem;
        CreateIndexSql = createIndexSql;
    }

    /// <summary>What is wrong.</summary>
    public GraphMappingProblem Problem { get; }

    /// <summary>For <see cref="GraphMappingProblem.MissingIndex"/>: the statement(s) that create the missing index(es).</summary>
    public string? CreateIndexSql { get; }
}

/// <summary>A key of the wrong type for the graph (text for an INTEGER-keyed graph, or the reverse).</summary>
public sealed class GraphKeyTypeException : GraphException
{
    /// <summary>Creates the exception.</summary>
    public GraphKeyTypeException(string message) : base(message) { }
}

/// <summary>A topological order was asked of a graph with a cycle (a self-loop is one).</summary>
public sealed class GraphCycleException : GraphException
{
    private const int KeysInMessage = 20;

    /// <summary>Creates the exception for the cycle whose keys are <paramref name="cycle"/>, in edge order.</summary>
    public GraphCycleException(IReadOnlyList<string> cycle)
        : base(Describe(cycle))
    {
        Cycle = cycle;
    }

    /// <summary>The keys of one cycle, in edge order: each has an edge to the next, and the last to the first.</summary>
    public IReadOnlyList<string> Cycle { get; }

    private static string Describe(IReadOnlyList<string> cycle)
    {
        ArgumentNullException.ThrowIfNull(cycle);
        var shown = cycle.Take(KeysInMessage).Append(cycle.Count > KeysInMessage ? $"… ({cycle.Count} nodes in all)" : cycle.FirstOrDefault() ?? "");
        return $"the graph has a cycle, so it has no topological order: {string.Join(" -> ", shown)}";
    }
}

/// <summary>A least-weight search met an edge with a negative (or NaN) weight, which Dijkstra's algorithm cannot handle.</summary>
public sealed class GraphNegativeWeightException : GraphException
{
    /// <summary>Creates the exception.</summary>
    public GraphNegativeWeightException(long edgeRowId, double weight)
        : base($"edge rowid {edgeRowId} has weight {weight}: least-weight paths need weights that are not negative")
    {
        EdgeRowId = edgeRowId;
        Weight = weight;
    }

    /// <summary>The rowid of the offending edge.</summary>
    public long EdgeRowId { get; }

    /// <summary>Its weight.</summary>
    public double Weight { get; }
}

/// <summary>Which edges of a node a cursor or traversal follows.</summary>
public enum GraphDirection
{
    /// <summary>Edges whose source is the node (to their targets).</summary>
    Out,
    /// <summary>Edges whose target is the node (back to their sources).</summary>
    In,
    /// <summary>Both: the outgoing edges first, then the incoming ones (a self-loop appears in each).</summary>
    Both,
}

/// <summary>The type of a graph's node keys.</summary>
public enum GraphKeyType
{
    /// <summary>64-bit integers.</summary>
    Integer,
    /// <summary>Text, compared as its UTF-8 bytes (BINARY).</summary>
    Text,
}
