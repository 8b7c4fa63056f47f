using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// UPDATE and DELETE. A SELECT over the target table (joined with UPDATE's FROM items) finds the rows — their rowid
/// or primary key, the old values, and for UPDATE every new value computed from the old row — and runs to completion
/// before the first change, so the statement never sees its own changes. Then each row goes through the writer.
/// </summary>
internal static class DmlChange
{
    public static StatementOutcome Update(SharcDatabase db, string sql, SqlUpdateStatement update, SqlValue[] parameters)
    {
        RefuseOrderByLimit(sql, update.OrderBy, update.Limit, update.Start);
        var table = DmlTarget.Resolve(db, sql, update.Table);
        var action = update.Conflict == SqlConflictAction.Default ? SqlConflictAction.Abort : update.Conflict;
        // Default asks the writer to resolve each conflict by its constraint's own ON CONFLICT clause.
        var perRow = update.Conflict == SqlConflictAction.Default && table.HasConflictClauses ? SqlConflictAction.Default : action;

        // Assigned columns (-1: the rowid under one of its names) and the expression of each.
        var ordinals = new List<int>();
        var values = new List<SqlExpr>();
        foreach (var a in update.Set)
        {
            IReadOnlyList<SqlExpr> exprs = [a.Value];
            if (a.Columns.Count > 1)
            {
                exprs = WriteValues.AssignedRow(sql, a);
            }
            for (int i = 0; i < a.Columns.Count; i++)
            {
                string name = a.Columns[i];
                int ordinal = table.FindColumn(name)?.Ordinal ?? (!table.IsWithoutRowId && DmlTarget.IsRowIdName(name) ? -1
                    : throw new SharcSqlException($"no such column: {name}", sql, a.Start));
                ordinals.Add(ordinal);
                values.Add(exprs[i]);
            }
        }

        var columns = KeyAndRow(update.Table, table);
        int first = columns.Count;
        foreach (var v in values) columns.Add(new SqlExprColumn(v, null));
        if (update.From is not null) RefuseTargetInFrom(sql, update);
        var from = new SqlJoinClause(update.Table, update.From is null ? [] : FromItems(update.From)) { Start = update.Table.Start, End = update.Table.End };

        return db.RunSqlStatement(() =>
        {
            using var returning = ReturningRows.Create(db, sql, update.Returning, update.Table, table, parameters);
            var rows = DmlTarget.RunQuery(db, sql, update, update.With, columns, from, update.Where, parameters, cacheable: true);
            if (update.From is null && !VisitsInPlanOrder(table, perRow == SqlConflictAction.Default && HasReplaceConstraint(table) ? SqlConflictAction.Replace : action, ordinals, update.Where)) SortByKey(rows, table);
            var writer = db.WriterFor(table.Name);
            var triggers = writer.HasTriggers ? db.TriggerRunner.For(table, SqlTriggerEvent.Update, AssignedNames(update)) : null;
            // With triggers, SQLite reads each row and computes its new values only when it comes to it: a trigger
            // fired by an earlier row may have changed or deleted it. (UPDATE … FROM keeps the values of its join.)
            using var fresh = triggers is not null && update.From is null && !table.IsWithoutRowId
                ? RowExpressions.Compile(db, sql, values, new RowBinding(update.Table.Alias ?? table.Name, table))
                : null;
            if (fresh is not null) DmlTarget.Bind(fresh.Parameters, parameters);
            var encoding = db.TextEncoding;
            var assigned = new List<int>();
            var newValues = new List<StoredValue>();
            var scratch = new byte[]?[values.Count];
            var newRow = new StoredValue[table.Columns.Count];
            var asSql = new SqlValue[table.Columns.Count];
            var old = triggers is null ? null : new StoredValue[table.Columns.Count];
            var oldSql = triggers is null ? null : new SqlValue[table.Columns.Count];
            var computed = new SqlValue[values.Count];
            var done = table.IsWithoutRowId ? null : new HashSet<long>();
            int changes = 0;
            foreach (var row in rows)
            {
                db.Interruption.Check();
                long rowId = 0;
                if (!table.IsWithoutRowId)
                {
                    rowId = row[0].IntegerValue;
                    // UPDATE … FROM may match a target row more than once: it is changed once, as in SQLite.
                    if (!done!.Add(rowId)) continue;
                }
                if (old is not null)
                {
                    if (table.IsWithoutRowId)
                    {
                        for (int c = 0; c < old.Length; c++)
                        {
                            byte[]? s = null;
                            WriteValues.Store(ref old[c], ref s, row[c].ToOwned(), table.Columns[c].Affinity, encoding);
                        }
                    }
                    else if (!writer.ReadRow(rowId, old)) continue; // deleted by a trigger of an earlier row
                }
                for (int i = 0; i < computed.Length; i++) computed[i] = row[first + i];
                if (fresh is not null)
                {
                    WriteValues.ToSql(old!, oldSql!, table, encoding);
                    fresh.SetRow(0, oldSql!, rowId);
                    for (int i = 0; i < computed.Length; i++) computed[i] = fresh.Evaluate(i).ToOwned();
                }
                assigned.Clear();
                newValues.Clear();
                long? newRowId = null;
                for (int i = 0; i < ordinals.Count; i++)
                {
                    int o = ordinals[i];
                    StoredValue v = default;
                    WriteValues.Store(ref v, ref scratch[i], computed[i], o < 0 ? SharcAffinity.Integer : table.Columns[o].Affinity, encoding);
                    if (o < 0)
                    {
                        newRowId = v.Type == SharcColumnType.Integer ? v.Integer : throw new SharcConstraintException("datatype mismatch");
                        continue;
                    }
                    assigned.Add(o);
                    newValues.Add(v);
                }
                if (triggers is not null && !BeforeUpdate(triggers, table, old!, rowId, assigned, newValues, newRowId, update.Conflict)) continue;
                bool changed;
                long finalRowId = 0;
                if (table.IsWithoutRowId)
                {
                    // The key comes from the row as found: a row an earlier OR REPLACE deleted is no longer there, and one
                    // moved onto this key is the row now updated, as in SQLite.
                    var key = PrimaryKey(table, row, encoding);
                    changed = writer.UpdateByKey(key, [.. assigned], [.. newValues], perRow, newRow);
                    if (changed && (returning is not null || triggers is not null)) WriteValues.ToSql(newRow, asSql, table, encoding);
                }
                else
                {
                    changed = writer.UpdateRow(rowId, [.. assigned], [.. newValues], newRowId, perRow, newRow, out finalRowId);
                    if (changed && returning is not null) WriteValues.ToSql(newRow, asSql, table, encoding);
                }
                if (!changed) continue;
                changes++;
                returning?.Add(asSql, finalRowId);
                triggers?.AfterUpdate(old!, rowId, newRow, finalRowId, update.Conflict);
            }
            return new StatementOutcome(changes, true, returning is null ? null : new QueryExecution(returning.Columns, returning.Rows));
        }, action);
    }

    /// <summary>A constraint whose own algorithm is REPLACE makes SQLite gather the rows first, as OR REPLACE does.</summary>
    private static bool HasReplaceConstraint(SharcTable table)
    {
        if (table.RowIdConflict == SqlConflictAction.Replace) return true;
        foreach (var c in table.Columns) if (c.IsNotNull && c.NotNullConflict == SqlConflictAction.Replace) return true;
        foreach (var ix in table.Indexes) if (ix.OnConflict == SqlConflictAction.Replace) return true;
        return false;
    }

    /// <summary>The names the statement assigns (what UPDATE OF triggers are matched against).</summary>
    internal static List<string> AssignedNames(SqlUpdateStatement update)
    {
        var names = new List<string>();
        foreach (var a in update.Set) names.AddRange(a.Columns);
        return names;
    }

    /// <summary>BEFORE UPDATE triggers with NEW as the row the statement computed; false when one raised IGNORE.</summary>
    private static bool BeforeUpdate(TableTriggers triggers, SharcTable table, StoredValue[] old, long rowId, List<int> assigned, List<StoredValue> values,
        long? newRowId, SqlConflictAction conflict)
    {
        if (!triggers.HasBefore) return true;
        var proposed = (StoredValue[])old.Clone();
        long id = newRowId ?? rowId;
        for (int i = 0; i < assigned.Count; i++)
        {
            proposed[assigned[i]] = values[i];
            if (assigned[i] == table.RowIdAliasOrdinal && values[i].Type == SharcColumnType.Integer) id = values[i].Integer;
        }
        return triggers.BeforeUpdate(old, rowId, proposed, id, conflict);
    }

    public static StatementOutcome Delete(SharcDatabase db, string sql, SqlDeleteStatement delete, SqlValue[] parameters)
    {
        RefuseOrderByLimit(sql, delete.OrderBy, delete.Limit, delete.Start);
        var table = DmlTarget.Resolve(db, sql, delete.Table);
        var columns = KeyAndRow(delete.Table, table);
        var from = new SqlJoinClause(delete.Table, []) { Start = delete.Table.Start, End = delete.Table.End };
        return db.RunSqlStatement(() =>
        {
            using var returning = ReturningRows.Create(db, sql, delete.Returning, delete.Table, table, parameters);
            var rows = DmlTarget.RunQuery(db, sql, delete, delete.With, columns, from, delete.Where, parameters, cacheable: true);
            var writer = db.WriterFor(table.Name);
            var triggers = writer.HasTriggers ? db.TriggerRunner.For(table, SqlTriggerEvent.Delete) : null;
            // Where deleting a row has effects (triggers, foreign key actions and counts) SQLite first gathers the keys
            // and then deletes in rowid / primary-key order, whatever index found them: which row a trigger or a
            // CASCADE of an earlier row removes first decides what the later ones see, and the count.
            if (triggers is not null || db.ForeignKeysEnabled) SortByKey(rows, table);
            var encoding = db.TextEncoding;
            var asSql = new SqlValue[table.Columns.Count];
            var old = triggers is null ? null : new StoredValue[table.Columns.Count];
            int changes = 0;
            int offset = table.IsWithoutRowId ? 0 : 1;
            foreach (var row in rows)
            {
                db.Interruption.Check();
                long rowId = table.IsWithoutRowId ? 0 : row[0].IntegerValue;
                if (old is not null)
                {
                    // OLD is the row as it stands when its turn comes (a trigger of an earlier row may have changed it).
                    if (table.IsWithoutRowId)
                    {
                        for (int c = 0; c < old.Length; c++)
                        {
                            byte[]? s = null;
                            WriteValues.Store(ref old[c], ref s, row[c].ToOwned(), table.Columns[c].Affinity, encoding);
                        }
                    }
                    else if (!writer.ReadRow(rowId, old)) continue;
                    if (!triggers!.BeforeDelete(old, rowId, SqlConflictAction.Default)) continue;
                }
                bool deleted = table.IsWithoutRowId
                    ? writer.DeleteByKey(PrimaryKey(table, row, encoding))
                    : writer.DeleteRow(rowId);
                if (!deleted) continue;
                changes++;
                if (returning is not null)
                {
                    if (old is not null && !table.IsWithoutRowId) WriteValues.ToSql(old, asSql, table, encoding);
                    else for (int c = 0; c < asSql.Length; c++) asSql[c] = row[offset + c];
                    returning.Add(asSql, rowId);
                }
                triggers?.AfterDelete(old!, rowId, SqlConflictAction.Default);
            }
            return new StatementOutcome(changes, true, returning is null ? null : new QueryExecution(returning.Columns, returning.Rows));
        });
    }

    /// <summary>
    /// Whether SQLite would change the rows as its scan meets them. It does (one pass) only when nothing the scan
    /// relies on moves: no OR REPLACE, no change of rowid or primary key, and the scan does not read an index the
    /// update changes. Otherwise it first gathers the keys, in rowid / primary-key order, and then changes the rows in
    /// that order — which decides which row OR REPLACE keeps and which rows OR IGNORE / OR FAIL reach first. A full
    /// scan is in that order too (a WITHOUT ROWID table scanned through a covering index has that index changed), so
    /// only a WHERE answered through an index holding no assigned column leaves the order to the plan.
    /// </summary>
    private static bool VisitsInPlanOrder(SharcTable table, SqlConflictAction action, List<int> assigned, SqlExpr? where)
    {
        if (where is null || action == SqlConflictAction.Replace) return false;
        foreach (int o in assigned)
            if (o < 0 || o == table.RowIdAliasOrdinal || (table.IsWithoutRowId && table.PrimaryKey.Contains(o))) return false;
        var restricted = new HashSet<int>();
        RestrictedColumns(where, table, restricted);
        foreach (var ix in table.Indexes)
        {
            if (ix.IsPrimaryKey || ix.IsPartial || ix.Columns.Count == 0 || !restricted.Contains(ix.Columns[0].TableOrdinal)) continue;
            if (!ix.Columns.Any(c => c.TableOrdinal < -1 || assigned.Contains(c.TableOrdinal))) return true;
        }
        return false;
    }

    /// <summary>The columns an AND-term of the WHERE constrains in a way an index can answer.</summary>
    private static void RestrictedColumns(SqlExpr where, SharcTable table, HashSet<int> into)
    {
        switch (where)
        {
            case SqlBinaryExpr { Operator: SqlBinaryOperator.And } and:
                RestrictedColumns(and.Left, table, into);
                RestrictedColumns(and.Right, table, into);
                return;
            case SqlBinaryExpr { Operator: SqlBinaryOperator.Equal or SqlBinaryOperator.Less or SqlBinaryOperator.LessOrEqual
                or SqlBinaryOperator.Greater or SqlBinaryOperator.GreaterOrEqual or SqlBinaryOperator.Is } cmp:
                Add(cmp.Left, table, into);
                Add(cmp.Right, table, into);
                return;
            case SqlBetweenExpr { Not: false } between: Add(between.Operand, table, into); return;
            case SqlInListExpr { Not: false } inList: Add(inList.Operand, table, into); return;
            case SqlNullTestExpr { Not: false } isNull: Add(isNull.Operand, table, into); return;
        }

        static void Add(SqlExpr e, SharcTable table, HashSet<int> into)
        {
            if (e is SqlColumnRef c && table.FindColumn(c.Name) is { } column) into.Add(column.Ordinal);
        }
    }

    /// <summary>Orders the found rows by rowid, or by primary key with its collations and directions.</summary>
    private static void SortByKey(List<SqlValue[]> rows, SharcTable table)
    {
        if (rows.Count < 2) return;
        if (!table.IsWithoutRowId)
        {
            rows.Sort((x, y) => x[0].IntegerValue.CompareTo(y[0].IntegerValue));
            return;
        }
        var pk = table.PrimaryKey;
        var collations = new Collation[pk.Count];
        var descending = new bool[pk.Count];
        for (int i = 0; i < pk.Count; i++)
        {
            CollationCompare.TryParse(i < table.PrimaryKeyCollations.Count ? table.PrimaryKeyCollations[i] : null, out collations[i]);
            descending[i] = i < table.PrimaryKeyDescending.Count && table.PrimaryKeyDescending[i];
        }
        rows.Sort((x, y) =>
        {
            for (int i = 0; i < pk.Count; i++)
            {
                int c = SqlCompare.Compare(x[pk[i]], y[pk[i]], collations[i]);
                if (c != 0) return descending[i] ? -c : c;
            }
            return 0;
        });
    }

    /// <summary>The rowid (rowid tables) and then every column of the target, as result columns of the finding query.</summary>
    private static List<SqlResultColumn> KeyAndRow(SqlTableRef target, SharcTable table)
    {
        var columns = new List<SqlResultColumn>();
        if (!table.IsWithoutRowId)
        {
            string rowId = DmlTarget.RowIdName(table) ?? table.Columns.First(c => c.IsRowIdAlias).Name;
            columns.Add(DmlTarget.Column(target, rowId));
        }
        foreach (var c in table.Columns) columns.Add(DmlTarget.Column(target, c.Name));
        return columns;
    }

    /// <summary>The primary key of a WITHOUT ROWID row found by the query (its columns come first in the row).</summary>
    private static StoredValue[] PrimaryKey(SharcTable table, SqlValue[] row, SharcTextEncoding encoding)
    {
        var key = new StoredValue[table.PrimaryKey.Count];
        for (int i = 0; i < key.Length; i++)
        {
            int o = table.PrimaryKey[i];
            byte[]? scratch = null;
            WriteValues.Store(ref key[i], ref scratch, row[o], table.Columns[o].Affinity, encoding);
        }
        return key;
    }

    /// <summary>UPDATE … FROM: the FROM items are joined to the target as further comma-joined sources.</summary>
    /// <summary>
    /// SQLite refuses an UPDATE … FROM whose FROM clause names the target again without an alias (the two would be
    /// one name for two cursors); an aliased second copy of the table is a self-join.
    /// </summary>
    private static void RefuseTargetInFrom(string sql, SqlUpdateStatement update)
    {
        string target = update.Table.Alias ?? update.Table.Name;
        foreach (var item in FromItems(update.From!))
        {
            if (item.Source is SqlTableRef { Alias: null } r && Schema.Parsing.SqlNameComparer.Instance.Equals(r.Name, target))
                throw new SharcSqlException($"target object/alias may not appear in FROM clause: {r.Name}", sql, r.Start);
        }
    }

    private static List<SqlJoin> FromItems(SqlJoinClause from)
    {
        var joins = new List<SqlJoin> { new(SqlJoinKind.Comma, false, from.First, null, []) { Start = from.First.Start, End = from.First.End } };
        joins.AddRange(from.Joins);
        return joins;
    }

    /// <summary>SQLite's default build has no ORDER BY / LIMIT on UPDATE and DELETE: the parser stops at the keyword.</summary>
    private static void RefuseOrderByLimit(string sql, IReadOnlyList<SqlOrderingTerm> orderBy, SqlExpr? limit, int start)
    {
        int at = orderBy.Count > 0 ? orderBy[0].Start : limit?.Start ?? -1;
        if (at < 0) return;
        string word = orderBy.Count > 0 ? "ORDER" : "LIMIT";
        int keyword = sql.LastIndexOf(word, at, at - start + 1, StringComparison.OrdinalIgnoreCase);
        if (keyword < 0) keyword = at;
        throw new SharcSqlException($"near \"{sql.Substring(keyword, Math.Min(word.Length, sql.Length - keyword))}\": syntax error", sql, keyword);
    }
}
