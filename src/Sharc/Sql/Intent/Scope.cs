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
}

/// <summary>A result column as first compiled, before aggregation is worked out.</summary>
internal sealed record RawResult(IntentExpr Expr, string Name, string? Alias, SharcColumn? TableColumn);

/// <summary>
/// An aggregate call as first compiled: it stands in the result list, HAVING or ORDER BY until the aggregation is
/// laid out, and is then replaced by an <see cref="AggregateSlotExpr"/>. It never reaches the executor.
/// </summary>
internal sealed record AggregateCallExpr(string Name, IReadOnlyList<IntentExpr> Arguments, bool Distinct, Sharc.Format.Collation Collation, IntentExpr? Filter) : IntentExpr;
