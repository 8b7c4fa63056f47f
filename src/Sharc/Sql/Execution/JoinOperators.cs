using Sharc.Sql.Intent;

namespace Sharc.Sql.Execution;

/// <summary>The top of a join level: binds the joined row (a <see cref="JoinFrame"/>) to the level's frame.</summary>
internal sealed class JoinLevelOperator(RowOperator steps, JoinFrame frame, int levelFrame, TableScanOperator[] emptyGuards) : RowOperator
{
    private bool _empty;

    public override void Open(ExecContext ctx)
    {
        frame.Bind(ctx.Frames);
        ctx.Frames[levelFrame] = frame;
        _empty = false;
        foreach (var guard in emptyGuards)
        {
            if (!guard.WalksNothing()) continue;
            _empty = true;
            break;
        }
        steps.Open(ctx);
    }

    public override bool Next(ExecContext ctx) => !_empty && steps.Next(ctx);

    public override void Close() => steps.Close();
}

/// <summary>
/// One step of a join as a nested loop: for each row of the steps before it (<paramref name="outer"/>), the rows of
/// its item that <paramref name="inner"/> finds and <paramref name="match"/> accepts. A LEFT or FULL join yields an
/// outer row without a match once, its item null; a RIGHT or FULL join yields, after the outer rows run out, each row
/// of its item that never matched, the earlier items null.
/// </summary>
internal sealed class JoinStepOperator(RowOperator outer, JoinInner inner, JoinKind kind, Evaluator? match, int innerFrame, int[] outerFrames) : RowOperator
{
    private enum State : byte
    {
        NeedOuter,
        Inner,
        Unmatched,
        Done,
    }

    private State _state;
    private bool _matched;

    public override void Open(ExecContext ctx)
    {
        outer.Open(ctx);
        inner.Reset();
        _state = State.NeedOuter;
    }

    public override bool Next(ExecContext ctx)
    {
        while (true)
        {
            switch (_state)
            {
                case State.NeedOuter:
                    if (!outer.Next(ctx))
                    {
                        if (kind is JoinKind.Right or JoinKind.Full)
                        {
                            foreach (int f in outerFrames) ctx.Frames[f] = NullFrame.Instance;
                            inner.StartUnmatched(ctx);
                            _state = State.Unmatched;
                            continue;
                        }
                        _state = State.Done;
                        return false;
                    }
                    inner.Open(ctx);
                    _matched = false;
                    _state = State.Inner;
                    continue;
                case State.Inner:
                    while (inner.Next(ctx))
                    {
                        // Kept rows (hash, materialized) are walked without a scan: check here too.
                        ctx.Interruption.Check();
                        if (match is not null && !match.IsTrue(ctx)) continue;
                        _matched = true;
                        inner.MarkMatched();
                        return true;
                    }
                    _state = State.NeedOuter;
                    if (!_matched && kind is JoinKind.Left or JoinKind.Full)
                    {
                        ctx.Frames[innerFrame] = NullFrame.Instance;
                        return true;
                    }
                    continue;
                case State.Unmatched:
                    if (inner.NextUnmatched(ctx)) return true;
                    _state = State.Done;
                    return false;
                default:
                    return false;
            }
        }
    }

    public override void Close()
    {
        outer.Close();
        inner.Close();
    }
}

/// <summary>How a join step finds its item's rows for the current outer row.</summary>
internal abstract class JoinInner
{
    /// <summary>A new execution of the level: anything read in the last one is stale.</summary>
    public virtual void Reset()
    {
    }

    /// <summary>Starts the rows for the current outer row.</summary>
    public abstract void Open(ExecContext ctx);

    /// <summary>The next candidate row, bound to the item's frame.</summary>
    public abstract bool Next(ExecContext ctx);

    /// <summary>The current row matched (RIGHT and FULL joins remember it).</summary>
    public virtual void MarkMatched()
    {
    }

    /// <summary>Starts the rows that never matched (RIGHT and FULL joins).</summary>
    public virtual void StartUnmatched(ExecContext ctx)
    {
    }

    /// <summary>The next row that never matched, bound to the item's frame.</summary>
    public virtual bool NextUnmatched(ExecContext ctx) => false;

    public virtual void Close()
    {
    }
}

/// <summary>Runs the item's own operator again for each outer row (a seek whose key reads the outer row, or a scan).</summary>
internal sealed class LoopInner(RowOperator rows) : JoinInner
{
    public override void Open(ExecContext ctx) => rows.Open(ctx);

    public override bool Next(ExecContext ctx) => rows.Next(ctx);

    public override void Close() => rows.Close();
}
