using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;
using Sharc.Sql.Parsing;
using Sharc.Sql.Values;
using TempViews = Sharc.Sql.TempViews;

namespace Sharc.Sql.Intent;

/// <summary>
/// Turns a parsed SELECT into a <see cref="QueryIntent"/>: resolves every name against the schema, works out
/// affinities and collations, lays out aggregation, and resolves ORDER BY and GROUP BY terms given by alias, ordinal
/// or expression — with SQLite's rules and SQLite's error messages. Whatever parses but cannot run yet is refused
/// here with "… is not supported".
/// </summary>
internal sealed partial class IntentCompiler
{
    private readonly SharcSchema _schema;
    private string _sql;
    private int _nextFrame;
    // Views and generated columns being expanded, innermost last: naming one again is a loop.
    private readonly List<string> _expanding = [];

    private IntentCompiler(SharcSchema schema, string sql)
    {
        _schema = schema;
        _sql = sql;
    }

    /// <summary>Compiles a statement that must be a SELECT.</summary>
    public static StatementIntent CompileStatement(SharcSchema schema, string sql, SqlStatement statement, TempViews? views = null)
    {
        if (statement.Explain != SqlExplainMode.None)
            Unsupported.Throw(statement.Explain == SqlExplainMode.QueryPlan ? "EXPLAIN QUERY PLAN" : "EXPLAIN", sql, statement.Start);
        if (statement is not SqlSelectStatement select)
            return Unsupported.Throw<StatementIntent>(StatementName(statement) + " through Query", sql, statement.Start);
        var (query, compiler) = CompileTop(schema, sql, select.Query, views);
        return new StatementIntent(query, compiler._nextFrame, statement.ParameterCount, statement.ParameterNames) { OtherSchemas = compiler._otherSchemas };
    }

    /// <summary>
    /// Compiles an expression that stands alone (no table around it), e.g. a value of INSERT … VALUES. It may use
    /// parameters and subqueries.
    /// </summary>
    public static (IntentExpr Expr, int FrameCount) CompileStandalone(SharcSchema schema, string sql, SqlExpr expr)
    {
        var compiler = new IntentCompiler(schema, sql);
        var scope = new Scope(null, compiler._nextFrame++, null, isAggregate: false) { Clause = Clause.Other };
        var e = compiler.Compile(expr, scope, Clause.Other);
        return (e, compiler._nextFrame);
    }

    /// <summary>The SQL name of a statement's kind, for messages.</summary>
    internal static string StatementName(SqlStatement s) => s switch
    {
        SqlInsertStatement => "INSERT",
        SqlUpdateStatement => "UPDATE",
        SqlDeleteStatement => "DELETE",
        SqlCreateTableStatement => "CREATE TABLE",
        SqlCreateIndexStatement => "CREATE INDEX",
        SqlCreateViewStatement => "CREATE VIEW",
        SqlCreateTriggerStatement => "CREATE TRIGGER",
        SqlCreateVirtualTableStatement => "CREATE VIRTUAL TABLE",
        SqlDropStatement => "DROP",
        SqlAlterTableStatement => "ALTER TABLE",
        SqlPragmaStatement => "PRAGMA",
        SqlBeginStatement or SqlCommitStatement or SqlRollbackStatement or SqlSavepointStatement or SqlReleaseStatement => "transaction control",
        _ => s.GetType().Name.Replace("Sql", "", StringComparison.Ordinal).Replace("Statement", "", StringComparison.Ordinal).ToUpperInvariant(),
    };

    private SharcSqlException Error(string message, int offset) => new(message, _sql, offset);

    /// <summary>Compiles one query level (and, through its expressions, the levels inside it).</summary>
    private QueryIntent CompileSelect(SqlSelect select, Scope? parent)
    {
        if (select.With is not null) return CompileWith(select, parent);
        if (select.Body is not SqlSelectCore core) return CompileCompound(select, parent);

        int frame = _nextFrame++;
        var source = core.From is null ? null : CompileFrom(core.From, parent);
        bool isAggregate = core.GroupBy.Count > 0 || AnyAggregate(core.Columns) || (core.Having is not null && ContainsAggregate(core.Having))
            || NamedWindowUsesAggregate(core.Columns, core.Windows);
        var scope = new Scope(parent, frame, source, isAggregate);
        scope.WindowDefinitions = core.Windows;
        // SQLite chains each WINDOW definition to its base as it parses it, used or not.
        foreach (var definition in core.Windows) ResolveWindow(definition.Spec, scope, definition.Start);
        if (source is JoinSource join) CompileJoinConditions(join, scope);

        var results = CompileResults(core, scope);
        scope.Results = results;

        if (core.Having is not null && !isAggregate)
            throw Error("HAVING clause on a non-aggregate query", core.Having.Start);

        var keys = new List<IntentExpr>(core.GroupBy.Count);
        for (int i = 0; i < core.GroupBy.Count; i++) keys.Add(CompileGroupTerm(core.GroupBy[i], i, scope));

        var having = core.Having is null ? null : Compile(core.Having, scope, Clause.Having);
        var where = core.Where is null ? null : Compile(core.Where, scope, Clause.Where);
        if (core.Where is not null && source is SubquerySource sub) source = PushDownIntoCompound(core.Where, sub, scope);
        if (where is not null && source is TableSource scanned) where = IndexDrivenIns(where, scanned, frame);
        if (having is not null && keys.Count > 0) (where, having) = HavingToWhere(where, having, keys, frame);

        var (orderExprs, ordering) = CompileOrderBy(select.OrderBy, scope, results);

        var limitScope = new Scope(null, frame, null, false);
        var limit = select.Limit is null ? null : Compile(select.Limit, limitScope, Clause.Other);
        var offset = select.Offset is null ? null : Compile(select.Offset, limitScope, Clause.Other);

        var post = new List<IntentExpr>(results.Count + orderExprs.Count);
        foreach (var r in results) post.Add(r.Expr);
        post.AddRange(orderExprs);

        AggregationIntent? aggregation = null;
        if (isAggregate)
        {
            var layout = new AggregationLayout(this, frame, keys);
            for (int i = 0; i < post.Count; i++) post[i] = layout.Map(post[i]);
            if (having is not null) having = layout.Map(having);
            if (scope.WindowCalls is { } pending)
                foreach (var call in pending) call.Map(layout.Map);
            aggregation = layout.Finish();
            for (int i = 0; i < post.Count; i++) post[i] = layout.FixBareSlots(post[i]);
            if (having is not null) having = layout.FixBareSlots(having);
            if (scope.WindowCalls is { } laidOut)
                foreach (var call in laidOut) call.Map(layout.FixBareSlots);
        }
        var windows = scope.WindowCalls is null ? null : LayOutWindows(scope, frame, post);

        var projections = new List<ProjectionIntent>(post.Count);
        for (int i = 0; i < post.Count; i++)
        {
            bool visible = i < results.Count;
            var e = post[i];
            var raw = visible ? results[i].Expr : e;
            projections.Add(new ProjectionIntent(
                e,
                visible ? results[i].Name : "",
                CollationRules.Of(raw) ?? Collation.Binary,
                visible ? results[i].TableColumn : null));
        }

        return new QueryIntent(frame, source, projections, results.Count, where, aggregation, having, ordering, limit, offset, core.Distinct) { Windows = windows };
    }

    /// <summary>
    /// SQLite moves the terms of HAVING that depend only on GROUP BY terms of BINARY collation (or on nothing of the
    /// level) into WHERE, where they filter rows before grouping. The answer is the same, except that groups such a
    /// term rejects are never aggregated — so, as in SQLite, an aggregate that would fail on them (sum's overflow)
    /// does not fail.
    /// </summary>
    private static (IntentExpr? Where, IntentExpr? Having) HavingToWhere(IntentExpr? where, IntentExpr having, List<IntentExpr> keys, int frame)
    {
        var terms = new List<IntentExpr>();
        Conjuncts(having, terms);
        IntentExpr? kept = null;
        foreach (var term in terms)
        {
            if (term is LiteralExpr { Value: { Type: SharcColumnType.Integer, IntegerValue: 0 } } || !ConstantOrGroupBy(term, keys, frame))
            {
                kept = kept is null ? term : new LogicExpr(true, kept, term) { HasCollate = kept.HasCollate || term.HasCollate };
                continue;
            }
            where = where is null ? term : new LogicExpr(true, where, term) { HasCollate = where.HasCollate || term.HasCollate };
        }
        return (where, kept);
    }

    private static void Conjuncts(IntentExpr e, List<IntentExpr> into)
    {
        if (e is LogicExpr { IsAnd: true } and)
        {
            Conjuncts(and.Left, into);
            Conjuncts(and.Right, into);
        }
        else
        {
            into.Add(e);
        }
    }

    private static bool ConstantOrGroupBy(IntentExpr e, List<IntentExpr> keys, int frame)
    {
        bool ok = true;
        IntentRewriter.Rewrite(e, x =>
        {
            foreach (var key in keys)
                if ((CollationRules.Of(key) ?? Collation.Binary) == Collation.Binary && IntentEquality.Same(x, key)) return x;
            switch (x)
            {
                case ColumnExpr c when c.Frame == frame:
                case AggregateCallExpr:
                case InSubqueryExpr or RowInSubqueryExpr or ExistsExpr or ScalarSubqueryExpr:
                case FunctionExpr { Function.IsDeterministic: false }:
                    ok = false;
                    return x;
                default:
                    return null;
            }
        });
        return ok;
    }

    // ---- FROM ------------------------------------------------------------------------------------------------

    private IntentSource CompileFrom(SqlJoinClause from, Scope? parent)
    {
        if (from.Joins.Count > 0 || from.First is SqlNestedJoinSource) return CompileJoin(from, parent);
        switch (from.First)
        {
            case SqlTableRef t:
                return CompileTableRef(t, parent);
            case SqlSubquerySource s:
            {
                var inner = CompileSelect(s.Query, parent);
                return new SubquerySource(inner, s.Alias ?? "", SubqueryColumns(inner, null, s.Start));
            }
            case SqlTableFunctionRef f:
                return CompileTableFunction(f, parent, inJoin: false);
            default:
                return Unsupported.Throw<IntentSource>("parenthesized FROM lists", _sql, from.First.Start);
        }
    }

    private IntentSource CompileTableRef(SqlTableRef t, Scope? parent)
    {
        if (CompileCteOrTempView(t, parent) is { } named) return named;
        if (!FindSchema(t, out var schema, out var database, out string? schemaName))
            throw Error($"no such table: {t.Schema}.{t.Name}", t.Start);
        string alias = t.Alias ?? t.Name;
        var table = schema.FindTable(TempSchemaTableName(t.Name, schemaName));
        if (table is not null)
        {
            if (table.IsVirtual) Unsupported.Throw("virtual tables", _sql, t.Start);
            if (t.IndexedBy is not null)
            {
                var index = schema.FindIndex(t.IndexedBy);
                if (index is null || !SqlNameComparer.Instance.Equals(index.TableName, table.Name))
                    throw Error($"no such index: {t.IndexedBy}", t.Start);
            }
            return new TableSource(table, alias, TableColumns(table), RowIdName(table), t.IndexedBy, t.NotIndexed) { Database = database, SchemaName = schemaName };
        }
        var view = schema.FindView(t.Name);
        if (view is not null)
        {
            if (t.IndexedBy is not null || t.NotIndexed) throw Error($"no such index: {t.IndexedBy}", t.Start);
            return ExpandView(view, alias, t.Start, parent, schemaName);
        }
        if (IsTempSchemaTable(t.Name, t.Schema) && schemaName is null or "main")
        {
            // No temp object was made yet, so there is no temp database: its schema table is empty, as in SQLite.
            var empty = new SharcView(t.Name, "", "SELECT NULL AS type, NULL AS name, NULL AS tbl_name, NULL AS rootpage, NULL AS sql WHERE 0", []);
            return ExpandView(empty, alias, t.Start, parent);
        }
        // A table-valued function named without arguments (FROM pragma_user_version).
        if (t.IndexedBy is null && Functions.TableValued.TableFunctions.TryGet(t.Name, out _))
            return CompileTableFunction(new SqlTableFunctionRef(t.Schema, t.Name, [], t.Alias) { Start = t.Start, End = t.End }, parent, inJoin: false);
        string? qualifier = Qualifier(t);
        throw Error($"no such table: {(qualifier is null ? "" : qualifier + ".")}{t.Name}", t.Start);
    }

    /// <summary>A view is compiled from its stored SELECT as a subquery in FROM, each time it is named.</summary>
    private IntentSource ExpandView(SharcView view, string alias, int offset, Scope? parent, string? home = null)
    {
        foreach (var v in _expanding)
            if (SqlNameComparer.Instance.Equals(v, view.Name)) throw Error($"view {view.Name} is circularly defined", offset);
        SqlStatement parsed;
        try
        {
            parsed = SqlParser.ParseStatement(view.SelectSql);
        }
        catch (SharcSqlException e)
        {
            throw Error($"malformed view {view.Name}: {e.SqliteMessage}", offset);
        }
        if (parsed is not SqlSelectStatement select) throw Error($"malformed view {view.Name}", offset);
        if (parsed.ParameterCount > 0) throw Error("parameters are not allowed in views", offset);

        string outerSql = _sql;
        var outerWith = _with;
        _expanding.Add(view.Name);
        _sql = view.SelectSql;
        _with = null;
        string? outerHome = _viewHome;
        _viewHome = home;
        QueryIntent inner;
        try
        {
            // A view sees nothing of the query that names it, not even its CTEs.
            inner = CompileSelect(select.Query, null);
        }
        finally
        {
            _with = outerWith;
            _sql = outerSql;
            _viewHome = outerHome;
            _expanding.RemoveAt(_expanding.Count - 1);
        }
        return new SubquerySource(inner, alias, SubqueryColumns(inner, view, offset));
    }

    private List<SourceColumn> SubqueryColumns(QueryIntent inner, SharcView? view, int offset)
    {
        if (view is not null && view.ColumnNames.Count > 0 && view.ColumnNames.Count != inner.VisibleCount)
            throw Error($"expected {view.ColumnNames.Count} columns for '{view.Name}' but got {inner.VisibleCount}", offset);
        var columns = new List<SourceColumn>(inner.VisibleCount);
        var used = new HashSet<string>(SqlNameComparer.Instance);
        for (int i = 0; i < inner.VisibleCount; i++)
        {
            var p = inner.Projections[i];
            string name = view is not null && view.ColumnNames.Count > 0 ? view.ColumnNames[i] : p.Name;
            // SQLite makes the names of a subquery's columns unique with ":N" suffixes.
            if (!used.Add(name))
            {
                string baseName = name;
                int n = 1;
                while (!used.Add(name = $"{baseName}:{n}")) n++;
            }
            columns.Add(new SourceColumn(name, p.Expr.Affinity, p.Collation, p.TableColumn?.DeclaredType ?? "", false, p.TableColumn));
        }
        return columns;
    }

    private List<SourceColumn> TableColumns(SharcTable table)
    {
        var list = new List<SourceColumn>(table.Columns.Count);
        foreach (var c in table.Columns)
        {
            // A collation Sharc lacks only matters when the column is used (SQLite fails only when it compares).
            string? unknown = CollationCompare.TryParse(c.Collation, out var coll) ? null : c.Collation;
            list.Add(new SourceColumn(c.Name, Values.SqlAffinities.FromColumn(c.Affinity), coll, c.DeclaredType, c.IsHidden, c, unknown));
        }
        return list;
    }

    /// <summary>The first of SQLite's three rowid names that no declared column takes, or null.</summary>
    private static string? RowIdName(SharcTable table)
    {
        if (table.IsWithoutRowId) return null;
        foreach (var n in RowIdNames)
            if (table.FindColumn(n) is null) return n;
        return null;
    }

    internal static readonly string[] RowIdNames = ["rowid", "oid", "_rowid_"];

    internal static readonly SourceColumn RowIdColumn = new("rowid", Values.SqlAffinity.Integer, Collation.Binary, "INTEGER", true, null);

    // ---- result columns ------------------------------------------------------------------------------------------

    private List<RawResult> CompileResults(SqlSelectCore core, Scope scope)
    {
        var results = new List<RawResult>();
        foreach (var column in core.Columns)
        {
            switch (column)
            {
                case SqlStarColumn star:
                    ExpandStar(star, scope, results);
                    break;
                case SqlExprColumn ec:
                {
                    var e = Compile(ec.Expr, scope, Clause.Result);
                    string name = ec.Alias ?? ResultName(ec, e);
                    var tableColumn = e switch
                    {
                        ColumnExpr { Meta.TableColumn: { } tc } => tc,
                        GeneratedColumnExpr { Meta.TableColumn: { } gc } => gc,
                        _ => null,
                    };
                    results.Add(new RawResult(e, name, ec.Alias, tableColumn));
                    break;
                }
            }
        }
        return results;
    }

    private string ResultName(SqlExprColumn column, IntentExpr compiled)
    {
        // SQLite names a bare column reference after the column; anything else after its text.
        if (column.Expr is SqlColumnRef && compiled is ColumnExpr c) return c.Meta.Name;
        if (column.Expr is SqlColumnRef && compiled is GeneratedColumnExpr g) return g.Meta.Name;
        return _sql[column.Start..column.End];
    }

    private void ExpandStar(SqlStarColumn star, Scope scope, List<RawResult> results)
    {
        var source = scope.Source;
        if (source is null) throw Error(star.Table is null ? "no tables specified" : $"no such table: {star.Table}", star.Start);
        if (source is JoinSource join)
        {
            ExpandJoinStar(star, scope, join, results);
            return;
        }
        if (star.Table is not null && !SqlNameComparer.Instance.Equals(star.Table, source.Name))
            throw Error($"no such table: {star.Table}", star.Start);
        for (int i = 0; i < source.Columns.Count; i++)
        {
            var c = source.Columns[i];
            if (c.Hidden) continue;
            results.Add(new RawResult(ColumnReference(scope, i, star.Start), c.Name, null, c.TableColumn));
        }
    }

    // ---- aggregates in the AST -----------------------------------------------------------------------------------

    private static bool AnyAggregate(IReadOnlyList<SqlResultColumn> columns)
    {
        foreach (var c in columns)
            if (c is SqlExprColumn e && ContainsAggregate(e.Expr)) return true;
        return false;
    }

    /// <summary>True when <paramref name="e"/> calls an aggregate outside any subquery (what makes a query aggregate).</summary>
    private static bool ContainsAggregate(SqlExpr e) => AstWalker.Any(e, static x =>
        x is SqlFunctionExpr f && (f.IsWindowCall
            ? f.Over is { } over && WindowUsesAggregate(over)
            : Functions.Aggregates.AggregateFunctions.IsAggregate(f.Name, f.Star ? 0 : f.Arguments.Count) || UserAggregate(f.Name, f.Star ? 0 : f.Arguments.Count) is not null));

    /// <summary>The same through a named window (<c>OVER w … WINDOW w AS (PARTITION BY sum(a))</c>) that a result column uses.</summary>
    private static bool NamedWindowUsesAggregate(IReadOnlyList<SqlResultColumn> columns, IReadOnlyList<SqlWindowDefinition> windows)
    {
        if (windows.Count == 0) return false;
        foreach (var c in columns)
        {
            if (c is SqlExprColumn e && AstWalker.Any(e.Expr, x => x is SqlFunctionExpr f && NamedSpecUsesAggregate(f.OverWindowName ?? f.Over?.BaseWindowName, windows)))
                return true;
        }
        return false;
    }

    private static bool NamedSpecUsesAggregate(string? name, IReadOnlyList<SqlWindowDefinition> windows)
    {
        // A definition may name a base window; each link is followed once (a cycle is SQLite's error elsewhere).
        for (int hops = 0; name is not null && hops <= windows.Count; hops++)
        {
            SqlWindowSpec? spec = null;
            foreach (var w in windows)
            {
                if (string.Equals(w.Name, name, StringComparison.OrdinalIgnoreCase))
                {
                    spec = w.Spec;
                    break;
                }
            }
            if (spec is null) return false;
            if (WindowUsesAggregate(spec)) return true;
            name = spec.BaseWindowName;
        }
        return false;
    }

    /// <summary>
    /// An aggregate in a window's PARTITION BY or ORDER BY (<c>count(*) OVER (PARTITION BY sum(a))</c>) makes the
    /// query an aggregate one, as SQLite has it: the window then runs over the groups.
    /// </summary>
    private static bool WindowUsesAggregate(SqlWindowSpec over)
    {
        foreach (var p in over.PartitionBy)
            if (ContainsAggregate(p)) return true;
        foreach (var o in over.OrderBy)
            if (ContainsAggregate(o.Expr)) return true;
        return false;
    }

    /// <summary>
    /// SQLite answers a WHERE term "col IN (subquery)" by seeking an index led by col with each value of the subquery,
    /// whenever the planner may (sqlite3ExprCompareCollSeq of an IN looks at the left side only, so the index's
    /// collation need only be col's own; the comparison affinity must suit the index, as sqlite3IndexAffinityOk
    /// asks). The subquery's values are first gathered into a set keyed by the IN's own collation, where a later
    /// equal value replaces an earlier one; the seeks then find the rows equal, by the index's collation, to the values
    /// kept. When the two collations differ (x IN (SELECT c COLLATE NOCASE ...) over an index on x), the answer is not
    /// that of a plain comparison, and Sharc reproduces it — for a BINARY left column only: under a coarser index
    /// collation, two kept values may seek the same rows and SQLite then returns those rows twice, which a filter
    /// cannot express (see COMPAT.md).
    /// </summary>
    private static IntentExpr IndexDrivenIns(IntentExpr where, TableSource table, int frame)
    {
        switch (where)
        {
            case LogicExpr { IsAnd: true } and:
            {
                var left = IndexDrivenIns(and.Left, table, frame);
                var right = IndexDrivenIns(and.Right, table, frame);
                return ReferenceEquals(left, and.Left) && ReferenceEquals(right, and.Right) ? and : and with { Left = left, Right = right };
            }
            case InSubqueryExpr { Not: false, Operand: ColumnExpr c } i when c.Frame == frame && !i.Operand.HasCollate
                && c.Meta.TableColumn is { IsRowIdAlias: false } && c.Meta.Collation == Collation.Binary && i.Collation != Collation.Binary
                && !IntentAnalysis.IsCorrelated(i.Query) && IndexAffinityOk(i.CompareAffinity, c.Meta.Affinity):
            {
                if (table.NotIndexed) return i;
                foreach (var index in table.Table.Indexes)
                {
                    if (index.IsPartial || index.Columns.Count == 0) continue;
                    if (table.IndexedBy is not null && !SqlNameComparer.Instance.Equals(index.Name, table.IndexedBy)) continue;
                    var lead = index.Columns[0];
                    if (lead.TableOrdinal != c.Column || lead.ExpressionSql is not null) continue;
                    if (!CollationCompare.TryParse(lead.Collation, out var seek) || seek != c.Meta.Collation) continue;
                    return i with { SeekCollation = seek };
                }
                return i;
            }
            default:
                return where;
        }
    }

    private static bool IndexAffinityOk(SqlAffinity compare, SqlAffinity column) => compare switch
    {
        < SqlAffinity.Text => true,
        SqlAffinity.Text => column == SqlAffinity.Text,
        _ => SqlAffinities.IsNumeric(column),
    };
}
