using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

/// <summary>Where a query level's rows come from.</summary>
internal abstract record IntentSource(string Name, IReadOnlyList<SourceColumn> Columns);

/// <summary>
/// A table of the schema. <see cref="RowIdName"/> is the name under which the rowid can be read back from a b-tree
/// reader (the first of rowid, oid, _rowid_ that no real column shadows), or null for WITHOUT ROWID tables.
/// </summary>
internal sealed record TableSource(SharcTable Table, string Name, IReadOnlyList<SourceColumn> Columns, string? RowIdName, string? IndexedBy, bool NotIndexed)
    : IntentSource(Name, Columns)
{
    /// <summary>The database that holds the table when the connection has others (temp, attached); null: the one the statement runs on.</summary>
    public SharcDatabase? Database { get; init; }

    /// <summary>The name of that database ("main", "temp" or an ATTACH name), for schema-qualified column names.</summary>
    public string? SchemaName { get; init; }
}

/// <summary>A view of the schema, or a subquery in FROM: the rows of another query.</summary>
internal sealed record SubquerySource(QueryIntent Query, string Name, IReadOnlyList<SourceColumn> Columns) : IntentSource(Name, Columns);

/// <summary>
/// One output column. <see cref="TableColumn"/> is set when the expression is a plain table column (its declared type
/// is then the result's, as sqlite3_column_decltype reports it).
/// </summary>
internal sealed record ProjectionIntent(IntentExpr Expr, string Name, Collation Collation, SharcColumn? TableColumn);

/// <summary>An ORDER BY key: a projection (visible or hidden), its direction, where NULLs go and its collation.</summary>
internal sealed record OrderingIntent(int Projection, bool Descending, bool NullsFirst, Collation Collation);

/// <summary>
/// An aggregate call: its arguments (evaluated on each input row), DISTINCT, the argument collation (min, max,
/// DISTINCT) and an optional FILTER.
/// </summary>
internal sealed record AggregateCall(string Name, IReadOnlyList<IntentExpr> Arguments, bool Distinct, Collation Collation, IntentExpr? Filter, int Offset)
{
    /// <summary>Makes the accumulator of a user-defined aggregate; null for built-ins.</summary>
    public Func<Functions.Aggregates.SqlAggregate>? UserFactory { get; init; }
}

/// <summary>
/// The grouping of an aggregate query. The aggregated row of each group is laid out as the group keys, then the
/// aggregate results, then the bare columns (columns read after aggregation, taken from the group's representative
/// row); post-aggregation expressions read it through <see cref="AggregateSlotExpr"/>.
/// </summary>
internal sealed record AggregationIntent(
    IReadOnlyList<IntentExpr> Keys,
    IReadOnlyList<Collation> KeyCollations,
    IReadOnlyList<AggregateCall> Aggregates,
    IReadOnlyList<ColumnExpr> BareColumns)
{
    /// <summary>The slot of the first aggregate result.</summary>
    public int AggregateBase => Keys.Count;

    /// <summary>The slot of the first bare column.</summary>
    public int BareBase => Keys.Count + Aggregates.Count;

    /// <summary>The width of the aggregated row.</summary>
    public int Width => Keys.Count + Aggregates.Count + BareColumns.Count;
}

/// <summary>
/// What one SELECT asks for, names resolved and semantics fixed, before any choice of how to run it: the source,
/// the filter, the grouping, the output columns, the ordering and the limits. Output columns past
/// <see cref="VisibleCount"/> are hidden: ORDER BY keys that are not among the results.
/// </summary>
/// <remarks>
/// Expressions in <see cref="Where"/>, the grouping keys and aggregate arguments see the source row. When
/// <see cref="Aggregation"/> is set, <see cref="Projections"/>, <see cref="Having"/> and ORDER BY see the
/// aggregated row instead. <see cref="Frame"/> numbers this query level within its statement: a column reference
/// names the frame whose current row it reads, so references to enclosing levels are correlation.
/// </remarks>
internal sealed record QueryIntent(
    int Frame,
    IntentSource? Source,
    IReadOnlyList<ProjectionIntent> Projections,
    int VisibleCount,
    IntentExpr? Where,
    AggregationIntent? Aggregation,
    IntentExpr? Having,
    IReadOnlyList<OrderingIntent> OrderBy,
    IntentExpr? Limit,
    IntentExpr? Offset,
    bool Distinct)
{
    /// <summary>The window functions of the level, or null; they run between HAVING and the projection.</summary>
    public WindowIntent? Windows { get; init; }
}

/// <summary>
/// A compiled SELECT statement: its intent, how many frames its levels use, and its parameters as SQLite numbers
/// and names them.
/// </summary>
internal sealed record StatementIntent(QueryIntent Query, int FrameCount, int ParameterCount, IReadOnlyList<string?> ParameterNames)
{
    /// <summary>The schemas of the temp and attached databases it was compiled against (null when there were none).</summary>
    public SharcSchema[]? OtherSchemas { get; init; }
}
