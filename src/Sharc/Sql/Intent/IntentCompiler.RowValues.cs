using System.Globalization;
using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Values;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Intent;

/// <summary>Row values (https://sqlite.org/rowvalue.html): comparisons, BETWEEN and IN between vectors.</summary>
internal sealed partial class IntentCompiler
{
    /// <summary>True when <paramref name="e"/> may be a vector: a row value or a subquery (of any width).</summary>
    private static bool IsRowOperand(SqlExpr e) => e is SqlRowValueExpr or SqlSubqueryExpr;

    /// <summary>
    /// The elements of a vector operand: a row value's items, a subquery's columns (row elements sharing one run),
    /// or the scalar itself.
    /// </summary>
    private IReadOnlyList<IntentExpr> Vector(SqlExpr e, Scope scope, Clause clause)
    {
        switch (e)
        {
            case SqlRowValueExpr r:
            {
                var items = new IntentExpr[r.Items.Count];
                for (int i = 0; i < items.Length; i++)
                {
                    if (r.Items[i] is SqlRowValueExpr nested) throw Error("row value misused", nested.Start);
                    items[i] = Expr(r.Items[i], scope, clause);
                }
                return items;
            }
            case SqlSubqueryExpr s:
            {
                var q = CompileSelect(s.Query, scope);
                if (q.VisibleCount == 1) return [new ScalarSubqueryExpr(q) { Affinity = ValueAffinity(q), Offset = e.Start }];
                var items = new IntentExpr[q.VisibleCount];
                for (int i = 0; i < items.Length; i++)
                    items[i] = new ScalarSubqueryExpr(q) { RowElement = true, Column = i, Affinity = ColumnValueExpr(q, i).Affinity, Offset = e.Start };
                return items;
            }
            default:
                return [Expr(e, scope, clause)];
        }
    }

    /// <summary>
    /// What SQLite compares an element with: a subquery's element is its result expression (of the last arm of a
    /// compound or row of a VALUES), whose affinity and explicit COLLATE count.
    /// </summary>
    private static IntentExpr ComparedAs(IntentExpr element) => element is ScalarSubqueryExpr { RowElement: true } s ? ColumnValueExpr(s.Query, s.Column) : element;

    private static IntentExpr ColumnValueExpr(QueryIntent q, int column) => q.Source switch
    {
        CompoundSource c when q.Projections[column].Expr is ColumnExpr col && col.Frame == q.Frame => ColumnValueExpr(c.Arms[^1], column),
        // SQLite chains a multi-row VALUES with its last row at the head.
        ValuesSource v when q.Projections[column].Expr is ColumnExpr col && col.Frame == q.Frame => v.Rows[^1][col.Column],
        _ => q.Projections[column].Expr,
    };

    private IntentExpr RowCompare(SqlBinaryExpr b, Scope scope, Clause clause)
    {
        var l = Vector(b.Left, scope, clause);
        var r = Vector(b.Right, scope, clause);
        var op = b.Operator switch
        {
            SqlBinaryOperator.Less => IntentCompareOp.Lt,
            SqlBinaryOperator.LessOrEqual => IntentCompareOp.Le,
            SqlBinaryOperator.Greater => IntentCompareOp.Gt,
            SqlBinaryOperator.GreaterOrEqual => IntentCompareOp.Ge,
            SqlBinaryOperator.Equal => IntentCompareOp.Eq,
            SqlBinaryOperator.NotEqual => IntentCompareOp.Ne,
            SqlBinaryOperator.Is => IntentCompareOp.Is,
            _ => IntentCompareOp.IsNot,
        };
        return RowCompare(op, l, r, b.Start);
    }

    private IntentExpr RowCompare(IntentCompareOp op, IReadOnlyList<IntentExpr> l, IReadOnlyList<IntentExpr> r, int offset)
    {
        if (l.Count != r.Count) throw Error("row value misused", offset);
        bool collate = false;
        foreach (var x in l) collate |= x.HasCollate;
        foreach (var x in r) collate |= x.HasCollate;
        if (l.Count == 1)
        {
            return new CompareExpr(op, l[0], r[0], SqlAffinities.ForComparison(l[0].Affinity, r[0].Affinity), CollationRules.ForComparison(l[0], r[0]))
            { HasCollate = collate, Offset = offset };
        }
        var affinities = new SqlAffinity[l.Count];
        var collations = new Collation[l.Count];
        for (int i = 0; i < l.Count; i++)
        {
            var a = ComparedAs(l[i]);
            var c = ComparedAs(r[i]);
            affinities[i] = SqlAffinities.ForComparison(a.Affinity, c.Affinity);
            collations[i] = CollationRules.ForComparison(a, c);
        }

        // (a, b) = (x, y) is a = x AND b = y, and the planner can seek with the terms, as SQLite's exprAnalyze splits
        // it; <> and IS NOT are the negations. Subquery sides stay whole so the subquery runs once.
        if (op is IntentCompareOp.Eq or IntentCompareOp.Is or IntentCompareOp.Ne or IntentCompareOp.IsNot && !HasRowElement(l) && !HasRowElement(r))
        {
            var pairOp = op switch
            {
                IntentCompareOp.Eq or IntentCompareOp.Ne => IntentCompareOp.Eq,
                _ => IntentCompareOp.Is,
            };
            IntentExpr? all = null;
            for (int i = 0; i < l.Count; i++)
            {
                var pair = new CompareExpr(pairOp, l[i], r[i], affinities[i], collations[i]) { HasCollate = l[i].HasCollate || r[i].HasCollate, Offset = offset };
                all = all is null ? pair : new LogicExpr(true, all, pair) { HasCollate = all.HasCollate || pair.HasCollate, Offset = offset };
            }
            return op is IntentCompareOp.Eq or IntentCompareOp.Is
                ? all!
                : new UnaryExpr(IntentUnaryOp.Not, all!) { HasCollate = collate, Offset = offset };
        }
        return new RowCompareExpr(op, l, r, affinities, collations) { HasCollate = collate, Offset = offset };
    }

    private static bool HasRowElement(IReadOnlyList<IntentExpr> v) => v.Count > 0 && v[0] is ScalarSubqueryExpr { RowElement: true };

    /// <summary>x BETWEEN lo AND hi is x &gt;= lo AND x &lt;= hi for vectors too (SQLite's exprCodeBetween).</summary>
    private IntentExpr RowBetween(SqlBetweenExpr b, Scope scope, Clause clause)
    {
        var x = Vector(b.Operand, scope, clause);
        var lo = Vector(b.Low, scope, clause);
        var hi = Vector(b.High, scope, clause);
        var ge = RowCompare(IntentCompareOp.Ge, x, lo, b.Start);
        var le = RowCompare(IntentCompareOp.Le, x, hi, b.Start);
        IntentExpr both = new LogicExpr(true, ge, le) { HasCollate = ge.HasCollate || le.HasCollate, Offset = b.Start };
        return b.Not ? new UnaryExpr(IntentUnaryOp.Not, both) { HasCollate = both.HasCollate, Offset = b.Start } : both;
    }

    /// <summary>(a, b) IN ((1, 2), (3, 4)) is (a, b) IN (VALUES (1, 2), (3, 4)), as SQLite's parser rewrites it.</summary>
    private IntentExpr RowInList(SqlInListExpr i, Scope scope, Clause clause)
    {
        int width = i.Operand is SqlRowValueExpr rv ? rv.Items.Count : -1;
        var rows = new List<IReadOnlyList<SqlExpr>>(i.Items.Count);
        foreach (var item in i.Items)
        {
            int n = item is SqlRowValueExpr r ? r.Items.Count : 1;
            if (width < 0) width = n;
            if (n != width)
                throw Error(string.Create(CultureInfo.InvariantCulture, $"IN(...) element has {n} term{(n == 1 ? "" : "s")} - expected {width}"), item.Start);
            rows.Add(item is SqlRowValueExpr row ? row.Items : [item]);
        }
        if (rows.Count == 0) return new LiteralExpr(SqlValue.Integer(i.Not ? 1 : 0)) { Offset = i.Start };
        var values = new SqlSelect(null, new SqlValuesBody(rows) { Start = i.Start, End = i.End }, [], null, null) { Start = i.Start, End = i.End };
        return RowIn(i.Not, i.Operand, values, scope, clause, i.Start);
    }

    private IntentExpr RowIn(bool not, SqlExpr operand, SqlSelect query, Scope scope, Clause clause, int offset)
    {
        var l = Vector(operand, scope, clause);
        var q = CompileSelect(query, scope);
        if (q.VisibleCount != l.Count)
            throw Error(string.Create(CultureInfo.InvariantCulture, $"sub-select returns {q.VisibleCount} columns - expected {l.Count}"), offset);
        if (l.Count == 1)
        {
            var x = l[0];
            return new InSubqueryExpr(not, x, q, SqlAffinities.ForComparison(x.Affinity, ValueAffinity(q)), InCollation(x, q)) { HasCollate = x.HasCollate, Offset = offset };
        }
        var affinities = new SqlAffinity[l.Count];
        var collations = new Collation[l.Count];
        bool collate = false;
        for (int i = 0; i < l.Count; i++)
        {
            var a = ComparedAs(l[i]);
            var c = ColumnValueExpr(q, i);
            affinities[i] = SqlAffinities.ForComparison(a.Affinity, c.Affinity);
            collations[i] = CollationRules.ForComparison(a, c);
            collate |= l[i].HasCollate;
        }
        return new RowInSubqueryExpr(not, l, q, affinities, collations) { HasCollate = collate, Offset = offset };
    }
}
