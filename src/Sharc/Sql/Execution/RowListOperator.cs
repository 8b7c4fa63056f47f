using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>Serves rows computed beforehand (RETURNING, PRAGMA results) as the top of a pipeline.</summary>
internal sealed class RowListOperator(IReadOnlyList<SqlValue[]> rows) : TupleOperator
{
    private int _next;
    private SqlValue[] _current = [];

    public override SqlValue[] Current => _current;

    public override void Open(ExecContext ctx) => _next = 0;

    public override bool Next(ExecContext ctx)
    {
        if (_next >= rows.Count) return false;
        _current = rows[_next++];
        return true;
    }
}
