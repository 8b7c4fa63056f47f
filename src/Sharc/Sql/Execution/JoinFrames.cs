using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>The row an outer join puts in place of a missing item: every column, the rowid too, is NULL.</summary>
internal sealed class NullFrame : RowFrame
{
    public static readonly NullFrame Instance = new();

    public override SqlValue Get(int column) => SqlValue.Null;
}

/// <summary>
/// The joined row of a join level: a column of the join is read from the current row of the item it belongs to,
/// in that item's own frame (so a null-extended item reads as NULL).
/// </summary>
internal sealed class JoinFrame(int[] frameOf, int[] localOf) : RowFrame
{
    private RowFrame[] _frames = [];

    /// <summary>The execution's frames, where each item's current row is.</summary>
    public void Bind(RowFrame[] frames) => _frames = frames;

    public override SqlValue Get(int column) => _frames[frameOf[column]].Get(localOf[column]);
}

/// <summary>A row kept in memory by a hash or materialized join step: slot 0 is the rowid, then the columns.</summary>
internal sealed class KeptRowFrame : RowFrame
{
    public SqlValue[] Row { get; set; } = [];

    public override SqlValue Get(int column) => Row[column + 1];
}
