using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// One query level ready to run: source → WHERE → aggregation → HAVING → projection → DISTINCT → sort or top-N →
/// OFFSET/LIMIT, as a chain of pull operators. Nothing is materialized except what DISTINCT, a sort or an
/// aggregation must keep. A pipeline can be run again and again (subqueries are, once per outer row).
/// </summary>
internal sealed class QueryPipeline
{
    private readonly TupleOperator _top;
    private readonly TopNOperator? _topN;
    private readonly LimitOperator? _limit;
    private readonly Evaluator? _limitValue;
    private readonly Evaluator? _offsetValue;

    public QueryPipeline(TupleOperator top, TopNOperator? topN, LimitOperator? limit, Evaluator? limitValue, Evaluator? offsetValue)
    {
        _top = top;
        _topN = topN;
        _limit = limit;
        _limitValue = limitValue;
        _offsetValue = offsetValue;
    }

    /// <summary>The current output row (output columns, then hidden sort keys).</summary>
    public SqlValue[] Current => _top.Current;

    /// <summary>Starts a run: LIMIT and OFFSET are evaluated now, as SQLite does before the first row.</summary>
    public void Open(ExecContext ctx)
    {
        long limit = -1, offset = 0;
        if (_limitValue is not null) limit = Integer(_limitValue.Evaluate(ctx));
        if (_offsetValue is not null) offset = Math.Max(0, Integer(_offsetValue.Evaluate(ctx)));
        if (limit < 0) limit = -1;
        if (_topN is not null) _topN.Capacity = limit < 0 || limit > long.MaxValue - offset ? long.MaxValue : limit + offset;
        if (_limit is not null)
        {
            _limit.Limit = limit;
            _limit.Offset = offset;
        }
        _top.Open(ctx);
    }

    public bool MoveNext(ExecContext ctx) => _top.Next(ctx);

    public void Close() => _top.Close();

    /// <summary>A LIMIT or OFFSET value: it must read as an integer (SQLite's OP_MustBeInt), else "datatype mismatch".</summary>
    internal static long Integer(in SqlValue v)
    {
        var n = SqlAffinities.ApplyForStorage(v, SqlAffinity.Numeric);
        if (n.Type != SharcColumnType.Integer) SqlErrors.Throw("datatype mismatch");
        return n.IntegerValue;
    }
}
