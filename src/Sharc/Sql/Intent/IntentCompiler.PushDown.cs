using Sharc.Format;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    /// <summary>
    /// SQLite's WHERE push-down into a compound subquery (or view, or CTE): each WHERE term that reads only the
    /// subquery's columns is copied into every arm, written over that arm's own result expressions — so it compares
    /// with the affinity and collation of each arm's column rather than the compound's. The term stays in the outer
    /// WHERE too. As in SQLite, nothing is pushed into a compound with LIMIT or OFFSET, or — when
    /// an operator other than UNION ALL removes duplicates — with a column of a collation other than BINARY; nor a
    /// term with a subquery or a function whose value may change.
    /// </summary>
    private IntentSource PushDownIntoCompound(SqlExpr where, SubquerySource sub, Scope outer)
    {
        if (sub.Query is not { Source: CompoundSource compound, Limit: null, Offset: null } inner) return sub;
        bool deduplicates = false;
        foreach (var op in compound.Operators) deduplicates |= op != SqlCompoundOperator.UnionAll;
        foreach (var arm in compound.Arms)
        {
            if (arm.Limit is not null || arm.Offset is not null || arm.Windows is not null) return sub;
            if (!deduplicates) continue;
            for (int i = 0; i < arm.VisibleCount; i++)
                if ((CollationRules.Of(arm.Projections[i].Expr) ?? Collation.Binary) != Collation.Binary) return sub;
        }

        var terms = new List<SqlExpr>();
        SplitAnd(where, terms);
        var arms = compound.Arms.ToArray();
        int savedFrame = _nextFrame;
        foreach (var term in terms)
        {
            if (!Pushable(term, outer)) continue;
            var pushed = new IntentExpr[arms.Length];
            bool ok = true;
            for (int a = 0; a < arms.Length && ok; a++)
            {
                try
                {
                    pushed[a] = Compile(term, ArmScope(arms[a], sub.Columns), Clause.Where);
                }
                catch (SharcSqlException)
                {
                    ok = false;
                }
            }
            _nextFrame = savedFrame;
            if (!ok) continue;
            for (int a = 0; a < arms.Length; a++)
            {
                var arm = arms[a];
                // An aggregate arm filters its groups: the term lands in HAVING, over the aggregated row.
                arms[a] = arm.Aggregation is not null
                    ? arm with { Having = And(arm.Having, pushed[a]) }
                    : arm with { Where = And(arm.Where, pushed[a]) };
            }
        }
        return sub with { Query = inner with { Source = compound with { Arms = arms } } };
    }

    private static IntentExpr And(IntentExpr? left, IntentExpr right)
        => left is null ? right : new LogicExpr(true, left, right) { HasCollate = left.HasCollate || right.HasCollate };

    private static void SplitAnd(SqlExpr e, List<SqlExpr> into)
    {
        if (e is SqlBinaryExpr { Operator: SqlBinaryOperator.And } and)
        {
            SplitAnd(and.Left, into);
            SplitAnd(and.Right, into);
        }
        else
        {
            into.Add(e);
        }
    }

    /// <summary>A term reads only the subquery's columns, with no subquery and nothing that may change between calls.</summary>
    private bool Pushable(SqlExpr term, Scope outer)
    {
        int savedFrame = _nextFrame;
        IntentExpr e;
        try
        {
            e = Compile(term, outer, Clause.Where);
        }
        catch (SharcSqlException)
        {
            return false;
        }
        finally
        {
            _nextFrame = savedFrame;
        }
        bool ok = true;
        IntentRewriter.Visit(e, x =>
        {
            switch (x)
            {
                case ColumnExpr c when c.Frame != outer.Frame || c.Column == SourceColumn.RowId:
                case InSubqueryExpr or RowInSubqueryExpr or ExistsExpr or ScalarSubqueryExpr or AggregateCallExpr:
                case FunctionExpr { Function.IsDeterministic: false }:
                    ok = false;
                    break;
            }
        });
        return ok;
    }

    /// <summary>A scope in which the subquery's column names stand for one arm's result expressions.</summary>
    private static Scope ArmScope(QueryIntent arm, IReadOnlyList<SourceColumn> columns)
    {
        var results = new List<RawResult>(arm.VisibleCount);
        for (int i = 0; i < arm.VisibleCount; i++) results.Add(new RawResult(arm.Projections[i].Expr, columns[i].Name, columns[i].Name, null));
        return new Scope(null, arm.Frame, null, arm.Aggregation is not null) { Results = results };
    }
}
