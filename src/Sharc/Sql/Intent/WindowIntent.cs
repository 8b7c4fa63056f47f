using Sharc.Format;
using Sharc.Sql.Ast;

namespace Sharc.Sql.Intent;

/// <summary>
/// A window frame with its defaults filled in. The offsets are constant expressions (parameters allowed), evaluated
/// once per execution and checked then, as SQLite checks them.
/// </summary>
internal sealed record WindowFrameIntent(
    SqlFrameUnit Unit,
    SqlFrameBoundKind StartKind,
    IntentExpr? StartOffset,
    SqlFrameBoundKind EndKind,
    IntentExpr? EndOffset,
    SqlFrameExclude Exclude)
{
    /// <summary>RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: what a window without a frame gets.</summary>
    public static readonly WindowFrameIntent Default = new(SqlFrameUnit.Range, SqlFrameBoundKind.UnboundedPreceding, null, SqlFrameBoundKind.CurrentRow, null, SqlFrameExclude.NoOthers) { Implicit = true };

    /// <summary>True for the default frame of a window written without one (SQLite tells it from the same frame written out).</summary>
    public bool Implicit { get; init; }
}

/// <summary>
/// One window function call. Arguments, FILTER, PARTITION BY and ORDER BY terms are slots of the window input row
/// (<see cref="WindowIntent.Inputs"/>); an ORDER BY term's <see cref="OrderingIntent.Projection"/> is such a slot.
/// <see cref="Collation"/> is the first argument's (for min and max).
/// </summary>
internal sealed record WindowCallIntent(
    string Name,
    bool IsAggregate,
    IReadOnlyList<int> Arguments,
    int Filter,
    IReadOnlyList<int> Partition,
    IReadOnlyList<Collation> PartitionCollations,
    IReadOnlyList<OrderingIntent> Order,
    WindowFrameIntent Frame,
    Collation Collation,
    int Offset)
{
    /// <summary>Makes the accumulator of a user-defined aggregate window function; null for built-ins.</summary>
    public Func<Functions.Aggregates.SqlAggregate>? UserFactory { get; init; }
}

/// <summary>
/// The window stage of a query level, run after WHERE, grouping and HAVING and before the projection, as SQLite runs
/// it (its rewrite makes the level a subquery first). Each row reaching it is kept as the values of
/// <see cref="Inputs"/>, evaluated on the row (plain or aggregated); the row the projection then reads, through
/// <see cref="AggregateSlotExpr"/>s of frame <see cref="Frame"/>, is those values followed by one result per call.
/// </summary>
internal sealed record WindowIntent(int Frame, IReadOnlyList<IntentExpr> Inputs, IReadOnlyList<WindowCallIntent> Calls)
{
    /// <summary>Every expression the stage evaluates: the inputs and the frame offsets.</summary>
    public IEnumerable<IntentExpr> Expressions()
    {
        foreach (var e in Inputs) yield return e;
        foreach (var c in Calls)
        {
            if (c.Frame.StartOffset is not null) yield return c.Frame.StartOffset;
            if (c.Frame.EndOffset is not null) yield return c.Frame.EndOffset;
        }
    }
}
