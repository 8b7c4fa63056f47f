using Sharc.Format;
using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>The compiled pieces of one aggregate call.</summary>
internal sealed record AggregateSpec(AggregateCall Call, Evaluator[] Arguments, Evaluator? Filter);

/// <summary>
/// GROUP BY and aggregates by hashing: one entry per group (memory grows with the number of groups, not rows),
/// each with its accumulators and the columns read after aggregation. The groups come out sorted by their keys, as
/// SQLite's sorter yields them. Groups, their accumulators and the bytes of their text keys are kept for the next
/// run (reset, not made anew), so a statement run again allocates nothing for its groups once it has made enough.
/// Without GROUP BY there is exactly one group, even over no rows (count() is then 0, sum() NULL, columns NULL).
/// </summary>
/// <remarks>
/// Which row of a group the columns come from follows SQLite (its "accumulator load"): with no min() or max()
/// aggregate, the group's first row; otherwise each row on which the last min()/max() of the query either has no
/// value yet or reaches a new minimum or maximum (its first row with a NULL argument when a lone min()/max() without
/// GROUP BY never sees a value).
/// </remarks>
internal sealed class AggregateOperator : RowOperator
{
    private sealed class Group(SqlValue[] row, SqlAggregate[] aggregates)
    {
        public SqlValue[] Row { get; } = row;
        public SqlAggregate[] Aggregates { get; } = aggregates;
        public bool Started { get; set; }
        /// <summary>SQLite's "skip the load" flag, which carries over from row to row.</summary>
        public bool Skip { get; set; }

        /// <summary>Makes the group as new, for another run's use.</summary>
        public void Reset()
        {
            Array.Clear(Row);
            foreach (var a in Aggregates) a.Reset();
            Started = Skip = false;
        }
    }

    private readonly RowOperator _child;
    private readonly int _frame;
    private readonly AggregationIntent _intent;
    private readonly Evaluator[] _keys;
    private readonly AggregateSpec[] _aggregates;
    private readonly Evaluator[] _bare;
    private readonly bool[] _isMinMax;
    private readonly bool _anyMinMax;
    private readonly bool _loneMinMax;
    private readonly Dictionary<SqlValue[], Group> _groups;
    private readonly List<Group> _ordered = [];
    // Every group made so far; a run uses the first _used of them.
    private readonly List<Group> _pool = [];
    private readonly ValueArena _keyBytes = new();
    private readonly Comparison<Group> _compareKeys;
    private int _used;
    private readonly SqlValue[] _probe;
    private readonly SqlValue[][] _argBuffers;
    private readonly ValuesFrame _output = new();
    private Group? _single;
    private int _next;

    public AggregateOperator(RowOperator child, int frame, AggregationIntent intent, Evaluator[] keys, AggregateSpec[] aggregates, Evaluator[] bare)
    {
        _child = child;
        _frame = frame;
        _intent = intent;
        _keys = keys;
        _aggregates = aggregates;
        _bare = bare;
        _isMinMax = new bool[aggregates.Length];
        for (int i = 0; i < aggregates.Length; i++)
        {
            var call = aggregates[i].Call;
            _isMinMax[i] = call.Arguments.Count == 1 && call.Name is "min" or "max";
            _anyMinMax |= _isMinMax[i];
        }
        _loneMinMax = keys.Length == 0 && aggregates.Length == 1 && _anyMinMax;
        _groups = new Dictionary<SqlValue[], Group>(new RowKeyComparer(intent.KeyCollations));
        _probe = new SqlValue[intent.Width];
        _compareKeys = CompareKeys;
        _argBuffers = new SqlValue[aggregates.Length][];
        for (int i = 0; i < aggregates.Length; i++) _argBuffers[i] = new SqlValue[aggregates[i].Arguments.Length];
    }

    public override void Open(ExecContext ctx)
    {
        _groups.Clear();
        _ordered.Clear();
        _single = null;
        _next = _used = 0;
        _keyBytes.Reset();
        ctx.AggregateRows[_frame] = _output;
        _child.Open(ctx);
        try
        {
            while (_child.Next(ctx)) Accumulate(ctx);
        }
        finally
        {
            _child.Close();
        }
        if (_keys.Length == 0)
        {
            _single ??= NewGroup(_probe);
            _ordered.Add(_single);
        }
        else
        {
            _ordered.AddRange(_groups.Values);
            if (_ordered.Count > 1) _ordered.Sort(_compareKeys);
        }
        foreach (var g in _ordered)
            for (int i = 0; i < g.Aggregates.Length; i++) g.Row[_intent.AggregateBase + i] = g.Aggregates[i].Finish();
    }

    private int CompareKeys(Group a, Group b)
    {
        for (int i = 0; i < _keys.Length; i++)
        {
            int c = SqlCompare.Compare(a.Row[i], b.Row[i], _intent.KeyCollations[i]);
            if (c != 0) return c;
        }
        return 0;
    }

    private void Accumulate(ExecContext ctx)
    {
        Group? group;
        if (_keys.Length == 0)
        {
            group = _single ??= NewGroup(_probe);
        }
        else
        {
            for (int i = 0; i < _keys.Length; i++) _probe[i] = _keys[i].Evaluate(ctx);
            if (!_groups.TryGetValue(_probe, out group))
            {
                group = NewGroup(_probe);
                _groups.Add(group.Row, group);
            }
        }

        bool first = !group.Started;
        group.Started = true;
        bool skip = group.Skip;
        for (int i = 0; i < _aggregates.Length; i++)
        {
            var spec = _aggregates[i];
            if (spec.Filter is not null)
            {
                // A filtered min()/max() that does not run leaves the columns loaded only on the group's first row.
                if (_isMinMax[i]) skip = !first;
                if (!spec.Filter.IsTrue(ctx)) continue;
            }
            var args = _argBuffers[i];
            for (int a = 0; a < args.Length; a++) args[a] = spec.Arguments[a].Evaluate(ctx);
            var acc = group.Aggregates[i];
            if (!_isMinMax[i] || _bare.Length == 0)
            {
                acc.Step(args);
                continue;
            }
            var before = acc.Finish();
            acc.Step(args);
            if (args[0].IsNull) skip = !before.IsNull || (_loneMinMax && !first);
            else skip = !before.IsNull && SqlCompare.Compare(before, acc.Finish(), spec.Call.Collation) == 0;
        }
        group.Skip = skip;
        bool load = _anyMinMax ? !skip : first;
        if (load)
            for (int b = 0; b < _bare.Length; b++) group.Row[_intent.BareBase + b] = _bare[b].Evaluate(ctx).ToOwned();
    }

    private Group NewGroup(SqlValue[] probe)
    {
        Group group;
        if (_used < _pool.Count)
        {
            group = _pool[_used];
            group.Reset();
        }
        else
        {
            var accumulators = new SqlAggregate[_aggregates.Length];
            for (int i = 0; i < accumulators.Length; i++)
            {
                var call = _aggregates[i].Call;
                accumulators[i] = call.UserFactory is { } user
                    ? (call.Distinct ? new DistinctAggregate(user(), call.Collation) : user())
                    : AggregateFunctions.Create(call.Name, call.Arguments.Count, call.Distinct, call.Collation);
            }
            group = new Group(new SqlValue[_intent.Width], accumulators);
            _pool.Add(group);
        }
        _used++;
        // The key's bytes must outlive the row they came from: copied into the run's arena (still borrowed, so
        // whatever keeps a group's row past the run copies them).
        for (int i = 0; i < _keys.Length; i++) group.Row[i] = _keyBytes.Keep(probe[i]);
        return group;
    }

    public override bool Next(ExecContext ctx)
    {
        if (_next >= _ordered.Count) return false;
        _output.Row = _ordered[_next++].Row;
        return true;
    }

    public override void Close()
    {
        _groups.Clear();
        _ordered.Clear();
        _single = null;
    }
}
