namespace Sharc.Sql.Ast;

/// <summary>
/// Base of every node of a parsed statement. Nodes are immutable records; lists are read-only and never null
/// (empty when a clause is absent), so record equality compares lists by reference only.
/// </summary>
internal abstract record SqlNode
{
    /// <summary>Offset in the SQL text of the node's first character.</summary>
    public int Start { get; init; }

    /// <summary>Offset just past the node's last character; <c>Sql[Start..End]</c> is the node's source text.</summary>
    public int End { get; init; }
}

/// <summary>How a statement was prefixed with EXPLAIN.</summary>
internal enum SqlExplainMode : byte
{
    /// <summary>Not explained: run the statement.</summary>
    None,
    /// <summary>EXPLAIN: list the program instead of running it.</summary>
    Explain,
    /// <summary>EXPLAIN QUERY PLAN: describe the plan instead of running it.</summary>
    QueryPlan,
}

/// <summary>One SQL statement. <see cref="SqlNode.Start"/>/<see cref="SqlNode.End"/> span it without the ';'.</summary>
internal abstract record SqlStatement : SqlNode
{
    /// <summary>Whether the statement was prefixed with EXPLAIN or EXPLAIN QUERY PLAN.</summary>
    public SqlExplainMode Explain { get; init; }

    /// <summary>
    /// The number of parameter slots the statement uses: the largest parameter index, as sqlite3_bind_parameter_count
    /// reports it (a slot may be unused, e.g. "?5" alone uses 5 slots).
    /// </summary>
    public int ParameterCount { get; init; }

    /// <summary>
    /// The name of each parameter slot (index i holds slot i + 1): ":a", "@a", "$a", "?3" as written, or null for a
    /// slot only reached by a bare "?" or not used at all, as sqlite3_bind_parameter_name reports them.
    /// </summary>
    public IReadOnlyList<string?> ParameterNames { get; init; } = [];
}

/// <summary>What to do when a constraint fails (the OR clause of INSERT/UPDATE, SQLite's "conflict resolution").</summary>
internal enum SqlConflictAction : byte
{
    /// <summary>No OR clause: the default (ABORT, or what the constraint itself says).</summary>
    Default,
    /// <summary>OR ROLLBACK.</summary>
    Rollback,
    /// <summary>OR ABORT.</summary>
    Abort,
    /// <summary>OR FAIL.</summary>
    Fail,
    /// <summary>OR IGNORE.</summary>
    Ignore,
    /// <summary>OR REPLACE (and the REPLACE statement).</summary>
    Replace,
}
