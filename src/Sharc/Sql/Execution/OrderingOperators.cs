using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>DISTINCT: passes each row whose output columns were not seen before (a hash set of owned copies).</summary>
internal sealed class DistinctOperator(TupleOperator child, IReadOnlyList<Collation> collations) : TupleOperator
{
    private readonly HashSet<SqlValue[]> _seen = new(new RowKeyComparer(collations));

    public override SqlValue[] Current => child.Current;

    public override void Open(ExecContext ctx)
    {
        _seen.Clear();
        child.Open(ctx);
    }

    public override bool Next(ExecContext ctx)
    {
        while (child.Next(ctx))
        {
            var row = child.Current;
            if (_seen.Contains(row)) continue;
            _seen.Add(Rows.Own(row));
            return true;
        }
        return false;
    }

    public override void Close()
    {
        _seen.Clear();
        child.Close();
    }
}

/// <summary>
/// ORDER BY without LIMIT: collects every row, then sorts. Rows that compare equal keep their arrival order, so the
/// result is deterministic.
/// </summary>
internal sealed class SortOperator(TupleOperator child, IReadOnlyList<OrderingIntent> keys) : TupleOperator
{
    private readonly RowOrderComparer _comparer = new(keys);
    private readonly List<SqlValue[]> _rows = [];
    private int _next;
    private SqlValue[] _current = [];

    public override SqlValue[] Current => _current;

    public override void Open(ExecContext ctx)
    {
        _rows.Clear();
        _next = 0;
        child.Open(ctx);
        try
        {
            while (child.Next(ctx)) _rows.Add(Rows.Own(child.Current));
        }
        finally
        {
            child.Close();
        }
        var order = new int[_rows.Count];
        for (int i = 0; i < order.Length; i++) order[i] = i;
        var rows = _rows;
        var interruption = ctx.Interruption;
        Array.Sort(order, (a, b) =>
        {
            interruption.Check();
            int c = _comparer.Compare(rows[a], rows[b]);
            return c != 0 ? c : a.CompareTo(b);
        });
        var sorted = new List<SqlValue[]>(order.Length);
        foreach (int i in order) sorted.Add(rows[i]);
        _rows.Clear();
        _rows.AddRange(sorted);
    }

    public override bool Next(ExecContext ctx)
    {
        if (_next >= _rows.Count) return false;
        _current = _rows[_next++];
        return true;
    }

    public override void Close()
    {
        _rows.Clear();
        _next = 0;
    }
}

/// <summary>
/// ORDER BY with LIMIT: keeps only the best <see cref="Capacity"/> rows (LIMIT plus OFFSET) in a max-heap, so memory
/// is bounded by the limit; ties are broken by arrival order, giving the same rows as a full stable sort would.
/// </summary>
internal sealed class TopNOperator(TupleOperator child, IReadOnlyList<OrderingIntent> keys) : TupleOperator
{
    /// <summary>
    /// One kept row: its values, whose borrowed text and blob bytes live in the slot's own arena, and its arrival
    /// number (ties keep arrival order). Slots are reused from run to run and from evicted rows to newcomers, so a
    /// warm prepared query keeps its rows without allocating.
    /// </summary>
    private sealed class Slot
    {
        public SqlValue[] Row = [];
        public readonly ValueArena Bytes = new();
        public long Seq;
    }

    private readonly RowOrderComparer _comparer = new(keys);
    // Straight over a projection, only the sort keys are computed until a row beats the worst one kept: most rows
    // of a large input are discarded, and so never pay for their other columns.
    private readonly ProjectOperator? _project =
        child is ProjectOperator p && p.DeferAllBut(keys.Select(k => k.Projection).ToArray()) ? p : null;
    private Comparison<Slot>? _order;
    private Slot[] _slots = [];
    private int _count;
    private int _next;
    private SqlValue[] _current = [];

    /// <summary>How many rows to keep; set by the pipeline before <see cref="Open"/>.</summary>
    public long Capacity { get; set; }

    /// <summary>
    /// The scan's bar on the first key, when the scan below can drop rows on their bytes: raised to the worst kept
    /// row's key whenever the heap is full, so rows that could not enter it are never decoded.
    /// </summary>
    public RecordFilters.OrderGate? Gate { get; set; }

    private void RaiseGate() => Gate?.Raise(_slots[0].Row[keys[0].Projection]);

    public override SqlValue[] Current => _current;

    private int Compare(Slot a, Slot b)
    {
        int c = _comparer.Compare(a.Row, b.Row);
        return c != 0 ? c : a.Seq.CompareTo(b.Seq);
    }

    public override void Open(ExecContext ctx)
    {
        _next = 0;
        _count = 0;
        Gate?.Disarm();
        if (Capacity <= 0) return;
        child.Open(ctx);
        try
        {
            long seq = 0;
            var project = _project;
            while (project is null ? child.Next(ctx) : project.NextKeysOnly(ctx))
            {
                var candidate = child.Current;
                if (_count < Capacity)
                {
                    project?.CompleteRow(ctx);
                    Keep(SlotAt(_count), candidate, seq++);
                    _count++;
                    SiftUp(_count - 1);
                    if (_count == Capacity) RaiseGate();
                }
                // The newcomer arrived last, so a tie with the worst kept row keeps that row: only "better" evicts.
                else if (_comparer.Compare(candidate, _slots[0].Row) < 0)
                {
                    project?.CompleteRow(ctx);
                    // The evicted row's slot takes the newcomer.
                    Keep(_slots[0], candidate, seq++);
                    SiftDown(0);
                    RaiseGate();
                }
                else
                {
                    seq++;
                }
            }
        }
        finally
        {
            child.Close();
        }
        // A cached Comparison over a span: Array.Sort with an IComparer makes a delegate on every call.
        _slots.AsSpan(0, _count).Sort(_order ??= Compare);
    }

    private Slot SlotAt(int i)
    {
        if (i == _slots.Length) Array.Resize(ref _slots, Math.Max(4, (int)Math.Min(Capacity, _slots.Length * 2L)));
        return _slots[i] ??= new Slot();
    }

    /// <summary>Copies <paramref name="row"/> into <paramref name="slot"/>, its borrowed bytes into the slot's arena.</summary>
    private static void Keep(Slot slot, SqlValue[] row, long seq)
    {
        slot.Seq = seq;
        if (slot.Row.Length != row.Length) slot.Row = new SqlValue[row.Length];
        // Kept values stay borrowed (valid until the next run reuses the slot, which is as long as the rows are read).
        slot.Bytes.Reset();
        for (int i = 0; i < row.Length; i++) slot.Row[i] = slot.Bytes.Keep(row[i]);
    }

    public override bool Next(ExecContext ctx)
    {
        if (_next >= _count) return false;
        _current = _slots[_next++].Row;
        return true;
    }

    public override void Close()
    {
        _next = _count;
    }

    // A max-heap: the root is the worst row kept, the first to go.
    private void SiftUp(int i)
    {
        while (i > 0)
        {
            int parent = (i - 1) / 2;
            if (Compare(_slots[i], _slots[parent]) <= 0) break;
            (_slots[i], _slots[parent]) = (_slots[parent], _slots[i]);
            i = parent;
        }
    }

    private void SiftDown(int i)
    {
        int n = _count;
        while (true)
        {
            int l = 2 * i + 1, r = l + 1, largest = i;
            if (l < n && Compare(_slots[l], _slots[largest]) > 0) largest = l;
            if (r < n && Compare(_slots[r], _slots[largest]) > 0) largest = r;
            if (largest == i) return;
            (_slots[i], _slots[largest]) = (_slots[largest], _slots[i]);
            i = largest;
        }
    }
}

/// <summary>OFFSET and LIMIT, set by the pipeline before <see cref="Open"/> (a negative limit means none).</summary>
internal sealed class LimitOperator(TupleOperator child) : TupleOperator
{
    private long _skipped;
    private long _returned;

    public long Limit { get; set; } = -1;

    public long Offset { get; set; }

    public override SqlValue[] Current => child.Current;

    public override void Open(ExecContext ctx)
    {
        _skipped = 0;
        _returned = 0;
        if (Limit != 0) child.Open(ctx);
    }

    public override bool Next(ExecContext ctx)
    {
        if (Limit >= 0 && _returned >= Limit) return false;
        while (_skipped < Offset)
        {
            if (!child.Next(ctx)) return false;
            _skipped++;
        }
        if (!child.Next(ctx)) return false;
        _returned++;
        return true;
    }

    public override void Close() => child.Close();
}
