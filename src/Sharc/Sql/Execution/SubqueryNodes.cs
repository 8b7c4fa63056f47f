using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// A subquery inside an expression. An uncorrelated one (reading no enclosing level's row) is run once per execution
/// and its answer kept, as SQLite does; a correlated one is run again for each evaluation.
/// </summary>
internal abstract class SubqueryNode(QueryPipeline pipeline, bool correlated) : Evaluator
{
    private int _generation;

    protected QueryPipeline Pipeline { get; } = pipeline;

    /// <summary>True when the cached answer is still good for this execution.</summary>
    protected bool Cached(ExecContext ctx) => !correlated && _generation == ctx.Generation;

    protected void MarkCached(ExecContext ctx) => _generation = correlated ? 0 : ctx.Generation;
}

/// <summary>(SELECT …): the first column of the first row, NULL when there is none.</summary>
internal sealed class ScalarSubqueryNode(QueryPipeline pipeline, bool correlated, int column = 0) : SubqueryNode(pipeline, correlated)
{
    // The answer outlives the subquery's row, so its bytes are copied; the buffer is reused between evaluations.
    private readonly ValueArena _arena = new();
    private SqlValue _value;

    public override SqlValue Evaluate(ExecContext ctx)
    {
        if (Cached(ctx)) return _value;
        Pipeline.Open(ctx);
        try
        {
            _arena.Reset();
            _value = Pipeline.MoveNext(ctx) ? Copy(Pipeline.Current[column]) : SqlValue.Null;
        }
        finally
        {
            Pipeline.Close();
        }
        MarkCached(ctx);
        return _value;
    }

    private SqlValue Copy(in SqlValue v) => _arena.Keep(v);
}

/// <summary>EXISTS (SELECT …).</summary>
internal sealed class ExistsNode(QueryPipeline pipeline, bool correlated) : SubqueryNode(pipeline, correlated)
{
    private bool _exists;

    public override SqlValue Evaluate(ExecContext ctx) => SqlValue.Boolean(Truth(ctx) == true);

    public override bool? Truth(ExecContext ctx)
    {
        if (Cached(ctx)) return _exists;
        Pipeline.Open(ctx);
        try
        {
            _exists = Pipeline.MoveNext(ctx);
        }
        finally
        {
            Pipeline.Close();
        }
        MarkCached(ctx);
        return _exists;
    }
}

/// <summary>
/// x [NOT] IN (SELECT …): the subquery's values, with the comparison affinity applied as SQLite's temporary index
/// stores them, go into a hash set (equality by <see cref="SqlCompare.Compare"/> under the collation); x is probed
/// with the same affinity applied.
/// </summary>
internal sealed class InSubqueryNode : SubqueryNode
{
    private readonly bool _not;
    private readonly Evaluator _operand;
    private readonly SqlAffinity _affinity;
    private readonly HashSet<SqlValue> _values;
    private readonly HashSet<SqlValue>? _seek;
    private bool _sawNull;
    private int _count;

    public InSubqueryNode(bool not, Evaluator operand, QueryPipeline pipeline, bool correlated, SqlAffinity affinity, Collation collation, Collation? seek = null)
        : base(pipeline, correlated)
    {
        _not = not;
        _operand = operand;
        _affinity = affinity;
        _values = new HashSet<SqlValue>(SqlValueComparer.For(collation));
        if (seek is { } s && s != collation) _seek = new HashSet<SqlValue>(SqlValueComparer.For(s));
    }

    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        var x = _operand.Evaluate(ctx);
        if (!Cached(ctx)) Load(ctx);
        bool? r;
        if (_count == 0) r = false;
        else if (x.IsNull) r = null;
        else if ((_seek ?? _values).Contains(SqlAffinities.ApplyForStorage(x, _affinity))) r = true;
        else r = _sawNull ? null : false;
        return _not ? !r : r;
    }

    private void Load(ExecContext ctx)
    {
        _values.Clear();
        _sawNull = false;
        _count = 0;
        Pipeline.Open(ctx);
        try
        {
            while (Pipeline.MoveNext(ctx))
            {
                var v = Pipeline.Current[0];
                _count++;
                if (v.IsNull)
                {
                    _sawNull = true;
                    continue;
                }
                var stored = SqlAffinities.ApplyForStorage(v, _affinity);
                if (_seek is not null)
                {
                    // SQLite's set keeps the last of equal values; the index seeks then match only what it kept.
                    _values.Remove(stored);
                    _values.Add(stored.ToOwned());
                }
                else if (!_values.Contains(stored)) _values.Add(stored.ToOwned());
            }
            if (_seek is not null)
            {
                _seek.Clear();
                foreach (var kept in _values) _seek.Add(kept);
            }
        }
        finally
        {
            Pipeline.Close();
        }
        MarkCached(ctx);
    }
}

/// <summary>
/// A subquery used as a row value: the columns of its first row, all NULL when there is none. Column 0 is always read
/// first by the row value operators, so reading it starts a new run (a correlated subquery) or checks the cache.
/// </summary>
internal sealed class RowSubqueryNode(QueryPipeline pipeline, bool correlated, int width) : SubqueryNode(pipeline, correlated)
{
    private readonly ValueArena _arena = new();
    private readonly SqlValue[] _row = new SqlValue[width];

    public override SqlValue Evaluate(ExecContext ctx) => Column(ctx, 0);

    public SqlValue Column(ExecContext ctx, int column)
    {
        if (column == 0 && !Cached(ctx)) Load(ctx);
        return _row[column];
    }

    private void Load(ExecContext ctx)
    {
        Pipeline.Open(ctx);
        try
        {
            _arena.Reset();
            bool any = Pipeline.MoveNext(ctx);
            for (int i = 0; i < _row.Length; i++)
            {
                if (!any)
                {
                    _row[i] = SqlValue.Null;
                    continue;
                }
                var v = Pipeline.Current[i];
                _row[i] = _arena.Keep(v);
            }
        }
        finally
        {
            Pipeline.Close();
        }
        MarkCached(ctx);
    }
}

/// <summary>One element of a <see cref="RowSubqueryNode"/>.</summary>
internal sealed class RowSubqueryColumnNode(RowSubqueryNode row, int column) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => row.Column(ctx, column);
}

/// <summary>
/// (x, y, …) [NOT] IN (SELECT a, b, …). The subquery's rows are kept (per column with the comparison affinity applied,
/// as SQLite's temporary index stores them) and the left row is compared with each: true on a row that matches in
/// every column, NULL when none does but one could have (a NULL stands where the others match), false otherwise —
/// SQLite's answer from its index probe and its NULL scan.
/// </summary>
internal sealed class RowInSubqueryNode : SubqueryNode
{
    private readonly bool _not;
    private readonly Evaluator[] _left;
    private readonly SqlAffinity[] _affinities;
    private readonly Collation[] _collations;
    private readonly SqlValue[] _probe;
    private readonly List<SqlValue[]> _rows = [];
    private readonly ValueArena _arena = new();
    private int _used;

    public RowInSubqueryNode(bool not, Evaluator[] left, QueryPipeline pipeline, bool correlated, SqlAffinity[] affinities, Collation[] collations)
        : base(pipeline, correlated)
    {
        _not = not;
        _left = left;
        _affinities = affinities;
        _collations = collations;
        _probe = new SqlValue[left.Length];
    }

    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        for (int i = 0; i < _probe.Length; i++) _probe[i] = SqlAffinities.ApplyForStorage(_left[i].Evaluate(ctx), _affinities[i]);
        if (!Cached(ctx)) Load(ctx);
        bool? r = false;
        for (int k = 0; k < _used; k++)
        {
            var row = _rows[k];
            {
                bool? match = true;
                for (int i = 0; i < row.Length; i++)
                {
                    if (_probe[i].IsNull || row[i].IsNull) match = null;
                    else if (SqlCompare.Compare(_probe[i], row[i], _collations[i]) != 0)
                    {
                        match = false;
                        break;
                    }
                }
                if (match == true)
                {
                    r = true;
                    break;
                }
                if (match is null) r = null;
            }
        }
        return _not ? !r : r;
    }

    private void Load(ExecContext ctx)
    {
        // Row arrays and the bytes of text and blobs are kept between runs, so a run allocates only to grow them.
        _used = 0;
        _arena.Reset();
        Pipeline.Open(ctx);
        try
        {
            while (Pipeline.MoveNext(ctx))
            {
                if (_used == _rows.Count) _rows.Add(new SqlValue[_probe.Length]);
                var row = _rows[_used++];
                for (int i = 0; i < row.Length; i++)
                {
                    var v = SqlAffinities.ApplyForStorage(Pipeline.Current[i], _affinities[i]);
                    row[i] = v.Type switch
                    {
                        SharcColumnType.Text => _arena.Text(v.Bytes),
                        SharcColumnType.Blob => _arena.Blob(v.Bytes),
                        _ => v,
                    };
                }
            }
        }
        finally
        {
            Pipeline.Close();
        }
        MarkCached(ctx);
    }
}
