using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>A frame with its offsets evaluated and checked for this execution.</summary>
internal sealed record FrameBounds(SqlFrameUnit Unit, SqlFrameBoundKind StartKind, SqlValue StartN, SqlFrameBoundKind EndKind, SqlValue EndN, SqlFrameExclude Exclude)
{
    /// <summary>
    /// Evaluates the offsets. ROWS and GROUPS take a non-negative integer (a REAL with an integral value will do),
    /// RANGE any non-negative number; anything else is SQLite's error.
    /// </summary>
    public static FrameBounds Evaluate(WindowFrameIntent f, Evaluator? start, Evaluator? end, ExecContext ctx)
        => new(f.Unit, f.StartKind, Offset(start, f.Unit, "starting", ctx), f.EndKind, Offset(end, f.Unit, "ending", ctx), f.Exclude);

    private static SqlValue Offset(Evaluator? e, SqlFrameUnit unit, string which, ExecContext ctx)
    {
        if (e is null) return SqlValue.Null;
        var v = e.Evaluate(ctx).ToOwned();
        bool ok = unit == SqlFrameUnit.Range
            ? (v.Type == SharcColumnType.Integer && v.IntegerValue >= 0) || (v.Type == SharcColumnType.Real && v.RealValue >= 0)
            : (v.Type == SharcColumnType.Integer && v.IntegerValue >= 0)
              || (v.Type == SharcColumnType.Real && v.RealValue >= 0 && v.RealValue == Math.Floor(v.RealValue) && v.RealValue < 9.2e18);
        if (!ok) SqlErrors.Throw(IntentCompiler.FrameOffsetMessage(unit, which));
        if (unit != SqlFrameUnit.Range && v.Type == SharcColumnType.Real) v = SqlValue.Integer((long)v.RealValue);
        return v;
    }
}

/// <summary>
/// One partition in window order, with its peer groups (rows equal on every ORDER BY term; all rows when there is
/// no ORDER BY), and the frame of each row as SQLite bounds it.
/// </summary>
internal sealed partial class WindowPartition
{
    private SqlValue[][] _rows = [];
    private int[] _peerStart = [];
    private int[] _peerEnd = [];
    private int[] _group = [];
    private readonly List<int> _groupStart = [];
    private IReadOnlyList<OrderingIntent> _order = [];
    private RowOrderComparer _peers = new([]);

    public int Count { get; private set; }

    public SqlValue[] Row(int i) => _rows[i];

    /// <summary>The first row of row <paramref name="i"/>'s peer group.</summary>
    public int PeerStart(int i) => _peerStart[i];

    /// <summary>One past the last row of row <paramref name="i"/>'s peer group.</summary>
    public int PeerEnd(int i) => _peerEnd[i];

    /// <summary>The number of row <paramref name="i"/>'s peer group, from 0.</summary>
    public int Group(int i) => _group[i];

    /// <summary>Takes the rows <paramref name="from"/>..<paramref name="to"/> of <paramref name="order"/> as the partition.</summary>
    public void Load(List<SqlValue[]> rows, int[] order, int from, int to, IReadOnlyList<OrderingIntent> orderBy, RowOrderComparer peers)
    {
        Count = to - from;
        if (_rows.Length < Count)
        {
            int size = Math.Max(Count, _rows.Length * 2);
            _rows = new SqlValue[size][];
            _peerStart = new int[size];
            _peerEnd = new int[size];
            _group = new int[size];
        }
        for (int i = 0; i < Count; i++) _rows[i] = rows[order[from + i]];
        _order = orderBy;
        _peers = peers;
        _groupStart.Clear();
        _cursorFramesFor = null;
        int start = 0;
        while (start < Count)
        {
            int end = start + 1;
            while (end < Count && _peers.Compare(_rows[start], _rows[end]) == 0) end++;
            for (int i = start; i < end; i++)
            {
                _peerStart[i] = start;
                _peerEnd[i] = end;
                _group[i] = _groupStart.Count;
            }
            _groupStart.Add(start);
            start = end;
        }
    }

    /// <summary>The frame of row <paramref name="i"/>: rows Start (inclusive) to End (exclusive), before EXCLUDE.</summary>
    public (int Start, int End) Frame(int i, FrameBounds f)
    {
        if (f.Unit == SqlFrameUnit.Range && (f.StartN.Type != SharcColumnType.Null || f.EndN.Type != SharcColumnType.Null))
            return CursorFrame(i, f);
        int s = f.StartKind switch
        {
            SqlFrameBoundKind.UnboundedPreceding => 0,
            SqlFrameBoundKind.CurrentRow => f.Unit == SqlFrameUnit.Rows ? i : _peerStart[i],
            _ => Offset(i, f, f.StartKind, f.StartN, start: true),
        };
        int e = f.EndKind switch
        {
            SqlFrameBoundKind.UnboundedFollowing => Count,
            SqlFrameBoundKind.CurrentRow => f.Unit == SqlFrameUnit.Rows ? i + 1 : _peerEnd[i],
            _ => Offset(i, f, f.EndKind, f.EndN, start: false),
        };
        return (s, Math.Max(s, e));
    }

    /// <summary>True when EXCLUDE takes row <paramref name="j"/> out of row <paramref name="i"/>'s frame.</summary>
    public bool Excluded(int j, int i, SqlFrameExclude exclude) => exclude switch
    {
        SqlFrameExclude.CurrentRow => j == i,
        SqlFrameExclude.Group => j >= _peerStart[i] && j < _peerEnd[i],
        SqlFrameExclude.Ties => j != i && j >= _peerStart[i] && j < _peerEnd[i],
        _ => false,
    };

    private int Offset(int i, FrameBounds f, SqlFrameBoundKind kind, SqlValue n, bool start)
    {
        bool back = kind == SqlFrameBoundKind.Preceding;
        switch (f.Unit)
        {
            case SqlFrameUnit.Rows:
            {
                long at = back ? i - n.IntegerValue : i + n.IntegerValue;
                if (!start) at++;
                return (int)Math.Clamp(at, 0, Count);
            }
            case SqlFrameUnit.Groups:
            {
                long g = back ? _group[i] - n.IntegerValue : _group[i] + n.IntegerValue;
                if (g < 0) return 0;
                if (g >= _groupStart.Count) return Count;
                return start ? _groupStart[(int)g] : _peerEnd[_groupStart[(int)g]];
            }
            default:
                return start ? CursorFrame(i, f).Start : CursorFrame(i, f).End;
        }
    }
}
