using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// INSERT [OR action] INTO t [AS alias] [(columns)] VALUES … | SELECT … | DEFAULT VALUES [RETURNING …]: the source
/// rows are computed first (a SELECT runs to completion before the first row is written), then each row gets its
/// columns' affinity and defaults and goes through the table writer with SQLite's conflict resolution.
/// </summary>
internal static class DmlInsert
{
    public static StatementOutcome Run(SharcDatabase db, string sql, SqlInsertStatement insert, SqlValue[] parameters)
    {
        if (insert.With is not null) Unsupported.Throw("WITH before INSERT", sql, insert.With.Start);
        var table = DmlTarget.Resolve(db, sql, insert.Table);
        int[] targets = insert.Source is null ? [] : TargetColumns(sql, insert, table);
        var action = insert.Conflict == SqlConflictAction.Default ? SqlConflictAction.Abort : insert.Conflict;
        return db.RunSqlStatement(() =>
        {
            using var returning = ReturningRows.Create(db, sql, insert.Returning, insert.Table, table, parameters);
            using var upsert = insert.Upserts.Count > 0 ? new DmlUpsert(db, sql, insert, table, parameters) : null;
            var rows = SourceRows(db, sql, insert, table, targets, parameters);
            var writer = db.WriterFor(table.Name);
            var encoding = db.TextEncoding;
            var stored = new StoredValue[table.Columns.Count];
            var scratch = new byte[]?[table.Columns.Count + 1];
            var asSql = returning is null ? null : new SqlValue[table.Columns.Count];
            int changes = 0;
            foreach (var source in rows)
            {
                var explicitRowId = StoredValue.Null;
                Array.Clear(stored);
                var given = new bool[stored.Length];
                for (int i = 0; i < targets.Length; i++)
                {
                    int o = targets[i];
                    if (o < 0)
                    {
                        WriteValues.Store(ref explicitRowId, ref scratch[^1], source[i], SharcAffinity.Integer, encoding);
                        continue;
                    }
                    WriteValues.Store(ref stored[o], ref scratch[o], source[i], table.Columns[o].Affinity, encoding);
                    given[o] = true;
                }
                writer.FillDefaults(stored, given);
                if (action == SqlConflictAction.Replace) DefaultsForNotNull(writer, table, stored);
                if (explicitRowId.Type is not (SharcColumnType.Null or SharcColumnType.Integer)) CheckRowId(ref explicitRowId);
                if (upsert is not null && upsert.TryHandle(db, writer, stored, explicitRowId, ref changes, returning)) continue;
                long rowId;
                try
                {
                    rowId = writer.Insert(stored, action == SqlConflictAction.Replace, explicitRowId);
                }
                catch (SharcConstraintException e) when (action == SqlConflictAction.Ignore && !e.Message.StartsWith("datatype mismatch", StringComparison.Ordinal))
                {
                    continue; // OR IGNORE: nothing of the row was written
                }
                changes++;
                if (returning is not null)
                {
                    WriteValues.ToSql(stored, asSql!, table, encoding);
                    returning.Add(asSql!, rowId);
                }
            }
            return new StatementOutcome(changes, true, returning is null ? null : new QueryExecution(returning.Columns, returning.Rows));
        }, action);
    }

    /// <summary>Table column ordinal of each value (-1 for the rowid named "rowid", "oid" or "_rowid_").</summary>
    private static int[] TargetColumns(string sql, SqlInsertStatement insert, SharcTable table)
    {
        if (insert.Columns.Count == 0)
            return [.. table.Columns.Where(c => !c.IsHidden).Select(c => c.Ordinal)];
        var targets = new int[insert.Columns.Count];
        for (int i = 0; i < targets.Length; i++)
        {
            string name = insert.Columns[i];
            if (table.FindColumn(name) is { } c) targets[i] = c.Ordinal;
            else if (!table.IsWithoutRowId && DmlTarget.IsRowIdName(name)) targets[i] = -1;
            else throw new SharcSqlException($"table {table.Name} has no column named {name}", sql, insert.Table.End);
        }
        return targets;
    }

    /// <summary>The rows to insert, each with one value per target column.</summary>
    private static List<SqlValue[]> SourceRows(SharcDatabase db, string sql, SqlInsertStatement insert, SharcTable table, int[] targets, SqlValue[] parameters)
    {
        if (insert.Source is null) return [[]];
        if (insert.Source is { With: null, Body: SqlValuesBody values, OrderBy.Count: 0, Limit: null })
        {
            var flat = new List<SqlExpr>();
            foreach (var row in values.Rows)
            {
                if (row.Count != values.Rows[0].Count)
                    throw new SharcSqlException("all VALUES must have the same number of terms", sql, row.Count > 0 ? row[0].Start : insert.Source.Start);
                flat.AddRange(row);
            }
            CheckCount(sql, insert, table, targets, values.Rows[0].Count);
            using var rx = RowExpressions.Compile(db, sql, flat);
            DmlTarget.Bind(rx.Parameters, parameters);
            var rows = new List<SqlValue[]>(values.Rows.Count);
            int k = 0;
            foreach (var row in values.Rows)
            {
                var result = new SqlValue[row.Count];
                for (int i = 0; i < result.Length; i++) result[i] = rx.Evaluate(k++).ToOwned();
                rows.Add(result);
            }
            return rows;
        }
        var select = new SqlSelectStatement(insert.Source)
        {
            Start = insert.Source.Start,
            End = insert.Source.End,
            ParameterCount = insert.ParameterCount,
            ParameterNames = insert.ParameterNames,
        };
        var selected = DmlTarget.RunSelect(db, sql, select, parameters, out int width);
        CheckCount(sql, insert, table, targets, width);
        return selected;
    }

    private static void CheckCount(string sql, SqlInsertStatement insert, SharcTable table, int[] targets, int count)
    {
        if (count == targets.Length) return;
        if (insert.Columns.Count == 0)
            throw new SharcSqlException($"table {table.Name} has {targets.Length} columns but {count} values were supplied", sql, insert.Table.Start);
        throw new SharcSqlException($"{count} values for {targets.Length} columns", sql, insert.Table.Start);
    }

    /// <summary>OR REPLACE: a NULL in a NOT NULL column with a default takes the default, as SQLite does.</summary>
    private static void DefaultsForNotNull(TableWriter writer, SharcTable table, StoredValue[] row)
    {
        foreach (var c in table.Columns)
            if (c.IsNotNull && !c.IsRowIdAlias && row[c.Ordinal].Type == SharcColumnType.Null && c.DefaultSql is not null)
                row[c.Ordinal] = writer.DefaultFor(c);
    }

    /// <summary>A rowid given as "rowid" must be an integer (a real with an integral value is one).</summary>
    private static void CheckRowId(ref StoredValue v)
    {
        if (v.Type == SharcColumnType.Real && v.Real == Math.Floor(v.Real) && v.Real >= long.MinValue && v.Real < 9.2233720368547758E18)
        {
            v = StoredValue.FromInteger((long)v.Real);
            return;
        }
        throw new SharcConstraintException("datatype mismatch");
    }
}
