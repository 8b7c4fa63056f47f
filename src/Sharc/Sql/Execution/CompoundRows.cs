using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The rows of a compound SELECT, produced the way SQLite produces them, because which of several equal rows
/// survives (1 or 1.0, 'a' or 'A' under NOCASE) and the order without ORDER BY depend on it.
/// </summary>
/// <remarks>
/// SQLite (since 3.52/3.53) merges every set operator, with or without ORDER BY: each side is sorted (stably) on the
/// ORDER BY extended by every column — with no ORDER BY, just every column ascending under its collation — the
/// sides are merged, and a set operator drops a row equal to the one output before. So of equal rows a UNION keeps
/// the first of the right side's (the left side's when the right has none), INTERSECT and EXCEPT the first of the
/// left side's. UNION ALL streams when it is the last operator: only the arms after the last set operator run
/// unsorted. Duplicates are decided by <see cref="RowKeyComparer"/> (SQLite's comparison under each column's
/// collation).
/// </remarks>
internal sealed class CompoundRows
{
    private readonly QueryPipeline[] _arms;
    private readonly SqlCompoundOperator[] _operators;
    private readonly Collation[] _collations;
    private readonly IReadOnlyList<OrderingIntent> _ordering;
    private readonly RowKeyComparer _equality;

    public CompoundRows(QueryPipeline[] arms, SqlCompoundOperator[] operators, Collation[] collations, IReadOnlyList<OrderingIntent> ordering)
    {
        _arms = arms;
        _operators = operators;
        _collations = collations;
        _ordering = ordering;
        _equality = new RowKeyComparer(collations);
    }

    private int Width => _collations.Length;

    /// <summary>The rows, in SQLite's order; a row is valid until the next one is asked for.</summary>
    public IEnumerable<SqlValue[]> Rows(ExecContext ctx)
    {
        if (_ordering.Count > 0) return Sorted(_arms.Length - 1, _ordering, ctx);
        return Output(_arms.Length - 1, ctx);
    }

    // ---- without ORDER BY ------------------------------------------------------------------------------------

    /// <summary>The rows of arms 0..k: streamed through a trailing UNION ALL, else merged in key order.</summary>
    private IEnumerable<SqlValue[]> Output(int k, ExecContext ctx)
    {
        if (k == 0 || _operators[k - 1] == SqlCompoundOperator.UnionAll)
        {
            if (k > 0)
                foreach (var row in Output(k - 1, ctx)) yield return row;
            foreach (var row in Stream(_arms[k], ctx)) yield return row;
            yield break;
        }
        // A set operator with no ORDER BY merges as if ordered by no term: Sorted extends that to every column.
        foreach (var row in Sorted(k, [], ctx)) yield return row;
    }

    private static IEnumerable<SqlValue[]> Stream(QueryPipeline arm, ExecContext ctx)
    {
        arm.Open(ctx);
        try
        {
            while (arm.MoveNext(ctx)) yield return arm.Current;
        }
        finally
        {
            arm.Close();
        }
    }

    // ---- merging ----------------------------------------------------------------------------------------------

    /// <summary>SQLite's multiSelectOrderBy: the rows of arms 0..k in the order of <paramref name="keys"/>.</summary>
    private List<SqlValue[]> Sorted(int k, IReadOnlyList<OrderingIntent> keys, ExecContext ctx)
    {
        if (k == 0) return SortedArm(_arms[0], keys, ctx);
        var op = _operators[k - 1];
        if (op != SqlCompoundOperator.UnionAll) keys = Extend(keys);
        var left = Sorted(k - 1, keys, ctx);
        var right = SortedArm(_arms[k], keys, ctx);
        var comparer = new RowOrderComparer(keys);
        var output = new List<SqlValue[]>(left.Count + right.Count);
        SqlValue[]? previous = null;
        void Emit(SqlValue[] row)
        {
            // A set operator never outputs a row equal to the one before it.
            if (op != SqlCompoundOperator.UnionAll && previous is not null && _equality.Equals(previous, row)) return;
            output.Add(row);
            previous = row;
        }
        int a = 0, b = 0;
        while (a < left.Count && b < right.Count)
        {
            int c = comparer.Compare(left[a], right[b]);
            if (c < 0)
            {
                if (op != SqlCompoundOperator.Intersect) Emit(left[a]);
                a++;
            }
            else if (c == 0)
            {
                if (op is SqlCompoundOperator.UnionAll or SqlCompoundOperator.Intersect) Emit(left[a]);
                a++;
            }
            else
            {
                if (op is SqlCompoundOperator.UnionAll or SqlCompoundOperator.Union) Emit(right[b]);
                b++;
            }
        }
        if (op is SqlCompoundOperator.UnionAll or SqlCompoundOperator.Union or SqlCompoundOperator.Except)
            for (; a < left.Count; a++) Emit(left[a]);
        if (op is SqlCompoundOperator.UnionAll or SqlCompoundOperator.Union)
            for (; b < right.Count; b++) Emit(right[b]);
        return output;
    }

    /// <summary>
    /// The ORDER BY extended by every column it does not already sort under the column's own collation, ascending:
    /// rows equal as the set operator sees them then end up side by side.
    /// </summary>
    private List<OrderingIntent> Extend(IReadOnlyList<OrderingIntent> keys)
    {
        var extended = new List<OrderingIntent>(keys);
        for (int i = 0; i < Width; i++)
        {
            bool present = false;
            foreach (var k in keys) present |= k.Projection == i && k.Collation == _collations[i];
            if (!present) extended.Add(new OrderingIntent(i, false, true, _collations[i]));
        }
        return extended;
    }

    private List<SqlValue[]> SortedArm(QueryPipeline arm, IReadOnlyList<OrderingIntent> keys, ExecContext ctx)
    {
        var rows = new List<SqlValue[]>();
        foreach (var row in Stream(arm, ctx)) rows.Add(Own(row, Width));
        return StableSort(rows, new RowOrderComparer(keys));
    }

    internal static List<SqlValue[]> StableSort(List<SqlValue[]> rows, RowOrderComparer comparer)
    {
        var order = new int[rows.Count];
        for (int i = 0; i < order.Length; i++) order[i] = i;
        Array.Sort(order, (x, y) =>
        {
            int c = comparer.Compare(rows[x], rows[y]);
            return c != 0 ? c : x.CompareTo(y);
        });
        var sorted = new List<SqlValue[]>(order.Length);
        foreach (int i in order) sorted.Add(rows[i]);
        return sorted;
    }

    /// <summary>An owned copy of the first <paramref name="width"/> values of a row.</summary>
    internal static SqlValue[] Own(SqlValue[] row, int width)
    {
        var copy = new SqlValue[width];
        for (int i = 0; i < width; i++) copy[i] = row[i].ToOwned();
        return copy;
    }
}
