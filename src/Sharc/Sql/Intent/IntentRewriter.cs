namespace Sharc.Sql.Intent;

/// <summary>
/// Walks an expression tree, subqueries included, replacing the nodes a function chooses. Nodes the function leaves
/// alone (returns null for) are descended into; a node whose children did not change is returned as is, so a walk
/// that replaces nothing allocates nothing and can serve as a visitor.
/// </summary>
internal static class IntentRewriter
{
    public static IntentExpr Rewrite(IntentExpr e, Func<IntentExpr, IntentExpr?> f)
    {
        var replaced = f(e);
        if (replaced is not null) return replaced;
        switch (e)
        {
            case UnaryExpr u:
            {
                var o = Rewrite(u.Operand, f);
                return ReferenceEquals(o, u.Operand) ? e : u with { Operand = o };
            }
            case ArithmeticExpr a:
            {
                var l = Rewrite(a.Left, f);
                var r = Rewrite(a.Right, f);
                return ReferenceEquals(l, a.Left) && ReferenceEquals(r, a.Right) ? e : a with { Left = l, Right = r };
            }
            case CompareExpr c:
            {
                var l = Rewrite(c.Left, f);
                var r = Rewrite(c.Right, f);
                return ReferenceEquals(l, c.Left) && ReferenceEquals(r, c.Right) ? e : c with { Left = l, Right = r };
            }
            case LogicExpr g:
            {
                var l = Rewrite(g.Left, f);
                var r = Rewrite(g.Right, f);
                return ReferenceEquals(l, g.Left) && ReferenceEquals(r, g.Right) ? e : g with { Left = l, Right = r };
            }
            case CollateExpr k:
            {
                var o = Rewrite(k.Operand, f);
                return ReferenceEquals(o, k.Operand) ? e : k with { Operand = o };
            }
            case GeneratedColumnExpr g:
            {
                var o = Rewrite(g.Value, f);
                return ReferenceEquals(o, g.Value) ? e : g with { Value = o };
            }
            case CastExpr c:
            {
                var o = Rewrite(c.Operand, f);
                return ReferenceEquals(o, c.Operand) ? e : c with { Operand = o };
            }
            case LikeExpr l:
            {
                var o = Rewrite(l.Operand, f);
                var p = Rewrite(l.Pattern, f);
                var x = l.Escape is null ? null : Rewrite(l.Escape, f);
                return ReferenceEquals(o, l.Operand) && ReferenceEquals(p, l.Pattern) && ReferenceEquals(x, l.Escape)
                    ? e : l with { Operand = o, Pattern = p, Escape = x };
            }
            case BetweenExpr b:
            {
                var o = Rewrite(b.Operand, f);
                var lo = Rewrite(b.Low, f);
                var hi = Rewrite(b.High, f);
                return ReferenceEquals(o, b.Operand) && ReferenceEquals(lo, b.Low) && ReferenceEquals(hi, b.High)
                    ? e : b with { Operand = o, Low = lo, High = hi };
            }
            case NullTestExpr n:
            {
                var o = Rewrite(n.Operand, f);
                return ReferenceEquals(o, n.Operand) ? e : n with { Operand = o };
            }
            case IsTruthExpr t:
            {
                var o = Rewrite(t.Operand, f);
                return ReferenceEquals(o, t.Operand) ? e : t with { Operand = o };
            }
            case InListExpr i:
            {
                var o = Rewrite(i.Operand, f);
                var items = RewriteList(i.Items, f);
                return ReferenceEquals(o, i.Operand) && ReferenceEquals(items, i.Items) ? e : i with { Operand = o, Items = items };
            }
            case InSubqueryExpr s:
            {
                var o = Rewrite(s.Operand, f);
                var q = RewriteQuery(s.Query, f);
                return ReferenceEquals(o, s.Operand) && ReferenceEquals(q, s.Query) ? e : s with { Operand = o, Query = q };
            }
            case RowCompareExpr r:
            {
                var l = RewriteList(r.Left, f);
                var rr = RewriteList(r.Right, f);
                return ReferenceEquals(l, r.Left) && ReferenceEquals(rr, r.Right) ? e : r with { Left = l, Right = rr };
            }
            case RowInSubqueryExpr s:
            {
                var l = RewriteList(s.Left, f);
                var q = RewriteQuery(s.Query, f);
                return ReferenceEquals(l, s.Left) && ReferenceEquals(q, s.Query) ? e : s with { Left = l, Query = q };
            }
            case ExistsExpr x:
            {
                var q = RewriteQuery(x.Query, f);
                return ReferenceEquals(q, x.Query) ? e : x with { Query = q };
            }
            case ScalarSubqueryExpr x:
            {
                var q = RewriteQuery(x.Query, f);
                return ReferenceEquals(q, x.Query) ? e : x with { Query = q };
            }
            case CaseExpr c:
            {
                var o = c.Operand is null ? null : Rewrite(c.Operand, f);
                var el = c.Else is null ? null : Rewrite(c.Else, f);
                bool changed = !ReferenceEquals(o, c.Operand) || !ReferenceEquals(el, c.Else);
                var arms = new CaseArm[c.Arms.Count];
                for (int i = 0; i < arms.Length; i++)
                {
                    var arm = c.Arms[i];
                    var w = Rewrite(arm.When, f);
                    var t = Rewrite(arm.Then, f);
                    changed |= !ReferenceEquals(w, arm.When) || !ReferenceEquals(t, arm.Then);
                    arms[i] = ReferenceEquals(w, arm.When) && ReferenceEquals(t, arm.Then) ? arm : arm with { When = w, Then = t };
                }
                return changed ? c with { Operand = o, Arms = arms, Else = el } : e;
            }
            case CoalesceExpr c:
            {
                var args = RewriteList(c.Arguments, f);
                return ReferenceEquals(args, c.Arguments) ? e : c with { Arguments = args };
            }
            case FunctionExpr fn:
            {
                var args = RewriteList(fn.Arguments, f);
                return ReferenceEquals(args, fn.Arguments) ? e : fn with { Arguments = args };
            }
            default:
                return e;
        }
    }

    public static IReadOnlyList<IntentExpr> RewriteList(IReadOnlyList<IntentExpr> list, Func<IntentExpr, IntentExpr?> f)
    {
        IntentExpr[]? copy = null;
        for (int i = 0; i < list.Count; i++)
        {
            var x = Rewrite(list[i], f);
            if (!ReferenceEquals(x, list[i]))
            {
                copy ??= [.. list];
                copy[i] = x;
            }
        }
        return copy ?? list;
    }

    private static IntentExpr? RewriteOpt(IntentExpr? e, Func<IntentExpr, IntentExpr?> f) => e is null ? null : Rewrite(e, f);

    /// <summary>Rewrites every expression of a query (its source subquery too).</summary>
    public static QueryIntent RewriteQuery(QueryIntent q, Func<IntentExpr, IntentExpr?> f)
    {
        bool changed = false;
        var source = q.Source;
        if (source is SubquerySource sub)
        {
            var inner = RewriteQuery(sub.Query, f);
            if (!ReferenceEquals(inner, sub.Query))
            {
                source = sub with { Query = inner };
                changed = true;
            }
        }
        else if (source is JoinSource join)
        {
            var rewritten = RewriteJoin(join, f);
            changed |= !ReferenceEquals(rewritten, join);
            source = rewritten;
        }
        else if (CompoundSources.Rewrite(source, f) is { } rewritten && !ReferenceEquals(rewritten, source))
        {
            source = rewritten;
            changed = true;
        }
        var projections = new ProjectionIntent[q.Projections.Count];
        for (int i = 0; i < projections.Length; i++)
        {
            var p = q.Projections[i];
            var x = Rewrite(p.Expr, f);
            changed |= !ReferenceEquals(x, p.Expr);
            projections[i] = ReferenceEquals(x, p.Expr) ? p : p with { Expr = x };
        }
        var where = RewriteOpt(q.Where, f);
        var having = RewriteOpt(q.Having, f);
        var limit = RewriteOpt(q.Limit, f);
        var offset = RewriteOpt(q.Offset, f);
        changed |= !ReferenceEquals(where, q.Where) || !ReferenceEquals(having, q.Having) || !ReferenceEquals(limit, q.Limit) || !ReferenceEquals(offset, q.Offset);
        var aggregation = q.Aggregation;
        if (aggregation is not null)
        {
            var keys = RewriteList(aggregation.Keys, f);
            bool aggChanged = !ReferenceEquals(keys, aggregation.Keys);
            var calls = new AggregateCall[aggregation.Aggregates.Count];
            for (int i = 0; i < calls.Length; i++)
            {
                var a = aggregation.Aggregates[i];
                var args = RewriteList(a.Arguments, f);
                var filter = RewriteOpt(a.Filter, f);
                bool same = ReferenceEquals(args, a.Arguments) && ReferenceEquals(filter, a.Filter);
                aggChanged |= !same;
                calls[i] = same ? a : a with { Arguments = args, Filter = filter };
            }
            // Bare columns are columns of this level itself: an outer rewrite never replaces them.
            if (aggChanged)
            {
                aggregation = aggregation with { Keys = keys, Aggregates = calls };
                changed = true;
            }
        }
        var windows = q.Windows;
        if (windows is not null)
        {
            var inputs = RewriteList(windows.Inputs, f);
            var calls = new WindowCallIntent[windows.Calls.Count];
            bool windowsChanged = !ReferenceEquals(inputs, windows.Inputs);
            for (int i = 0; i < calls.Length; i++)
            {
                var c = windows.Calls[i];
                var start = RewriteOpt(c.Frame.StartOffset, f);
                var end = RewriteOpt(c.Frame.EndOffset, f);
                bool same = ReferenceEquals(start, c.Frame.StartOffset) && ReferenceEquals(end, c.Frame.EndOffset);
                windowsChanged |= !same;
                calls[i] = same ? c : c with { Frame = c.Frame with { StartOffset = start, EndOffset = end } };
            }
            if (windowsChanged)
            {
                windows = windows with { Inputs = inputs, Calls = calls };
                changed = true;
            }
        }
        if (!changed) return q;
        return q with
        {
            Windows = windows,
            Source = source,
            Projections = projections,
            Where = where,
            Having = having,
            Limit = limit,
            Offset = offset,
            Aggregation = aggregation,
        };
    }

    /// <summary>Rewrites the join conditions and the subqueries of a join's items.</summary>
    private static JoinSource RewriteJoin(JoinSource join, Func<IntentExpr, IntentExpr?> f)
    {
        bool changed = false;
        var on = new IntentExpr?[join.On.Length];
        for (int i = 0; i < on.Length; i++)
        {
            on[i] = RewriteOpt(join.On[i], f);
            changed |= !ReferenceEquals(on[i], join.On[i]);
        }
        var items = new JoinItem[join.Items.Count];
        for (int i = 0; i < items.Length; i++)
        {
            var item = join.Items[i];
            items[i] = item;
            IntentSource? source = item.Source is SubquerySource sub
                ? (RewriteQuery(sub.Query, f) is var inner && !ReferenceEquals(inner, sub.Query) ? sub with { Query = inner } : sub)
                : CompoundSources.Rewrite(item.Source, f);
            if (source is null || ReferenceEquals(source, item.Source)) continue;
            items[i] = item with { Source = source };
            changed = true;
        }
        return changed ? join with { Items = items, On = on } : join;
    }

    /// <summary>Calls <paramref name="visit"/> on every node of the tree (subqueries included).</summary>
    public static void Visit(IntentExpr e, Action<IntentExpr> visit)
        => Rewrite(e, x =>
        {
            visit(x);
            return null;
        });

    /// <summary>Calls <paramref name="visit"/> on every expression node of a query.</summary>
    public static void VisitQuery(QueryIntent q, Action<IntentExpr> visit)
        => RewriteQuery(q, x =>
        {
            visit(x);
            return null;
        });
}
