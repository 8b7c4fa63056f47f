using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Planning;
using Sharc.Sql.Values;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Writes;

/// <summary>
/// INSERT, UPDATE and DELETE on a view that has an INSTEAD OF trigger for the statement: nothing is written to the
/// view; for each row the statement would change, the trigger runs with NEW (the values inserted or assigned) and OLD
/// (the view's row). As in SQLite, the rows are not counted in changes().
/// </summary>
internal static class ViewTriggers
{
    /// <summary>
    /// Runs <paramref name="statement"/> when it writes a view with a matching INSTEAD OF trigger; false otherwise
    /// (a write to a view without one then fails as usual: "cannot modify v because it is a view").
    /// </summary>
    public static bool TryRun(SharcDatabase db, string sql, SqlStatement statement, SqlValue[] parameters, out StatementOutcome outcome)
    {
        outcome = default;
        var (target, kind) = statement switch
        {
            SqlInsertStatement i => (i.Table, SqlTriggerEvent.Insert),
            SqlUpdateStatement u => (u.Table, SqlTriggerEvent.Update),
            SqlDeleteStatement d => (d.Table, SqlTriggerEvent.Delete),
            _ => (null, default),
        };
        if (target is null || (target.Schema is { } s && !SqlNameComparer.Instance.Equals(s, "main"))) return false;
        if (db.Schema.FindTable(target.Name) is not null || db.Schema.FindView(target.Name) is not { } view) return false;
        if (!db.TriggerRunner.HasTriggers(view.Name)) return false;
        var columns = ColumnsOf(db, view);
        var triggers = db.TriggerRunner.For(view.Name, null, columns, kind, statement is SqlUpdateStatement update ? DmlChange.AssignedNames(update) : null);
        if (triggers is not { HasInsteadOf: true }) return false;
        var conflict = statement switch
        {
            SqlInsertStatement i => i.Conflict,
            SqlUpdateStatement u => u.Conflict,
            _ => SqlConflictAction.Default,
        };
        outcome = db.RunSqlStatement(() =>
        {
            switch (statement)
            {
                case SqlInsertStatement insert:
                    Insert(db, sql, insert, columns, triggers, parameters);
                    break;
                case SqlUpdateStatement update:
                    Update(db, sql, update, columns, triggers, parameters);
                    break;
                case SqlDeleteStatement delete:
                    Delete(db, sql, delete, columns, triggers, parameters);
                    break;
            }
            return new StatementOutcome(0, true, null);
        }, conflict == SqlConflictAction.Default ? SqlConflictAction.Abort : conflict);
        return true;
    }

    private static List<string> ColumnsOf(SharcDatabase db, SharcView view)
    {
        var plan = QueryPlan.Create(db.Schema, $"SELECT * FROM \"{view.Name.Replace("\"", "\"\"", StringComparison.Ordinal)}\"", db.TempViewSet);
        return [.. plan.Columns.Select(c => c.Name)];
    }

    private static void RefuseReturning(string sql, IReadOnlyList<SqlResultColumn> returning)
    {
        if (returning.Count > 0) Unsupported.Throw("RETURNING on a view", sql, returning[0].Start);
    }

    private static void Insert(SharcDatabase db, string sql, SqlInsertStatement insert, List<string> columns, TableTriggers triggers, SqlValue[] parameters)
    {
        RefuseReturning(sql, insert.Returning);
        if (insert.Upserts.Count > 0) Unsupported.Throw("UPSERT on a view", sql, insert.Upserts[0].Start);
        var targets = new int[insert.Columns.Count == 0 ? columns.Count : insert.Columns.Count];
        for (int i = 0; i < targets.Length; i++)
        {
            if (insert.Columns.Count == 0)
            {
                targets[i] = i;
                continue;
            }
            targets[i] = columns.FindIndex(c => SqlNameComparer.Instance.Equals(c, insert.Columns[i]));
            if (targets[i] < 0) throw new SharcSqlException($"table {insert.Table.Name} has no column named {insert.Columns[i]}", sql, insert.Table.End);
        }
        List<SqlValue[]> rows;
        if (insert.Source is null)
        {
            rows = [new SqlValue[targets.Length]];
        }
        else
        {
            var source = insert.With is null ? insert.Source : insert.Source with { With = insert.With };
            var select = new SqlSelectStatement(source)
            {
                Start = source.Start,
                End = source.End,
                ParameterCount = insert.ParameterCount,
                ParameterNames = insert.ParameterNames,
            };
            rows = DmlTarget.RunSelect(db, sql, select, parameters, out int width);
            if (width != targets.Length)
            {
                if (insert.Columns.Count == 0)
                    throw new SharcSqlException($"table {insert.Table.Name} has {targets.Length} columns but {width} values were supplied", sql, insert.Table.Start);
                throw new SharcSqlException($"{width} values for {targets.Length} columns", sql, insert.Table.Start);
            }
        }
        var newRow = new SqlValue[columns.Count];
        foreach (var row in rows)
        {
            Array.Clear(newRow);
            for (int i = 0; i < targets.Length; i++) newRow[targets[i]] = row[i];
            triggers.InsteadOf(newRow, null, insert.Conflict);
        }
    }

    private static void Update(SharcDatabase db, string sql, SqlUpdateStatement update, List<string> columns, TableTriggers triggers, SqlValue[] parameters)
    {
        RefuseReturning(sql, update.Returning);
        if (update.From is not null) Unsupported.Throw("UPDATE … FROM on a view", sql, update.From.Start);
        var assigned = new List<int>();
        var values = new List<SqlExpr>();
        foreach (var a in update.Set)
        {
            if (a.Columns.Count > 1) Unsupported.Throw("assigning several columns of a view at once", sql, a.Start);
            int o = columns.FindIndex(c => SqlNameComparer.Instance.Equals(c, a.Columns[0]));
            if (o < 0) throw new SharcSqlException($"no such column: {a.Columns[0]}", sql, a.Start);
            assigned.Add(o);
            values.Add(a.Value);
        }
        var rows = DmlTarget.RunQuery(db, sql, update, update.With, ViewRowAnd(update.Table, columns, values), From(update.Table), update.Where, parameters);
        var newRow = new SqlValue[columns.Count];
        var oldRow = new SqlValue[columns.Count];
        foreach (var row in rows)
        {
            Array.Copy(row, oldRow, columns.Count);
            Array.Copy(row, newRow, columns.Count);
            for (int i = 0; i < assigned.Count; i++) newRow[assigned[i]] = row[columns.Count + i];
            triggers.InsteadOf(newRow, oldRow, update.Conflict);
        }
    }

    private static void Delete(SharcDatabase db, string sql, SqlDeleteStatement delete, List<string> columns, TableTriggers triggers, SqlValue[] parameters)
    {
        RefuseReturning(sql, delete.Returning);
        var rows = DmlTarget.RunQuery(db, sql, delete, delete.With, ViewRowAnd(delete.Table, columns, []), From(delete.Table), delete.Where, parameters);
        foreach (var row in rows) triggers.InsteadOf(null, row, SqlConflictAction.Default);
    }

    private static List<SqlResultColumn> ViewRowAnd(SqlTableRef target, List<string> columns, List<SqlExpr> values)
    {
        var result = new List<SqlResultColumn>();
        foreach (var c in columns) result.Add(DmlTarget.Column(target, c));
        foreach (var v in values) result.Add(new SqlExprColumn(v, null));
        return result;
    }

    private static SqlJoinClause From(SqlTableRef target) => new(target, []) { Start = target.Start, End = target.End };
}
