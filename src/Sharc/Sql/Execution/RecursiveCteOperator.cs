using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// A recursive CTE, run as SQLite's generateWithRecursiveQuery runs it: the setup rows fill a queue; each row taken
/// from the queue is output (unless OFFSET still skips it), then the recursive SELECTs run with that row as the
/// recursive table and their rows join the queue. With UNION a row seen before is dropped on its way in (the first
/// one wins). With ORDER BY the queue hands out its lowest row first, ties in arrival order. LIMIT stops the
/// recursion once that many rows are out. Memory: the queue and, for UNION, the rows seen.
/// </summary>
internal sealed class RecursiveCteOperator : RowOperator
{
    private readonly CompoundRows _setup;
    private readonly QueryPipeline[] _recursive;
    private readonly RecursiveRow _current;
    private readonly RecursiveCteSource _source;
    private readonly Evaluator? _limit;
    private readonly Evaluator? _offset;
    private readonly int _frame;
    private readonly int _width;
    private readonly int[] _realColumns;
    private readonly ValuesFrame _rowFrame = new();
    private readonly Queue<SqlValue[]> _fifo = new();
    private readonly PriorityQueue<SqlValue[], (SqlValue[] Row, long Seq)>? _ordered;
    private readonly HashSet<SqlValue[]>? _seen;
    // Rows already output and expanded, for the next rows queued to reuse: a UNION ALL walk then allocates per row
    // only while its queue grows. A UNION keeps every row in its seen-set, so it recycles nothing.
    private readonly Stack<SqlValue[]> _free = new();
    private SqlValue[]? _pending;
    private long _sequence, _limitValue, _offsetValue, _skipped, _returned;

    public RecursiveCteOperator(RecursiveCteSource source, CompoundRows setup, QueryPipeline[] recursive, RecursiveRow current, Evaluator? limit, Evaluator? offset, int frame)
    {
        _source = source;
        _setup = setup;
        _recursive = recursive;
        _current = current;
        _limit = limit;
        _offset = offset;
        _frame = frame;
        _width = source.Columns.Count;
        _realColumns = [.. Enumerable.Range(0, _width).Where(i => source.Columns[i].Affinity == SqlAffinity.Real)];
        if (source.Distinct) _seen = new HashSet<SqlValue[]>(new RowKeyComparer(source.Collations));
        if (source.Ordering.Count > 0)
        {
            var order = new RowOrderComparer(source.Ordering);
            _ordered = new PriorityQueue<SqlValue[], (SqlValue[] Row, long Seq)>(Comparer<(SqlValue[] Row, long Seq)>.Create((a, b) =>
            {
                int c = order.Compare(a.Row, b.Row);
                return c != 0 ? c : a.Seq.CompareTo(b.Seq);
            }));
        }
    }

    private int QueueCount => _ordered?.Count ?? _fifo.Count;

    public override void Open(ExecContext ctx)
    {
        Reset();
        ctx.Frames[_frame] = _rowFrame;
        _limitValue = _limit is null ? -1 : QueryPipeline.Integer(_limit.Evaluate(ctx));
        _offsetValue = _offset is null ? 0 : Math.Max(0, QueryPipeline.Integer(_offset.Evaluate(ctx)));
        if (_limitValue == 0) return;
        _setup.Open(ctx);
        try
        {
            while (_setup.MoveNext(ctx)) Push(_setup.Current);
        }
        finally
        {
            _setup.Close();
        }
    }

    public override bool Next(ExecContext ctx)
    {
        if (_pending is not null)
        {
            Expand(_pending, ctx);
            Recycle(_pending);
            _pending = null;
        }
        while (true)
        {
            ctx.Interruption.Check();
            if (_limitValue >= 0 && _returned >= _limitValue) return false;
            if (QueueCount == 0) return false;
            var row = _ordered is not null ? _ordered.Dequeue() : _fifo.Dequeue();
            if (_skipped < _offsetValue)
            {
                _skipped++;
                Expand(row, ctx);
                Recycle(row);
                continue;
            }
            _returned++;
            _rowFrame.Row = row;
            // The row is expanded when the next one is asked for: SQLite outputs a row before running the
            // recursive SELECTs on it, and stops without running them once LIMIT is reached.
            _pending = row;
            return true;
        }
    }

    public override void Close() => Reset();

    private void Reset()
    {
        while (_fifo.TryDequeue(out var left)) Recycle(left);
        if (_ordered is not null)
            while (_ordered.TryDequeue(out var left, out _)) Recycle(left);
        _seen?.Clear();
        if (_pending is not null) Recycle(_pending);
        _pending = null;
        _sequence = _skipped = _returned = 0;
    }

    private void Expand(SqlValue[] row, ExecContext ctx)
    {
        _current.Row = row;
        foreach (var arm in _recursive)
        {
            arm.Open(ctx);
            try
            {
                while (arm.MoveNext(ctx))
                {
                    ctx.Interruption.Check();
                    Push(arm.Current);
                }
            }
            finally
            {
                arm.Close();
            }
        }
    }

    private void Push(SqlValue[] row)
    {
        if (_seen is not null)
        {
            if (_seen.Contains(row)) return;
            row = Rows.Own(row, _width);
            _seen.Add(row);
        }
        else if (_free.TryPop(out var reused))
        {
            for (int i = 0; i < _width; i++) reused[i] = row[i].ToOwned();
            row = reused;
        }
        else
        {
            row = Rows.Own(row, _width);
        }
        // Every read of a REAL column of the table (the outer query's and the recursive SELECTs') turns an integer
        // into a real, as SQLite's OP_RealAffinity after OP_Column does; converting once as the row is queued is the same.
        foreach (int i in _realColumns)
            if (row[i].Type == SharcColumnType.Integer) row[i] = SqlValue.Real(row[i].IntegerValue);
        if (_ordered is not null) _ordered.Enqueue(row, (row, _sequence++));
        else _fifo.Enqueue(row);
    }

    private void Recycle(SqlValue[] row)
    {
        if (_seen is null) _free.Push(row);
    }

    /// <summary>For plans: the CTE's name.</summary>
    public string Name => _source.Name;
}
