using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The rows of a compound SELECT, read as the columns of its level; with <paramref name="affinities"/>, each value
/// given its column's affinity as it is read (a compound SQLite runs as a subquery).
/// </summary>
internal sealed class CompoundScanOperator(CompoundRows compound, int frame, SqlAffinity[]? affinities = null) : RowOperator
{
    private readonly ValuesFrame _frame = new();
    private readonly SqlValue[]? _converted = affinities is null ? null : new SqlValue[affinities.Length];
    private IEnumerator<SqlValue[]>? _rows;

    public override void Open(ExecContext ctx)
    {
        Close();
        ctx.Frames[frame] = _frame;
        _rows = compound.Rows(ctx).GetEnumerator();
    }

    public override bool Next(ExecContext ctx)
    {
        if (_rows is null || !_rows.MoveNext()) return false;
        var row = _rows.Current;
        if (_converted is not null)
        {
            for (int i = 0; i < _converted.Length; i++) _converted[i] = AffinityScanOperator.Apply(row[i], affinities![i]);
            row = _converted;
        }
        _frame.Row = row;
        return true;
    }

    // Disposing the enumerator closes the arm being read.
    public override void Close()
    {
        _rows?.Dispose();
        _rows = null;
    }
}

/// <summary>VALUES (…), (…): each row's expressions evaluated in turn.</summary>
internal sealed class ValuesScanOperator(Evaluator[][] rows, int frame) : RowOperator
{
    private readonly ValuesFrame _frame = new() { Row = new SqlValue[rows[0].Length] };
    private int _next;

    public override void Open(ExecContext ctx)
    {
        _next = 0;
        ctx.Frames[frame] = _frame;
    }

    public override bool Next(ExecContext ctx)
    {
        if (_next >= rows.Length) return false;
        var row = rows[_next++];
        for (int i = 0; i < row.Length; i++) _frame.Row[i] = row[i].Evaluate(ctx);
        return true;
    }
}

/// <summary>
/// The rows of a materialized CTE, computed at most once per execution (the CTE reads no enclosing row, so its
/// answer cannot change within one) and shared by every reference.
/// </summary>
internal sealed class MaterializedRows(QueryPipeline pipeline, int width)
{
    private readonly List<SqlValue[]> _rows = [];
    private int _generation;

    public List<SqlValue[]> Get(ExecContext ctx)
    {
        if (_generation == ctx.Generation) return _rows;
        _rows.Clear();
        pipeline.Open(ctx);
        try
        {
            while (pipeline.MoveNext(ctx)) _rows.Add(CompoundRows.Own(pipeline.Current, width));
        }
        finally
        {
            pipeline.Close();
        }
        _generation = ctx.Generation;
        return _rows;
    }
}

/// <summary>One reference to a materialized CTE.</summary>
internal sealed class MaterializedScanOperator(MaterializedRows rows, int frame) : RowOperator
{
    private readonly ValuesFrame _frame = new();
    private List<SqlValue[]> _rows = [];
    private int _next;

    public override void Open(ExecContext ctx)
    {
        _rows = rows.Get(ctx);
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

/// <summary>The row of a recursive table being expanded, shared by the CTE and the recursive SELECTs reading it.</summary>
internal sealed class RecursiveRow
{
    public SqlValue[] Row { get; set; } = [];
}

/// <summary>A recursive SELECT's FROM item naming its own CTE: the one row being expanded.</summary>
internal sealed class RecursiveRefOperator(RecursiveRow current, int frame) : RowOperator
{
    private readonly ValuesFrame _frame = new();
    private bool _done;

    public override void Open(ExecContext ctx)
    {
        _frame.Row = current.Row;
        ctx.Frames[frame] = _frame;
        _done = false;
    }

    public override bool Next(ExecContext ctx)
    {
        if (_done) return false;
        _done = true;
        return true;
    }
}

/// <summary>The rows of a compound subquery, each value given its column's affinity as it is read.</summary>
internal sealed class AffinityScanOperator(QueryPipeline inner, SqlAffinity[] affinities, int frame) : RowOperator
{
    private readonly ValuesFrame _frame = new() { Row = new SqlValue[affinities.Length] };

    public override void Open(ExecContext ctx)
    {
        inner.Open(ctx);
        ctx.Frames[frame] = _frame;
    }

    public override bool Next(ExecContext ctx)
    {
        if (!inner.MoveNext(ctx)) return false;
        var row = inner.Current;
        for (int i = 0; i < affinities.Length; i++) _frame.Row[i] = Apply(row[i], affinities[i]);
        return true;
    }

    /// <summary>
    /// A value as a subquery's column of <paramref name="affinity"/> reads it: text that reads as a number becomes one
    /// (and numbers text, for TEXT); a REAL column reads integers back as reals. Reals stay reals, as in SQLite's
    /// ephemeral tables.
    /// </summary>
    internal static SqlValue Apply(SqlValue value, SqlAffinity affinity)
    {
        var v = SqlAffinities.ApplyForComparison(value, affinity);
        if (affinity == SqlAffinity.Real && v.Type == SharcColumnType.Integer) v = SqlValue.Real(v.IntegerValue);
        return v;
    }

    public override void Close() => inner.Close();
}
