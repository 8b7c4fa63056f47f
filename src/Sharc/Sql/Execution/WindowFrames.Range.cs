using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// RANGE frames with an offset (<c>n PRECEDING</c> / <c>n FOLLOWING</c>), bounded as SQLite bounds them: not by
/// exact arithmetic on the current row's key but by three cursors (frame start, current row, frame end) that only
/// move forward, one peer group at a time, as rows arrive. Each step asks whether <c>boundary key ± n</c> (SQLite's
/// arithmetic: an integer that overflows becomes REAL, text and blobs are left as they are, NULL stays NULL) lies on
/// the right side of another cursor's key. Near ±2^63, or with a REAL offset, that test is not monotonic, and the
/// frames SQLite computes differ from exact ones; following its cursors gives its answers. (One shape is left out:
/// UNBOUNDED PRECEDING AND a fractional n PRECEDING, where SQLite's aggregates disagree with each other; see
/// docs/COMPAT.md.)
/// </summary>
internal sealed partial class WindowPartition
{
    private FrameBounds? _cursorFramesFor;
    private int[] _cursorStart = [];
    private int[] _cursorEnd = [];

    private enum RangeTest
    {
        Ge,
        Gt,
        Le,
        Lt,
    }

    private (int Start, int End) CursorFrame(int i, FrameBounds f)
    {
        if (!ReferenceEquals(_cursorFramesFor, f))
        {
            ComputeCursorFrames(f);
            _cursorFramesFor = f;
        }
        int g = _group[i];
        return (_cursorStart[g], _cursorEnd[g]);
    }

    /// <summary>The frame of each peer group (rows Start..End, End exclusive), as SQLite's cursors leave it.</summary>
    private void ComputeCursorFrames(FrameBounds f)
    {
        int groups = _groupStart.Count;
        if (_cursorStart.Length < groups)
        {
            _cursorStart = new int[Math.Max(groups, _cursorStart.Length * 2)];
            _cursorEnd = new int[_cursorStart.Length];
        }
        if (groups == 0) return;
        var s = f.StartKind;
        var e = f.EndKind;
        // No shortcut for a frame that cannot hold a row (2 FOLLOWING AND 1 FOLLOWING): a NULL key's peer group
        // still frames itself, as the cursors find.
        // Cursor positions as peer-group numbers: groups before start were taken out (inverse), groups before end
        // were stepped in, current is the next group to return; available is how many groups have arrived.
        int start = 0, current = 0, end = 0;
        for (int available = 2; available <= groups + 1; available++)
        {
            bool flush = available > groups;
            int avail = Math.Min(available, groups);
            if (s == SqlFrameBoundKind.Following)
            {
                if (end < avail) end++;
                if (!flush)
                {
                    if (e == SqlFrameBoundKind.UnboundedFollowing) continue;
                    while (!Test(current, f.EndN, end, RangeTest.Ge))
                    {
                        while (start < avail && !Test(current, f.StartN, start, RangeTest.Le)) start++;
                        Return(current++, start, end);
                    }
                    continue;
                }
                while (current < groups)
                {
                    while (start < groups && !Test(current, f.StartN, start, RangeTest.Le)) start++;
                    Return(current++, start, end);
                    if (start >= groups) break;
                }
                while (current < groups) Return(current++, start, end);
            }
            else if (e == SqlFrameBoundKind.Preceding)
            {
                while (end < avail && !Test(end, f.EndN, current, RangeTest.Gt)) end++;
                if (s == SqlFrameBoundKind.Preceding)
                    while (start < avail && !Test(start, f.StartN, current, RangeTest.Ge)) start++;
                Return(current++, start, end);
            }
            else
            {
                if (end < avail) end++;
                if (e == SqlFrameBoundKind.UnboundedFollowing && !flush) continue;
                while (current < avail)
                {
                    if (!flush && e == SqlFrameBoundKind.Following && Test(current, f.EndN, end, RangeTest.Ge)) break;
                    Return(current++, start, end);
                    if (flush && current >= groups) break;
                    if (s == SqlFrameBoundKind.Preceding)
                        while (start < avail && !Test(start, f.StartN, current, RangeTest.Ge)) start++;
                    else if (s == SqlFrameBoundKind.CurrentRow) start++;
                    if (!flush && e == SqlFrameBoundKind.CurrentRow) break;
                }
            }
        }
    }

    private void Return(int group, int start, int end)
    {
        int from = start < _groupStart.Count ? _groupStart[start] : Count;
        int to = end < _groupStart.Count ? _groupStart[end] : Count;
        // A start cursor past the end cursor leaves nothing in the frame.
        _cursorStart[group] = from;
        _cursorEnd[group] = Math.Max(from, to);
    }

    /// <summary>
    /// SQLite's range test: <c>key(a) ± n  op  key(b)</c>, with ± and op mirrored for a DESC term; a NULL sorts
    /// below every value unless NULLs sort last in ascending order (or first in descending), where it is above.
    /// </summary>
    private bool Test(int a, in SqlValue n, int b, RangeTest op)
    {
        var k = _order[0];
        var x = _rows[_groupStart[a]][k.Projection];
        var y = _rows[_groupStart[b]][k.Projection];
        bool forward = op is RangeTest.Ge or RangeTest.Gt;
        if (k.Descending) op = op switch { RangeTest.Ge => RangeTest.Le, RangeTest.Gt => RangeTest.Lt, _ => RangeTest.Ge };
        if (x.IsNumber)
        {
            // Where the offset moves the key the way the test looks, a key already past the other passes before the
            // arithmetic (whose rounding near 2^63 could take it back).
            if (forward && !y.IsNull && Holds(op, SqlCompare.Compare(x, y, k.Collation))) return true;
            x = k.Descending ? SqlArithmetic.Subtract(x, n) : SqlArithmetic.Add(x, n);
        }
        bool bigNull = k.Descending == k.NullsFirst;
        int c;
        if (x.IsNull || y.IsNull)
        {
            if (bigNull)
            {
                if (x.IsNull) return op == RangeTest.Ge || (op == RangeTest.Gt && !y.IsNull) || (op == RangeTest.Le && y.IsNull);
                return op is RangeTest.Le or RangeTest.Lt;
            }
            c = x.IsNull && y.IsNull ? 0 : x.IsNull ? -1 : 1;
        }
        else c = SqlCompare.Compare(x, y, k.Collation);
        return Holds(op, c);
    }

    private static bool Holds(RangeTest op, int c)
        => op switch
        {
            RangeTest.Ge => c >= 0,
            RangeTest.Gt => c > 0,
            RangeTest.Le => c <= 0,
            _ => c < 0,
        };
}
