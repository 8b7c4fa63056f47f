using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The window stage of a level: keeps every row as its window inputs, then for each window (a distinct PARTITION BY,
/// ORDER BY and frame, as SQLite tells windows apart) sorts the rows stably by partition and order keys and computes
/// that window's calls partition by partition. As in SQLite, the windows are taken from the last written to the
/// first, each sort starting from the previous one's order, and the rows come out in the first window's order —
/// which decides ties in row_number() and the order of a query without ORDER BY.
/// </summary>
internal sealed class WindowOperator : RowOperator
{
    private sealed record Pass(OrderingIntent[] Partition, OrderingIntent[] Order, WindowFrameIntent Frame, RowOrderComparer Comparer, List<int> Calls)
    {
        // Rows share a partition (or are peers) exactly when these compare equal.
        public RowOrderComparer PartitionKeys { get; } = new(Partition);
        public RowOrderComparer OrderKeys { get; } = new(Order);
    }

    private readonly RowOperator _child;
    private readonly WindowIntent _intent;
    private readonly Evaluator[] _inputs;
    private readonly (Evaluator? Start, Evaluator? End)[] _offsets;
    private readonly List<Pass> _passes = [];
    private readonly List<SqlValue[]> _rows = [];
    private readonly WindowPartition _partition = new();
    private readonly ValuesFrame _output = new();
    private int[] _order = [];
    private int _next;

    public WindowOperator(RowOperator child, WindowIntent intent, Evaluator[] inputs, (Evaluator? Start, Evaluator? End)[] offsets)
    {
        _child = child;
        _intent = intent;
        _inputs = inputs;
        _offsets = offsets;
        for (int c = 0; c < intent.Calls.Count; c++)
        {
            var call = intent.Calls[c];
            var partition = new OrderingIntent[call.Partition.Count];
            for (int i = 0; i < partition.Length; i++) partition[i] = new OrderingIntent(call.Partition[i], false, true, call.PartitionCollations[i]);
            var order = call.Order.ToArray();
            // SQLite's windows differ by frame too, and each sorts the rows again, from the order the last left them in.
            var pass = _passes.Find(p => p.Partition.SequenceEqual(partition) && p.Order.SequenceEqual(order) && SameFrame(p.Frame, call.Frame));
            if (pass is null)
            {
                pass = new Pass(partition, order, call.Frame, new RowOrderComparer([.. partition, .. order]), []);
                _passes.Add(pass);
            }
            pass.Calls.Add(c);
        }
    }

    public override void Open(ExecContext ctx)
    {
        _rows.Clear();
        _next = 0;
        int width = _inputs.Length + _intent.Calls.Count;
        _child.Open(ctx);
        try
        {
            while (_child.Next(ctx))
            {
                var row = new SqlValue[width];
                for (int i = 0; i < _inputs.Length; i++) row[i] = _inputs[i].Evaluate(ctx).ToOwned();
                _rows.Add(row);
            }
        }
        finally
        {
            _child.Close();
        }
        var frames = new FrameBounds[_intent.Calls.Count];
        for (int c = 0; c < frames.Length; c++) frames[c] = FrameBounds.Evaluate(_intent.Calls[c].Frame, _offsets[c].Start, _offsets[c].End, ctx);

        var order = new int[_rows.Count];
        for (int i = 0; i < order.Length; i++) order[i] = i;
        for (int pi = _passes.Count - 1; pi >= 0; pi--)
        {
            var pass = _passes[pi];
            var rows = _rows;
            var comparer = pass.Comparer;
            // Array.Sort is not stable: the previous position breaks ties.
            var rank = new int[order.Length];
            for (int i = 0; i < order.Length; i++) rank[order[i]] = i;
            Array.Sort(order, (a, b) =>
            {
                int c = comparer.Compare(rows[a], rows[b]);
                return c != 0 ? c : rank[a].CompareTo(rank[b]);
            });
            int start = 0;
            while (start < order.Length)
            {
                int end = start + 1;
                while (end < order.Length && pass.PartitionKeys.Compare(rows[order[start]], rows[order[end]]) == 0) end++;
                _partition.Load(rows, order, start, end, pass.Order, pass.OrderKeys);
                foreach (int c in pass.Calls) WindowFunctions.Evaluate(_intent.Calls[c], _inputs.Length + c, _partition, frames[c]);
                start = end;
            }
        }
        _order = order;
        ctx.AggregateRows[_intent.Frame] = _output;
    }

    private static bool SameFrame(WindowFrameIntent a, WindowFrameIntent b)
        => a.Unit == b.Unit && a.StartKind == b.StartKind && a.EndKind == b.EndKind && a.Exclude == b.Exclude && a.Implicit == b.Implicit
           && SameOffset(a.StartOffset, b.StartOffset) && SameOffset(a.EndOffset, b.EndOffset);

    private static bool SameOffset(IntentExpr? a, IntentExpr? b) => a is null ? b is null : b is not null && IntentEquality.Same(a, b);

    public override bool Next(ExecContext ctx)
    {
        if (_next >= _order.Length) return false;
        _output.Row = _rows[_order[_next++]];
        return true;
    }

    public override void Close()
    {
        _rows.Clear();
        _order = [];
    }
}
