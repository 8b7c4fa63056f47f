using Sharc.Sql.Ast;

namespace Sharc.Sql.Intent;

/// <summary>Searches a parsed expression without entering its subqueries (which are query levels of their own).</summary>
internal static class AstWalker
{
    public static bool Any(SqlExpr e, Func<SqlExpr, bool> test)
    {
        if (test(e)) return true;
        switch (e)
        {
            case SqlUnaryExpr u:
                return Any(u.Operand, test);
            case SqlBinaryExpr b:
                return Any(b.Left, test) || Any(b.Right, test);
            case SqlCollateExpr c:
                return Any(c.Operand, test);
            case SqlCastExpr c:
                return Any(c.Operand, test);
            case SqlLikeExpr l:
                return Any(l.Operand, test) || Any(l.Pattern, test) || (l.Escape is not null && Any(l.Escape, test));
            case SqlBetweenExpr b:
                return Any(b.Operand, test) || Any(b.Low, test) || Any(b.High, test);
            case SqlNullTestExpr n:
                return Any(n.Operand, test);
            case SqlInListExpr i:
                return Any(i.Operand, test) || AnyOf(i.Items, test);
            case SqlInSelectExpr i:
                return Any(i.Operand, test);
            case SqlInTableExpr i:
                return Any(i.Operand, test) || (i.Arguments is not null && AnyOf(i.Arguments, test));
            case SqlCaseExpr c:
            {
                if (c.Operand is not null && Any(c.Operand, test)) return true;
                foreach (var w in c.Whens)
                    if (Any(w.When, test) || Any(w.Then, test)) return true;
                return c.Else is not null && Any(c.Else, test);
            }
            case SqlRowValueExpr r:
                return AnyOf(r.Items, test);
            case SqlFunctionExpr f:
                return AnyOf(f.Arguments, test) || (f.Filter is not null && Any(f.Filter, test));
            case SqlRaiseExpr r:
                return r.Message is not null && Any(r.Message, test);
            default:
                return false;
        }
    }

    private static bool AnyOf(IReadOnlyList<SqlExpr> list, Func<SqlExpr, bool> test)
    {
        foreach (var x in list)
            if (Any(x, test)) return true;
        return false;
    }
}
