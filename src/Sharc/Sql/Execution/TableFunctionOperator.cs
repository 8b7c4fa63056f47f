using Sharc.Sql.Functions.TableValued;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The rows of a table-valued function: the arguments are evaluated and the rows computed each time the operator
/// is opened, which a join does once per outer row, so arguments that read earlier items see the current row.
/// </summary>
internal sealed class TableFunctionOperator(TableFunction function, Evaluator[] arguments, int frame, SharcDatabase db) : RowOperator
{
    private readonly ValuesFrame _frame = new();
    private readonly List<SqlValue[]> _rows = [];
    private readonly SqlValue[] _args = new SqlValue[arguments.Length];
    private int _next;

    public override void Open(ExecContext ctx)
    {
        for (int i = 0; i < arguments.Length; i++) _args[i] = arguments[i].Evaluate(ctx).ToOwned();
        _rows.Clear();
        function.Rows(_args, ctx.Database ?? db, _rows);
        _next = 0;
        ctx.Frames[frame] = _frame;
    }

    public override bool Next(ExecContext ctx)
    {
        if (_next >= _rows.Count) return false;
        _frame.Row = _rows[_next++];
        return true;
    }
}
