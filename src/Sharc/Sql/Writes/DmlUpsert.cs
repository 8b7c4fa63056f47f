using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;
using Sharc.Write;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Writes;

/// <summary>
/// INSERT … ON CONFLICT [(target) ] DO NOTHING | DO UPDATE SET … [WHERE …]: before a row is inserted, the uniqueness
/// constraints it would break are found; the first clause whose target names one of them (a clause without target
/// matches any) decides — skip the row, or update the existing row with SET expressions that see it (by the table's
/// name or alias) and the row that was to be inserted (as <c>excluded</c>). A conflict no clause matches is an error
/// as without UPSERT.
/// </summary>
internal sealed class DmlUpsert : IDisposable
{
    private readonly SharcTable _table;
    private readonly List<Clause> _clauses = new();

    private sealed record Clause(SqlUpsertClause Syntax, TargetKind Kind, SharcIndex? Index, int[] Columns, RowExpressions? Expressions, bool HasWhere);

    private enum TargetKind : byte { Any, RowId, Index }

    public DmlUpsert(SharcDatabase db, string sql, SqlInsertStatement insert, SharcTable table, SqlValue[] parameters)
    {
        _table = table;
        if (table.IsWithoutRowId) Unsupported.Throw("UPSERT on a WITHOUT ROWID table", sql, insert.Upserts[0].Start);
        foreach (var u in insert.Upserts)
        {
            if (u.TargetWhere is not null) Unsupported.Throw("an UPSERT target with WHERE (partial indexes)", sql, u.TargetWhere.Start);
            var (kind, index) = Target(sql, u, table);
            RowExpressions? rx = null;
            var columns = new List<int>();
            if (!u.DoNothing)
            {
                var exprs = new List<SqlExpr>();
                foreach (var a in u.Set)
                {
                    IReadOnlyList<SqlExpr> values = [a.Value];
                    if (a.Columns.Count > 1)
                    {
                        if (a.Value is not SqlRowValueExpr row) { Unsupported.Throw("assigning a row value from a subquery", sql, a.Value.Start); return; }
                        if (row.Items.Count != a.Columns.Count) throw new SharcSqlException($"{a.Columns.Count} columns assigned {row.Items.Count} values", sql, a.Start);
                        values = row.Items;
                    }
                    for (int i = 0; i < a.Columns.Count; i++)
                    {
                        columns.Add(table.FindColumn(a.Columns[i])?.Ordinal ?? throw new SharcSqlException($"no such column: {a.Columns[i]}", sql, a.Start));
                        exprs.Add(values[i]);
                    }
                }
                if (u.Where is not null) exprs.Add(u.Where);
                rx = RowExpressions.Compile(db, sql, exprs,
                    new RowBinding(insert.Table.Alias ?? table.Name, table), new RowBinding("excluded", table, Unqualified: false));
                DmlTarget.Bind(rx.Parameters, parameters);
            }
            _clauses.Add(new Clause(u, kind, index, [.. columns], rx, u.Where is not null));
        }
    }

    /// <summary>
    /// Handles the row if it conflicts with a constraint an ON CONFLICT clause targets: returns true when the row
    /// must not be inserted (nothing done, or the existing row updated — then counted and given to RETURNING).
    /// </summary>
    public bool TryHandle(SharcDatabase db, TableWriter writer, StoredValue[] row, StoredValue explicitRowId, ref int changes, ReturningRows? returning)
    {
        var conflicts = writer.UniqueConflicts(row, explicitRowId);
        if (conflicts.Count == 0) return false;
        foreach (var clause in _clauses)
        {
            foreach (var (index, rowId) in conflicts)
            {
                if (!Matches(clause, index)) continue;
                if (clause.Syntax.DoNothing) return true;
                Update(db, writer, clause, row, explicitRowId, rowId, ref changes, returning);
                return true;
            }
        }
        return false; // the insert reports the conflict as usual
    }

    private static bool Matches(Clause clause, SharcIndex? index) => clause.Kind switch
    {
        TargetKind.Any => true,
        TargetKind.RowId => index is null,
        _ => index is not null && ReferenceEquals(index, clause.Index) || (index is not null && clause.Index is not null && SqlNameComparer.Instance.Equals(index.Name, clause.Index.Name)),
    };

    private void Update(SharcDatabase db, TableWriter writer, Clause clause, StoredValue[] proposed, StoredValue explicitRowId, long rowId, ref int changes, ReturningRows? returning)
    {
        var encoding = db.TextEncoding;
        var existing = new StoredValue[_table.Columns.Count];
        writer.ReadRow(rowId, existing);
        var current = new SqlValue[existing.Length];
        var excluded = new SqlValue[existing.Length];
        WriteValues.ToSql(existing, current, _table, encoding);
        WriteValues.ToSql(proposed, excluded, _table, encoding);
        var rx = clause.Expressions!;
        rx.SetRow(0, current, rowId);
        long proposedRowId = _table.RowIdAliasOrdinal >= 0 && proposed[_table.RowIdAliasOrdinal].Type == SharcColumnType.Integer
            ? proposed[_table.RowIdAliasOrdinal].Integer : explicitRowId.Type == SharcColumnType.Integer ? explicitRowId.Integer : 0;
        rx.SetRow(1, excluded, proposedRowId);
        if (clause.HasWhere && !rx.IsTrue(clause.Columns.Length)) return;
        var values = new StoredValue[clause.Columns.Length];
        for (int i = 0; i < values.Length; i++)
        {
            byte[]? scratch = null;
            var v = rx.Evaluate(i).ToOwned();
            WriteValues.Store(ref values[i], ref scratch, v, _table.Columns[clause.Columns[i]].Affinity, encoding);
        }
        var triggers = writer.HasTriggers ? db.TriggerRunner.For(_table, SqlTriggerEvent.Update, [.. clause.Columns.Select(c => _table.Columns[c].Name)]) : null;
        if (triggers is not null)
        {
            var proposedRow = (StoredValue[])existing.Clone();
            long proposedId = rowId;
            for (int i = 0; i < values.Length; i++)
            {
                proposedRow[clause.Columns[i]] = values[i];
                if (clause.Columns[i] == _table.RowIdAliasOrdinal && values[i].Type == SharcColumnType.Integer) proposedId = values[i].Integer;
            }
            if (!triggers.BeforeUpdate(existing, rowId, proposedRow, proposedId, SqlConflictAction.Default)) return;
        }
        var newRow = new StoredValue[existing.Length];
        if (!writer.UpdateRow(rowId, clause.Columns, values, null, SqlConflictAction.Abort, newRow, out long finalRowId)) return;
        changes++;
        triggers?.AfterUpdate(existing, rowId, newRow, finalRowId, SqlConflictAction.Default);
        if (returning is null) return;
        var asSql = new SqlValue[newRow.Length];
        WriteValues.ToSql(newRow, asSql, _table, encoding);
        returning.Add(asSql, finalRowId);
    }

    /// <summary>What an ON CONFLICT target names: the rowid (INTEGER PRIMARY KEY) or a UNIQUE index with exactly those columns.</summary>
    private static (TargetKind, SharcIndex?) Target(string sql, SqlUpsertClause u, SharcTable table)
    {
        if (u.Target.Count == 0) return (TargetKind.Any, null);
        var ordinals = new List<int>();
        foreach (var term in u.Target)
        {
            var expr = term.Expr is SqlCollateExpr c ? c.Operand : term.Expr;
            if (expr is not SqlColumnRef col || table.FindColumn(col.Name) is not { } column)
                return Unsupported.Throw<(TargetKind, SharcIndex?)>("an UPSERT target that is not a list of columns", sql, term.Start);
            ordinals.Add(column.Ordinal);
        }
        if (ordinals.Count == 1 && ordinals[0] == table.RowIdAliasOrdinal) return (TargetKind.RowId, null);
        foreach (var ix in table.Indexes)
        {
            if (!ix.IsUnique || ix.IsPartial || ix.Columns.Count != ordinals.Count) continue;
            if (ix.Columns.All(k => ordinals.Contains(k.TableOrdinal))) return (TargetKind.Index, ix);
        }
        throw new SharcSqlException("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint", sql, u.Start);
    }

    public void Dispose()
    {
        foreach (var c in _clauses) c.Expressions?.Dispose();
    }
}
