using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The rows of a compound SELECT, produced the way SQLite produces them, because which of several equal rows
/// survives (1 or 1.0, 'a' or 'A' under NOCASE) and the order without ORDER BY depend on it. Read it like a
/// pipeline: <see cref="Open"/>, <see cref="MoveNext"/> until false, <see cref="Close"/>.
/// </summary>
/// <remarks>
/// <para>
/// SQLite (since 3.52/3.53) merges every set operator, with or without ORDER BY: each side is sorted (stably) on the
/// ORDER BY extended by every column — with no ORDER BY, just every column ascending under its collation — the
/// sides are merged, and a set operator drops a row equal to the one output before. So of equal rows a UNION keeps
/// the first of the right side's (the left side's when the right has none), INTERSECT and EXCEPT the first of the
/// left side's. UNION ALL streams when it is the last operator: only the arms after the last set operator run
/// unsorted. Duplicates are decided by <see cref="RowKeyComparer"/> (SQLite's comparison under each column's
/// collation).
/// </para>
/// <para>
/// The merged arms' rows go into one <see cref="RowStore"/> and are sorted and merged as indexes into it; every
/// buffer is kept for the next run. An arm whose rows meet a set operator keeps only the first of the rows that
/// sort equal (<see cref="StoredRowKeys"/>): the merge would drop the others anyway, since a stable sort puts them
/// right after that one and they equal it under every column.
/// </para>
/// </remarks>
internal sealed class CompoundRows
{
    private readonly QueryPipeline[] _arms;
    private readonly SqlCompoundOperator[] _operators;
    private readonly RowKeyComparer _equality;
    private readonly bool _ordered;
    // The last arm merged (its rows and those of every arm before it are sorted and merged); -1 when none is.
    private readonly int _mergedTop;
    // Per arm up to _mergedTop: the keys its rows are sorted on (the merge at its level uses them too) and, for an
    // arm whose rows meet a set operator, the set that finds its rows sorting equal to an earlier one.
    private readonly RowOrderComparer[] _orderAt;
    private readonly HashSet<int>?[] _seenAt;
    private readonly RowStore _store;
    private readonly RowIndexSort _sort = new();
    private readonly SqlValue[] _row;
    private int[] _merged = [], _spare = [], _armRows = [];
    private int _mergedCount, _next;
    private bool _mergePending;
    private int _streamArm;
    private bool _streaming;

    public CompoundRows(QueryPipeline[] arms, SqlCompoundOperator[] operators, Collation[] collations, IReadOnlyList<OrderingIntent> ordering)
    {
        _arms = arms;
        _operators = operators;
        _equality = new RowKeyComparer(collations);
        _ordered = ordering.Count > 0;
        _store = new RowStore(collations.Length);
        _row = new SqlValue[collations.Length];
        int top = _ordered ? arms.Length - 1 : LastSetOperatorArm();
        _mergedTop = top >= 1 ? top : -1;
        _orderAt = new RowOrderComparer[_mergedTop + 1];
        _seenAt = new HashSet<int>?[_orderAt.Length];
        if (_mergedTop < 0) return;
        // SQLite's multiSelectOrderBy, level by level from the top: a set operator extends the keys it is handed by
        // every column, and passes them down to the arms before it.
        IReadOnlyList<OrderingIntent> keys = ordering;
        bool setOperatorAbove = false;
        for (int k = _mergedTop; k >= 1; k--)
        {
            if (operators[k - 1] != SqlCompoundOperator.UnionAll)
            {
                keys = Extend(keys, collations);
                setOperatorAbove = true;
            }
            SetLevel(k, keys, setOperatorAbove);
        }
        SetLevel(0, keys, setOperatorAbove);
    }

    /// <summary>The current row; valid until the next <see cref="MoveNext"/>. Its first columns are the compound's.</summary>
    public SqlValue[] Current { get; private set; } = [];

    /// <summary>Starts a run. With ORDER BY the arms are read and merged now; without, on the first row asked for.</summary>
    public void Open(ExecContext ctx)
    {
        Close();
        _mergedCount = _next = 0;
        _streamArm = _mergedTop + 1;
        _mergePending = _mergedTop >= 0;
        if (_ordered) MergeArms(ctx);
    }

    public bool MoveNext(ExecContext ctx)
    {
        if (_mergePending) MergeArms(ctx);
        if (_next < _mergedCount)
        {
            _store.CopyTo(_merged[_next++], _row);
            Current = _row;
            return true;
        }
        while (_streamArm < _arms.Length)
        {
            var arm = _arms[_streamArm];
            if (!_streaming)
            {
                arm.Open(ctx);
                _streaming = true;
            }
            if (arm.MoveNext(ctx))
            {
                Current = arm.Current;
                return true;
            }
            Close();
            _streamArm++;
        }
        return false;
    }

    /// <summary>Ends the run, closing the arm being streamed.</summary>
    public void Close()
    {
        if (!_streaming) return;
        _streaming = false;
        _arms[_streamArm].Close();
    }

    /// <summary>The arm of the last set operator: those after it are UNION ALLs that stream. 0 when there is none.</summary>
    private int LastSetOperatorArm()
    {
        int k = _arms.Length - 1;
        while (k > 0 && _operators[k - 1] == SqlCompoundOperator.UnionAll) k--;
        return k;
    }

    private void SetLevel(int k, IReadOnlyList<OrderingIntent> keys, bool collapse)
    {
        _orderAt[k] = new RowOrderComparer(keys);
        if (collapse) _seenAt[k] = new HashSet<int>(new StoredRowKeys(_store, _orderAt[k], keys));
    }

    /// <summary>
    /// The ORDER BY extended by every column it does not already sort under the column's own collation, ascending:
    /// rows equal as the set operator sees them then end up side by side.
    /// </summary>
    private static List<OrderingIntent> Extend(IReadOnlyList<OrderingIntent> keys, Collation[] collations)
    {
        var extended = new List<OrderingIntent>(keys);
        for (int i = 0; i < collations.Length; i++)
        {
            bool present = false;
            foreach (var k in keys) present |= k.Projection == i && k.Collation == collations[i];
            if (!present) extended.Add(new OrderingIntent(i, false, true, collations[i]));
        }
        return extended;
    }

    // ---- merging ----------------------------------------------------------------------------------------------

    /// <summary>SQLite's multiSelectOrderBy over arms 0.._mergedTop: their rows, merged, in <see cref="_merged"/>.</summary>
    private void MergeArms(ExecContext ctx)
    {
        _mergePending = false;
        _store.Clear();
        _mergedCount = ReadSorted(0, ref _merged, ctx);
        for (int k = 1; k <= _mergedTop; k++)
        {
            int count = ReadSorted(k, ref _armRows, ctx);
            Reserve(ref _spare, _mergedCount + count);
            _mergedCount = Merge(_operators[k - 1], _orderAt[k], _merged.AsSpan(0, _mergedCount), _armRows.AsSpan(0, count), _spare);
            (_merged, _spare) = (_spare, _merged);
        }
    }

    /// <summary>Reads arm <paramref name="k"/> into the store; its row indexes, sorted, into <paramref name="into"/>.</summary>
    private int ReadSorted(int k, ref int[] into, ExecContext ctx)
    {
        int first = _store.Count;
        var seen = _seenAt[k];
        seen?.Clear();
        var arm = _arms[k];
        arm.Open(ctx);
        try
        {
            while (arm.MoveNext(ctx))
            {
                if (seen is null)
                {
                    _store.Add(arm.Current);
                }
                else if (seen.Add(_store.Stage(arm.Current)))
                {
                    _store.Keep();
                }
            }
        }
        finally
        {
            arm.Close();
        }
        int count = _store.Count - first;
        Reserve(ref into, count);
        for (int i = 0; i < count; i++) into[i] = first + i;
        _sort.Sort(into.AsSpan(0, count), _store, _orderAt[k]);
        return count;
    }

    /// <summary>Merges two sorted lists of rows as <paramref name="op"/> does; returns the number of rows output.</summary>
    private int Merge(SqlCompoundOperator op, RowOrderComparer order, ReadOnlySpan<int> left, ReadOnlySpan<int> right, int[] output)
    {
        int count = 0;
        bool all = op == SqlCompoundOperator.UnionAll;
        void Emit(int row)
        {
            // A set operator never outputs a row equal to the one before it.
            if (!all && count > 0 && _equality.Equals(_store.Row(output[count - 1]), _store.Row(row))) return;
            output[count++] = row;
        }
        int a = 0, b = 0;
        while (a < left.Length && b < right.Length)
        {
            int c = order.Compare(_store.Row(left[a]), _store.Row(right[b]));
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
            for (; a < left.Length; a++) Emit(left[a]);
        if (op is SqlCompoundOperator.UnionAll or SqlCompoundOperator.Union)
            for (; b < right.Length; b++) Emit(right[b]);
        return count;
    }

    private static void Reserve(ref int[] buffer, int size)
    {
        if (buffer.Length < size) buffer = new int[Math.Max(size, buffer.Length * 2)];
    }
}
