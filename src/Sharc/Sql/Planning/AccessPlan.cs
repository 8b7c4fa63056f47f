using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Planning;

/// <summary>How a level reads its table.</summary>
internal enum AccessKind : byte
{
    /// <summary>Every row in storage order (or the rows of a subquery, or the one row of a SELECT without FROM).</summary>
    Scan,
    /// <summary>Seeks by rowid.</summary>
    RowId,
    /// <summary>Seeks in an index (reading the table row of each entry unless the index covers the query).</summary>
    Index,
    /// <summary>Seeks by the primary key of a WITHOUT ROWID table.</summary>
    PrimaryKey,
}

/// <summary>One column of the key a path seeks on: which source column, and how the b-tree orders it.</summary>
internal sealed record KeyColumn(int SourceColumn, Collation Collation, bool Descending);

/// <summary>
/// What one key column must be: equal to <see cref="Value"/> after <see cref="Affinity"/> is applied (the
/// comparison's affinity), or NULL for an IS NULL test, or one of <see cref="InValues"/> for IN.
/// </summary>
internal sealed record KeyTerm(IntentExpr? Value, SqlAffinity Affinity, bool IsNull, IReadOnlyList<IntentExpr>? InValues)
{
    /// <summary>True for an IN list.</summary>
    public bool IsIn => InValues is not null;
}

/// <summary>One end of a range on the key column after the equalities, in value terms (not index order).</summary>
internal sealed record RangeBound(IntentExpr Value, SqlAffinity Affinity, bool Inclusive);

/// <summary>
/// The access path chosen for one query level. The executor seeks to each key (the equalities, one IN list
/// multiplying them), walks forward (or backward) while the key columns still match and the range's far end is not passed,
/// and still applies the whole WHERE clause to every row it reads: the path only narrows what is read.
/// </summary>
internal sealed record AccessPlan(
    AccessKind Kind,
    SharcIndex? Index,
    bool Covering,
    IReadOnlyList<KeyColumn> Columns,
    IReadOnlyList<KeyTerm> Equalities,
    RangeBound? Lower,
    RangeBound? Upper)
{
    /// <summary>A plain scan.</summary>
    public static readonly AccessPlan Scan = new(AccessKind.Scan, null, false, [], [], null, null);

    /// <summary>True when the path seeks (rather than reading from the start).</summary>
    public bool Seeks => Equalities.Count > 0 || Lower is not null || Upper is not null;

    /// <summary>
    /// True when the b-tree is walked from its last entry towards its first (and an IN list is taken from its
    /// largest value down): ORDER BY asked for the reverse of the key order.
    /// </summary>
    public bool Backward { get; init; }
}

/// <summary>The plan of one query level: its access path, and whether that path already yields the ORDER BY order.</summary>
internal sealed record LevelPlan(AccessPlan Access, bool OrderSatisfied, string Description)
{
    /// <summary>For a level that joins several items: the order and method of each step.</summary>
    public JoinPlan? Join { get; init; }
}
