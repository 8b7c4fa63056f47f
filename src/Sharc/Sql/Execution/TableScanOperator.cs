using Sharc.Format;
using Sharc.Sql.Execution.RecordFilters;
using Sharc.Sql.Intent;
using Sharc.Sql.Planning;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// Reads a table along an <see cref="AccessPlan"/>: a scan in storage order, or seeks. For seeks it builds each key
/// once per run (equalities, one IN list — sorted and without duplicates, in the b-tree's order — and the start of
/// the range), seeks to it, and walks forward while the row's key columns still equal the key and the far end of
/// the range is not passed, comparing exactly as the b-tree orders entries. A backward path does the same from the
/// other end: IN values from the last, each key's walk from its last entry down, as SQLite walks for ORDER BY …
/// DESC, so that rows with equal ORDER BY values come in SQLite's order too. Rows are not filtered here: the WHERE
/// clause above checks each one.
/// </summary>
internal sealed class TableScanOperator : RowOperator
{
    private enum Phase : byte
    {
        Start,
        NextKey,
        InKey,
        Done,
    }

    private readonly SharcDataReader _reader;
    private readonly StorageFrame _frame;
    private readonly int _frameId;
    private readonly AccessPlan _access;
    private readonly bool _utf16;
    private readonly bool _seeks;
    private readonly bool _backward;
    private readonly Evaluator?[] _equalities;
    private readonly Evaluator[]? _inItems;
    private readonly int _inPosition = -1;
    private readonly Evaluator? _lower;
    private readonly Evaluator? _upper;

    private readonly SqlValue[] _prefix;
    private readonly SqlValue[] _seekKey;
    private readonly SqlValue[] _inValues;
    private readonly ValueArena _keyArena = new();
    private int _inCount;
    private int _inNext;
    private SqlValue _lowerValue;
    private SqlValue _upperValue;
    private bool _hasLower;
    private bool _hasUpper;
    private bool _rowIdEquality;
    private Phase _phase;
    private RecordFilter? _filter;
    private bool _proven;
    private readonly bool _hasRowIdColumn;

    public TableScanOperator(SharcDatabase db, TableSource table, AccessPlan access, int frame, Func<IntentExpr, Evaluator> compile)
    {
        // A table of another database of the connection (temp, attached) is read through that database.
        db = table.Database ?? db;
        _access = access;
        _seeks = access.Seeks;
        _backward = access.Backward;
        _frameId = frame;
        _utf16 = db.TextEncoding != SharcTextEncoding.Utf8;
        var t = table.Table;
        var ordinals = new int[t.Columns.Count + 1];
        if (access.Kind == AccessKind.Index && access.Covering)
        {
            var index = access.Index!;
            _reader = new SharcDataReader(db, ReaderPlan.Create(db, index.Name, []));
            Array.Fill(ordinals, -1);
            var suffix = ReaderPlan.IndexSuffix(t, index);
            for (int c = -1; c < t.Columns.Count; c++)
            {
                int source = c >= 0 && t.Columns[c].IsRowIdAlias ? -1 : c;
                int field = -1;
                for (int k = 0; k < index.Columns.Count && field < 0; k++)
                    if (source >= 0 && index.Columns[k].TableOrdinal == source) field = k;
                for (int k = 0; k < suffix.Count && field < 0; k++)
                    if (suffix[k] == source) field = index.Columns.Count + k;
                ordinals[c + 1] = field;
            }
        }
        else
        {
            var names = new List<string>(t.Columns.Count + 1);
            foreach (var c in t.Columns) names.Add(c.Name);
            if (table.RowIdName is not null) names.Add(table.RowIdName);
            _reader = new SharcDataReader(db, ReaderPlan.Create(db, t.Name, [.. names]));
            ordinals[0] = table.RowIdName is null ? -1 : t.Columns.Count;
            for (int c = 0; c < t.Columns.Count; c++) ordinals[c + 1] = c;
        }
        _frame = new StorageFrame(_reader, ordinals);
        _hasRowIdColumn = table.RowIdName is not null;

        _equalities = new Evaluator?[access.Equalities.Count];
        for (int i = 0; i < _equalities.Length; i++)
        {
            var term = access.Equalities[i];
            if (term.IsIn)
            {
                _inPosition = i;
                _inItems = [.. term.InValues!.Select(compile)];
            }
            else if (!term.IsNull)
            {
                _equalities[i] = compile(term.Value!);
            }
        }
        _inValues = new SqlValue[_inItems?.Length ?? 0];
        if (access.Lower is not null) _lower = compile(access.Lower.Value);
        if (access.Upper is not null) _upper = compile(access.Upper.Value);
        _prefix = new SqlValue[_equalities.Length];
        _seekKey = new SqlValue[Math.Max(1, _equalities.Length + 1)];
        _rowIdEquality = access.Kind == AccessKind.RowId && _equalities.Length > 0;
    }

    /// <summary>
    /// Lets a plain table scan test <paramref name="where"/> on each record's bytes, skipping the rows it proves false
    /// or NULL before they are decoded. Returns true when the whole clause compiled, so that a row the test proves
    /// true (<see cref="RowProven"/>) needs no second evaluation. Seeks keep the general path: their walks stop by
    /// key, which skipping rows would delay.
    /// </summary>
    public bool FilterOnRecords(IntentExpr where, Func<IntentExpr, Evaluator> compile)
    {
        if (_access.Kind != AccessKind.Scan || _seeks) return false;
        _filter = RecordFilter.Create(where, _frameId, RecordColumnOf, compile);
        return _filter is { Exact: true };
    }

    /// <summary>Where column <paramref name="c"/> of this level lies in the scanned records; null when not stored there.</summary>
    private RecordColumn? RecordColumnOf(int c)
    {
        int columns = _reader.FieldCount - (_hasRowIdColumn ? 1 : 0);
        if (c == SourceColumn.RowId) return _hasRowIdColumn ? RecordColumn.RowId : null;
        return c < columns ? _reader.RecordColumnOf(c) : null;
    }

    /// <summary>
    /// Lets a top-N above this plain scan drop, on the records' bytes, the rows whose first ORDER BY key (column
    /// <paramref name="column"/> of this level) sorts after the worst row it keeps. Only where no row the gate drops
    /// would have been evaluated by anything that can fail or differ: the whole WHERE (if any) is tested on bytes
    /// (<see cref="FilterOnRecords"/> returned true). Returns the gate for the top-N to raise, or null.
    /// </summary>
    public OrderGate? GateOnRecords(int column, OrderingIntent key, bool hasWhere)
    {
        if (_access.Kind != AccessKind.Scan || _seeks || !StoredCompare.Supports(key.Collation)) return null;
        if (RecordColumnOf(column) is not { } stored) return null;
        if (_filter is null)
        {
            if (hasWhere) return null;
            _filter = RecordFilter.PassAll();
        }
        else if (!_filter.Exact)
        {
            return null;
        }
        return _filter.Gate = new OrderGate(stored, key.Descending, key.NullsFirst, key.Collation);
    }

    /// <summary>True when the record filter proved the current row satisfies the whole WHERE clause.</summary>
    public bool RowProven => _proven;

    /// <summary>The b-tree reader this operator walks.</summary>
    public SharcDataReader Reader => _reader;

    /// <summary>
    /// True when a plain walk of the path (no seek) finds no entry: one descent to the first leaf. The reader is left
    /// rewound for <see cref="Open"/>.
    /// </summary>
    public bool WalksNothing()
    {
        _reader.QueryRewind();
        bool any = _reader.Read();
        _reader.QueryRewind();
        return !any;
    }

    public override void Open(ExecContext ctx)
    {
        _reader.QueryRewind();
        ctx.Frames[_frameId] = _frame;
        _keyArena.Reset();
        _phase = Phase.Start;
        _proven = false;
        _filter?.Bind(ctx);
        if (!_seeks) return;
        _phase = Phase.NextKey;
        for (int i = 0; i < _equalities.Length; i++)
        {
            if (i == _inPosition) continue;
            if (_equalities[i] is not { } e)
            {
                _prefix[i] = SqlValue.Null;
                continue;
            }
            var v = SqlAffinities.ApplyForComparison(e.Evaluate(ctx), _access.Equalities[i].Affinity);
            if (v.IsNull)
            {
                // x = NULL is never true.
                _phase = Phase.Done;
                return;
            }
            _prefix[i] = Keep(v);
        }
        if (_inItems is not null) LoadInValues(ctx);
        _hasLower = Bound(_lower, _access.Lower, ctx, out _lowerValue);
        _hasUpper = Bound(_upper, _access.Upper, ctx, out _upperValue);
        _inNext = 0;
    }

    /// <summary>Evaluates one end of the range; a NULL end matches nothing and ends the run.</summary>
    private bool Bound(Evaluator? e, RangeBound? bound, ExecContext ctx, out SqlValue value)
    {
        value = default;
        if (e is null) return false;
        var v = SqlAffinities.ApplyForComparison(e.Evaluate(ctx), bound!.Affinity);
        if (v.IsNull)
        {
            _phase = Phase.Done;
            return false;
        }
        var key = _access.Columns[_access.Equalities.Count];
        // In a UTF-16 database BINARY orders text by its UTF-16 bytes, not as UTF-8 compares: leave such an end to
        // the WHERE clause rather than stop or start by a different order.
        if (_utf16 && v.Type == SharcColumnType.Text && key.Collation == Collation.Binary) return false;
        value = Keep(v);
        return true;
    }

    private void LoadInValues(ExecContext ctx)
    {
        var key = _access.Columns[_inPosition];
        var affinity = _access.Equalities[_inPosition].Affinity;
        int n = 0;
        foreach (var item in _inItems!)
        {
            var v = SqlAffinities.ApplyForComparison(item.Evaluate(ctx), affinity);
            if (v.IsNull) continue;
            // Insertion sort in b-tree order (lists are short), dropping duplicates: each key is sought once, in order.
            int at = n;
            bool duplicate = false;
            while (at > 0)
            {
                int c = KeyOrder(_inValues[at - 1], v, key);
                if (c == 0)
                {
                    duplicate = true;
                    break;
                }
                if (c < 0) break;
                at--;
            }
            if (duplicate) continue;
            Array.Copy(_inValues, at, _inValues, at + 1, n - at);
            _inValues[at] = Keep(v);
            n++;
        }
        _inCount = n;
        if (n == 0) _phase = Phase.Done;
    }

    private static int KeyOrder(in SqlValue a, in SqlValue b, KeyColumn key)
    {
        int c = SqlCompare.Compare(a, b, key.Collation);
        return key.Descending ? -c : c;
    }

    private SqlValue Keep(in SqlValue v) => v.Type switch
    {
        SharcColumnType.Text => _keyArena.Text(v.Bytes),
        SharcColumnType.Blob => _keyArena.Blob(v.Bytes),
        _ => v,
    };

    public override bool Next(ExecContext ctx)
    {
        ctx.Interruption.Check();
        while (true)
        {
            switch (_phase)
            {
                case Phase.Done:
                    return false;
                case Phase.Start:
                    // A plain walk from the first entry (in index order when an index is the path).
                    _phase = Phase.InKey;
                    if (!StartScan()) return Finish();
                    if (_filter is not null && !AcceptCurrent() && !_reader.ReadWhere(_filter, ctx.Interruption, out _proven)) return Finish();
                    _frame.NewRow();
                    return true;
                case Phase.NextKey:
                {
                    if (_inPosition >= 0)
                    {
                        if (_inNext >= _inCount) return Finish();
                        int next = _inNext++;
                        _prefix[_inPosition] = _inValues[_backward ? _inCount - 1 - next : next];
                    }
                    else if (_inNext++ > 0)
                    {
                        return Finish();
                    }
                    _phase = Phase.InKey;
                    if (!Seek())
                    {
                        _phase = Phase.NextKey;
                        continue;
                    }
                    _frame.NewRow();
                    if (InRange()) return true;
                    _phase = Phase.NextKey;
                    continue;
                }
                default:
                {
                    if (_rowIdEquality)
                    {
                        _phase = Phase.NextKey;
                        continue;
                    }
                    if (!(_filter is null ? _reader.Read() : _reader.ReadWhere(_filter, ctx.Interruption, out _proven)))
                    {
                        if (!_seeks) return Finish();
                        _phase = Phase.NextKey;
                        continue;
                    }
                    _frame.NewRow();
                    if (!_seeks || InRange()) return true;
                    _phase = Phase.NextKey;
                    continue;
                }
            }
        }
    }

    private bool AcceptCurrent()
    {
        var t = _reader.JudgeCurrent(_filter!);
        _proven = t == RecordTruth.True;
        return t is RecordTruth.True or RecordTruth.Unknown;
    }

    private bool Finish()
    {
        _phase = Phase.Done;
        _reader.QueryRewind();
        return false;
    }

    private bool StartScan()
    {
        bool throughIndex = _access.Kind == AccessKind.Index && !_access.Covering;
        if (_backward) return throughIndex ? _reader.QueryLastThroughIndex(_access.Index!.Name) : _reader.QueryLast();
        if (throughIndex) return _reader.QueryFirstThroughIndex(_access.Index!.Name);
        return _reader.Read();
    }

    /// <summary>Positions on the first entry of the current key; false when there is none.</summary>
    private bool Seek()
    {
        int n = _equalities.Length;
        if (_access.Kind == AccessKind.RowId)
        {
            if (n > 0) return ToRowId(_prefix[0], out long id) && _reader.Seek(id);
            if (_backward)
            {
                if (!_hasUpper) return _reader.QueryLast();
                return UpperRowId(_upperValue, _access.Upper!.Inclusive, out long end, out bool endInclusive) switch
                {
                    RowIdEnd.None => false,
                    RowIdEnd.Last => _reader.QueryLast(),
                    _ => _reader.QuerySeekRowIdLast(end, endInclusive),
                };
            }
            if (!_hasLower) return _reader.Read();
            if (!LowerRowId(_lowerValue, out long start)) return false;
            return _reader.Seek(start) || _reader.Read();
        }

        for (int i = 0; i < n; i++) _seekKey[i] = _prefix[i];
        bool inclusive = true;
        if (n < _access.Columns.Count && (_hasLower || _hasUpper))
        {
            var key = _access.Columns[n];
            if (AscendingWalk(key))
            {
                if (_hasLower)
                {
                    _seekKey[n++] = _lowerValue;
                    inclusive = _access.Lower!.Inclusive;
                }
                // Only an upper end: start past the NULLs, which sort lowest and satisfy no comparison.
                else _seekKey[n++] = SqlValue.Real(double.NegativeInfinity);
            }
            else if (_hasUpper)
            {
                _seekKey[n++] = _upperValue;
                inclusive = _access.Upper!.Inclusive;
            }
        }
        if (_backward)
        {
            // The last entry at or before the start (in b-tree order); an exclusive end is left out right away.
            if (_access.Kind == AccessKind.Index && !_access.Covering)
            {
                if (n == 0) return _reader.QueryLastThroughIndex(_access.Index!.Name);
                return _reader.QuerySeekIndexLast(_access.Index!.Name, _seekKey.AsSpan(0, n), inclusive);
            }
            return n == 0 ? _reader.QueryLast() : _reader.QuerySeekKeyLast(_seekKey.AsSpan(0, n), inclusive);
        }
        if (_access.Kind == AccessKind.Index && !_access.Covering)
        {
            if (n == 0) return _reader.QueryFirstThroughIndex(_access.Index!.Name);
            return _reader.QuerySeekIndex(_access.Index!.Name, _seekKey.AsSpan(0, n)) || _reader.Read();
        }
        if (n == 0) return _reader.Read();
        return _reader.QuerySeekKey(_seekKey.AsSpan(0, n)) || _reader.Read();
    }

    /// <summary>True while the row is inside the current key and range, in the b-tree's own order.</summary>
    private bool InRange()
    {
        int n = _equalities.Length;
        for (int i = 0; i < n; i++)
        {
            var key = _access.Columns[i];
            if (SqlCompare.Compare(_frame.Get(key.SourceColumn), _prefix[i], key.Collation) != 0) return false;
        }
        if (n >= _access.Columns.Count) return true;
        var range = _access.Columns[n];
        if (AscendingWalk(range))
        {
            if (!_hasUpper) return true;
            int c = SqlCompare.Compare(_frame.Get(range.SourceColumn), _upperValue, range.Collation);
            return c < 0 || (c == 0 && _access.Upper!.Inclusive);
        }
        if (!_hasLower)
        {
            // Walking down with only an upper end: the NULLs come last and satisfy no comparison.
            return !_hasUpper || !_frame.Get(range.SourceColumn).IsNull;
        }
        int d = SqlCompare.Compare(_frame.Get(range.SourceColumn), _lowerValue, range.Collation);
        return d > 0 || (d == 0 && _access.Lower!.Inclusive);
    }

    /// <summary>True when the walk meets the column's values from the lowest up (an ascending key walked forward, or
    /// a descending one walked backward).</summary>
    private bool AscendingWalk(KeyColumn key) => key.Descending == _backward;

    private enum RowIdEnd : byte
    {
        None,
        Last,
        Seek,
    }

    /// <summary>Where a backward walk under an upper end starts: nowhere (no rowid is that low), at the last row
    /// (text and blobs sort above every number), or at the last rowid at most (or below) <paramref name="end"/>.</summary>
    private static RowIdEnd UpperRowId(in SqlValue v, bool inclusiveBound, out long end, out bool inclusive)
    {
        end = 0;
        inclusive = inclusiveBound;
        switch (v.Type)
        {
            case SharcColumnType.Integer:
                end = v.IntegerValue;
                return RowIdEnd.Seek;
            case SharcColumnType.Real:
            {
                double r = v.RealValue;
                if (double.IsNaN(r)) return RowIdEnd.None;
                double f = Math.Floor(r);
                if (f >= 9223372036854775808.0) return RowIdEnd.Last;
                if (f < -9223372036854775808.0) return RowIdEnd.None;
                end = (long)f;
                // Below a fractional end, its floor is still inside.
                if (f != r) inclusive = true;
                return RowIdEnd.Seek;
            }
            default:
                return RowIdEnd.Last;
        }
    }

    /// <summary>The rowid a value equals, when it is an integer (or an integral real).</summary>
    private static bool ToRowId(in SqlValue v, out long id)
    {
        id = 0;
        switch (v.Type)
        {
            case SharcColumnType.Integer:
                id = v.IntegerValue;
                return true;
            case SharcColumnType.Real:
            {
                double r = v.RealValue;
                if (r < -9223372036854775808.0 || r >= 9223372036854775808.0 || r != Math.Floor(r)) return false;
                id = (long)r;
                return true;
            }
            default:
                return false;
        }
    }

    /// <summary>The first rowid not below a lower bound; false when no rowid can reach it (text sorts above numbers).</summary>
    private static bool LowerRowId(in SqlValue v, out long start)
    {
        start = long.MinValue;
        switch (v.Type)
        {
            case SharcColumnType.Integer:
                start = v.IntegerValue;
                return true;
            case SharcColumnType.Real:
            {
                double r = Math.Ceiling(v.RealValue);
                if (r >= 9223372036854775808.0) return false;
                start = r < -9223372036854775808.0 ? long.MinValue : (long)r;
                return true;
            }
            default:
                return false;
        }
    }

    public override void Close() => _reader.QueryRewind();
}
