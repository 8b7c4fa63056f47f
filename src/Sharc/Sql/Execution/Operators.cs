namespace Sharc.Sql.Execution;

/// <summary>
/// A pull operator below the projection: each <see cref="Next"/> positions the current row of its level (a frame in
/// <see cref="ExecContext"/>) instead of returning values, so that expressions read columns lazily from wherever the
/// row lives.
/// </summary>
internal abstract class RowOperator
{
    /// <summary>Starts (or restarts) the operator for a new run.</summary>
    public abstract void Open(ExecContext ctx);

    /// <summary>Moves to the next row; false at the end.</summary>
    public abstract bool Next(ExecContext ctx);

    /// <summary>Releases what a run holds (read sessions); the operator can be opened again.</summary>
    public virtual void Close()
    {
    }
}

/// <summary>A pull operator at or above the projection: rows of values.</summary>
internal abstract class TupleOperator
{
    /// <summary>The current row: the output columns, then hidden ORDER BY keys. Values may be borrowed.</summary>
    public abstract Values.SqlValue[] Current { get; }

    public abstract void Open(ExecContext ctx);

    public abstract bool Next(ExecContext ctx);

    public virtual void Close()
    {
    }
}

/// <summary>The one row of a SELECT without FROM.</summary>
internal sealed class SingleRowOperator(int frame) : RowOperator
{
    private bool _done;

    public override void Open(ExecContext ctx)
    {
        ctx.Frames[frame] = EmptyFrame.Instance;
        _done = false;
    }

    public override bool Next(ExecContext ctx)
    {
        if (_done) return false;
        _done = true;
        return true;
    }
}

/// <summary>
/// WHERE or HAVING: passes the rows for which the predicate is true. Under a table scan whose record filter holds the
/// whole clause (<paramref name="provenBy"/>), a row that filter proved true is passed without evaluating it again.
/// </summary>
internal sealed class FilterOperator(RowOperator child, Evaluator predicate, TableScanOperator? provenBy = null) : RowOperator
{
    public override void Open(ExecContext ctx) => child.Open(ctx);

    public override bool Next(ExecContext ctx)
    {
        while (child.Next(ctx))
            if (provenBy is { RowProven: true } || predicate.IsTrue(ctx)) return true;
        return false;
    }

    public override void Close() => child.Close();
}

/// <summary>The rows of a subquery in FROM (or a view), read as the columns of this level.</summary>
internal sealed class SubqueryScanOperator(QueryPipeline inner, int frame) : RowOperator
{
    private readonly ValuesFrame _frame = new();

    public override void Open(ExecContext ctx)
    {
        inner.Open(ctx);
        ctx.Frames[frame] = _frame;
    }

    public override bool Next(ExecContext ctx)
    {
        if (!inner.MoveNext(ctx)) return false;
        _frame.Row = inner.Current;
        return true;
    }

    public override void Close() => inner.Close();
}

/// <summary>Evaluates the output expressions for each row into a reused row of values.</summary>
internal sealed class ProjectOperator(RowOperator child, Evaluator[] projections) : TupleOperator
{
    private readonly Values.SqlValue[] _row = new Values.SqlValue[projections.Length];
    // Projections a top-N may leave until a row proves worth keeping, and the ones it needs first (its sort keys).
    private int[] _eager = [];
    private int[] _deferred = [];

    public override Values.SqlValue[] Current => _row;

    public override void Open(ExecContext ctx) => child.Open(ctx);

    public override bool Next(ExecContext ctx)
    {
        if (!child.Next(ctx)) return false;
        for (int i = 0; i < projections.Length; i++) _row[i] = projections[i].Evaluate(ctx);
        return true;
    }

    /// <summary>
    /// Lets <see cref="NextKeysOnly"/> skip the projections outside <paramref name="keys"/> that are plain reads
    /// (columns, aggregate slots, constants): reading them later gives the same values and can raise no error, so
    /// skipping them for rows a top-N discards changes nothing but the time. Returns false when nothing can be skipped.
    /// </summary>
    public bool DeferAllBut(IReadOnlyList<int> keys)
    {
        var eager = new List<int>();
        var deferred = new List<int>();
        for (int i = 0; i < projections.Length; i++)
        {
            bool plainRead = projections[i] is ColumnNode or AggregateSlotNode or ConstantNode;
            if (plainRead && !keys.Contains(i)) deferred.Add(i);
            else eager.Add(i);
        }
        if (deferred.Count == 0) return false;
        _eager = [.. eager];
        _deferred = [.. deferred];
        return true;
    }

    /// <summary>Moves to the next row evaluating only the projections not deferred; <see cref="CompleteRow"/> does the rest.</summary>
    public bool NextKeysOnly(ExecContext ctx)
    {
        if (!child.Next(ctx)) return false;
        foreach (int i in _eager) _row[i] = projections[i].Evaluate(ctx);
        return true;
    }

    /// <summary>Evaluates the deferred projections of the current row (before the child moves on).</summary>
    public void CompleteRow(ExecContext ctx)
    {
        foreach (int i in _deferred) _row[i] = projections[i].Evaluate(ctx);
    }

    public override void Close() => child.Close();
}
