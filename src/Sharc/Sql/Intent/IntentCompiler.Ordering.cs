using System.Globalization;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    /// <summary>
    /// Resolves ORDER BY terms as SQLite's resolveOrderGroupBy does: an identifier naming an AS alias, or an integer
    /// (possibly signed, possibly under COLLATE) naming a result column by position, picks that column; anything else
    /// is an expression, which still picks a result column when it is the same expression, and otherwise becomes a
    /// hidden sort key. An explicit COLLATE on the term decides its collation.
    /// </summary>
    private (List<IntentExpr> Hidden, List<OrderingIntent> Ordering) CompileOrderBy(IReadOnlyList<SqlOrderingTerm> terms, Scope scope, List<RawResult> results)
    {
        var hidden = new List<IntentExpr>();
        var ordering = new List<OrderingIntent>(terms.Count);
        for (int t = 0; t < terms.Count; t++)
        {
            var term = terms[t];
            var (desc, nullsFirst) = Direction(term);
            var inner = SkipCollate(term.Expr);
            int column = -1;
            if (inner is SqlColumnRef { Table: null, Schema: null } name)
            {
                for (int j = 0; j < results.Count; j++)
                {
                    if (results[j].Alias is { } alias && SqlNameComparer.Instance.Equals(alias, name.Name))
                    {
                        column = j;
                        break;
                    }
                }
            }
            if (column < 0 && IsInteger(inner, out long ordinal))
            {
                if (ordinal < 1 || ordinal > results.Count) throw OutOfRange("ORDER", t, results.Count, inner.Start);
                column = (int)ordinal - 1;
            }
            if (column >= 0)
            {
                var keyed = WithCollate(term.Expr, results[column].Expr);
                ordering.Add(new OrderingIntent(column, desc, nullsFirst, CollationRules.Of(keyed) ?? Collation.Binary));
                continue;
            }

            var e = Compile(term.Expr, scope, Clause.OrderBy);
            for (int j = 0; j < results.Count; j++)
                if (IntentEquality.Same(e, results[j].Expr)) column = j;
            var collation = CollationRules.Of(e) ?? Collation.Binary;
            if (column < 0)
            {
                column = results.Count + hidden.Count;
                hidden.Add(e);
            }
            ordering.Add(new OrderingIntent(column, desc, nullsFirst, collation));
        }
        return (hidden, ordering);
    }

    /// <summary>An ORDER BY term's direction and NULL placement (NULLs first ascending, last descending, unless written).</summary>
    private static (bool Descending, bool NullsFirst) Direction(SqlOrderingTerm term)
    {
        bool desc = term.Order == SqlSortOrder.Descending;
        return (desc, term.Nulls switch
        {
            SqlNullsOrder.First => true,
            SqlNullsOrder.Last => false,
            _ => !desc,
        });
    }

    /// <summary>A GROUP BY term: an ordinal picks a result column's expression; anything else is an expression.</summary>
    private IntentExpr CompileGroupTerm(SqlExpr term, int position, Scope scope)
    {
        var inner = SkipCollate(term);
        var results = scope.Results!;
        if (IsInteger(inner, out long ordinal))
        {
            if (ordinal < 1 || ordinal > results.Count) throw OutOfRange("GROUP", position, results.Count, inner.Start);
            var chosen = results[(int)ordinal - 1].Expr;
            if (ContainsAggregateCall(chosen)) throw Error("aggregate functions are not allowed in the GROUP BY clause", term.Start);
            return WithCollate(term, chosen);
        }
        return Compile(term, scope, Clause.GroupBy);
    }

    /// <summary>Wraps <paramref name="e"/> in the COLLATE the term was written with, if any.</summary>
    private IntentExpr WithCollate(SqlExpr term, IntentExpr e)
    {
        if (term is not SqlCollateExpr c) return e;
        if (!CollationCompare.TryParse(c.Collation, out var coll)) throw Error($"no such collation sequence: {c.Collation}", c.Start);
        return new CollateExpr(e, coll) { Affinity = e.Affinity, HasCollate = true, Offset = c.Start };
    }

    private static SqlExpr SkipCollate(SqlExpr e)
    {
        while (e is SqlCollateExpr c) e = c.Operand;
        return e;
    }

    /// <summary>SQLite's sqlite3ExprIsInteger: an integer literal, possibly under unary + or -.</summary>
    private static bool IsInteger(SqlExpr e, out long value)
    {
        switch (e)
        {
            case SqlIntegerLiteral i:
                value = i.Value;
                return true;
            case SqlUnaryExpr { Operator: SqlUnaryOperator.Plus } u:
                return IsInteger(u.Operand, out value);
            case SqlUnaryExpr { Operator: SqlUnaryOperator.Negate } u when IsInteger(u.Operand, out long v) && v != long.MinValue:
                value = -v;
                return true;
            default:
                value = 0;
                return false;
        }
    }

    private SharcSqlException OutOfRange(string clause, int index, int count, int offset)
        => Error(string.Create(CultureInfo.InvariantCulture, $"{Ordinal(index + 1)} {clause} BY term out of range - should be between 1 and {count}"), offset);

    private static string Ordinal(int n)
    {
        int mod100 = n % 100, mod10 = n % 10;
        string suffix = mod100 is >= 11 and <= 13 ? "th" : mod10 switch { 1 => "st", 2 => "nd", 3 => "rd", _ => "th" };
        return n.ToString(CultureInfo.InvariantCulture) + suffix;
    }
}
