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
    private bool _open;

    public override void Open(ExecContext ctx)
    {
        Close();
        ctx.Frames[frame] = _frame;
        compound.Open(ctx);
        _open = true;
    }

    public override bool Next(ExecContext ctx)
    {
        if (!_open || !compound.MoveNext(ctx)) return false;
        var row = compound.Current;
        if (_converted is not null)
        {
            for (int i = 0; i < _converted.Length; i++) _converted[i] = AffinityScanOperator.Apply(row[i], affinities![i]);
            row = _converted;
        }
        _frame.Row = row;
        return true;
    }

    // Closing the compound closes the arm being read.
    public override void Close()
    {
        if (!_open) return;
        _open = false;
        compound.Close();
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
/// answer cannot change within one) and shared by every reference. They are kept in a <see cref="RowStore"/>, whose
/// buffers the next execution reuses.
/// </summary>
internal sealed class MaterializedRows(QueryPipeline pipeline, int width)
{
    private readonly RowStore _rows = new(width);
    private int _generation;

    public RowStore Get(ExecContext ctx)
    {
        if (_generation == ctx.Generation) return _rows;
        _rows.Clear();
        pipeline.Open(ctx);
        try
        {
            while (pipeline.MoveNext(ctx)) _rows.Add(pipeline.Current);
        }
        finally
        {
            pipeline.Close();
        }
        _generation = ctx.Generation;
        return _rows;
    }
}

/// <summary>One reference to a materialized CTE: each row copied in turn into this reference's own row.</summary>
internal sealed class MaterializedScanOperator(MaterializedRows rows, int width, int frame) : RowOperator
{
    private readonly ValuesFrame _frame = new() { Row = new SqlValue[width] };
    private RowStore? _rows;
    private int _next;

    public override void Open(ExecContext ctx)
    {
        _rows = rows.Get(ctx);
        _next = 0;
        ctx.Frames[frame] = _frame;
    }

    public override bool Next(ExecContext ctx)
    {
        if (_rows is null || _next >= _rows.Count) return false;
        _rows.CopyTo(_next++, _frame.Row);
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
