using System.Text;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Planning;

/// <summary>
/// Chooses how each query level reads its table: rowid seeks (equality, IN, range), index seeks (equality and IN
/// on a prefix of the index, then a range on the next column, respecting the index's collations, directions and
/// SQLite's rule on which comparison affinities an index can serve), covering-index reads, and index order in place
/// of a sort. Simple scoring, no statistics: correctness does not depend on the choice, since every row read is
/// still checked against the whole WHERE clause.
/// </summary>
internal static class Planner
{
    /// <summary>Plans every level of a statement (subqueries and views included), keyed by intent identity.</summary>
    public static Dictionary<QueryIntent, LevelPlan> PlanAll(QueryIntent top)
    {
        var plans = new Dictionary<QueryIntent, LevelPlan>(ReferenceEqualityComparer.Instance);
        Collect(top, plans);
        return plans;
    }

    /// <summary>Plans the subqueries inside expressions that stand outside any query (row expressions).</summary>
    public static Dictionary<QueryIntent, LevelPlan> PlanSubqueries(IEnumerable<IntentExpr> expressions)
    {
        var plans = new Dictionary<QueryIntent, LevelPlan>(ReferenceEqualityComparer.Instance);
        foreach (var e in expressions) CollectSubqueries(e, plans);
        return plans;
    }

    private static void Collect(QueryIntent q, Dictionary<QueryIntent, LevelPlan> plans)
    {
        if (plans.ContainsKey(q)) return;
        plans[q] = Plan(q);
        if (q.Source is SubquerySource s) Collect(s.Query, plans);
        if (q.Source is JoinSource join)
        {
            foreach (var item in join.Items)
            {
                if (item.Source is SubquerySource js) Collect(js.Query, plans);
                foreach (var level in CompoundSources.Levels(item.Source)) Collect(level, plans);
                foreach (var e in CompoundSources.Expressions(item.Source)) CollectSubqueries(e, plans);
            }
        }
        foreach (var level in CompoundSources.Levels(q.Source)) Collect(level, plans);
        foreach (var e in CompoundSources.Expressions(q.Source)) CollectSubqueries(e, plans);
        foreach (var e in IntentAnalysis.LevelExpressions(q)) CollectSubqueries(e, plans);
    }

    /// <summary>Plans the subqueries of an expression, stopping at each (a level of its own, planned by Collect).</summary>
    private static void CollectSubqueries(IntentExpr e, Dictionary<QueryIntent, LevelPlan> plans)
        => IntentRewriter.Rewrite(e, x =>
        {
            switch (x)
            {
                case InSubqueryExpr i:
                    CollectSubqueries(i.Operand, plans);
                    Collect(i.Query, plans);
                    return x;
                case RowInSubqueryExpr ri:
                    foreach (var l in ri.Left) CollectSubqueries(l, plans);
                    Collect(ri.Query, plans);
                    return x;
                case ExistsExpr ex:
                    Collect(ex.Query, plans);
                    return x;
                case ScalarSubqueryExpr sq:
                    Collect(sq.Query, plans);
                    return x;
                default:
                    return null;
            }
        });

    /// <summary>A candidate path with what it is worth.</summary>
    private sealed record Candidate(AccessPlan Access, double Score, bool ProvidesOrder, int Served = 0);

    /// <summary>Whether walking a key yields the ORDER BY order, and in which direction.</summary>
    private enum KeyOrder : byte
    {
        None,
        Forward,
        Backward,
    }

    public static LevelPlan Plan(QueryIntent q)
    {
        // Window functions reorder the rows (SQLite's rewrite sorts them in a subquery): the access path cannot give
        // the ORDER BY's order, and choosing one for it would change the order peers reach the windows in.
        if (q.Windows is not null && q.OrderBy.Count > 0) return Plan(q with { OrderBy = [] }) with { OrderSatisfied = false };
        if (q.Source is JoinSource) return JoinPlanner.Plan(q);
        if (q.Source is not TableSource table)
        {
            string what = q.Source switch
            {
                SubquerySource s => $"SCAN {(s.Name.Length == 0 ? "(subquery)" : s.Name)}",
                null => "SCAN CONSTANT ROW",
                _ => CompoundPlans.Describe(q.Source),
            };
            // A compound with ORDER BY merges its arms in that order.
            bool merged = q.Source is CompoundSource { Ordering.Count: > 0 };
            return new LevelPlan(AccessPlan.Scan, merged, what + SortNote(q, merged));
        }

        var terms = PredicateTerms.Extract(q);
        var needed = NeededColumns(q);
        var candidates = new List<Candidate>();
        var t = table.Table;

        if (table.IndexedBy is null)
        {
            if (!t.IsWithoutRowId) candidates.Add(Evaluate(q, table, AccessKind.RowId, null, [new KeyColumn(SourceColumn.RowId, Collation.Binary, false)], terms, covering: true));
            else if (PrimaryKeyColumns(t) is { } pk) candidates.Add(Evaluate(q, table, AccessKind.PrimaryKey, null, pk, terms, covering: true));
        }
        if (!table.NotIndexed)
        {
            foreach (var index in t.Indexes)
            {
                if (table.IndexedBy is not null && !SqlNameComparer.Instance.Equals(index.Name, table.IndexedBy)) continue;
                // A WITHOUT ROWID table is its primary key's index: there is no separate b-tree to read.
                if (t.IsWithoutRowId && index.IsPrimaryKey) continue;
                if (IndexColumns(index) is not { } keys) continue;
                bool covering = Covers(t, index, needed);
                if (t.IsWithoutRowId && !covering) continue;
                candidates.Add(Evaluate(q, table, AccessKind.Index, index, keys, terms, covering));
            }
        }

        Candidate? best = null;
        foreach (var c in candidates)
        {
            if (!Acceptable(c, q, table)) continue;
            if (best is null || Better(c, best)) best = c;
        }
        // With nothing to seek, a covering index is read instead of the table when there is one, as SQLite does:
        // its entries are narrower, and rows then come in its order (the narrowest index wins).
        if (best is null)
        {
            foreach (var c in candidates)
            {
                if (c.Access is not { Kind: AccessKind.Index, Covering: true }) continue;
                if (best is null || c.Access.Columns.Count < best.Access.Columns.Count) best = c;
            }
        }
        var access = best?.Access ?? AccessPlan.Scan;
        bool ordered = best?.ProvidesOrder ?? (!t.IsWithoutRowId && ProvidesOrder(q, [new KeyColumn(SourceColumn.RowId, Collation.Binary, false)], [], 0, out _, out _) == KeyOrder.Forward);
        return new LevelPlan(access, ordered, Describe(table, access) + SortNote(q, ordered, ordered && access.Backward));
    }

    /// <summary>A path is worth taking when it seeks, or when it yields the wanted order cheaply (or is forced).</summary>
    private static bool Acceptable(Candidate c, QueryIntent q, TableSource table)
    {
        if (c.Access.Seeks) return true;
        if (c.Access.Kind == AccessKind.Index && table.IndexedBy is not null) return true;
        if (!c.ProvidesOrder && !c.Access.Backward) return false;
        // A full walk of a non-covering index costs a table seek per row: only worth it when a LIMIT cuts it short,
        // or when it is walked backwards. SQLite then walks it too (without statistics it prefers that to a sort)
        // and its rows with equal ORDER BY values come in the backward walk's order, which no sort of a forward
        // table scan gives.
        return c.Access.Kind != AccessKind.Index || c.Access.Covering || q.Limit is not null || c.Access.Backward;
    }

    private static bool Better(Candidate a, Candidate b)
    {
        if (a.Score != b.Score) return a.Score > b.Score;
        if (a.ProvidesOrder != b.ProvidesOrder) return a.ProvidesOrder;
        if (a.Served != b.Served) return a.Served > b.Served;
        if (a.Access.Covering != b.Access.Covering) return a.Access.Covering;
        // As SQLite, the narrower index (which also decides the order of rows with equal ORDER BY values).
        return a.Access.Columns.Count < b.Access.Columns.Count;
    }

    private static Candidate Evaluate(QueryIntent q, TableSource table, AccessKind kind, SharcIndex? index, List<KeyColumn> keys, List<ColumnTerm> terms, bool covering)
    {
        var equalities = new List<KeyTerm>();
        bool haveIn = false;
        foreach (var key in keys)
        {
            var term = FindEquality(key, table, terms, allowIn: !haveIn);
            if (term is null) break;
            haveIn |= term.IsIn;
            equalities.Add(term);
        }
        RangeBound? lower = null, upper = null;
        if (equalities.Count < keys.Count)
        {
            var key = keys[equalities.Count];
            foreach (var term in terms)
            {
                if (term.Column != key.SourceColumn || !Usable(term, key, table)) continue;
                switch (term.Kind)
                {
                    case TermKind.Gt or TermKind.Ge when lower is null:
                        lower = new RangeBound(term.Value!, term.Affinity, term.Kind == TermKind.Ge);
                        break;
                    case TermKind.Lt or TermKind.Le when upper is null:
                        upper = new RangeBound(term.Value!, term.Affinity, term.Kind == TermKind.Le);
                        break;
                }
            }
        }
        var order = ProvidesOrder(q, keys, equalities, haveIn ? IndexOfIn(equalities) : equalities.Count, out var leading, out int served);
        // When the path gives only the first ORDER BY terms (or their order but not their NULL placement), SQLite still
        // walks it in their direction and sorts the rest; a stable sort over the same walk then yields its ties.
        var access = new AccessPlan(kind, index, covering, keys, equalities, lower, upper) { Backward = leading == KeyOrder.Backward };

        double score = 0;
        foreach (var e in equalities) score += e.IsIn ? 3 : 4;
        if (lower is not null) score += 1.5;
        if (upper is not null) score += 1.5;
        bool allEqual = equalities.Count == keys.Count && !haveIn;
        if (kind == AccessKind.RowId && equalities.Count > 0) score += 100;
        else if (allEqual && (kind == AccessKind.PrimaryKey || index is { IsUnique: true })) score += 50;
        else if (kind == AccessKind.RowId && (lower is not null || upper is not null)) score += 0.5;
        if (covering && kind == AccessKind.Index) score += 0.25;

        return new Candidate(access, score, order != KeyOrder.None, served);
    }

    private static int IndexOfIn(List<KeyTerm> equalities)
    {
        for (int i = 0; i < equalities.Count; i++)
            if (equalities[i].IsIn) return i;
        return equalities.Count;
    }

    private static KeyTerm? FindEquality(KeyColumn key, TableSource table, List<ColumnTerm> terms, bool allowIn)
    {
        KeyTerm? isNull = null, inList = null;
        foreach (var term in terms)
        {
            if (term.Column != key.SourceColumn || !Usable(term, key, table)) continue;
            switch (term.Kind)
            {
                case TermKind.Eq:
                    return new KeyTerm(term.Value, term.Affinity, false, null);
                case TermKind.IsNull when key.SourceColumn != SourceColumn.RowId:
                    isNull ??= new KeyTerm(null, SqlAffinity.None, true, null);
                    break;
                case TermKind.In when allowIn:
                    inList ??= new KeyTerm(null, term.Affinity, false, term.InValues);
                    break;
            }
        }
        return isNull ?? inList;
    }

    /// <summary>
    /// SQLite's sqlite3IndexAffinityOk and collation check: a comparison whose affinity is TEXT can only use a TEXT
    /// column's index, a numeric one only a numeric column's; with no affinity any index works; the collation must
    /// be the index's.
    /// </summary>
    private static bool Usable(ColumnTerm term, KeyColumn key, TableSource table)
    {
        if (key.SourceColumn == SourceColumn.RowId) return true;
        var columnAffinity = table.Columns[key.SourceColumn].Affinity;
        if (term.Kind is not (TermKind.IsNull or TermKind.In))
        {
            if (term.Affinity == SqlAffinity.Text && columnAffinity != SqlAffinity.Text) return false;
            if (SqlAffinities.IsNumeric(term.Affinity) && !SqlAffinities.IsNumeric(columnAffinity)) return false;
        }
        return term.Collation == key.Collation;
    }

    /// <summary>
    /// Whether reading along <paramref name="keys"/> yields the ORDER BY order: the ORDER BY columns follow the key
    /// columns from the first one that is not pinned to one value (ORDER BY columns pinned by an equality may appear
    /// anywhere), each in the key's direction (a forward walk) or each against it (a backward walk, as SQLite walks a
    /// b-tree backwards for ORDER BY … DESC over an ascending key), with the direction's default NULL placement
    /// (NULLs sort low, so a walk in either direction puts them where the ORDER BY term puts them by default) and the
    /// key's collation; for a rowid table the rowid follows the index columns. Mixed directions need a sort.
    /// <paramref name="leading"/> is the direction that serves the leading ORDER BY terms (all of them, or a first
    /// part, or all but a NULL placement), None when not even the first is served; <paramref name="served"/> counts
    /// the leading terms served.
    /// </summary>
    private static KeyOrder ProvidesOrder(QueryIntent q, List<KeyColumn> keys, List<KeyTerm> equalities, int firstFree, out KeyOrder leading, out int served)
    {
        leading = KeyOrder.None;
        served = 0;
        if (q.OrderBy.Count == 0 || q.Aggregation is not null || q.Source is not TableSource table) return KeyOrder.None;
        var pinned = new HashSet<int>();
        for (int i = 0; i < equalities.Count; i++)
            if (!equalities[i].IsIn) pinned.Add(keys[i].SourceColumn);
        var sequence = new List<KeyColumn>();
        for (int i = firstFree; i < keys.Count; i++)
            if (!pinned.Contains(keys[i].SourceColumn)) sequence.Add(keys[i]);
        if (!table.Table.IsWithoutRowId && (keys.Count == 0 || keys[^1].SourceColumn != SourceColumn.RowId))
            sequence.Add(new KeyColumn(SourceColumn.RowId, Collation.Binary, false));

        int at = 0;
        var direction = KeyOrder.None;
        foreach (var term in q.OrderBy)
        {
            var expr = q.Projections[term.Projection].Expr;
            if (PredicateTerms.ColumnOf(expr, q.Frame) is not { } column) return KeyOrder.None;
            if (pinned.Contains(column))
            {
                served++;
                continue;
            }
            if (at >= sequence.Count) return KeyOrder.None;
            var key = sequence[at++];
            if (key.SourceColumn != column) return KeyOrder.None;
            if (column != SourceColumn.RowId && key.Collation != term.Collation) return KeyOrder.None;
            var wanted = key.Descending == term.Descending ? KeyOrder.Forward : KeyOrder.Backward;
            if (direction != KeyOrder.None && direction != wanted) return KeyOrder.None;
            leading = wanted;
            // NULLS FIRST on a descending walk (or LAST on an ascending one) moves the NULLs to the other end:
            // SQLite walks in this direction all the same, and a stable sort keeps both parts in walk order.
            if (term.NullsFirst == term.Descending) return KeyOrder.None;
            direction = wanted;
            served++;
            // The rowid is unique: nothing after it can matter.
            if (column == SourceColumn.RowId) break;
        }
        // Every ORDER BY column pinned: any walk gives the order, and the forward one is SQLite's.
        return direction == KeyOrder.None ? KeyOrder.Forward : direction;
    }

    private static List<KeyColumn>? PrimaryKeyColumns(SharcTable t)
    {
        var keys = new List<KeyColumn>();
        for (int i = 0; i < t.PrimaryKey.Count; i++)
        {
            string coll = i < t.PrimaryKeyCollations.Count ? t.PrimaryKeyCollations[i] : "BINARY";
            if (!CollationCompare.TryParse(coll, out var c)) return null;
            keys.Add(new KeyColumn(t.PrimaryKey[i], c, i < t.PrimaryKeyDescending.Count && t.PrimaryKeyDescending[i]));
        }
        return keys;
    }

    private static List<KeyColumn>? IndexColumns(SharcIndex index)
    {
        if (index.IsPartial) return null;
        var keys = new List<KeyColumn>();
        foreach (var k in index.Columns)
        {
            if (k.TableOrdinal < 0 || k.ExpressionSql is not null) return null;
            if (!CollationCompare.TryParse(k.Collation, out var c)) return null;
            keys.Add(new KeyColumn(k.TableOrdinal, c, k.IsDescending));
        }
        return keys;
    }

    /// <summary>The source columns the level reads (its subqueries' references to it included); -1 is the rowid.</summary>
    public static HashSet<int> NeededColumns(QueryIntent q)
    {
        var needed = new HashSet<int>();
        void Note(IntentExpr x)
        {
            if (x is ColumnExpr c && c.Frame == q.Frame)
                needed.Add(c.Meta.TableColumn is { IsRowIdAlias: true } ? SourceColumn.RowId : c.Column);
        }
        foreach (var e in IntentAnalysis.LevelExpressions(q)) IntentRewriter.Visit(e, Note);
        if (q.Aggregation is { } a)
            foreach (var b in a.BareColumns) Note(b);
        return needed;
    }

    private static bool Covers(SharcTable t, SharcIndex index, HashSet<int> needed)
    {
        foreach (int column in needed)
        {
            if (column == SourceColumn.RowId)
            {
                if (t.IsWithoutRowId) return false;
                continue;
            }
            if (t.Columns[column].Generated == SharcGeneratedKind.Virtual) return false;
            bool found = false;
            foreach (var k in index.Columns)
                if (k.TableOrdinal == column) found = true;
            if (!found && t.IsWithoutRowId)
                foreach (int pk in t.PrimaryKey)
                    if (pk == column) found = true;
            if (!found) return false;
        }
        return true;
    }

    // ---- descriptions ------------------------------------------------------------------------------------------

    internal static string SortNote(QueryIntent q, bool ordered, bool backward = false)
    {
        var sb = new StringBuilder();
        if (q.Aggregation is { Keys.Count: > 0 }) sb.Append("; USE HASH TABLE FOR GROUP BY");
        if (q.Distinct) sb.Append("; USE HASH TABLE FOR DISTINCT");
        if (q.OrderBy.Count > 0)
            sb.Append(ordered ? backward ? "; ORDER BY FROM INDEX ORDER, WALKED BACKWARD" : "; ORDER BY FROM INDEX ORDER" : q.Limit is not null ? "; USE TOP-N HEAP FOR ORDER BY" : "; USE SORT FOR ORDER BY");
        return sb.ToString();
    }

    private static string Describe(TableSource table, AccessPlan a)
    {
        string name = table.Name;
        string Column(KeyColumn k) => k.SourceColumn == SourceColumn.RowId ? "rowid" : table.Columns[k.SourceColumn].Name;
        if (a.Kind == AccessKind.Scan) return $"SCAN {name}";
        string via = a.Kind switch
        {
            AccessKind.RowId => "INTEGER PRIMARY KEY",
            AccessKind.PrimaryKey => "PRIMARY KEY",
            _ => (a.Covering ? "COVERING INDEX " : "INDEX ") + a.Index!.Name,
        };
        if (!a.Seeks) return a.Kind == AccessKind.Index ? $"SCAN {name} USING {via}" : $"SCAN {name}";
        var parts = new List<string>();
        for (int i = 0; i < a.Equalities.Count; i++)
        {
            var e = a.Equalities[i];
            parts.Add(Column(a.Columns[i]) + (e.IsNull ? " IS NULL" : e.IsIn ? " IN (…)" : "=?"));
        }
        if (a.Lower is not null) parts.Add(Column(a.Columns[a.Equalities.Count]) + (a.Lower.Inclusive ? ">=?" : ">?"));
        if (a.Upper is not null) parts.Add(Column(a.Columns[a.Equalities.Count]) + (a.Upper.Inclusive ? "<=?" : "<?"));
        return $"SEARCH {name} USING {via} ({string.Join(" AND ", parts)})";
    }
}
