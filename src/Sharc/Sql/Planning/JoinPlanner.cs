using System.Numerics;
using System.Text;
using Sharc.Sql.Intent;

namespace Sharc.Sql.Planning;

/// <summary>
/// Plans a level that joins several items: splits WHERE and the join conditions into terms, chooses the order of the
/// items greedily (at each step the item that the bound items make cheapest to reach: a rowid or unique seek, then
/// an index seek, then a hash join, a scan last; never a cross product when an equality links the items), attaches
/// each term to the first step where every item it reads is bound and past any null-extension that could change
/// it, and picks each step's method. Outer joins constrain the order as in SQLite: a LEFT JOIN's item comes after
/// every item written before it, and a join with RIGHT or FULL runs in the order written.
/// </summary>
internal static class JoinPlanner
{
    private enum TermClass : byte
    {
        // WHERE, or an inner join's ON when nothing forbids moving it: filters the joined rows.
        Where,
        // An inner join's ON in a join with RIGHT or FULL: it belongs to the left side of later right joins.
        InnerOn,
        // An outer join's ON: decides which rows match; the others are null-extended.
        Match,
    }

    private sealed record Term(IntentExpr Expr, ulong Items, TermClass Class, int Item, bool Pure);

    /// <summary>Estimated rows a step yields per outer row, by method (no statistics: orders of magnitude only).</summary>
    private const double UniqueSeek = 1, IndexSeek = 10, HashProbe = 30, RangeSeek = 1e4, FullScan = 1e6;

    public static LevelPlan Plan(QueryIntent q)
    {
        var join = (JoinSource)q.Source!;
        int n = join.Items.Count;
        bool right = join.HasRightJoin;
        var terms = CollectTerms(q, join, right);
        var needed = new List<ProjectionIntent>[n];
        for (int k = 0; k < n; k++) needed[k] = NeededColumns(q, join, k);

        var order = right ? [.. Enumerable.Range(0, n)] : ChooseOrder(q, join, terms, needed);
        var pos = new int[n];
        for (int s = 0; s < n; s++) pos[order[s]] = s;

        var placed = new List<Term>[n];
        for (int s = 0; s < n; s++) placed[s] = [];
        foreach (var t in terms)
        {
            if (t.Class == TermClass.Match) continue;
            int at = 0;
            for (ulong m = t.Items; m != 0; m &= m - 1) at = Math.Max(at, pos[BitOperations.TrailingZeroCount(m)]);
            if (t.Class == TermClass.InnerOn) at = Math.Max(at, pos[t.Item]);
            else if (right)
            {
                // A RIGHT or FULL join null-extends every item before it: a WHERE term reading one waits for it.
                for (int s = 1; s < n; s++)
                {
                    if (join.Items[order[s]].Kind is not (JoinKind.Right or JoinKind.Full)) continue;
                    for (ulong m = t.Items; m != 0; m &= m - 1)
                        if (pos[BitOperations.TrailingZeroCount(m)] < s) at = Math.Max(at, s);
                }
            }
            placed[at].Add(t);
        }

        var steps = new List<JoinStep>(n);
        ulong bound = 0;
        for (int s = 0; s < n; s++)
        {
            int k = order[s];
            steps.Add(PlanStep(q, join, terms, placed[s], needed[k], k, s, bound));
            bound |= 1UL << k;
        }
        var sb = new StringBuilder();
        foreach (var step in steps)
        {
            if (sb.Length > 0) sb.Append('\n');
            sb.Append(step.Description);
        }
        sb.Append(Planner.SortNote(q, false));
        return new LevelPlan(AccessPlan.Scan, false, sb.ToString()) { Join = new JoinPlan(steps) };
    }

    private static JoinStep PlanStep(QueryIntent q, JoinSource join, List<Term> all, List<Term> placed, List<ProjectionIntent> needed, int k, int s, ulong bound)
    {
        var item = join.Items[k];
        var kind = s == 0 ? JoinKind.Inner : item.Kind;
        var match = new List<Term>();
        foreach (var t in all)
            if (t.Class == TermClass.Match && t.Item == k) match.Add(t);
        var seekTerms = kind == JoinKind.Inner ? placed : match;
        string name = item.Source.Name.Length == 0 ? "(subquery)" : item.Source.Name;
        string suffix = kind switch
        {
            JoinKind.Left => " (LEFT JOIN)",
            JoinKind.Right => " (RIGHT JOIN)",
            JoinKind.Full => " (FULL JOIN)",
            _ => "",
        };
        ulong self = 1UL << k;

        if (s > 0 && kind is not (JoinKind.Right or JoinKind.Full) && item.Source is TableSource)
        {
            var seek = PlanItem(join, q.Frame, k, seekTerms, needed);
            if (seek.Access.Seeks)
                return new JoinStep(k, kind, JoinMethod.Loop, seek.Access, And(match), null, And(placed), [], seek.Description + suffix);
        }
        if (s == 0)
        {
            if (item.Source is TableSource)
            {
                var scan = PlanItem(join, q.Frame, k, seekTerms, needed);
                return new JoinStep(k, kind, JoinMethod.Loop, scan.Access, null, null, And(placed), [], scan.Description);
            }
            return new JoinStep(k, kind, JoinMethod.Loop, AccessPlan.Scan, null, null, And(placed), [], $"SCAN {name}");
        }

        // A table-valued function is evaluated again for each outer row (its arguments may read it).
        if (item.Source is TableFunctionSource && kind is JoinKind.Inner or JoinKind.Left)
            return new JoinStep(k, kind, JoinMethod.Loop, AccessPlan.Scan, And(match), null, And(placed), [], $"SCAN {name} VIRTUAL TABLE{suffix}");

        var keys = HashKeys(seekTerms, k, bound, q.Frame, join);
        // Terms on the item alone are checked once, as it is read; a RIGHT or FULL join keeps failing rows (null-extended).
        var alone = new List<Term>();
        if (kind is JoinKind.Inner or JoinKind.Left)
            foreach (var t in seekTerms)
                if (t.Items == self && t.Pure) alone.Add(t);
        var rest = new List<Term>(seekTerms.Count);
        foreach (var t in seekTerms)
            if (!alone.Contains(t)) rest.Add(t);
        var filter = kind == JoinKind.Inner ? rest : placed;
        var matchTerms = kind == JoinKind.Inner ? match : rest;

        var access = AccessPlan.Scan;
        string read = $"SCAN {name}";
        if (item.Source is TableSource)
        {
            // The rows are copied whole, so the path must read every column: no covering index short of all.
            var once = PlanItem(join, q.Frame, k, alone, AllColumns(join, k));
            access = once.Access;
            read = once.Description;
        }
        if (keys.Count > 0)
        {
            string on = string.Join(" AND ", keys.Select(h => Describe(h.Build, join, q.Frame) + "=?"));
            return new JoinStep(k, kind, JoinMethod.Hash, access, And(matchTerms), And(alone), And(filter), keys, $"HASH JOIN {name} ({on}) BUILT FROM {read}{suffix}");
        }
        if (item.Source is TableSource && kind is JoinKind.Inner or JoinKind.Left)
        {
            // Nothing to seek or hash on: the table is read again for each outer row (no copy of it is kept).
            var scan = PlanItem(join, q.Frame, k, [], needed);
            return new JoinStep(k, kind, JoinMethod.Loop, scan.Access, And(match), null, And(placed), [], scan.Description + suffix);
        }
        return new JoinStep(k, kind, JoinMethod.Materialize, access, And(matchTerms), And(alone), And(filter), [], $"MATERIALIZE {name} FROM {read}{suffix}");
    }

    private static string Describe(IntentExpr e, JoinSource join, int frame)
    {
        while (e is CollateExpr c) e = c.Operand;
        if (e is ColumnExpr col && col.Frame == frame)
        {
            int local = join.LocalOf(col.Column);
            return local == SourceColumn.RowId ? "rowid" : col.Meta.Name;
        }
        return "expr";
    }

    /// <summary>The order of the items: greedy, cheapest next step first, respecting LEFT JOIN's order.</summary>
    private static int[] ChooseOrder(QueryIntent q, JoinSource join, List<Term> terms, List<ProjectionIntent>[] needed)
    {
        int n = join.Items.Count;
        var order = new int[n];
        ulong bound = 0;
        for (int s = 0; s < n; s++)
        {
            int best = -1;
            double bestCost = double.MaxValue;
            for (int k = 0; k < n; k++)
            {
                if ((bound & (1UL << k)) != 0) continue;
                if (join.Items[k].Kind == JoinKind.Left && (bound & ((1UL << k) - 1)) != (1UL << k) - 1) continue;
                // A table-valued function may read the items written before it: it waits for them.
                if (join.Items[k].Source is TableFunctionSource && (bound & ((1UL << k) - 1)) != (1UL << k) - 1) continue;
                double cost = Estimate(q, join, terms, needed[k], k, bound);
                if (cost < bestCost)
                {
                    best = k;
                    bestCost = cost;
                }
            }
            order[s] = best;
            bound |= 1UL << best;
        }
        return order;
    }

    private static double Estimate(QueryIntent q, JoinSource join, List<Term> terms, List<ProjectionIntent> needed, int k, ulong bound)
    {
        var item = join.Items[k];
        ulong reach = bound | (1UL << k);
        var seekTerms = new List<Term>();
        foreach (var t in terms)
        {
            bool usable = item.Kind == JoinKind.Left && bound != 0
                ? t.Class == TermClass.Match && t.Item == k
                : t.Class == TermClass.Where && (t.Items & ~reach) == 0 && (t.Items & (1UL << k)) != 0;
            if (usable) seekTerms.Add(t);
        }
        if (item.Source is TableSource)
        {
            var a = PlanItem(join, q.Frame, k, seekTerms, needed).Access;
            if (a.Seeks)
            {
                bool unique = a.Equalities.Count == a.Columns.Count && a.Equalities.All(e => !e.IsIn && !e.IsNull)
                    && (a.Kind is AccessKind.RowId or AccessKind.PrimaryKey || a.Index is { IsUnique: true });
                if (unique || (a.Kind == AccessKind.RowId && a.Equalities.Count > 0)) return UniqueSeek;
                if (a.Equalities.Count > 0) return IndexSeek / a.Equalities.Count;
                return RangeSeek;
            }
        }
        if (bound != 0 && HashKeys(seekTerms, k, bound, q.Frame, join).Count > 0) return HashProbe;
        return FullScan;
    }

    /// <summary>Plans reading table item <paramref name="k"/> with the terms given, seeking on what they fix.</summary>
    private static LevelPlan PlanItem(JoinSource join, int frame, int k, List<Term> terms, List<ProjectionIntent> needed)
    {
        var item = join.Items[k];
        IntentExpr? where = null;
        foreach (var t in terms)
        {
            var e = ToItemFrame(t.Expr, join, frame, k);
            where = where is null ? e : new LogicExpr(true, where, e);
        }
        var single = new QueryIntent(item.Frame, item.Source, needed, 0, where, null, null, [], null, null, false);
        return Planner.Plan(single);
    }

    /// <summary>Reads item <paramref name="k"/>'s columns from its own frame, as a single-table level would.</summary>
    private static IntentExpr ToItemFrame(IntentExpr e, JoinSource join, int frame, int k)
    {
        var item = join.Items[k];
        return IntentRewriter.Rewrite(e, x => x is ColumnExpr c && c.Frame == frame && join.ItemOf(c.Column) == k
            ? c with { Frame = item.Frame, Column = join.LocalOf(c.Column) }
            : null);
    }

    /// <summary>The columns of item <paramref name="k"/> the level reads (whether an index covers them decides).</summary>
    private static List<ProjectionIntent> NeededColumns(QueryIntent q, JoinSource join, int k)
    {
        var list = new List<ProjectionIntent>();
        var seen = new HashSet<int>();
        var item = join.Items[k];
        void Note(IntentExpr x)
        {
            if (x is ColumnExpr c && c.Frame == q.Frame && join.ItemOf(c.Column) == k && seen.Add(c.Column))
                list.Add(new ProjectionIntent(c with { Frame = item.Frame, Column = join.LocalOf(c.Column) }, "", Format.Collation.Binary, null));
        }
        IntentRewriter.VisitQuery(q, Note);
        if (q.Aggregation is { } a)
            foreach (var b in a.BareColumns) Note(b);
        return list;
    }

    private static List<ProjectionIntent> AllColumns(JoinSource join, int k)
    {
        var item = join.Items[k];
        var list = new List<ProjectionIntent>();
        for (int c = 0; c < item.Source.Columns.Count; c++)
            list.Add(new ProjectionIntent(new ColumnExpr(item.Frame, c, item.Source.Columns[c]), "", Format.Collation.Binary, null));
        if (item.RowIdColumn >= 0)
            list.Add(new ProjectionIntent(new ColumnExpr(item.Frame, SourceColumn.RowId, IntentCompiler.RowIdColumn), "", Format.Collation.Binary, null));
        return list;
    }

    /// <summary>Equalities between the item alone and earlier items alone: what a hash table can be keyed on.</summary>
    private static List<HashKey> HashKeys(List<Term> terms, int k, ulong bound, int frame, JoinSource join)
    {
        var keys = new List<HashKey>();
        ulong self = 1UL << k;
        foreach (var t in terms)
        {
            if (!t.Pure || t.Expr is not CompareExpr { Op: IntentCompareOp.Eq } c) continue;
            ulong l = Mask(c.Left, frame, join), r = Mask(c.Right, frame, join);
            if (l == self && r != 0 && (r & ~bound) == 0) keys.Add(new HashKey(c.Right, c.Left, c.CompareAffinity, c.Collation));
            else if (r == self && l != 0 && (l & ~bound) == 0) keys.Add(new HashKey(c.Left, c.Right, c.CompareAffinity, c.Collation));
        }
        return keys;
    }

    private static List<Term> CollectTerms(QueryIntent q, JoinSource join, bool right)
    {
        var terms = new List<Term>();
        void Add(IntentExpr? e, TermClass cls, int item)
        {
            if (e is LogicExpr { IsAnd: true } and)
            {
                Add(and.Left, cls, item);
                Add(and.Right, cls, item);
                return;
            }
            if (e is not null) terms.Add(new Term(e, Mask(e, q.Frame, join), cls, item, IsPure(e)));
        }
        Add(q.Where, TermClass.Where, -1);
        for (int k = 1; k < join.Items.Count; k++)
        {
            var kind = join.Items[k].Kind;
            Add(join.On[k], kind != JoinKind.Inner ? TermClass.Match : right ? TermClass.InnerOn : TermClass.Where, k);
        }
        return terms;
    }

    private static ulong Mask(IntentExpr e, int frame, JoinSource join)
    {
        ulong mask = 0;
        IntentRewriter.Visit(e, x =>
        {
            if (x is ColumnExpr c && c.Frame == frame) mask |= 1UL << join.ItemOf(c.Column);
        });
        return mask;
    }

    private static bool IsPure(IntentExpr e)
    {
        bool pure = true;
        IntentRewriter.Visit(e, x =>
        {
            if (x is InSubqueryExpr or RowInSubqueryExpr or ExistsExpr or ScalarSubqueryExpr or FunctionExpr { Function.IsDeterministic: false }) pure = false;
        });
        return pure;
    }

    private static IntentExpr? And(List<Term> terms)
    {
        IntentExpr? e = null;
        foreach (var t in terms) e = e is null ? t.Expr : new LogicExpr(true, e, t.Expr);
        return e;
    }
}
