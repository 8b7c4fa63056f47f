using System.Runtime.CompilerServices;
using Sharc.Schema.Parsing;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Planning;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>What INSERT, UPDATE and DELETE share: finding the table they write, and running the query that finds rows and values.</summary>
internal static class DmlTarget
{
    /// <summary>The table a DML statement writes, with SQLite's errors for views, system tables and unknown names.</summary>
    public static SharcTable Resolve(SharcDatabase db, string sql, SqlTableRef target)
    {
        // A qualified target was routed to the database it names (see DatabaseRouting).
        if (target.Schema is { } schema && !SqlNameComparer.Instance.Equals(schema, db.SchemaName))
            throw new SharcSqlException($"no such table: {schema}.{target.Name}", sql, target.Start);
        var table = db.Schema.FindTable(target.Name);
        if (table is null)
        {
            if (db.Schema.FindView(target.Name) is { } view)
                throw new SharcSqlException($"cannot modify {view.Name} because it is a view", sql, target.Start);
            throw new SharcSqlException($"no such table: {(target.Schema is null ? "" : target.Schema + ".")}{target.Name}", sql, target.Start);
        }
        if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase) && !SqlNameComparer.Instance.Equals(table.Name, "sqlite_sequence")
            && !SqlNameComparer.Instance.Equals(table.Name, "sqlite_stat1"))
            throw new SharcSqlException($"table {(table.Name.Equals("sqlite_schema", StringComparison.OrdinalIgnoreCase) ? "sqlite_master" : table.Name)} may not be modified", sql, target.Start);
        if (table.IsVirtual) Unsupported.Throw($"writing virtual table {table.Name}", sql, target.Start);
        return table;
    }

    /// <summary>The name the rowid goes by in <paramref name="table"/> (null for WITHOUT ROWID, or when columns take all three names).</summary>
    public static string? RowIdName(SharcTable table)
    {
        if (table.IsWithoutRowId) return null;
        foreach (var n in IntentCompiler.RowIdNames)
            if (table.FindColumn(n) is null) return n;
        return null;
    }

    public static bool IsRowIdName(string name)
    {
        foreach (var n in IntentCompiler.RowIdNames)
            if (SqlNameComparer.Instance.Equals(n, name)) return true;
        return false;
    }

    /// <summary>A column reference to <paramref name="name"/> of the target, qualified by its alias or name.</summary>
    public static SqlExprColumn Column(SqlTableRef target, string name)
        => new(new SqlColumnRef(null, target.Alias ?? target.Name, name, false), null);

    /// <summary>
    /// Runs a SELECT made from parts of the statement to completion — before anything is written, so the statement
    /// never sees its own changes, as in SQLite — and returns its rows (owned values).
    /// </summary>
    /// <remarks>
    /// <c>cacheable</c>: the select made from the statement is always the same for the same schema (UPDATE and DELETE
    /// of a table), so its plan is kept with the statement and re-used while the schema stays: a prepared statement is
    /// not compiled and planned again on every execution.
    /// </remarks>
    public static List<SqlValue[]> RunQuery(SharcDatabase db, string sql, SqlStatement statement, SqlWithClause? with, IReadOnlyList<SqlResultColumn> columns,
        SqlJoinClause from, SqlExpr? where, SqlValue[] parameters, bool cacheable = false)
    {
        // A kept plan was made from this same select, which passed the check below then: nothing to build again.
        if (cacheable && TryKeptPlan(db, sql, statement, out var kept)) return Run(db, kept, parameters, out _);
        // The statement's own expressions are not a SELECT's result columns: a window there is misused, as in SQLite.
        foreach (var column in columns)
        {
            if (column is SqlExprColumn ec && FirstWindowCall(ec.Expr) is { } call)
                throw new SharcSqlException($"misuse of window function {call.Name}()", sql, call.Start);
            // Nor may an aggregate stand there: it would make the SELECT an aggregate query.
            if (column is SqlExprColumn ac && FirstAggregateCall(ac.Expr) is { } agg)
                throw new SharcSqlException($"misuse of aggregate function {agg.Name}()", sql, agg.Start);
        }
        var core = new SqlSelectCore(false, columns, from, where, [], null, []) { Start = statement.Start, End = statement.End };
        var select = new SqlSelectStatement(new SqlSelect(with, core, [], null, null) { Start = statement.Start, End = statement.End })
        {
            Start = statement.Start,
            End = statement.End,
            ParameterCount = statement.ParameterCount,
            ParameterNames = statement.ParameterNames,
        };
        return RunSelect(db, sql, select, parameters, out _, planKey: cacheable ? statement : null);
    }

    private static SqlFunctionExpr? FirstAggregateCall(SqlExpr e)
    {
        SqlFunctionExpr? found = null;
        AstWalker.Any(e, x => (found = x is SqlFunctionExpr f && IntentCompiler.IsAggregateCall(f) ? f : null) is not null);
        return found;
    }

    private static SqlFunctionExpr? FirstWindowCall(SqlExpr e)
    {
        SqlFunctionExpr? found = null;
        AstWalker.Any(e, x => (found = x as SqlFunctionExpr is { IsWindowCall: true } f ? f : null) is not null);
        return found;
    }

    /// <summary>Runs a SELECT statement to completion and returns its rows (owned values).</summary>
    /// <remarks>
    /// <c>planKey</c>: the parsed statement the select always comes from, when it does; the plan is kept with it (for
    /// as long as the statement lives) and re-used while the database's schema and views are those it was made for.
    /// </remarks>
    public static List<SqlValue[]> RunSelect(SharcDatabase db, string sql, SqlSelectStatement select, SqlValue[] parameters, out int width, SqlStatement? planKey = null)
    {
        if (planKey is null || !TryKeptPlan(db, sql, planKey, out var plan))
        {
            plan = QueryPlan.Create(db.Schema, sql, select, db.TempViewSet);
            if (planKey is not null) Plans.AddOrUpdate(planKey, new KeptPlan(sql, plan));
        }
        return Run(db, plan, parameters, out width);
    }

    /// <summary>The plan kept with <paramref name="key"/>, when it was made for this text and is still current.</summary>
    private static bool TryKeptPlan(SharcDatabase db, string sql, SqlStatement key, out QueryPlan plan)
    {
        plan = null!;
        if (!Plans.TryGetValue(key, out var kept) || !ReferenceEquals(kept.Sql, sql) || !db.IsCurrent(kept.Plan)) return false;
        plan = kept.Plan;
        return true;
    }

    /// <summary>Runs a planned SELECT to completion and returns its rows (owned values).</summary>
    private static List<SqlValue[]> Run(SharcDatabase db, QueryPlan plan, SqlValue[] parameters, out int width)
    {
        width = plan.Columns.Length;
        var execution = new QueryExecution(db, plan, ownedByReader: false);
        try
        {
            Bind(execution.Context.Parameters, parameters);
            execution.Start();
            var rows = new List<SqlValue[]>();
            while (execution.MoveNext())
            {
                var row = new SqlValue[width];
                for (int i = 0; i < width; i++) row[i] = execution.Current[i].ToOwned();
                rows.Add(row);
            }
            return rows;
        }
        finally
        {
            execution.Dispose();
        }
    }

    private sealed record KeptPlan(string Sql, QueryPlan Plan);

    // Weak keys: a plan lives as long as the parsed statement it was made for (a prepared statement, a cached one).
    private static readonly ConditionalWeakTable<SqlStatement, KeptPlan> Plans = new();

    /// <summary>Copies the statement's parameter values into a compiled part's slots (it may use fewer).</summary>
    public static void Bind(SqlValue[] slots, SqlValue[] parameters)
    {
        for (int i = 0; i < slots.Length; i++) slots[i] = i < parameters.Length ? parameters[i] : SqlValue.Null;
    }
}
