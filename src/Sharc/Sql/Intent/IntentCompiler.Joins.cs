using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;
using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

/// <summary>
/// FROM clauses of several items: the items, their frames and their columns (<see cref="JoinSource"/>), join
/// conditions (ON, USING, NATURAL) and SQLite's name rules across items: ambiguity, USING columns read from the
/// left (coalesced across RIGHT and FULL joins), <c>*</c> showing a USING column once, and <c>t.*</c>.
/// </summary>
internal sealed partial class IntentCompiler
{
    /// <summary>An item as written: its source, how it is joined, and its constraint.</summary>
    private sealed record RawJoinItem(SqlTableSource Source, JoinKind Kind, bool Natural, SqlExpr? On, IReadOnlyList<string> Using, int Group, int Start);

    private JoinSource CompileJoin(SqlJoinClause from, Scope? parent)
    {
        var raw = new List<RawJoinItem>();
        int groups = 0;
        Flatten(from, JoinKind.Inner, -1, raw, ref groups, first: true);
        if (raw.Count > 64) throw Error("at most 64 tables in a join", from.Start);

        var items = new List<JoinItem>(raw.Count);
        var columns = new List<SourceColumn>();
        foreach (var r in raw)
        {
            var source = r.Source switch
            {
                SqlTableRef t => CompileTableRef(t, parent),
                SqlSubquerySource s => CompileSubquerySource(s, parent),
                SqlTableFunctionRef f => CompileTableFunction(f, parent, inJoin: true),
                SqlNestedJoinSource n => CompileNestedFrom(n, parent),
                _ => Unsupported.Throw<IntentSource>("this FROM item", _sql, r.Source.Start),
            };
            int offset = columns.Count;
            columns.AddRange(source.Columns);
            int rowId = -1;
            if (source is TableSource { RowIdName: not null })
            {
                rowId = columns.Count;
                columns.Add(RowIdColumn with { Hidden = true });
            }
            items.Add(new JoinItem(source, _nextFrame++, offset, rowId, r.Kind, new HashSet<string>(SqlNameComparer.Instance)) { Group = r.Group });
        }
        var join = new JoinSource(items, columns);
        _pendingJoins[join] = raw;
        return join;
    }

    private IntentSource CompileSubquerySource(SqlSubquerySource s, Scope? parent)
    {
        var inner = CompileSelect(s.Query, parent);
        return new SubquerySource(inner, s.Alias ?? "", SubqueryColumns(inner, null, s.Start));
    }

    // Join clauses waiting for their conditions, which need the level's scope.
    private readonly Dictionary<JoinSource, List<RawJoinItem>> _pendingJoins = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// Lists the items of a FROM clause in order. A parenthesized join is spliced in where that changes nothing: when
    /// it opens the clause, or is inner-joined and holds only inner joins without USING or NATURAL; anything else
    /// stays one item, a nested FROM (<see cref="CompileNestedFrom"/>).
    /// </summary>
    private void Flatten(SqlJoinClause clause, JoinKind kind, int group, List<RawJoinItem> into, ref int groups, bool first)
    {
        AddItem(clause.First, kind, false, null, [], group, into, ref groups, first, clause.First.Start);
        foreach (var j in clause.Joins)
        {
            var k = j.Kind switch
            {
                SqlJoinKind.Left => JoinKind.Left,
                SqlJoinKind.Right => JoinKind.Right,
                SqlJoinKind.Full => JoinKind.Full,
                _ => JoinKind.Inner,
            };
            if (j.Natural && (j.On is not null || j.Using.Count > 0))
                throw Error("a NATURAL join may not have an ON or USING clause", j.Start);
            AddItem(j.Source, k, j.Natural, j.On, j.Using, group, into, ref groups, false, j.Start);
        }
    }

    private void AddItem(SqlTableSource source, JoinKind kind, bool natural, SqlExpr? on, IReadOnlyList<string> @using, int group, List<RawJoinItem> into, ref int groups, bool first, int start)
    {
        if (source is not SqlNestedJoinSource nested)
        {
            into.Add(new RawJoinItem(source, kind, natural, on, @using, group, start));
            return;
        }
        // SQLite drops the parentheses around a single item.
        if (nested.Alias is null && nested.Join.Joins.Count == 0)
        {
            AddItem(nested.Join.First, kind, natural, on, @using, group, into, ref groups, first, start);
            return;
        }
        bool opens = first && into.Count == 0;
        // SQLite reads the columns of an aliased nested FROM that opens the clause by their bare names (often ambiguous).
        if (opens && nested.Alias is not null) Unsupported.Throw("an alias on a parenthesized join that opens the FROM clause", _sql, nested.Start);
        if (nested.Alias is not null
            || (!opens && (kind != JoinKind.Inner || natural || @using.Count > 0 || ContainsRightJoin(nested.Join) || ContainsUsing(nested.Join)
                || (on is not null && ContainsOuterJoin(nested.Join)))))
        {
            into.Add(new RawJoinItem(nested, kind, natural, on, @using, group, start));
            return;
        }
        // SQLite names the columns of a parenthesized join that does not open the clause as a subquery's (x, x:1…).
        int inner = opens ? group : groups++;
        int before = into.Count;
        Flatten(nested.Join, kind, inner, into, ref groups, first && into.Count == 0);
        // The ON of the parenthesized join is an inner condition on the whole group: its last item carries it.
        if (on is not null)
        {
            var last = into[^1];
            into[^1] = last with { On = last.On is null ? on : new SqlBinaryExpr(SqlBinaryOperator.And, last.On, on) { Start = on.Start, End = on.End } };
            if (last.Kind != JoinKind.Inner && into.Count - before > 1) Unsupported.Throw("an ON clause on a parenthesized outer join", _sql, on.Start);
        }
    }

    /// <summary>True when a join of the clause (nested ones included) has USING or NATURAL.</summary>
    private static bool ContainsUsing(SqlJoinClause clause)
    {
        foreach (var j in clause.Joins)
            if (j.Natural || j.Using.Count > 0 || (j.Source is SqlNestedJoinSource n && ContainsUsing(n.Join))) return true;
        return clause.First is SqlNestedJoinSource f && ContainsUsing(f.Join);
    }

    /// <summary>True when a join of the clause (nested ones included) is LEFT, RIGHT or FULL.</summary>
    private static bool ContainsOuterJoin(SqlJoinClause clause)
    {
        foreach (var j in clause.Joins)
            if (j.Kind is SqlJoinKind.Left or SqlJoinKind.Right or SqlJoinKind.Full || (j.Source is SqlNestedJoinSource n && ContainsOuterJoin(n.Join))) return true;
        return clause.First is SqlNestedJoinSource f && ContainsOuterJoin(f.Join);
    }

    private static bool ContainsRightJoin(SqlJoinClause clause)
    {
        foreach (var j in clause.Joins)
            if (j.Kind is SqlJoinKind.Right or SqlJoinKind.Full || (j.Source is SqlNestedJoinSource n && ContainsRightJoin(n.Join))) return true;
        return clause.First is SqlNestedJoinSource f && ContainsRightJoin(f.Join);
    }

    /// <summary>Compiles each item's ON, USING or NATURAL condition in the level's scope.</summary>
    private void CompileJoinConditions(JoinSource join, Scope scope)
    {
        var raw = _pendingJoins[join];
        _pendingJoins.Remove(join);
        CompileTableFunctionArguments(join, scope);
        for (int k = 1; k < join.Items.Count; k++)
        {
            var r = raw[k];
            var item = join.Items[k];
            IntentExpr? condition = null;
            var names = (HashSet<string>)item.UsingNames;
            if (r.Natural)
            {
                foreach (var c in item.Source.Columns)
                    if (!c.Hidden && LeftColumn(scope, join, k, c.Name, r.Start) is not null) names.Add(c.Name);
            }
            foreach (var name in r.Using)
            {
                if (LocalColumn(item.Source, name) < 0 || LeftColumn(scope, join, k, name, r.Start) is null)
                    throw Error($"cannot join using column {name} - column not present in both tables", r.Start);
                names.Add(name);
            }
            foreach (var name in names)
            {
                var left = LeftColumn(scope, join, k, name, r.Start)!;
                var right = JoinColumn(scope, join, k, LocalColumn(item.Source, name), r.Start);
                var eq = new CompareExpr(IntentCompareOp.Eq, left, right, SqlAffinities.ForComparison(left.Affinity, right.Affinity), CollationRules.ForComparison(left, right)) { Offset = r.Start };
                condition = condition is null ? eq : new LogicExpr(true, condition, eq);
            }
            if (r.On is not null)
            {
                var on = Compile(r.On, scope, Clause.Where);
                if (item.Kind != JoinKind.Inner) CheckOnReferences(join, k, on, scope.Frame, r.On.Start);
                condition = condition is null ? on : new LogicExpr(true, condition, on) { HasCollate = condition.HasCollate || on.HasCollate };
            }
            join.On[k] = condition;
        }
    }

    /// <summary>SQLite refuses an outer join's ON that reads an item joined later.</summary>
    private void CheckOnReferences(JoinSource join, int k, IntentExpr on, int frame, int offset)
    {
        IntentRewriter.Visit(on, x =>
        {
            if (x is ColumnExpr c && c.Frame == frame && join.ItemOf(c.Column) > k)
                throw Error("ON clause references tables to its right", offset);
        });
    }

    private static int LocalColumn(IntentSource source, string name)
    {
        for (int i = 0; i < source.Columns.Count; i++)
            if (SqlNameComparer.Instance.Equals(source.Columns[i].Name, name)) return i;
        return -1;
    }

    /// <summary>
    /// What an unqualified <paramref name="name"/> reads among the items before <paramref name="end"/>: the leftmost
    /// item's column (an item joined on that name with USING or NATURAL defers to the left), coalesced with the
    /// column of each RIGHT or FULL item joined on it, since there the left side may be the missing one. Null when
    /// no item has it; <paramref name="ambiguous"/> tells whether two items have it independently.
    /// </summary>
    private IntentExpr? UnqualifiedColumn(Scope scope, JoinSource join, int end, string name, int offset, out bool ambiguous)
    {
        ambiguous = false;
        IntentExpr? first = null;
        List<IntentExpr>? coalesced = null;
        for (int k = 0; k < end; k++)
        {
            var item = join.Items[k];
            for (int local = FirstMatch(item.Source, name); local >= 0; local = NextMatch(item.Source, name, local))
            {
            if (first is not null && item.UsingNames.Contains(name))
            {
                // INNER and LEFT read the leftmost item, RIGHT the rightmost, FULL all of them coalesced.
                if (item.Kind == JoinKind.Right)
                {
                    first = JoinColumn(scope, join, k, local, offset);
                    coalesced = null;
                }
                else if (item.Kind == JoinKind.Full)
                {
                    (coalesced ??= [first]).Add(JoinColumn(scope, join, k, local, offset));
                }
                continue;
            }
            if (first is not null)
            {
                ambiguous = true;
                continue;
            }
            first = JoinColumn(scope, join, k, local, offset);
            }
        }
        return coalesced is null ? first : Coalesced(coalesced, offset);
    }

    /// <summary>
    /// The left side of a USING equality on <paramref name="name"/> for item <paramref name="k"/>: the leftmost item
    /// with that column; in a join with RIGHT or FULL, every earlier item with it coalesced, each after the first
    /// joined on it by USING or NATURAL (else SQLite calls the reference ambiguous).
    /// </summary>
    private IntentExpr? LeftColumn(Scope scope, JoinSource join, int k, string name, int offset)
    {
        IntentExpr? first = null;
        List<IntentExpr>? coalesced = null;
        for (int j = 0; j < k; j++)
        {
            int local = LocalColumn(join.Items[j].Source, name);
            if (local < 0) continue;
            var column = JoinColumn(scope, join, j, local, offset);
            if (first is null)
            {
                first = column;
                if (!join.HasRightJoin) break;
                continue;
            }
            if (!join.Items[j].UsingNames.Contains(name)) throw Error($"ambiguous reference to {name} in USING()", offset);
            (coalesced ??= [first]).Add(column);
        }
        return coalesced is null ? first : Coalesced(coalesced, offset);
    }

    /// <summary>
    /// A USING column coalesced across RIGHT or FULL joins. It compares as its first column does: SQLite keeps that
    /// column's affinity and collation on it (an implicit collation, not a COLLATE clause).
    /// </summary>
    private static IntentExpr Coalesced(List<IntentExpr> columns, int offset)
    {
        var first = columns[0];
        var value = new CoalesceExpr(columns) { Affinity = first.Affinity, Offset = offset };
        return CollationRules.Of(first) is { } collation
            ? new CollateExpr(value, collation) { Affinity = first.Affinity, Offset = offset }
            : value;
    }

    /// <summary>A column of item <paramref name="k"/> as the level reads it (a virtual generated column computed).</summary>
    private IntentExpr JoinColumn(Scope scope, JoinSource join, int k, int local, int offset)
    {
        var item = join.Items[k];
        if (local == SourceColumn.RowId)
            return new ColumnExpr(scope.Frame, item.RowIdColumn, RowIdColumn) { Affinity = SqlAffinity.Integer, Offset = offset };
        var own = new Scope(null, item.Frame, item.Source, isAggregate: false);
        var e = ColumnReference(own, local, offset);
        if (e is ColumnExpr direct)
            return new ColumnExpr(scope.Frame, item.Offset + local, direct.Meta) { Affinity = direct.Affinity, Offset = offset };
        // A generated column's expression read the item's own frame: point it at the join's columns.
        var joined = IntentRewriter.Rewrite(e, x => x is ColumnExpr c && c.Frame == item.Frame
            ? new ColumnExpr(scope.Frame, c.Column == SourceColumn.RowId ? item.RowIdColumn : item.Offset + c.Column, c.Meta) { Affinity = c.Affinity, Offset = c.Offset }
            : null);
        return joined is GeneratedColumnExpr g && MayBeNullExtended(join, k) && Presence(scope, join, k) is { } present
            ? g with { Value = new CaseExpr(null, [new CaseArm(new NullTestExpr(false, present), new LiteralExpr(SqlValue.Null), SqlAffinity.None, Format.Collation.Binary)], g.Value) }
            : joined;
    }

    /// <summary>True when an outer join can stand a row of NULLs in for item <paramref name="k"/>.</summary>
    private static bool MayBeNullExtended(JoinSource join, int k)
    {
        if (join.Items[k].Kind is JoinKind.Left or JoinKind.Full) return true;
        for (int j = k + 1; j < join.Items.Count; j++)
            if (join.Items[j].Kind is JoinKind.Right or JoinKind.Full) return true;
        return false;
    }

    /// <summary>
    /// A column of item <paramref name="k"/> that is NULL only in a null-extended row (the rowid, or a WITHOUT ROWID
    /// table's first key column): a VIRTUAL generated column of a missing row is NULL, whatever its expression.
    /// </summary>
    private static ColumnExpr? Presence(Scope scope, JoinSource join, int k)
    {
        var item = join.Items[k];
        if (item.RowIdColumn >= 0) return new ColumnExpr(scope.Frame, item.RowIdColumn, RowIdColumn) { Affinity = SqlAffinity.Integer };
        if (item.Source is not TableSource { Table.PrimaryKey: [var pk, ..] }) return null;
        var meta = item.Source.Columns[pk];
        return new ColumnExpr(scope.Frame, item.Offset + pk, meta) { Affinity = meta.Affinity };
    }

    /// <summary>
    /// Resolves a column reference against a join level: qualified by an item's name, or unqualified across all
    /// items. Null when the level has no such column (the enclosing levels are tried next).
    /// </summary>
    private IntentExpr? ResolveJoinColumn(SqlColumnRef c, Scope scope, JoinSource join)
    {
        if (c.Table is null)
        {
            var e = UnqualifiedColumn(scope, join, join.Items.Count, c.Name, c.Start, out bool ambiguous);
            if (ambiguous) throw Error($"ambiguous column name: {c.Name}", c.Start);
            if (e is null && IsRowIdName(c.Name)) e = UnqualifiedRowId(c, scope, join);
            return e;
        }
        IntentExpr? found = null;
        for (int k = 0; k < join.Items.Count; k++)
        {
            var item = join.Items[k];
            // A nested FROM answers t.x for the tables inside it; its alias, if any, names its subquery columns.
            bool hit = false;
            for (int local = QualifiedMatch(item.Source, c.Table, c.Name, -1); local >= 0; local = QualifiedMatch(item.Source, c.Table, c.Name, local))
            {
                hit = true;
                found = TakeQualified(c, scope, join, k, local, found);
            }
            if (hit || !SqlNameComparer.Instance.Equals(item.Source.Name, c.Table)) continue;
            int own = LocalColumn(item.Source, c.Name);
            if (own < 0 && item.Source is TableSource { RowIdName: not null } && IsRowIdName(c.Name)) own = SourceColumn.RowId;
            else if (own < 0) continue;
            found = TakeQualified(c, scope, join, k, own, found);
        }
        return found;
    }

    /// <summary>
    /// A qualified reference meeting a second column of that name: SQLite applies its USING rules there too
    /// (<c>a.x</c> in <c>a NATURAL JOIN a</c> reads the left copy), else the reference is ambiguous.
    /// </summary>
    private IntentExpr TakeQualified(SqlColumnRef c, Scope scope, JoinSource join, int k, int local, IntentExpr? found)
    {
        var column = JoinColumn(scope, join, k, local, c.Start);
        if (found is null) return column;
        var item = join.Items[k];
        if (local == SourceColumn.RowId || !item.UsingNames.Contains(c.Name)) throw Error($"ambiguous column name: {c.Table}.{c.Name}", c.Start);
        return item.Kind switch
        {
            JoinKind.Right => column,
            JoinKind.Full => Coalesced([found, column], c.Start),
            _ => found,
        };
    }

    /// <summary>An unqualified rowid in a join: the rowid of the one table item that has one.</summary>
    private IntentExpr? UnqualifiedRowId(SqlColumnRef c, Scope scope, JoinSource join)
    {
        IntentExpr? found = null;
        for (int k = 0; k < join.Items.Count; k++)
        {
            if (join.Items[k].Source is not TableSource { RowIdName: not null }) continue;
            if (found is not null) throw Error($"ambiguous column name: {c.Name}", c.Start);
            found = JoinColumn(scope, join, k, SourceColumn.RowId, c.Start);
        }
        return found;
    }

    /// <summary>
    /// <c>*</c> over a join: every item's visible columns, a USING or NATURAL column once (as its unqualified name
    /// reads); <c>t.*</c>: all of item t's columns.
    /// </summary>
    private void ExpandJoinStar(SqlStarColumn star, Scope scope, JoinSource join, List<RawResult> results)
    {
        bool any = false;
        var groupNames = new Dictionary<int, HashSet<string>>();
        List<NestedFromName>? nestedNames = star.NestedFrom ? [] : null;
        for (int k = 0; k < join.Items.Count; k++)
        {
            var item = join.Items[k];
            bool nestedItem = IsNestedFrom(item.Source);
            if (star.Table is not null && !nestedItem && !SqlNameComparer.Instance.Equals(item.Source.Name, star.Table)) continue;
            if (!nestedItem || star.Table is null) any = true;
            for (int i = 0; i < item.Source.Columns.Count; i++)
            {
                var col = item.Source.Columns[i];
                if (col.Hidden) continue;
                // t.* over a nested FROM: the columns that came from t, the hidden USING copies included.
                if (star.Table is not null && nestedItem && !SqlNameComparer.Instance.Equals(col.Nested!.Table, star.Table)) continue;
                any = true;
                bool noExpand = col.Nested?.NoExpand == true;
                if (star.Table is null && noExpand && nestedNames is null) continue;
                IntentExpr e;
                bool usingCopy = star.Table is null && k > 0 && item.UsingNames.Contains(col.Name) && UnqualifiedColumn(scope, join, k, col.Name, star.Start, out _) is not null;
                if (usingCopy && nestedNames is null) continue;
                if (usingCopy)
                    e = JoinColumn(scope, join, k, i, star.Start);
                // With a RIGHT or FULL join SQLite expands a column joined on later by its bare name, read as such.
                else if (star.Table is null && join.HasRightJoin && UsedLater(join, k, col.Name) && LeftColumn(scope, join, k, col.Name, star.Start) is null)
                {
                    e = UnqualifiedColumn(scope, join, join.Items.Count, col.Name, star.Start, out bool ambiguous)!;
                    if (ambiguous) throw Error($"ambiguous column name: {col.Name}", star.Start);
                    // A nested FROM keeps the coalesced column for bare names and the table's own for t.x.
                    if (nestedNames is not null)
                    {
                        results.Add(new RawResult(e, col.Name, null, col.TableColumn));
                        nestedNames.Add(new NestedFromName("", col.Nested?.Column ?? col.Name, false, true));
                        e = JoinColumn(scope, join, k, i, star.Start);
                        noExpand = true;
                    }
                }
                else
                    e = JoinColumn(scope, join, k, i, star.Start);
                if (col.Nested is { Table.Length: > 0 } origin) CheckUniqueQualifiedName(join, origin.Table, origin.Column, "main.", star.Start);
                else if (item.Source.Name.Length > 0) CheckUniqueQualifiedName(join, item.Source.Name, col.Name, item.Source is TableSource ? "main." : "", star.Start);
                string name = col.Name;
                if (item.Group >= 0)
                {
                    if (!groupNames.TryGetValue(item.Group, out var used)) groupNames[item.Group] = used = new HashSet<string>(SqlNameComparer.Instance);
                    if (!used.Add(name))
                    {
                        int n = 1;
                        while (!used.Add($"{col.Name}:{n}")) n++;
                        name = $"{col.Name}:{n}";
                    }
                }
                results.Add(new RawResult(e, name, null, col.TableColumn));
                nestedNames?.Add(new NestedFromName(col.Nested?.Table ?? item.Source.Name, col.Nested?.Column ?? col.Name, noExpand || usingCopy,
                    !usingCopy && (col.Nested?.UsingTerm == true || UsedLater(join, k, col.Name))));
            }
        }
        if (!any) throw Error(star.Table is null ? "no tables specified" : $"no such table: {star.Table}", star.Start);
        if (nestedNames is not null) _nestedStars[star] = nestedNames;
    }

    /// <summary>True when an item after <paramref name="k"/> is joined to it on <paramref name="name"/> by USING or NATURAL.</summary>
    private static bool UsedLater(JoinSource join, int k, string name)
    {
        for (int j = k + 1; j < join.Items.Count; j++)
            if (join.Items[j].UsingNames.Contains(name)) return true;
        return false;
    }

    /// <summary>SQLite refuses to expand a column that two items of the same name both have.</summary>
    private void CheckUniqueQualifiedName(JoinSource join, string table, string column, string prefix, int offset)
    {
        int count = 0;
        for (int j = 0; j < join.Items.Count; j++)
        {
            var source = join.Items[j].Source;
            // As a qualified reference reads it: the right side of a USING pair defers to the left.
            bool usingPair = join.Items[j].UsingNames.Contains(column);
            if (IsNestedFrom(source))
            {
                for (int local = QualifiedMatch(source, table, column, -1); local >= 0; local = QualifiedMatch(source, table, column, local))
                {
                    if (count++ > 0 && !usingPair) throw Error($"ambiguous column name: {prefix}{table}.{column}", offset);
                    if (source.Columns[local].Nested!.UsingTerm) break;
                }
                continue;
            }
            if (!SqlNameComparer.Instance.Equals(source.Name, table)) continue;
            if (LocalColumn(source, column) < 0) continue;
            if (count++ == 0 || usingPair) continue;
            throw Error($"ambiguous column name: {prefix}{table}.{column}", offset);
        }
    }
}
