using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    /// <summary>One WITH clause in scope; CTEs are looked up innermost clause first.</summary>
    private sealed class WithFrame(WithFrame? parent, List<CteDefinition> tables)
    {
        public WithFrame? Parent { get; } = parent;

        public List<CteDefinition> Tables { get; } = tables;
    }

    /// <summary>A common table expression and what compiling its references has learnt.</summary>
    private sealed class CteDefinition(SqlCommonTableExpression ast, WithFrame? frame)
    {
        public SqlCommonTableExpression Ast { get; } = ast;

        /// <summary>The WITH clause that defines it, set once the frame exists: its body sees that clause and the outer ones.</summary>
        public WithFrame? Frame { get; set; } = frame;

        /// <summary>True while its body is being compiled: a reference then is circular (or recursive).</summary>
        public bool Expanding { get; set; }

        /// <summary>Set while its recursive SELECTs compile: the table they read and the references allowed to it.</summary>
        public RecursiveState? Recursion { get; set; }

        /// <summary>The one compiled copy all references read, when it is materialized.</summary>
        public (QueryIntent Query, List<SourceColumn> Columns)? Materialized { get; set; }
    }

    private sealed record RecursiveState(RecursiveTable Table, List<SourceColumn> Columns, List<SqlTableRef> Allowed);

    private WithFrame? _with;

    // How often each CTE was named; after a first compilation, CTEs named more than once are materialized.
    private readonly Dictionary<SqlCommonTableExpression, int> _cteUses = new(ReferenceEqualityComparer.Instance);
    private HashSet<SqlCommonTableExpression> _materialize = new(ReferenceEqualityComparer.Instance);

    /// <summary>The views registered on the connection (temp views), looked up before the schema's tables.</summary>
    private Sql.TempViews? _tempViews;

    /// <summary>
    /// Compiles a statement's query; when a CTE without a MATERIALIZED hint turns out to be named more than once, it is
    /// compiled again with that CTE materialized (computed once per execution), as SQLite does.
    /// </summary>
    private static (QueryIntent Query, IntentCompiler Compiler) CompileTop(SharcSchema schema, string sql, SqlSelect select, Sql.TempViews? views)
    {
        var compiler = new IntentCompiler(schema, sql) { _tempViews = views };
        compiler.UseDatabases(views);
        var query = compiler.CompileSelect(select, null);
        var shared = new HashSet<SqlCommonTableExpression>(ReferenceEqualityComparer.Instance);
        foreach (var (cte, uses) in compiler._cteUses)
            if (uses > 1 && cte.Materialization == SqlMaterialization.Default) shared.Add(cte);
        if (shared.Count == 0) return (query, compiler);
        compiler = new IntentCompiler(schema, sql) { _tempViews = views, _materialize = shared };
        compiler.UseDatabases(views);
        return (compiler.CompileSelect(select, null), compiler);
    }

    private QueryIntent CompileWith(SqlSelect select, Scope? parent)
    {
        var frame = new WithFrame(_with, []);
        foreach (var cte in select.With!.Tables) frame.Tables.Add(new CteDefinition(cte, frame));
        var saved = _with;
        _with = frame;
        try
        {
            return CompileSelect(select with { With = null }, parent);
        }
        finally
        {
            _with = saved;
        }
    }

    /// <summary>
    /// A CTE or a temp view a FROM item names, or null when it names neither: CTEs shadow every table, and an
    /// unqualified name finds a temp view before the main schema, as in SQLite.
    /// </summary>
    private IntentSource? CompileCteOrTempView(SqlTableRef t, Scope? parent)
    {
        if (t.Schema is null)
        {
            for (var f = _with; f is not null; f = f.Parent)
                foreach (var def in f.Tables)
                    if (SqlNameComparer.Instance.Equals(def.Ast.Name, t.Name)) return ReferenceCte(def, t, parent);
        }
        if (t.Schema is not null && !SqlText.EqualsIgnoreCase(t.Schema, "temp")) return null;
        if (_tempViews?.Find(t.Name) is { } view)
        {
            if (t.IndexedBy is not null || t.NotIndexed) throw Error($"no such index: {t.IndexedBy}", t.Start);
            return ExpandView(view, t.Alias ?? t.Name, t.Start, parent);
        }
        return null;
    }

    private IntentSource ReferenceCte(CteDefinition def, SqlTableRef t, Scope? parent)
    {
        string alias = t.Alias ?? t.Name;
        string name = def.Ast.Name;
        if (t.IndexedBy is not null || t.NotIndexed) throw Error($"no such index: {t.IndexedBy}", t.Start);
        if (def.Recursion is { } recursion)
        {
            foreach (var allowed in recursion.Allowed)
                if (ReferenceEquals(allowed, t)) return new RecursiveRefSource(recursion.Table, alias, recursion.Columns);
            throw Error($"multiple recursive references: {name}", t.Start);
        }
        if (def.Expanding) throw Error($"circular reference: {name}", t.Start);
        _cteUses[def.Ast] = _cteUses.GetValueOrDefault(def.Ast) + 1;
        if (def.Materialized is { } shared) return new MaterializedSource(shared.Query, alias, shared.Columns);

        var saved = _with;
        _with = def.Frame;
        def.Expanding = true;
        QueryIntent inner;
        try
        {
            inner = RecursiveArms(def) is { } first ? CompileRecursive(def, first, parent) : CompileSelect(def.Ast.Query, parent);
        }
        finally
        {
            def.Expanding = false;
            _with = saved;
        }
        var columns = CteColumns(inner, def, t.Start);
        bool materialize = def.Ast.Materialization == SqlMaterialization.Materialized || _materialize.Contains(def.Ast);
        // A CTE that reads the row of an enclosing query has one answer per row: it cannot be computed once.
        if (materialize && !IntentAnalysis.IsCorrelated(inner))
        {
            def.Materialized = (inner, columns);
            return new MaterializedSource(inner, alias, columns);
        }
        return new SubquerySource(inner, alias, columns);
    }

    private List<SourceColumn> CteColumns(QueryIntent inner, CteDefinition def, int offset)
    {
        var names = def.Ast.Columns;
        if (names.Count > 0 && names.Count != inner.VisibleCount)
            throw Error($"table {def.Ast.Name} has {inner.VisibleCount} values for {names.Count} columns", offset);
        var columns = SubqueryColumns(inner, null, offset);
        if (names.Count == 0) return columns;
        for (int i = 0; i < columns.Count; i++) columns[i] = columns[i] with { Name = names[i] };
        return columns;
    }

    // ---- WITH RECURSIVE ----------------------------------------------------------------------------------------

    /// <summary>
    /// The index of the first recursive SELECT when the CTE is recursive, else null. As in SQLite a CTE is recursive
    /// when its body is a compound whose last SELECTs name the CTE in their FROM clause, joined to the SELECTs before
    /// them by one operator, UNION or UNION ALL; the RECURSIVE keyword is not needed.
    /// </summary>
    private static int? RecursiveArms(CteDefinition def)
    {
        if (def.Ast.Query.Body is not SqlCompoundSelect compound) return null;
        var op = compound.Terms[^1].Operator;
        if (op is not (SqlCompoundOperator.Union or SqlCompoundOperator.UnionAll)) return null;
        int first = compound.Terms.Count;
        while (first >= 1 && compound.Terms[first - 1].Operator == op && DirectReferences(compound.Terms[first - 1].Body, def.Ast.Name).Count > 0) first--;
        return first == compound.Terms.Count ? null : first + 1;
    }

    /// <summary>The FROM items of a SELECT that name <paramref name="name"/> directly.</summary>
    private static List<SqlTableRef> DirectReferences(SqlQueryBody body, string name)
    {
        var found = new List<SqlTableRef>();
        if (body is not SqlSelectCore { From: { } from }) return found;
        void Check(SqlTableSource s)
        {
            if (s is SqlTableRef { Schema: null } t && SqlNameComparer.Instance.Equals(t.Name, name)) found.Add(t);
        }
        Check(from.First);
        foreach (var j in from.Joins) Check(j.Source);
        return found;
    }

    /// <summary>
    /// Compiles a recursive CTE: the setup SELECTs (which must not name it), the table's columns from them, then each
    /// recursive SELECT reading that table, then the CTE's ORDER BY and LIMIT, which steer the queue.
    /// </summary>
    private QueryIntent CompileRecursive(CteDefinition def, int firstRecursive, Scope? parent)
    {
        var query = def.Ast.Query;
        if (query.With is not null)
        {
            var inner = new WithFrame(_with, []);
            foreach (var cte in query.With.Tables) inner.Tables.Add(new CteDefinition(cte, inner));
            _with = inner;
        }
        var compound = (SqlCompoundSelect)query.Body;
        var bodies = new List<SqlQueryBody> { compound.First };
        foreach (var term in compound.Terms) bodies.Add(term.Body);

        var setup = new List<QueryIntent>();
        var setupOperators = new List<SqlCompoundOperator>();
        for (int a = 0; a < firstRecursive; a++)
        {
            var arm = CompileArm(bodies[a], parent);
            if (a > 0) CheckWidth(arm, setup[0], compound.Terms[a - 1]);
            if (a > 0) setupOperators.Add(compound.Terms[a - 1].Operator);
            setup.Add(arm);
        }
        var names = def.Ast.Columns;
        if (names.Count > 0 && names.Count != setup[0].VisibleCount)
            throw Error($"table {def.Ast.Name} has {setup[0].VisibleCount} values for {names.Count} columns", def.Ast.Start);
        var tableColumns = CompoundColumns(setup);
        for (int i = 0; i < tableColumns.Count; i++)
            if (names.Count > 0) tableColumns[i] = tableColumns[i] with { Name = names[i] };

        var table = new RecursiveTable(def.Ast.Name);
        var recursive = CompileRecursiveArms(def, firstRecursive, bodies, compound, setup, table, tableColumns, parent);
        var all = new List<QueryIntent>(setup);
        all.AddRange(recursive);
        // SQLite types the CTE's table once, from every arm, and the recursive SELECTs read that same table: compiled
        // first against the setup's types, they are compiled again when typing from all arms changes a column.
        var typing = new RecursiveColumnTypes(tableColumns);
        var typed = new List<SourceColumn>(tableColumns.Count);
        for (int i = 0; i < tableColumns.Count; i++)
            typed.Add(tableColumns[i] with { Affinity = typing.Type(i, [.. all.Select(arm => arm.Projections[i].Expr)]) });
        if (typed.Where((c, i) => c.Affinity != tableColumns[i].Affinity).Any())
        {
            recursive = CompileRecursiveArms(def, firstRecursive, bodies, compound, setup, table, typed, parent);
            all = [.. setup, .. recursive];
        }
        var collations = CompoundCollations(all);
        var columns = CompoundColumns(all);
        for (int i = 0; i < columns.Count; i++) columns[i] = columns[i] with { Affinity = typed[i].Affinity };
        var ordering = CompileCompoundOrderBy(query.OrderBy, collations, all, bodies, parent);
        int frame = _nextFrame++;
        var limitScope = new Scope(null, frame, null, false);
        var limit = query.Limit is null ? null : Compile(query.Limit, limitScope, Clause.Other);
        var offset = query.Offset is null ? null : Compile(query.Offset, limitScope, Clause.Other);
        bool distinct = compound.Terms[^1].Operator == SqlCompoundOperator.Union;
        var source = new RecursiveCteSource(table, setup, setupOperators, recursive, distinct, collations, ordering, limit, offset, def.Ast.Name, columns);

        var projections = new List<ProjectionIntent>(columns.Count);
        for (int i = 0; i < columns.Count; i++)
        {
            var col = columns[i];
            projections.Add(new ProjectionIntent(new ColumnExpr(frame, i, col) { Affinity = col.Affinity }, col.Name, col.Collation, col.TableColumn));
        }
        return new QueryIntent(frame, source, projections, projections.Count, null, null, null, [], null, null, false);
    }

    private List<QueryIntent> CompileRecursiveArms(CteDefinition def, int firstRecursive, List<SqlQueryBody> bodies, SqlCompoundSelect compound,
        List<QueryIntent> setup, RecursiveTable table, List<SourceColumn> tableColumns, Scope? parent)
    {
        var recursive = new List<QueryIntent>();
        for (int a = firstRecursive; a < bodies.Count; a++)
        {
            var references = DirectReferences(bodies[a], def.Ast.Name);
            if (references.Count > 1) throw Error($"multiple references to recursive table: {def.Ast.Name}", references[1].Start);
            def.Recursion = new RecursiveState(table, tableColumns, references);
            QueryIntent arm;
            try
            {
                arm = CompileArm(bodies[a], parent);
            }
            finally
            {
                def.Recursion = null;
            }
            if (arm.Aggregation is not null) throw Error("recursive aggregate queries not supported", bodies[a].Start);
            // A window over the rows of one step would restart at every step, so SQLite refuses it (else it can recurse forever).
            if (arm.Windows is not null) throw Error("cannot use window functions in recursive queries", bodies[a].Start);
            CheckWidth(arm, setup[0], compound.Terms[a - 1]);
            recursive.Add(arm);
        }
        return recursive;
    }

    private void CheckWidth(QueryIntent arm, QueryIntent first, SqlCompoundTerm term)
    {
        if (arm.VisibleCount != first.VisibleCount)
            throw Error($"SELECTs to the left and right of {OperatorName(term.Operator)} do not have the same number of result columns", term.Start);
    }
}
