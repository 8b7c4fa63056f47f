using Sharc.Sql.Ast;
using Sharc.Sql.Functions;
using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// Computes one window call over one partition, writing each row's result into its result slot. Ranking functions
/// and lag/lead look at the partition; first_value, last_value, nth_value and the aggregates at each row's frame.
/// </summary>
internal static class WindowFunctions
{
    public static void Evaluate(WindowCallIntent call, int slot, WindowPartition p, FrameBounds frame)
    {
        int n = p.Count;
        if (call.IsAggregate)
        {
            Aggregate(call, slot, p, frame);
            return;
        }
        switch (call.Name)
        {
            case "row_number":
                for (int i = 0; i < n; i++) p.Row(i)[slot] = SqlValue.Integer(i + 1);
                break;
            case "rank":
                for (int i = 0; i < n; i++) p.Row(i)[slot] = SqlValue.Integer(p.PeerStart(i) + 1);
                break;
            case "dense_rank":
                for (int i = 0; i < n; i++) p.Row(i)[slot] = SqlValue.Integer(p.Group(i) + 1);
                break;
            case "percent_rank":
                for (int i = 0; i < n; i++) p.Row(i)[slot] = SqlValue.Real(n > 1 ? (double)p.PeerStart(i) / (n - 1) : 0.0);
                break;
            case "cume_dist":
                for (int i = 0; i < n; i++) p.Row(i)[slot] = SqlValue.Real((double)p.PeerEnd(i) / n);
                break;
            case "ntile":
                Ntile(call, slot, p);
                break;
            case "lag" or "lead":
                LagLead(call, slot, p, call.Name == "lag");
                break;
            default:
                Value(call, slot, p, frame);
                break;
        }
    }

    /// <summary>
    /// ntile(N) deals the rows into N buckets, the first n % N of them one row larger. N comes from the partition's
    /// first row, read as sqlite3_value_int64 reads it.
    /// </summary>
    private static void Ntile(WindowCallIntent call, int slot, WindowPartition p)
    {
        int n = p.Count;
        if (n == 0) return;
        long buckets = p.Row(0)[call.Arguments[0]].ToInt64();
        if (buckets <= 0) SqlErrors.Throw("argument of ntile must be a positive integer");
        long size = n / buckets, large = n % buckets;
        for (int i = 0; i < n; i++)
        {
            long bucket = i < large * (size + 1) ? i / (size + 1) + 1 : (i - large * (size + 1)) / size + large + 1;
            p.Row(i)[slot] = SqlValue.Integer(bucket);
        }
    }

    /// <summary>
    /// lag/lead(x, k, default): x of the row k before (after); a negative k looks the other way. SQLite adds k to a
    /// row number, so a k that is not an integral number finds no row (text counts as its numeric value).
    /// </summary>
    private static void LagLead(WindowCallIntent call, int slot, WindowPartition p, bool lag)
    {
        int n = p.Count;
        for (int i = 0; i < n; i++)
        {
            var row = p.Row(i);
            long? k = 1;
            if (call.Arguments.Count > 1)
            {
                var v = SqlArithmetic.ToNumber(row[call.Arguments[1]]);
                k = v.Type switch
                {
                    SharcColumnType.Integer => v.IntegerValue,
                    SharcColumnType.Real when v.RealValue == Math.Floor(v.RealValue) && Math.Abs(v.RealValue) < 9e18 => (long)v.RealValue,
                    _ => null,
                };
            }
            long j = k is null ? -1 : lag ? i - k.Value : i + k.Value;
            row[slot] = j >= 0 && j < n ? p.Row((int)j)[call.Arguments[0]]
                : call.Arguments.Count > 2 ? row[call.Arguments[2]] : SqlValue.Null;
        }
    }

    /// <summary>first_value, last_value and nth_value: a value of a row of the frame (EXCLUDE honoured), or NULL.</summary>
    private static void Value(WindowCallIntent call, int slot, WindowPartition p, FrameBounds frame)
    {
        int arg = call.Arguments[0];
        for (int i = 0; i < p.Count; i++)
        {
            var (s, e) = p.Frame(i, frame);
            var result = SqlValue.Null;
            switch (call.Name)
            {
                case "first_value":
                    for (int j = s; j < e; j++)
                    {
                        if (p.Excluded(j, i, frame.Exclude)) continue;
                        result = p.Row(j)[arg];
                        break;
                    }
                    break;
                case "last_value":
                    for (int j = e - 1; j >= s; j--)
                    {
                        if (p.Excluded(j, i, frame.Exclude)) continue;
                        result = p.Row(j)[arg];
                        break;
                    }
                    break;
                default:
                {
                    long seen = 0;
                    for (int j = s; j < e; j++)
                    {
                        if (p.Excluded(j, i, frame.Exclude)) continue;
                        long nth = NthArgument(p.Row(j)[call.Arguments[1]]);
                        if (++seen == nth)
                        {
                            result = p.Row(j)[arg];
                            break;
                        }
                    }
                    break;
                }
            }
            p.Row(i)[slot] = result;
        }
    }

    private static long NthArgument(in SqlValue value)
    {
        // sqlite3_value_numeric_type: text that spells a number counts as that number ('2' is 2).
        var v = value.Type == SharcColumnType.Text && SqlTextNumber.TryAffinity(value.Bytes, preferInteger: false, out var n) ? n : value;
        long nth = v.Type switch
        {
            SharcColumnType.Integer => v.IntegerValue,
            SharcColumnType.Real when v.RealValue == Math.Floor(v.RealValue) && Math.Abs(v.RealValue) < 9e18 => (long)v.RealValue,
            _ => 0,
        };
        if (nth <= 0) SqlErrors.Throw("second argument to nth_value must be a positive integer");
        return nth;
    }

    /// <summary>
    /// An aggregate over each row's frame. A frame that starts at the partition's start and excludes nothing only
    /// grows from row to row, so one accumulator steps each row once; any other frame is summed afresh per row.
    /// </summary>
    private static void Aggregate(WindowCallIntent call, int slot, WindowPartition p, FrameBounds frame)
    {
        var acc = call.UserFactory?.Invoke() ?? AggregateFunctions.Create(call.Name, call.Arguments.Count, false, call.Collation);
        // group_concat's text depends on the order rows came and went, so it slides as SQLite's does.
        if (acc is GroupConcatAggregate concat && frame.Exclude == SqlFrameExclude.NoOthers)
        {
            concat.AsWindow = true;
            Sliding(call, concat, concat, slot, p, frame);
            return;
        }
        if (acc is UserAggregateBase { CanInvert: true } user && frame.Exclude == SqlFrameExclude.NoOthers)
        {
            Sliding(call, acc, user, slot, p, frame);
            return;
        }
        var args = new SqlValue[call.Arguments.Count];
        bool running = frame.StartKind == SqlFrameBoundKind.UnboundedPreceding && frame.Exclude == SqlFrameExclude.NoOthers;
        int stepped = 0;
        // SQLite's sum() steps rows into a sliding frame and takes them out with an inverse (every row of the
        // partition up to the frame's end passes through it); once a non-integer has been stepped, the sum stays
        // REAL for the rest of the partition. Recomputing per frame must keep that.
        var sum = acc as SumAggregate;
        bool sticky = false;
        int entered = 0;
        for (int i = 0; i < p.Count; i++)
        {
            var (s, e) = p.Frame(i, frame);
            if (running)
            {
                for (; stepped < e; stepped++) Step(call, acc, args, p.Row(stepped));
            }
            else
            {
                acc.Reset();
                if (sum is not null)
                {
                    for (; entered < e; entered++) sticky |= IsInexact(call, p.Row(entered));
                    if (sticky) sum.MakeApproximate();
                }
                for (int j = s; j < e; j++)
                    if (!p.Excluded(j, i, frame.Exclude)) Step(call, acc, args, p.Row(j));
            }
            p.Row(i)[slot] = acc.Finish();
        }
    }

    /// <summary>
    /// An aggregate with an inverse step over frames that slide: before each row's value, rows that left the frame
    /// are removed with the inverse and rows entering it are stepped, so each row is stepped once and removed once.
    /// The order is SQLite's: removals first, except for RANGE n PRECEDING AND m PRECEDING, where SQLite steps
    /// first. A frame that moves backwards (it cannot with constant offsets) is summed afresh.
    /// </summary>
    private static void Sliding(WindowCallIntent call, SqlAggregate acc, IInverseStep inv, int slot, WindowPartition p, FrameBounds frame)
    {
        var args = new SqlValue[call.Arguments.Count];
        bool stepFirst = frame.Unit == SqlFrameUnit.Range && frame.StartKind == SqlFrameBoundKind.Preceding && frame.EndKind == SqlFrameBoundKind.Preceding;
        int start = 0, end = 0;
        for (int i = 0; i < p.Count; i++)
        {
            var (s, e) = p.Frame(i, frame);
            if (s < start || e < end)
            {
                acc.Reset();
                start = end = s;
            }
            if (stepFirst)
                for (; end < e; end++) Step(call, acc, args, p.Row(end));
            for (; start < s && start < end; start++)
            {
                var row = p.Row(start);
                if (call.Filter >= 0 && !SqlLogic.IsTrue(row[call.Filter])) continue;
                for (int a = 0; a < args.Length; a++) args[a] = row[call.Arguments[a]];
                inv.Inverse(args);
            }
            if (start < s) start = end = s;
            for (; end < e; end++) Step(call, acc, args, p.Row(end));
            p.Row(i)[slot] = acc.Finish();
        }
    }

    /// <summary>True when the row steps a value into sum() that is not an integer (after text's numeric affinity).</summary>
    private static bool IsInexact(WindowCallIntent call, SqlValue[] row)
    {
        if (call.Filter >= 0 && !SqlLogic.IsTrue(row[call.Filter])) return false;
        var v = row[call.Arguments[0]];
        return v.Type switch
        {
            SharcColumnType.Null or SharcColumnType.Integer => false,
            SharcColumnType.Text => !(SqlTextNumber.TryAffinity(v.Bytes, preferInteger: false, out var n) && n.Type == SharcColumnType.Integer),
            _ => true,
        };
    }

    private static void Step(WindowCallIntent call, SqlAggregate acc, SqlValue[] args, SqlValue[] row)
    {
        if (call.Filter >= 0 && !SqlLogic.IsTrue(row[call.Filter])) return;
        for (int a = 0; a < args.Length; a++) args[a] = row[call.Arguments[a]];
        acc.Step(args);
    }
}
