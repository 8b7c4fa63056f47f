using Sharc.Format;

namespace Sharc.Sql.Intent;

/// <summary>
/// Which collation an expression carries, as sqlite3ExprCollSeq and sqlite3BinaryCompareCollSeq decide it: a column
/// brings its declared collation (through CAST and unary +, nothing else), an explicit COLLATE wins, and an
/// explicit COLLATE deep inside an expression (EP_Collate) is found by following the operands that carry one.
/// </summary>
internal static class CollationRules
{
    /// <summary>The collation of <paramref name="e"/>, or null when it has none (BINARY then applies).</summary>
    public static Collation? Of(IntentExpr e)
    {
        while (true)
        {
            switch (e)
            {
                case ColumnExpr c:
                    return c.Meta.Collation;
                case GeneratedColumnExpr g:
                    return g.Meta.Collation;
                case AggregateSlotExpr s:
                    return s.Collation;
                case CollateExpr k:
                    return k.Collation;
                case CastExpr cast:
                    e = cast.Operand;
                    continue;
                case UnaryExpr { Op: IntentUnaryOp.Plus } plus:
                    e = plus.Operand;
                    continue;
            }
            if (!e.HasCollate) return null;
            var next = FirstWithCollate(e);
            if (next is null) return null;
            e = next;
        }
    }

    /// <summary>The collation of a comparison between <paramref name="left"/> and <paramref name="right"/>.</summary>
    public static Collation ForComparison(IntentExpr left, IntentExpr right)
    {
        if (left.HasCollate) return Of(left) ?? Collation.Binary;
        if (right.HasCollate) return Of(right) ?? Collation.Binary;
        return Of(left) ?? Of(right) ?? Collation.Binary;
    }

    /// <summary>SQLite walks left operand first, then the argument list, to the COLLATE that flagged the node.</summary>
    private static IntentExpr? FirstWithCollate(IntentExpr e)
    {
        switch (e)
        {
            case UnaryExpr u:
                return u.Operand;
            case ArithmeticExpr a:
                return a.Left.HasCollate ? a.Left : a.Right;
            case CompareExpr c:
                return c.Left.HasCollate ? c.Left : c.Right;
            case LogicExpr l:
                return l.Left.HasCollate ? l.Left : l.Right;
            case LikeExpr like:
                return like.Operand.HasCollate ? like.Operand : like.Pattern.HasCollate ? like.Pattern : like.Escape;
            case BetweenExpr b:
                return b.Operand.HasCollate ? b.Operand : b.Low.HasCollate ? b.Low : b.High;
            case NullTestExpr n:
                return n.Operand;
            case IsTruthExpr t:
                return t.Operand;
            case InListExpr i:
                return i.Operand.HasCollate ? i.Operand : First(i.Items);
            case InSubqueryExpr s:
                return s.Operand;
            case RowCompareExpr r:
                return First(r.Left) ?? First(r.Right);
            case RowInSubqueryExpr ri:
                return First(ri.Left);
            case CaseExpr k:
            {
                if (k.Operand is { HasCollate: true }) return k.Operand;
                foreach (var arm in k.Arms)
                {
                    if (arm.When.HasCollate) return arm.When;
                    if (arm.Then.HasCollate) return arm.Then;
                }
                return k.Else;
            }
            case CoalesceExpr co:
                return First(co.Arguments);
            case FunctionExpr f:
                return First(f.Arguments);
            default:
                return null;
        }
    }

    private static IntentExpr? First(IReadOnlyList<IntentExpr> list)
    {
        foreach (var x in list)
            if (x.HasCollate) return x;
        return null;
    }
}
