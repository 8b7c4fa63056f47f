using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

/// <summary>
/// Structural equality of expressions, as sqlite3ExprCompare decides whether an expression of the result list is
/// "the same" as a GROUP BY term or an ORDER BY term is the same as a result column. Positions in the text do not
/// count; collations do; subqueries are never the same as anything.
/// </summary>
internal static class IntentEquality
{
    public static bool Same(IntentExpr? a, IntentExpr? b)
    {
        if (a is null || b is null) return a is null && b is null;
        if (a.GetType() != b.GetType()) return false;
        switch (a)
        {
            case LiteralExpr x:
            {
                var y = (LiteralExpr)b;
                return x.Value.Type == y.Value.Type && SqlCompare.Compare(x.Value, y.Value) == 0;
            }
            case ParameterExpr x:
                return x.Slot == ((ParameterExpr)b).Slot;
            case ColumnExpr x:
            {
                var y = (ColumnExpr)b;
                return x.Frame == y.Frame && x.Column == y.Column;
            }
            case GeneratedColumnExpr x:
            {
                var y = (GeneratedColumnExpr)b;
                return ReferenceEquals(x.Meta, y.Meta) && Same(x.Value, y.Value);
            }
            case AggregateSlotExpr x:
            {
                var y = (AggregateSlotExpr)b;
                return x.Frame == y.Frame && x.Slot == y.Slot;
            }
            case UnaryExpr x:
            {
                var y = (UnaryExpr)b;
                return x.Op == y.Op && Same(x.Operand, y.Operand);
            }
            case ArithmeticExpr x:
            {
                var y = (ArithmeticExpr)b;
                return x.Op == y.Op && Same(x.Left, y.Left) && Same(x.Right, y.Right);
            }
            case CompareExpr x:
            {
                var y = (CompareExpr)b;
                return x.Op == y.Op && Same(x.Left, y.Left) && Same(x.Right, y.Right);
            }
            case RowCompareExpr x:
            {
                var y = (RowCompareExpr)b;
                return x.Op == y.Op && SameList(x.Left, y.Left) && SameList(x.Right, y.Right);
            }
            case LogicExpr x:
            {
                var y = (LogicExpr)b;
                return x.IsAnd == y.IsAnd && Same(x.Left, y.Left) && Same(x.Right, y.Right);
            }
            case CollateExpr x:
            {
                var y = (CollateExpr)b;
                return x.Collation == y.Collation && Same(x.Operand, y.Operand);
            }
            case CastExpr x:
            {
                var y = (CastExpr)b;
                return x.Target == y.Target && Same(x.Operand, y.Operand);
            }
            case LikeExpr x:
            {
                var y = (LikeExpr)b;
                return x.Glob == y.Glob && x.Not == y.Not && Same(x.Operand, y.Operand) && Same(x.Pattern, y.Pattern) && Same(x.Escape, y.Escape);
            }
            case BetweenExpr x:
            {
                var y = (BetweenExpr)b;
                return x.Not == y.Not && Same(x.Operand, y.Operand) && Same(x.Low, y.Low) && Same(x.High, y.High);
            }
            case NullTestExpr x:
            {
                var y = (NullTestExpr)b;
                return x.Not == y.Not && Same(x.Operand, y.Operand);
            }
            case IsTruthExpr x:
            {
                var y = (IsTruthExpr)b;
                return x.Truth == y.Truth && x.Not == y.Not && Same(x.Operand, y.Operand);
            }
            case InListExpr x:
            {
                var y = (InListExpr)b;
                return x.Not == y.Not && Same(x.Operand, y.Operand) && SameList(x.Items, y.Items);
            }
            case CaseExpr x:
            {
                var y = (CaseExpr)b;
                if (!Same(x.Operand, y.Operand) || !Same(x.Else, y.Else) || x.Arms.Count != y.Arms.Count) return false;
                for (int i = 0; i < x.Arms.Count; i++)
                    if (!Same(x.Arms[i].When, y.Arms[i].When) || !Same(x.Arms[i].Then, y.Arms[i].Then)) return false;
                return true;
            }
            case CoalesceExpr x:
                return SameList(x.Arguments, ((CoalesceExpr)b).Arguments);
            case FunctionExpr x:
            {
                var y = (FunctionExpr)b;
                return ReferenceEquals(x.Function, y.Function) && x.Function.IsDeterministic && SameList(x.Arguments, y.Arguments);
            }
            default:
                // Subqueries (and anything else carrying a query) are distinct occurrences.
                return ReferenceEquals(a, b);
        }
    }

    public static bool SameList(IReadOnlyList<IntentExpr> a, IReadOnlyList<IntentExpr> b)
    {
        if (a.Count != b.Count) return false;
        for (int i = 0; i < a.Count; i++)
            if (!Same(a[i], b[i])) return false;
        return true;
    }
}
