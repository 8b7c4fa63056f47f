using Sharc.Sql.Ast;
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

    private static long NthArgument(in SqlValue v)
    {
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
        var acc = AggregateFunctions.Create(call.Name, call.Arguments.Count, false, call.Collation);
        var args = new SqlValue[call.Arguments.Count];
        bool running = frame.StartKind == SqlFrameBoundKind.UnboundedPreceding && frame.Exclude == SqlFrameExclude.NoOthers;
        int stepped = 0;
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
                for (int j = s; j < e; j++)
                    if (!p.Excluded(j, i, frame.Exclude)) Step(call, acc, args, p.Row(j));
            }
            p.Row(i)[slot] = acc.Finish();
        }
    }

    private static void Step(WindowCallIntent call, SqlAggregate acc, SqlValue[] args, SqlValue[] row)
    {
        if (call.Filter >= 0 && !SqlLogic.IsTrue(row[call.Filter])) return;
        for (int a = 0; a < args.Length; a++) args[a] = row[call.Arguments[a]];
        acc.Step(args);
    }
}
