namespace Sharc.Sql.Intent;

/// <summary>Questions about a query intent that planning and execution ask.</summary>
internal static class IntentAnalysis
{
    /// <summary>The expressions that belong to one level itself (not those of the subqueries inside it).</summary>
    public static IEnumerable<IntentExpr> LevelExpressions(QueryIntent q)
    {
        foreach (var p in q.Projections) yield return p.Expr;
        if (q.Where is not null) yield return q.Where;
        if (q.Having is not null) yield return q.Having;
        if (q.Limit is not null) yield return q.Limit;
        if (q.Offset is not null) yield return q.Offset;
        if (q.Source is JoinSource join)
            foreach (var on in join.On)
                if (on is not null) yield return on;
        if (q.Aggregation is { } a)
        {
            foreach (var k in a.Keys) yield return k;
            foreach (var call in a.Aggregates)
            {
                foreach (var arg in call.Arguments) yield return arg;
                if (call.Filter is not null) yield return call.Filter;
            }
        }
        if (q.Windows is { } w)
            foreach (var e in w.Expressions()) yield return e;
    }

    /// <summary>
    /// True when the query (or any query inside it) reads a row of a level outside it: its answer then depends on
    /// that row and must be recomputed for each.
    /// </summary>
    public static bool IsCorrelated(QueryIntent q)
    {
        var defined = new HashSet<int>();
        var referenced = new HashSet<int>();
        Frames(q, defined, referenced);
        return !referenced.IsSubsetOf(defined);
    }

    private static void Frames(QueryIntent q, HashSet<int> defined, HashSet<int> referenced)
    {
        defined.Add(q.Frame);
        if (q.Source is SubquerySource s) Frames(s.Query, defined, referenced);
        if (q.Source is JoinSource join)
        {
            foreach (var item in join.Items)
            {
                defined.Add(item.Frame);
                if (item.Source is SubquerySource js) Frames(js.Query, defined, referenced);
                foreach (var level in CompoundSources.Levels(item.Source)) Frames(level, defined, referenced);
                foreach (var e in CompoundSources.Expressions(item.Source)) Walk(e, defined, referenced);
            }
        }
        foreach (var level in CompoundSources.Levels(q.Source)) Frames(level, defined, referenced);
        foreach (var e in CompoundSources.Expressions(q.Source)) Walk(e, defined, referenced);
        foreach (var e in LevelExpressions(q)) Walk(e, defined, referenced);
    }

    private static void Walk(IntentExpr e, HashSet<int> defined, HashSet<int> referenced)
        => IntentRewriter.Rewrite(e, x =>
        {
            switch (x)
            {
                case ColumnExpr c:
                    referenced.Add(c.Frame);
                    return null;
                case AggregateSlotExpr a:
                    referenced.Add(a.Frame);
                    return null;
                case InSubqueryExpr i:
                    Walk(i.Operand, defined, referenced);
                    Frames(i.Query, defined, referenced);
                    return x;
                case RowInSubqueryExpr ri:
                    foreach (var l in ri.Left) Walk(l, defined, referenced);
                    Frames(ri.Query, defined, referenced);
                    return x;
                case ExistsExpr ex:
                    Frames(ex.Query, defined, referenced);
                    return x;
                case ScalarSubqueryExpr sq:
                    Frames(sq.Query, defined, referenced);
                    return x;
                default:
                    return null;
            }
        });
}
