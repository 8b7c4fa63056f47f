namespace Sharc.Sql.Intent;

/// <summary>The clause an expression is being compiled for; it decides where aggregates and aliases may appear.</summary>
internal enum Clause : byte
{
    /// <summary>The result columns.</summary>
    Result,
    /// <summary>WHERE.</summary>
    Where,
    /// <summary>GROUP BY.</summary>
    GroupBy,
    /// <summary>HAVING.</summary>
    Having,
    /// <summary>ORDER BY.</summary>
    OrderBy,
    /// <summary>The arguments of an aggregate call.</summary>
    AggregateArguments,
    /// <summary>LIMIT / OFFSET, or an expression with no query around it.</summary>
    Other,
}

/// <summary>
/// The names one query level can see while it is compiled: its source's columns, its result aliases (in the
/// clauses where SQLite allows them), and through <see cref="Parent"/> the levels around it.
/// </summary>
internal sealed class Scope
{
    public Scope(Scope? parent, int frame, IntentSource? source, bool isAggregate)
    {
        Parent = parent;
        Frame = frame;
        Source = source;
        IsAggregate = isAggregate;
    }

    /// <summary>The enclosing query level (a subquery's outer query), or null.</summary>
    public Scope? Parent { get; }

    /// <summary>The frame number of this level.</summary>
    public int Frame { get; }

    /// <summary>The rows of this level, or null for a SELECT without FROM.</summary>
    public IntentSource? Source { get; }

    /// <summary>True when this level aggregates (GROUP BY, or aggregates in its results or HAVING).</summary>
    public bool IsAggregate { get; }

    /// <summary>The result columns, once compiled: WHERE, GROUP BY, HAVING and ORDER BY may name their aliases.</summary>
    public IReadOnlyList<RawResult>? Results { get; set; }

    /// <summary>True when this level's columns must be named with its qualifier (a trigger's NEW and OLD rows).</summary>
    public bool QualifiedOnly { get; init; }

    /// <summary>The clause of this level being compiled now (a subquery sees its enclosing level's clause).</summary>
    public Clause Clause { get; set; }

    /// <summary>The level's WINDOW clause; null where window functions cannot run (only SELECT cores have them).</summary>
    public IReadOnlyList<Ast.SqlWindowDefinition>? WindowDefinitions { get; set; }

    /// <summary>The window calls met so far, in the order SQLite resolves them; null when there are none.</summary>
    public List<PendingWindowCall>? WindowCalls { get; set; }

    /// <summary>The frame of the window stage's rows (allocated with the first window call), or -1.</summary>
    public int WindowFrame { get; set; } = -1;

    /// <summary>True while the arguments, PARTITION BY or ORDER BY of a window call are compiled.</summary>
    public bool InWindowCall { get; set; }
}

/// <summary>
/// A window call as first compiled: its expressions over the level's row. They are rewritten with the rest of the
/// level when it aggregates, then become slots of the window input row.
/// </summary>
internal sealed class PendingWindowCall(string name, bool isAggregate, int offset)
{
    public string Name { get; } = name;
    public bool IsAggregate { get; } = isAggregate;
    public int Offset { get; } = offset;
    public List<IntentExpr> Arguments { get; } = [];
    public IntentExpr? Filter { get; set; }
    public List<IntentExpr> Partition { get; } = [];
    public List<(IntentExpr Expr, bool Descending, bool NullsFirst)> Order { get; } = [];
    public WindowFrameIntent Frame { get; set; } = WindowFrameIntent.Default;
    public Sharc.Format.Collation Collation { get; set; }

    /// <summary>Makes the accumulator of a user-defined aggregate window function; null for built-ins.</summary>
    public Func<Functions.Aggregates.SqlAggregate>? UserFactory { get; set; }

    /// <summary>Rewrites every expression of the call.</summary>
    public void Map(Func<IntentExpr, IntentExpr> map)
    {
        for (int i = 0; i < Arguments.Count; i++) Arguments[i] = map(Arguments[i]);
        if (Filter is not null) Filter = map(Filter);
        for (int i = 0; i < Partition.Count; i++) Partition[i] = map(Partition[i]);
        for (int i = 0; i < Order.Count; i++) Order[i] = (map(Order[i].Expr), Order[i].Descending, Order[i].NullsFirst);
    }
}

/// <summary>A result column as first compiled, before aggregation is worked out.</summary>
internal sealed record RawResult(IntentExpr Expr, string Name, string? Alias, SharcColumn? TableColumn);

/// <summary>
/// An aggregate call as first compiled: it stands in the result list, HAVING or ORDER BY until the aggregation is
/// laid out, and is then replaced by an <see cref="AggregateSlotExpr"/>. It never reaches the executor.
/// </summary>
internal sealed record AggregateCallExpr(string Name, IReadOnlyList<IntentExpr> Arguments, bool Distinct, Sharc.Format.Collation Collation, IntentExpr? Filter) : IntentExpr
{
    /// <summary>Makes the accumulator of a user-defined aggregate (registered on the database); null for built-ins.</summary>
    public Func<Functions.Aggregates.SqlAggregate>? UserFactory { get; init; }
}
