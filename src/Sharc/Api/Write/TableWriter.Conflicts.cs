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
        CaptureOldEntries(rowId);
        // FOREIGN KEYs see one update (ON UPDATE actions, a parent key moving), not the delete and insert it is made of.
        var oldImage = ForeignKeysActive ? RowImage(rowId) : null;
        // The writer's scratch row unless an update of this writer is already running (a foreign key action reached back).
        var row = _updating++ == 0 ? _updateRow ??= new StoredValue[_fieldCount] : new StoredValue[_fieldCount];
        try
        {
            return UpdateRowCore(rowId, columns, values, newRowId, action, newRow, out finalRowId, oldImage, row);
        }
        finally
        {
            _updating--;
        }
    }

    private StoredValue[]? _updateRow;
    private int _updating;

    private bool UpdateRowCore(long rowId, ReadOnlySpan<int> columns, ReadOnlySpan<StoredValue> values, long? newRowId,
        SqlConflictAction action, Span<StoredValue> newRow, out long finalRowId, StoredValue[]? oldImage, StoredValue[] row)
    {
        finalRowId = rowId;
        _record.CopyTo(row, 0);
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
            var a = For(action, c.NotNullConflict);
            if (a == SqlConflictAction.Replace && c.DefaultSql is not null) row[i] = DefaultFor(c);
            else if (a == SqlConflictAction.Ignore) return false;
            else throw Carrying(new SharcConstraintException($"NOT NULL constraint failed: {_table.Name}.{c.Name}"), action, a);
        }

        row.CopyTo(_record, 0);
        if (HasComputed) ComputeGenerated(target);
        CheckStrictTypes();
        bool rowIdTaken = target != rowId && _mutator.TableContains(_table.RootPage, target);
        bool replaced = false;
        var rowIdAction = For(action, _table.RowIdConflict);
        // SQLite judges a rowid whose own algorithm is REPLACE after the UNIQUE constraints.
        bool deferRowId = action == SqlConflictAction.Default && rowIdAction == SqlConflictAction.Replace && HasUniqueIndex();
        if (rowIdTaken && !deferRowId)
        {
            if (rowIdAction == SqlConflictAction.Ignore) return false;
            if (rowIdAction != SqlConflictAction.Replace) throw Carrying(UniqueFailure(null), action, rowIdAction);
            DeletePreservingRecord(target);
            replaced = true;
        }
        // Without an OR clause, the constraints whose algorithm is REPLACE come after the others (pass 1).
        for (int pass = action == SqlConflictAction.Default ? 0 : 1; pass < 2; pass++)
        {
            for (int i = _indexes.Count - 1; i >= 0; i--)
            {
                var ix = _indexes[i];
                if (action == SqlConflictAction.Default && (ix.Index.OnConflict == SqlConflictAction.Replace) != (pass == 1)) continue;
                // A partial index only holds, and so only conflicts for, the rows its WHERE admits.
                if (!ix.Index.IsUnique || !Admits(ix, target)) continue;
                // An entry the update leaves as it is can only meet the row itself.
                if (target == rowId && EntryUnchanged(ix, rowId)) continue;
                long conflict = FindConflict(ix, target);
                if (conflict == long.MinValue || conflict == rowId) continue;
                var a = For(action, ix.Index.OnConflict);
                if (a == SqlConflictAction.Ignore) return false;
                if (a != SqlConflictAction.Replace) throw Carrying(Unique(ix), action, a);
                DeletePreservingRecord(conflict);
                replaced = true;
            }
        }
        if (rowIdTaken && deferRowId && _mutator.TableContains(_table.RootPage, target))
        {
            DeletePreservingRecord(target);
            replaced = true;
        }
        // The rows REPLACE deleted may have had children in this table, this row among them: their foreign key
        // actions (SET NULL, SET DEFAULT, CASCADE) changed or deleted rows here, and the entries captured above may
        // no longer be this row's. A row deleted that way is not written (SQLite counts no change); a row changed is
        // written with the values computed before, over the entries it has now (SQLite writes the same row but removes
        // the entries of the old values, leaving its indexes corrupt).
        if (replaced)
        {
            if (!LoadRow(rowId)) return false;
            CaptureOldEntries(rowId);
        }

        if (target == rowId) ReplaceInPlace(rowId, row);
        else
        {
            DeleteRowCore(rowId);
            InsertAt(target, row);
        }
        _maxRowIdAtWrite = -1;
        row.AsSpan().CopyTo(newRow);
        if (alias >= 0) newRow[alias] = StoredValue.FromInteger(target);
        finalRowId = target;
        if (oldImage is not null)
        {
            // A new rowid changes the INTEGER PRIMARY KEY even when it was set through rowid/oid/_rowid_.
            if (target != rowId && alias >= 0 && columns.IndexOf(alias) < 0) AfterUpdate(oldImage, rowId, target, [.. columns, alias]);
            else AfterUpdate(oldImage, rowId, target, columns);
        }
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
        if (HasComputed) ComputeGenerated(rowId);
        foreach (var ix in _indexes)
        {
            if (!ix.Index.IsUnique || !Admits(ix, rowId)) continue;
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

/// <summary>UPSERT and UPDATE [OR action] on WITHOUT ROWID tables, where a row is known by its primary key rather than a rowid.</summary>
internal sealed partial class TableWriter
{
    /// <summary>
    /// The uniqueness constraints a row about to be inserted into a WITHOUT ROWID table conflicts with, in the order
    /// the insert checks them (the primary key first, then each UNIQUE index the row belongs in); each with the
    /// existing row it meets, in column order with generated columns computed.
    /// </summary>
    public List<(SharcIndex Index, StoredValue[] Row)> UniqueConflictsByKey(ReadOnlySpan<StoredValue> row)
    {
        var found = new List<(SharcIndex, StoredValue[])>();
        var proposed = row.ToArray();
        proposed.CopyTo(_record, 0);
        var existing = _mutator.IndexFindPrefix(_table.RootPage, KeyRecord(_table.PrimaryKey), _table.PrimaryKey.Count, _pkCollations, _pkDescending, Encoding);
        if (existing is not null && PrimaryKeyIndexOfTable() is { } pk) found.Add((pk, StoredRow(existing)));
        foreach (var ix in _indexes)
        {
            proposed.CopyTo(_record, 0);
            if (!ix.Index.IsUnique || !Admits(ix, 0)) continue;
            var entry = FindIndexEntry(ix, out _);
            if (entry is null) continue;
            // The entry carries the primary key of the row it belongs to: that finds the row itself.
            DecodeIndexEntry(ix, entry);
            var record = _mutator.IndexFindPrefix(_table.RootPage, KeyRecord(_table.PrimaryKey), _table.PrimaryKey.Count, _pkCollations, _pkDescending, Encoding);
            if (record is not null) found.Add((ix.Index, StoredRow(record)));
        }
        proposed.CopyTo(_record, 0);
        return found;
    }

    private SharcIndex? PrimaryKeyIndexOfTable()
    {
        foreach (var ix in _table.Indexes) if (ix.IsPrimaryKey) return ix;
        return null;
    }

    private StoredValue[] StoredRow(byte[] tableRecord)
    {
        DecodeStorageRecord(tableRecord);
        ComputeGenerated(0);
        return (StoredValue[])_record.Clone();
    }

    /// <summary>
    /// UPDATE [OR action] of the WITHOUT ROWID row whose primary key is <paramref name="key"/>: columns
    /// <paramref name="columns"/> take <paramref name="values"/> (stored values, affinity applied). As for rowid tables
    /// every constraint is judged before anything is written, so OR IGNORE skips the row (false) and OR REPLACE first
    /// deletes the rows in the way — including one already holding a new primary key; other actions throw
    /// <see cref="SharcConstraintException"/>. A conflict with the row's own entries is none. On success
    /// <paramref name="newRow"/> receives the row as stored (generated columns computed). False also when no row has the key.
    /// </summary>
    public bool UpdateByKey(ReadOnlySpan<StoredValue> key, ReadOnlySpan<int> columns, ReadOnlySpan<StoredValue> values,
        SqlConflictAction action, Span<StoredValue> newRow)
    {
        if (!_table.IsWithoutRowId) throw new InvalidOperationException($"{_table.Name} has rowids: update it by rowid");
        var existing = _mutator.IndexFindPrefix(_table.RootPage, RecordWriter.ToArray(key), key.Length, _pkCollations, _pkDescending, Encoding);
        if (existing is null) return false;
        var old = StoredRow(existing);
        // The row's own entry in each UNIQUE index: meeting it again is not a conflict.
        var own = new byte[]?[_indexes.Count];
        for (int i = 0; i < own.Length; i++)
        {
            var ix = _indexes[i];
            if (ix.Index.IsUnique && Admits(ix, 0)) own[i] = IndexRecord(ix, 0, ix.Fields.Length).ToArray();
        }
        var oldImage = ForeignKeysActive ? RowImage(0) : null;

        var row = (StoredValue[])old.Clone();
        for (int i = 0; i < columns.Length; i++) row[columns[i]] = values[i];
        var tableColumns = _table.Columns;
        for (int i = 0; i < tableColumns.Count; i++)
        {
            var c = tableColumns[i];
            if (!c.IsNotNull || row[i].Type != SharcColumnType.Null) continue;
            var a = For(action, c.NotNullConflict);
            if (a == SqlConflictAction.Replace && c.DefaultSql is not null) row[i] = DefaultFor(c);
            else if (a == SqlConflictAction.Ignore) return false;
            else throw Carrying(new SharcConstraintException($"NOT NULL constraint failed: {_table.Name}.{c.Name}"), action, a);
        }
        row.CopyTo(_record, 0);
        if (HasComputed)
        {
            // Generated columns and CHECK: OR IGNORE skips a row that fails a CHECK; OR REPLACE cannot repair one.
            try { PrepareComputedRow(0); }
            catch (SharcConstraintException e) when (action == SqlConflictAction.Ignore && !IsDatatypeError(e)) { return false; }
            _record.CopyTo(row, 0);
        }
        else CheckStrictTypes();

        var atKey = _mutator.IndexFindPrefix(_table.RootPage, KeyRecord(_table.PrimaryKey), _table.PrimaryKey.Count, _pkCollations, _pkDescending, Encoding);
        bool keyTaken = atKey is not null && !atKey.AsSpan().SequenceEqual(existing);
        if (keyTaken)
        {
            var a = For(action, PrimaryKeyIndexOfTable()?.OnConflict ?? SqlConflictAction.Default);
            if (a == SqlConflictAction.Ignore) return false;
            if (a != SqlConflictAction.Replace) throw Carrying(UniqueFailure(PrimaryKeyIndexOfTable()), action, a);
        }
        bool[]? taken = null;
        // Without an OR clause, the constraints whose algorithm is REPLACE come after the others (pass 1).
        for (int pass = action == SqlConflictAction.Default ? 0 : 1; pass < 2; pass++)
        {
            for (int i = _indexes.Count - 1; i >= 0; i--)
            {
                var ix = _indexes[i];
                if (action == SqlConflictAction.Default && (ix.Index.OnConflict == SqlConflictAction.Replace) != (pass == 1)) continue;
                if (!ix.Index.IsUnique) continue;
                row.CopyTo(_record, 0);
                if (!Admits(ix, 0)) continue;
                var entry = FindIndexEntry(ix, out _);
                if (entry is null || (own[i] is { } mine && entry.AsSpan().SequenceEqual(mine))) continue;
                var a = For(action, ix.Index.OnConflict);
                if (a == SqlConflictAction.Ignore) return false;
                if (a != SqlConflictAction.Replace) throw Carrying(Unique(ix), action, a);
                (taken ??= new bool[_indexes.Count])[i] = true;
            }
        }

        // The rows in the way go first, as in SQLite: their foreign key actions may change or delete this row.
        bool replaced = false;
        if (keyTaken)
        {
            row.CopyTo(_record, 0);
            var other = _mutator.IndexFindPrefix(_table.RootPage, KeyRecord(_table.PrimaryKey), _table.PrimaryKey.Count, _pkCollations, _pkDescending, Encoding);
            if (other is not null)
            {
                DeleteWithoutRowId(other);
                if (ForeignKeysActive) _db.ForeignKeyState.AfterDelete(_table, RowImage(0), 0);
                replaced = true;
            }
        }
        if (taken is not null)
        {
            for (int i = 0; i < _indexes.Count; i++)
            {
                if (!taken[i]) continue;
                row.CopyTo(_record, 0);
                // An earlier deletion may already have removed the row this index met.
                if (FindIndexEntry(_indexes[i], out _) is { } entry)
                {
                    DeleteWithoutRowIdByIndexEntry(_indexes[i], entry);
                    replaced = true;
                }
            }
        }
        if (replaced)
        {
            // Deleted by a CASCADE: not written (SQLite counts no change). Changed by SET NULL / SET DEFAULT: the row
            // as it is now makes way for the values computed before.
            existing = _mutator.IndexFindPrefix(_table.RootPage, RecordWriter.ToArray(key), key.Length, _pkCollations, _pkDescending, Encoding);
            if (existing is null) return false;
        }
        DeleteWithoutRowId(existing);
        InsertQuietly(row);
        _record.AsSpan().CopyTo(newRow);
        if (oldImage is not null) AfterUpdate(oldImage, 0, 0, columns);
        return true;
    }
}
