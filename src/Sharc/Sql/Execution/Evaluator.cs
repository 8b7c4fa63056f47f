using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// A compiled expression: a small object per node, evaluated against the execution's current rows. Nodes are built
/// once per execution plan instance and reused for every row, so evaluation allocates nothing of its own (only
/// values that are new text or blobs, such as a concatenation's result).
/// </summary>
internal abstract class Evaluator
{
    /// <summary>The value for the current rows. Text and blobs may be borrowed from the current row.</summary>
    public abstract SqlValue Evaluate(ExecContext ctx);

    /// <summary>The truth of the value (WHERE, HAVING, CASE WHEN): true, false, or null for NULL.</summary>
    public virtual bool? Truth(ExecContext ctx) => SqlLogic.Truth(Evaluate(ctx));

    /// <summary>True when the value is true (what keeps a row in WHERE).</summary>
    public bool IsTrue(ExecContext ctx) => Truth(ctx) == true;
}

/// <summary>A constant.</summary>
internal sealed class ConstantNode(SqlValue value) : Evaluator
{
    public SqlValue Value { get; } = value;

    public override SqlValue Evaluate(ExecContext ctx) => Value;
}

/// <summary>A bound parameter.</summary>
internal sealed class ParameterNode(int slot) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => ctx.Parameters[slot];
}

/// <summary>A column of a level's current row.</summary>
internal sealed class ColumnNode(int frame, int column) : Evaluator
{
    public int Frame { get; } = frame;

    public int Column { get; } = column;

    public override SqlValue Evaluate(ExecContext ctx) => ctx.Frames[Frame].Get(Column);
}

/// <summary>A slot of a level's current aggregated row.</summary>
internal sealed class AggregateSlotNode(int frame, int slot) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => ctx.AggregateRows[frame].Row[slot];
}
