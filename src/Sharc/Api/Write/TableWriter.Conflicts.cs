using Sharc.Format;
using Sharc.Sql.Ast;

namespace Sharc.Write;

/// <summary>SQLite's conflict resolution (OR IGNORE / REPLACE / ABORT / FAIL / ROLLBACK) for SQL UPDATE.</summary>
internal sealed partial class TableWriter
{
    /// <summary>
    /// UPDATE [OR action] of one row of a rowid table: columns <paramref name="columns"/> take
    /// <paramref name="values"/> (stored values, affinity applied); <paramref name="newRowId"/>, unless null, is a new
    /// rowid assigned through "rowid"/"oid"/"_rowid_". Every constraint is checked before anything is written, so
    /// OR IGNORE can skip the row (returns false) and OR REPLACE can first delete the rows in the way; other actions
    /// throw <see cref="SharcConstraintException"/> and leave the statement to its caller. On success
    /// <paramref name="newRow"/> receives the row as stored (the rowid alias as its value) and the row's rowid is returned
    /// through <paramref name="finalRowId"/>.
    /// </summary>
    public bool UpdateRow(long rowId, ReadOnlySpan<int> columns, ReadOnlySpan<StoredValue> values, long? newRowId,
        SqlConflictAction action, Span<StoredValue> newRow, out long finalRowId)
    {
        finalRowId = rowId;
        if (_table.IsWithoutRowId) throw new InvalidOperationException($"{_table.Name} is a WITHOUT ROWID table: update it by primary key");
        if (!LoadRow(rowId)) return false;
        var row = (StoredValue[])_record.Clone();
        int alias = _table.RowIdAliasOrdinal;
        long target = newRowId ?? rowId;
        for (int i = 0; i < columns.Length; i++)
        {
            row[columns[i]] = values[i];
            if (columns[i] == alias)
                target = values[i].Type == SharcColumnType.Null ? ThrowMismatch() : RowIdFromValue(values[i]);
        }
        if (alias >= 0) row[alias] = StoredValue.Null;

        var tableColumns = _table.Columns;
        for (int i = 0; i < tableColumns.Count; i++)
        {
            var c = tableColumns[i];
            if (!c.IsNotNull || c.IsRowIdAlias || row[i].Type != SharcColumnType.Null) continue;
            if (action == SqlConflictAction.Replace && c.DefaultSql is not null) row[i] = DefaultFor(c);
            else if (action == SqlConflictAction.Ignore) return false;
            else throw new SharcConstraintException($"NOT NULL constraint failed: {_table.Name}.{c.Name}");
        }

        row.CopyTo(_record, 0);
        if (target != rowId && _mutator.TableContains(_table.RootPage, target))
        {
            if (action == SqlConflictAction.Ignore) return false;
            if (action != SqlConflictAction.Replace)
                throw new SharcConstraintException($"UNIQUE constraint failed: {_table.Name}.{(alias >= 0 ? _table.Columns[alias].Name : "rowid")}");
            DeletePreservingRecord(target);
        }
        foreach (var ix in _indexes)
        {
            if (!ix.Index.IsUnique) continue;
            long conflict = FindConflict(ix, target);
            if (conflict == long.MinValue || conflict == rowId) continue;
            if (action == SqlConflictAction.Ignore) return false;
            if (action != SqlConflictAction.Replace) throw Unique(ix);
            DeletePreservingRecord(conflict);
        }

        DeleteRow(rowId);
        InsertAt(target, row);
        _maxRowIdAtWrite = -1;
        row.AsSpan().CopyTo(newRow);
        if (alias >= 0) newRow[alias] = StoredValue.FromInteger(target);
        finalRowId = target;
        return true;
    }

    private static long ThrowMismatch() => throw new SharcConstraintException("datatype mismatch");
}

/// <summary>What UPSERT needs from the writer: which uniqueness constraints a new row would break, and the rows it would meet.</summary>
internal sealed partial class TableWriter
{
    /// <summary>
    /// The uniqueness constraints a row about to be inserted into a rowid table conflicts with, in the order they are
    /// checked: the rowid (index null) first, then each UNIQUE index; each with the rowid of the existing row.
    /// </summary>
    public List<(SharcIndex? Index, long RowId)> UniqueConflicts(ReadOnlySpan<StoredValue> row, StoredValue explicitRowId)
    {
        var found = new List<(SharcIndex?, long)>();
        row.CopyTo(_record);
        int alias = _table.RowIdAliasOrdinal;
        var given = alias >= 0 && _record[alias].Type != SharcColumnType.Null ? _record[alias] : explicitRowId;
        long rowId = 0;
        if (given.Type == SharcColumnType.Integer)
        {
            rowId = given.Integer;
            if (_mutator.TableContains(_table.RootPage, rowId)) found.Add((null, rowId));
        }
        foreach (var ix in _indexes)
        {
            if (!ix.Index.IsUnique) continue;
            long conflict = FindConflict(ix, rowId);
            if (conflict != long.MinValue) found.Add((ix.Index, conflict));
        }
        return found;
    }

    /// <summary>Reads row <paramref name="rowId"/> as stored values in column order (the rowid alias as its value); false when missing.</summary>
    public bool ReadRow(long rowId, Span<StoredValue> into)
    {
        if (!LoadRow(rowId)) return false;
        _record.AsSpan().CopyTo(into);
        if (_table.RowIdAliasOrdinal >= 0) into[_table.RowIdAliasOrdinal] = StoredValue.FromInteger(rowId);
        return true;
    }
}
