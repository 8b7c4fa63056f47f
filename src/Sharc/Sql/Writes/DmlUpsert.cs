using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;
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
        foreach (var u in insert.Upserts)
        {
            var (kind, index) = Target(sql, u, table, insert.Table.Alias);
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
                        values = WriteValues.AssignedRow(sql, a);
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
        if (_table.IsWithoutRowId) return TryHandleByKey(db, writer, row, ref changes, returning);
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
        var values = ComputeSet(rx, clause, encoding);
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

    /// <summary>WITHOUT ROWID: as <see cref="TryHandle"/>, the rows met known by their contents (and so their primary key).</summary>
    private bool TryHandleByKey(SharcDatabase db, TableWriter writer, StoredValue[] row, ref int changes, ReturningRows? returning)
    {
        var conflicts = writer.UniqueConflictsByKey(row);
        if (conflicts.Count == 0) return false;
        foreach (var clause in _clauses)
        {
            foreach (var (index, existing) in conflicts)
            {
                if (!Matches(clause, index)) continue;
                if (clause.Syntax.DoNothing) return true;
                UpdateByKey(db, writer, clause, row, existing, ref changes, returning);
                return true;
            }
        }
        return false;
    }

    private void UpdateByKey(SharcDatabase db, TableWriter writer, Clause clause, StoredValue[] proposed, StoredValue[] existing, ref int changes, ReturningRows? returning)
    {
        var encoding = db.TextEncoding;
        var current = new SqlValue[existing.Length];
        var excluded = new SqlValue[existing.Length];
        WriteValues.ToSql(existing, current, _table, encoding);
        WriteValues.ToSql(proposed, excluded, _table, encoding);
        var rx = clause.Expressions!;
        rx.SetRow(0, current, 0);
        rx.SetRow(1, excluded, 0);
        if (clause.HasWhere && !rx.IsTrue(clause.Columns.Length)) return;
        var values = ComputeSet(rx, clause, encoding);
        var key = new StoredValue[_table.PrimaryKey.Count];
        for (int i = 0; i < key.Length; i++) key[i] = existing[_table.PrimaryKey[i]];
        var newRow = new StoredValue[existing.Length];
        if (!writer.UpdateByKey(key, clause.Columns, values, SqlConflictAction.Abort, newRow)) return;
        changes++;
        if (returning is null) return;
        var asSql = new SqlValue[newRow.Length];
        WriteValues.ToSql(newRow, asSql, _table, encoding);
        returning.Add(asSql, 0);
    }

    private StoredValue[] ComputeSet(RowExpressions rx, Clause clause, SharcTextEncoding encoding)
    {
        var values = new StoredValue[clause.Columns.Length];
        for (int i = 0; i < values.Length; i++)
        {
            byte[]? scratch = null;
            var v = rx.Evaluate(i).ToOwned();
            WriteValues.Store(ref values[i], ref scratch, v, _table.Columns[clause.Columns[i]].Affinity, encoding);
        }
        return values;
    }

    /// <summary>
    /// What an ON CONFLICT target names: the rowid (INTEGER PRIMARY KEY), or a UNIQUE index whose key columns are
    /// exactly the target's (a COLLATE on a target column must be the index column's collation). A partial index is
    /// named only by a target WHERE that is the same expression as the index's; a target WHERE does not keep a full
    /// index from being named. Like SQLite, the most recently created index that fits wins.
    /// </summary>
    private static (TargetKind, SharcIndex?) Target(string sql, SqlUpsertClause u, SharcTable table, string? alias)
    {
        if (u.Target.Count == 0) return (TargetKind.Any, null);
        var ordinals = new List<int>();
        var collations = new List<string?>();
        foreach (var term in u.Target)
        {
            var expr = term.Expr is SqlCollateExpr c ? c.Operand : term.Expr;
            // SQLite resolves the target's names against the table before it looks for a matching index.
            if (expr is SqlColumnRef unknown && table.FindColumn(unknown.Name) is null && (table.IsWithoutRowId || !DmlTarget.IsRowIdName(unknown.Name)))
                throw new SharcSqlException($"no such column: {unknown.Name}", sql, term.Start);
            if (expr is not SqlColumnRef col || table.FindColumn(col.Name) is not { } column)
                return Unsupported.Throw<(TargetKind, SharcIndex?)>("an UPSERT target that is not a list of columns", sql, term.Start);
            ordinals.Add(column.Ordinal);
            collations.Add((term.Expr as SqlCollateExpr)?.Collation);
        }
        if (u.TargetWhere is not null) UpsertTargetWhere.Resolve(u.TargetWhere, table, alias, sql);
        if (ordinals.Count == 1 && ordinals[0] == table.RowIdAliasOrdinal && !table.IsWithoutRowId) return (TargetKind.RowId, null);
        for (int i = table.Indexes.Count - 1; i >= 0; i--)
        {
            var ix = table.Indexes[i];
            if (!ix.IsUnique || ix.Columns.Count != ordinals.Count || !KeyMatches(ix, ordinals, collations)) continue;
            if (ix.WhereSql is { } where && (u.TargetWhere is null || !UpsertTargetWhere.Same(u.TargetWhere, SqlParser.ParseExpression(where), table)))
                continue;
            return (TargetKind.Index, ix);
        }
        throw new SharcSqlException("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint", sql, u.Start);
    }

    /// <summary>Every key column of the index is one of the target's columns, with the target's collation if it gives one.</summary>
    private static bool KeyMatches(SharcIndex ix, List<int> ordinals, List<string?> collations)
    {
        foreach (var k in ix.Columns)
        {
            bool found = false;
            for (int j = 0; j < ordinals.Count && !found; j++)
                found = ordinals[j] == k.TableOrdinal && (collations[j] is not { } c || string.Equals(c, k.Collation, StringComparison.OrdinalIgnoreCase));
            if (!found) return false;
        }
        return true;
    }

    public void Dispose()
    {
        foreach (var c in _clauses) c.Expressions?.Dispose();
    }
}
