using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;

namespace Sharc.Write;

/// <summary>
/// Conflict resolution by the constraint's own ON CONFLICT clause, for writes with no OR clause on a table whose
/// constraints name one. (An OR clause overrides every constraint's algorithm, so those writes never come here.)
/// </summary>
internal sealed partial class TableWriter
{
    /// <summary>
    /// NOT NULL constraints of a row about to be inserted, in column order as SQLite checks them: REPLACE writes the
    /// column's DEFAULT (a default that is itself NULL is left for the insert to reject with ABORT, as SQLite's second
    /// pass does), IGNORE skips the row (returns false), others throw carrying their algorithm.
    /// </summary>
    public bool ResolveNotNull(Span<StoredValue> row)
    {
        var columns = _table.Columns;
        for (int i = 0; i < columns.Count; i++)
        {
            var c = columns[i];
            // Generated columns are judged once computed, by the insert itself.
            if (!c.IsNotNull || c.IsRowIdAlias || c.Generated != SharcGeneratedKind.None || row[i].Type != SharcColumnType.Null) continue;
            var action = Effective(c.NotNullConflict);
            if (action == SqlConflictAction.Replace && c.DefaultSql is not null)
            {
                row[i] = DefaultFor(c);
                continue;
            }
            if (action == SqlConflictAction.Ignore) return false;
            throw Carrying(new SharcConstraintException($"NOT NULL constraint failed: {_table.Name}.{c.Name}"),
                action == SqlConflictAction.Replace ? SqlConflictAction.Abort : action);
        }
        return true;
    }

    /// <summary>
    /// The PRIMARY KEY and UNIQUE conflicts of a row about to be inserted, each resolved by its constraint's
    /// algorithm in SQLite's order: the rowid first (unless its algorithm is REPLACE, which SQLite defers to the
    /// end), then the indexes whose constraint is not REPLACE, newest first, then the REPLACE ones. The first conflict
    /// that is not REPLACE decides: IGNORE skips the row (returns false), others throw carrying their algorithm.
    /// When every conflict is REPLACE, <paramref name="replace"/> tells the insert to delete the rows in the way.
    /// </summary>
    public bool ResolveUnique(ReadOnlySpan<StoredValue> row, StoredValue explicitRowId, out bool replace)
    {
        replace = false;
        var found = new List<(int Order, SharcIndex? Index)>();
        if (_table.IsWithoutRowId)
        {
            foreach (var (index, _) in UniqueConflictsByKey(row)) found.Add((OrderOf(index), index));
        }
        else
        {
            foreach (var (index, _) in UniqueConflicts(row, explicitRowId))
            {
                if (index is not null) found.Add((OrderOf(index), index));
                else found.Add((Effective(_table.RowIdConflict) == SqlConflictAction.Replace && HasUniqueIndex() ? int.MaxValue : int.MinValue, null));
            }
        }
        if (found.Count == 0) return true;
        found.Sort((x, y) => x.Order.CompareTo(y.Order));
        foreach (var (_, index) in found)
        {
            var action = Effective(index is null ? _table.RowIdConflict : index.OnConflict);
            if (action == SqlConflictAction.Replace)
            {
                replace = true;
                continue;
            }
            if (action == SqlConflictAction.Ignore)
            {
                // A CHECK comes before uniqueness in SQLite: a row failing one is an error, not ignored.
                CheckBeforeIgnoring(row, explicitRowId);
                return false;
            }
            throw Carrying(UniqueFailure(index), action);
        }
        return true;
    }

    /// <summary>The algorithm for one constraint: the statement's OR clause, else the constraint's own, else ABORT.</summary>
    private static SqlConflictAction For(SqlConflictAction statement, SqlConflictAction own)
        => statement != SqlConflictAction.Default ? statement : Effective(own);

    /// <summary>A statement's own OR clause already travels with its errors; a constraint's algorithm must be carried.</summary>
    private static SharcConstraintException Carrying(SharcConstraintException e, SqlConflictAction statement, SqlConflictAction action)
        => statement == SqlConflictAction.Default ? Carrying(e, action) : e;

    private static SqlConflictAction Effective(SqlConflictAction own) => own == SqlConflictAction.Default ? SqlConflictAction.Abort : own;

    private static SharcConstraintException Carrying(SharcConstraintException e, SqlConflictAction action)
    {
        e.Data[IntentCompiler.ConflictActionKey] = action;
        return e;
    }

    /// <summary>SQLite keeps a table's REPLACE constraint indexes after the others, each group newest first.</summary>
    private int OrderOf(SharcIndex index)
    {
        int position = 0;
        var all = _table.Indexes;
        for (int i = 0; i < all.Count; i++) if (ReferenceEquals(all[i], index)) position = i;
        return (index.OnConflict == SqlConflictAction.Replace ? 1 << 20 : 0) + (all.Count - position);
    }

    private bool HasUniqueIndex()
    {
        foreach (var ix in _indexes) if (ix.Index.IsUnique) return true;
        return false;
    }

    private SharcConstraintException UniqueFailure(SharcIndex? index)
    {
        if (index is null)
        {
            int alias = _table.RowIdAliasOrdinal;
            return new SharcConstraintException($"UNIQUE constraint failed: {_table.Name}.{(alias >= 0 ? _table.Columns[alias].Name : "rowid")}");
        }
        foreach (var plan in _indexes) if (ReferenceEquals(plan.Index, index)) return Unique(plan);
        return new SharcConstraintException($"UNIQUE constraint failed: {string.Join(", ", _table.PrimaryKey.Select(p => _table.Name + "." + _table.Columns[p].Name))}");
    }

    private void CheckBeforeIgnoring(ReadOnlySpan<StoredValue> row, StoredValue explicitRowId)
    {
        if (!HasComputed) return;
        row.CopyTo(_record);
        int alias = _table.RowIdAliasOrdinal;
        long rowId = 0;
        if (!_table.IsWithoutRowId)
        {
            var given = alias >= 0 && _record[alias].Type != SharcColumnType.Null ? _record[alias] : explicitRowId;
            if (given.Type == SharcColumnType.Integer) rowId = given.Integer;
            if (alias >= 0) _record[alias] = StoredValue.Null;
        }
        PrepareComputedRow(rowId);
    }
}
