using Sharc.BTree;
using Sharc.BTree.Mutation;
using Sharc.Format;
using Sharc.Schema.Parsing;

namespace Sharc.Write;

/// <summary>How one index of a table is maintained: its root, the table columns of its key, and their ordering.</summary>
internal sealed class IndexPlan
{
    public required SharcIndex Index { get; init; }
    /// <summary>Table column ordinal of each record field (-1: the rowid).</summary>
    public required int[] Fields { get; init; }
    /// <summary>How many leading fields are the declared key (uniqueness is judged on these).</summary>
    public required int KeyCount { get; init; }
    public required Collation[] Collations { get; init; }
    public required bool[] Descending { get; init; }
    public StoredValue[] Scratch { get; init; } = [];
    /// <summary>Per record field: the writer's expression computing it (an expression key), or -1 (a column or the rowid).</summary>
    public int[]? Expressions { get; set; }
    /// <summary>The writer's expression for a partial index's WHERE, or -1.</summary>
    public int Where { get; set; } = -1;
    /// <summary>The entry of the row an update is rewriting, as it was before (see TableWriter.InPlace).</summary>
    public byte[] OldEntry = new byte[64];
    public int OldLength;
    public bool OldAdmitted;
}

/// <summary>
/// Writes rows of one table: builds records with SQLite's affinity conversions, enforces NOT NULL and UNIQUE /
/// PRIMARY KEY constraints, picks rowids as SQLite does, maintains every index and sqlite_sequence.
/// </summary>
internal sealed partial class TableWriter
{
    private readonly SharcDatabase _db;
    private readonly BTreeMutator _mutator;
    private readonly SharcTable _table;
    private readonly int[] _fieldOf;
    private readonly int _fieldCount;
    private readonly List<IndexPlan> _indexes = new();
    private readonly StoredValue[] _record;
    private readonly StoredValue[] _fields;
    private readonly StoredValue[] _saved;
    private readonly Collation[] _pkCollations;
    private readonly bool[] _pkDescending;
    private byte[] _recordBytes = new byte[256];
    private long _maxRowId;
    private long _maxUsedForNewRowId;
    private bool _deletedDuringInsert;
    private long _maxRowIdAtWrite = -1;
    private Storage.Pager _pager => _db.WritablePager;
    private byte[] _keyBytes = new byte[128];
    // One header decoder for every record and entry this writer reads (none of them nests): one per call was a
    // third of what a prepared UPDATE allocated.
    private readonly RecordLayout _decodeLayout = new(8);
    private BTreeCursor? _rowCursor;
    private Storage.IPageSource? _rowCursorSource;

    public TableWriter(SharcDatabase db, BTreeMutator mutator, SharcTable table)
    {
        _db = db;
        _mutator = mutator;
        _table = table;
        if (table.IsVirtual) throw new SharcException($"{table.Name} is a virtual table: writing it needs its module");
        _fieldOf = ReaderPlan.TableFieldMap(table);
        _fieldCount = table.Columns.Count;
        _record = new StoredValue[_fieldCount];
        _fields = new StoredValue[_fieldCount + table.PrimaryKey.Count];
        _saved = new StoredValue[_fieldCount];
        _pkCollations = new Collation[table.PrimaryKey.Count];
        _pkDescending = new bool[table.PrimaryKey.Count];
        for (int i = 0; i < _pkCollations.Length; i++)
        {
            CollationCompare.TryParse(i < table.PrimaryKeyCollations.Count ? table.PrimaryKeyCollations[i] : null, out _pkCollations[i]);
            _pkDescending[i] = i < table.PrimaryKeyDescending.Count && table.PrimaryKeyDescending[i];
        }
        foreach (var index in table.Indexes)
        {
            if (index.IsPrimaryKey) continue; // a WITHOUT ROWID table's own b-tree
            _indexes.Add(PlanIndex(table, index));
        }
        PlanComputed();
        _ownTriggers = db.Schema.Triggers.Any(t => SqlNameComparer.Instance.Equals(t.TableName, table.Name));
    }

    public SharcTable Table => _table;

    /// <summary>
    /// True when a trigger is attached to the table: the C# API then writes through the trigger runner. Writers are
    /// dropped whenever the schema changes, so this stays true to the schema.
    /// </summary>
    public bool HasTriggers => _ownTriggers || Sql.Writes.TempTriggers.AnyOn(_db, _table.Name);

    // A TEMP trigger on this table lives in the temp database's schema, which changes without this one changing.
    private readonly bool _ownTriggers;

    /// <summary>The rowid of the row whose primary key is <paramref name="key"/> in a rowid table, or null when there is none.</summary>
    public long? RowIdForKey(ReadOnlySpan<StoredValue> key)
    {
        if (_table.IsWithoutRowId)
            throw new SharcException($"firing the triggers of WITHOUT ROWID table {_table.Name} through the C# API is not supported: write it through SQL");
        if (_table.RowIdAliasOrdinal >= 0 && key.Length == 1)
        {
            long rowId = RowIdFromValue(key[0]);
            return _mutator.TableContains(_table.RootPage, rowId) ? rowId : null;
        }
        var pk = PrimaryKeyIndex(key.Length) ?? throw new SharcException($"{_table.Name} has no primary key index to find a row by");
        var entry = _mutator.IndexFindPrefix(pk.Index.RootPage, RecordWriter.ToArray(key), key.Length, pk.Collations, pk.Descending, Encoding);
        return entry is null ? null : LastInteger(entry);
    }
    private SharcTextEncoding Encoding => _db.TextEncoding;

    private static IndexPlan PlanIndex(SharcTable table, SharcIndex index)
    {
        var fields = new List<int>();
        var colls = new List<Collation>();
        var desc = new List<bool>();
        foreach (var k in index.Columns)
        {
            fields.Add(k.TableOrdinal >= 0 ? k.TableOrdinal : -1);
            if (!CollationCompare.TryParse(k.Collation, out var c))
                throw new SharcException($"no such collation sequence: {k.Collation} (index {index.Name})");
            colls.Add(c);
            desc.Add(k.IsDescending);
        }
        int keyCount = fields.Count;
        foreach (int pkPos in ReaderPlan.IndexSuffixKeyPositions(table, index))
        {
            fields.Add(pkPos >= 0 ? table.PrimaryKey[pkPos] : -1);
            CollationCompare.TryParse(pkPos >= 0 && pkPos < table.PrimaryKeyCollations.Count ? table.PrimaryKeyCollations[pkPos] : null, out var c);
            colls.Add(c);
            desc.Add(pkPos >= 0 && pkPos < table.PrimaryKeyDescending.Count && table.PrimaryKeyDescending[pkPos]);
        }
        return new IndexPlan
        {
            Index = index,
            Fields = [.. fields],
            KeyCount = keyCount,
            Collations = [.. colls],
            Descending = [.. desc],
            Scratch = new StoredValue[fields.Count],
        };
    }


    /// <summary>
    /// Inserts a row given as one stored value per table column (already affinity-converted). A NULL in the
    /// INTEGER PRIMARY KEY column (or none) asks for a new rowid. With <paramref name="replace"/>, rows that conflict
    /// on a UNIQUE or PRIMARY KEY constraint are deleted first (INSERT OR REPLACE); otherwise a conflict throws.
    /// Returns the rowid (0 for WITHOUT ROWID tables).
    /// </summary>
    public long Insert(ReadOnlySpan<StoredValue> row, bool replace) => Insert(row, replace, StoredValue.Null);

    /// <summary>As <see cref="Insert(ReadOnlySpan{StoredValue}, bool)"/>, with a rowid given through "rowid"/"oid"/"_rowid_".</summary>
    public long Insert(ReadOnlySpan<StoredValue> row, bool replace, StoredValue explicitRowId)
    {
        row.CopyTo(_record);
        if (!HasComputed)
        {
            CheckNotNull();
            CheckStrictTypes();
        }
        if (_table.IsWithoutRowId)
        {
            if (HasComputed) PrepareComputedRow(0);
            InsertWithoutRowId(replace);
            if (ForeignKeysActive) _db.ForeignKeyState.AfterInsert(_table, RowImage(0), 0, singleRow: !replace);
            return 0;
        }

        bool cacheValid = _pager.WriteCount == _maxRowIdAtWrite;
        _deletedDuringInsert = false;
        long rowId;
        int alias = _table.RowIdAliasOrdinal;
        var given = alias >= 0 && _record[alias].Type != SharcColumnType.Null ? _record[alias] : explicitRowId;
        bool rowIdTaken = false;
        if (given.Type != SharcColumnType.Null)
        {
            rowId = RowIdFromValue(given);
            rowIdTaken = _mutator.TableContains(_table.RootPage, rowId);
        }
        else
        {
            rowId = NewRowId();
        }
        if (alias >= 0) _record[alias] = StoredValue.Null; // the rowid alias is stored as NULL; it reads as the rowid
        // SQLite's order: generated columns, NOT NULL and CHECK come before the rowid and UNIQUE conflicts.
        if (HasComputed) PrepareComputedRow(rowId);
        if (rowIdTaken)
        {
            if (!replace) throw new SharcConstraintException($"UNIQUE constraint failed: {_table.Name}.{(alias >= 0 ? _table.Columns[alias].Name : "rowid")}");
            DeletePreservingRecord(rowId);
        }

        // SQLite checks the most recently created index first: that is the constraint a row breaking several names.
        for (int i = _indexes.Count - 1; i >= 0; i--)
        {
            var ix = _indexes[i];
            if (!ix.Index.IsUnique || !Admits(ix, rowId)) continue;
            long conflict = FindConflict(ix, rowId);
            if (conflict == long.MinValue) continue;
            if (!replace) throw Unique(ix);
            DeletePreservingRecord(conflict);
        }

        _mutator.TableInsert(_table.RootPage, rowId, BuildRecord());
        foreach (var ix in _indexes) InsertIndexEntry(ix, rowId);
        if (_table.IsAutoIncrement) _db.BumpSequence(_table.Name, rowId);

        // Remember the table's largest rowid for the next insert, as long as nothing else writes in between.
        long knownMax = given.Type == SharcColumnType.Null ? _maxUsedForNewRowId : cacheValid ? _maxRowId : long.MinValue;
        if (_deletedDuringInsert || knownMax == long.MinValue)
        {
            _maxRowIdAtWrite = -1;
        }
        else
        {
            _maxRowId = Math.Max(knownMax, rowId);
            _maxRowIdAtWrite = _pager.WriteCount;
        }
        if (ForeignKeysActive) _db.ForeignKeyState.AfterInsert(_table, RowImage(rowId), rowId, singleRow: !replace);
        return rowId;
    }

    private void CheckNotNull()
    {
        // An index loop, not foreach: the column list is an interface, whose enumerator would be boxed per row.
        var columns = _table.Columns;
        for (int i = 0; i < columns.Count; i++)
        {
            var c = columns[i];
            if (c.IsNotNull && !c.IsRowIdAlias && _record[c.Ordinal].Type == SharcColumnType.Null)
                throw new SharcConstraintException($"NOT NULL constraint failed: {_table.Name}.{c.Name}");
        }
    }

    /// <summary>
    /// STRICT column types, judged on the values as affinity left them (so '1.5' in a REAL column and 2.0 in an
    /// INTEGER one pass), as SQLite's OP_TypeCheck judges them; generated columns, VIRTUAL ones too, as computed.
    /// NULL passes (NOT NULL is its own constraint); a REAL column takes integers, which it stores as integers and
    /// reads as reals. The rowid alias is the rowid, whose own check is "datatype mismatch".
    /// </summary>
    private void CheckStrictTypes()
    {
        if (!_table.IsStrict) return;
        CheckStrictTypes(SharcGeneratedKind.None);
        if (_generatedCount == 0) return;
        // SQLite judges the generated columns after the others, the VIRTUAL ones first.
        CheckStrictTypes(SharcGeneratedKind.Virtual);
        CheckStrictTypes(SharcGeneratedKind.Stored);
    }

    private void CheckStrictTypes(SharcGeneratedKind kind)
    {
        var columns = _table.Columns;
        for (int i = 0; i < columns.Count; i++)
        {
            var c = columns[i];
            var type = _record[i].Type;
            if (c.Generated != kind || type == SharcColumnType.Null || (c.IsRowIdAlias && !_table.IsWithoutRowId)) continue;
            if (StrictTypeAdmits(c.StrictType, type)) continue;
            var e = new SharcConstraintException($"cannot store {StrictTypeName(type)} value in {c.StrictType} column {_table.Name}.{c.Name}");
            e.Data[DatatypeErrorKey] = true;
            throw Carrying(e, Sql.Ast.SqlConflictAction.Abort);
        }
    }

    private const string DatatypeErrorKey = "Sharc.DatatypeError";

    /// <summary>
    /// A value of the wrong type (a STRICT column's, the rowid's) is an error of the statement in SQLite, not a
    /// constraint conflict: OR IGNORE does not skip the row, and the statement aborts whatever its OR clause says.
    /// </summary>
    internal static bool IsDatatypeError(SharcConstraintException e)
        => e.Data.Contains(DatatypeErrorKey) || e.Message.StartsWith("datatype mismatch", StringComparison.Ordinal);

    internal static bool StrictTypeAdmits(string? strictType, SharcColumnType type) => strictType switch
    {
        "INT" or "INTEGER" => type == SharcColumnType.Integer,
        "REAL" => type is SharcColumnType.Real or SharcColumnType.Integer,
        "TEXT" => type == SharcColumnType.Text,
        "BLOB" => type == SharcColumnType.Blob,
        _ => true,
    };

    internal static string StrictTypeName(SharcColumnType type) => type switch
    {
        SharcColumnType.Integer => "INT",
        SharcColumnType.Real => "REAL",
        SharcColumnType.Text => "TEXT",
        SharcColumnType.Blob => "BLOB",
        _ => "NULL",
    };

    private static long RowIdFromValue(in StoredValue v)
    {
        if (v.Type == SharcColumnType.Integer) return v.Integer;
        if (v.Type == SharcColumnType.Real)
        {
            long ix = ValueConvert.RealToInt64(v.Real);
            if (ix == v.Real) return ix;
        }
        throw new SharcConstraintException("datatype mismatch: the INTEGER PRIMARY KEY must be an integer");
    }

    /// <summary>SQLite's rule: one more than the largest rowid; at the maximum, a random unused one.</summary>
    private long NewRowId()
    {
        // Consecutive inserts into one table reuse the largest rowid they made, as long as nothing else wrote since.
        long max = _pager.WriteCount == _maxRowIdAtWrite ? _maxRowId : _mutator.MaxRowId(_table.RootPage);
        _maxUsedForNewRowId = max;
        if (_table.IsAutoIncrement)
        {
            long seq = _db.ReadSequence(_table.Name);
            if (seq > max) max = seq;
            if (max == long.MaxValue) throw new SharcException("database or disk is full: AUTOINCREMENT rowid space is exhausted");
            _maxUsedForNewRowId = Math.Max(_maxUsedForNewRowId, max);
            return max + 1;
        }
        if (max < long.MaxValue) return max + 1;
        var rng = Random.Shared;
        for (int i = 0; i < 100; i++)
        {
            long candidate = rng.NextInt64(1, long.MaxValue);
            if (!_mutator.TableContains(_table.RootPage, candidate)) return candidate;
        }
        throw new SharcException("database or disk is full: no unused rowid found");
    }

    private long InsertWithoutRowId(bool replace)
    {
        // Primary key uniqueness first (the table b-tree is keyed by it).
        var pkRecord = KeyRecord(_table.PrimaryKey);
        var existing = _mutator.IndexFindPrefix(_table.RootPage, pkRecord, _table.PrimaryKey.Count, _pkCollations, _pkDescending, Encoding);
        if (existing is not null)
        {
            if (!replace) throw new SharcConstraintException($"UNIQUE constraint failed: {string.Join(", ", _table.PrimaryKey.Select(p => _table.Name + "." + _table.Columns[p].Name))}");
            ThrowIfReplaceFiresDeleteTriggers();
            var saved = EnterPreserve();
            try
            {
                _record.CopyTo(saved, 0);
                DeleteWithoutRowId(existing);
                if (ForeignKeysActive) _db.ForeignKeyState.AfterDelete(_table, RowImage(0), 0);
                saved.CopyTo(_record, 0);
            }
            finally
            {
                _preserveDepth--;
            }
        }
        for (int i = _indexes.Count - 1; i >= 0; i--)
        {
            var ix = _indexes[i];
            if (!ix.Index.IsUnique || !Admits(ix, 0)) continue;
            var found = FindIndexEntry(ix, out _);
            if (found is null) continue;
            if (!replace) throw Unique(ix);
            ThrowIfReplaceFiresDeleteTriggers();
            DeleteWithoutRowIdByIndexEntry(ix, found);
        }
        var record = BuildRecord();
        _mutator.IndexInsert(_table.RootPage, record, _pkCollations, _pkDescending, Encoding);
        foreach (var ix in _indexes) InsertIndexEntry(ix, 0);
        return 0;
    }

    private SharcConstraintException Unique(IndexPlan ix)
    {
        if (ix.Expressions is not null) return new SharcConstraintException($"UNIQUE constraint failed: index '{ix.Index.Name}'");
        var names = new List<string>();
        for (int i = 0; i < ix.KeyCount; i++)
            names.Add(_table.Name + "." + (ix.Fields[i] >= 0 ? _table.Columns[ix.Fields[i]].Name : "rowid"));
        return new SharcConstraintException($"UNIQUE constraint failed: {string.Join(", ", names)}");
    }

    /// <summary>The rowid of a row conflicting with the current record in a UNIQUE index, or long.MinValue.</summary>
    private long FindConflict(IndexPlan ix, long rowId)
    {
        var found = FindIndexEntry(ix, out _, rowId);
        if (found is null) return long.MinValue;
        return LastInteger(found);
    }

    /// <summary>An existing index entry with the same declared key as the current record (NULLs never conflict).</summary>
    private byte[]? FindIndexEntry(IndexPlan ix, out int keyFields, long rowId = 0)
    {
        keyFields = ix.KeyCount;
        FillKey(ix, rowId, ix.KeyCount);
        for (int i = 0; i < ix.KeyCount; i++)
            if (ix.Scratch[i].Type == SharcColumnType.Null) return null;
        var key = EncodeKey(ix, ix.KeyCount);
        return _mutator.IndexFindPrefix(ix.Index.RootPage, key, ix.KeyCount, ix.Collations, ix.Descending, Encoding);
    }

    private StoredValue ValueFor(int ordinal, long rowId)
        => ordinal < 0 || (ordinal == _table.RowIdAliasOrdinal && !_table.IsWithoutRowId) ? StoredValue.FromInteger(rowId) : _record[ordinal];

    private void InsertIndexEntry(IndexPlan ix, long rowId)
    {
        if (!Admits(ix, rowId)) return;
        var rec = IndexRecord(ix, rowId, ix.Fields.Length);
        if (!_mutator.IndexInsert(ix.Index.RootPage, rec, ix.Collations, ix.Descending, Encoding))
            throw Unique(ix);
    }

    private ReadOnlySpan<byte> IndexRecord(IndexPlan ix, long rowId, int fields)
    {
        FillKey(ix, rowId, fields);
        return EncodeKey(ix, fields);
    }

    private ReadOnlySpan<byte> EncodeKey(IndexPlan ix, int fields)
    {
        var values = ix.Scratch.AsSpan(0, fields);
        int size = RecordWriter.Size(values);
        if (_keyBytes.Length < size) _keyBytes = new byte[Math.Max(size, _keyBytes.Length * 2)];
        int n = RecordWriter.Write(_keyBytes, values);
        return _keyBytes.AsSpan(0, n);
    }

    private byte[] KeyRecord(IReadOnlyList<int> ordinals)
    {
        var values = new StoredValue[ordinals.Count];
        for (int i = 0; i < values.Length; i++) values[i] = _record[ordinals[i]];
        return RecordWriter.ToArray(values);
    }

    /// <summary>The record of the current row in storage order (WITHOUT ROWID: primary key first).</summary>
    private ReadOnlySpan<byte> BuildRecord()
    {
        int count = 0;
        for (int c = 0; c < _fieldCount; c++)
        {
            int f = _fieldOf[c];
            if (f < 0) continue;
            _fields[f] = _record[c];
            count = Math.Max(count, f + 1);
        }
        if (_table.IsWithoutRowId)
        {
            // A column the key names twice with two collations fills a field for each.
            var key = _table.PrimaryKey;
            for (int i = 0; i < key.Count; i++) _fields[i] = _record[key[i]];
            count = Math.Max(count, key.Count);
        }
        int n = RecordWriter.Encode(ref _recordBytes, _fields.AsSpan(0, count));
        return _recordBytes.AsSpan(0, n);
    }

    // ---------------------------------------------------------------- delete and update

    /// <summary>Deletes a conflicting row while an insert is under way (the record being inserted is kept).</summary>
    private void DeletePreservingRecord(long rowId)
    {
        ThrowIfReplaceFiresDeleteTriggers();
        _deletedDuringInsert = true;
        var saved = EnterPreserve();
        try
        {
            _record.CopyTo(saved, 0);
            DeleteRow(rowId);
            saved.CopyTo(_record, 0);
        }
        finally
        {
            _preserveDepth--;
        }
    }

    /// <summary>
    /// The buffer that keeps the record being written while a conflicting row is deleted. The deletion's foreign key
    /// actions can write this table again through this writer and delete conflicting rows of their own: only the
    /// outermost level uses the writer's buffer.
    /// </summary>
    private StoredValue[] EnterPreserve() => _preserveDepth++ == 0 ? _saved : new StoredValue[_fieldCount];

    private int _preserveDepth;

    /// <summary>
    /// With recursive_triggers on, SQLite fires DELETE triggers for the rows REPLACE deletes; Sharc does not fire
    /// triggers from inside a row write, so it refuses rather than silently skipping them.
    /// </summary>
    private void ThrowIfReplaceFiresDeleteTriggers()
    {
        if (_db.Settings.RecursiveTriggers && _db.TriggerRunner.For(_table, Sql.Ast.SqlTriggerEvent.Delete) is not null)
            throw new NotSupportedException(
                $"REPLACE deleting a row of {_table.Name}, which has DELETE triggers, while PRAGMA recursive_triggers is on is not supported");
    }

    /// <summary>Deletes the row with <paramref name="rowId"/> and its index entries; false when there is none.</summary>
    public bool DeleteRow(long rowId)
    {
        if (!ForeignKeysActive) return DeleteRowCore(rowId);
        if (!LoadRow(rowId)) return false;
        var old = RowImage(rowId);
        DeleteRowCore(rowId);
        _db.ForeignKeyState.AfterDelete(_table, old, rowId);
        return true;
    }

    private bool DeleteRowCore(long rowId)
    {
        if (!LoadRow(rowId)) return false;
        foreach (var ix in _indexes)
        {
            if (!Admits(ix, rowId)) continue;
            _mutator.IndexDelete(ix.Index.RootPage, IndexRecord(ix, rowId, ix.Fields.Length), ix.Collations, ix.Descending, Encoding);
        }
        _mutator.TableDelete(_table.RootPage, rowId);
        return true;
    }

    /// <summary>Deletes the WITHOUT ROWID row whose primary key is <paramref name="key"/>; false when there is none.</summary>
    public bool DeleteByKey(ReadOnlySpan<StoredValue> key)
    {
        if (!_table.IsWithoutRowId)
        {
            if (_table.RowIdAliasOrdinal >= 0 && key.Length == 1) return DeleteRow(RowIdFromValue(key[0]));
            // A rowid table with a declared PRIMARY KEY: find the row through its autoindex.
            var pk = PrimaryKeyIndex(key.Length) ?? throw new SharcException($"{_table.Name} has no primary key index to delete by");
            var rec = RecordWriter.ToArray(key);
            var entry = _mutator.IndexFindPrefix(pk.Index.RootPage, rec, key.Length, pk.Collations, pk.Descending, Encoding);
            return entry is not null && DeleteRow(LastInteger(entry));
        }
        var keyRecord = RecordWriter.ToArray(key);
        var existing = _mutator.IndexFindPrefix(_table.RootPage, keyRecord, key.Length, _pkCollations, _pkDescending, Encoding);
        if (existing is null) return false;
        DeleteWithoutRowId(existing);
        if (ForeignKeysActive) _db.ForeignKeyState.AfterDelete(_table, RowImage(0), 0);
        return true;
    }

    private IndexPlan? PrimaryKeyIndex(int keyLength)
    {
        foreach (var ix in _indexes)
        {
            if (!ix.Index.IsAutoIndex || ix.KeyCount != keyLength || _table.PrimaryKey.Count != keyLength) continue;
            bool match = true;
            for (int k = 0; k < keyLength; k++) match &= ix.Fields[k] == _table.PrimaryKey[k];
            if (match) return ix;
        }
        return null;
    }

    private void DeleteWithoutRowId(byte[] tableRecord)
    {
        DecodeStorageRecord(tableRecord);
        ComputeGenerated(0);
        foreach (var ix in _indexes)
        {
            if (!Admits(ix, 0)) continue;
            var rec = IndexRecord(ix, 0, ix.Fields.Length).ToArray();
            _mutator.IndexDelete(ix.Index.RootPage, rec, ix.Collations, ix.Descending, Encoding);
        }
        _mutator.IndexDelete(_table.RootPage, tableRecord, _pkCollations, _pkDescending, Encoding);
    }

    private void DeleteWithoutRowIdByIndexEntry(IndexPlan ix, byte[] entry)
    {
        // The entry ends with the primary key columns that are not in the key; rebuild the full PK to find the row.
        var saved = (StoredValue[])_record.Clone();
        DecodeIndexEntry(ix, entry);
        var pkRecord = KeyRecord(_table.PrimaryKey);
        var existing = _mutator.IndexFindPrefix(_table.RootPage, pkRecord, _table.PrimaryKey.Count, _pkCollations, _pkDescending, Encoding);
        if (existing is not null)
        {
            DeleteWithoutRowId(existing);
            if (ForeignKeysActive) _db.ForeignKeyState.AfterDelete(_table, RowImage(0), 0);
        }
        saved.CopyTo(_record, 0);
    }

    /// <summary>
    /// Replaces columns of the row whose primary key is <paramref name="key"/> (any table with a PRIMARY KEY).
    /// Returns false when there is no such row.
    /// </summary>
    public bool UpdateByKey(ReadOnlySpan<StoredValue> key, ReadOnlySpan<int> columns, ReadOnlySpan<StoredValue> values)
    {
        if (!_table.IsWithoutRowId)
        {
            long rowId;
            if (_table.RowIdAliasOrdinal >= 0 && key.Length == 1) rowId = RowIdFromValue(key[0]);
            else
            {
                var pk = PrimaryKeyIndex(key.Length) ?? throw new SharcException($"{_table.Name} has no primary key index to update by");
                var entry = _mutator.IndexFindPrefix(pk.Index.RootPage, RecordWriter.ToArray(key), key.Length, pk.Collations, pk.Descending, Encoding);
                if (entry is null) return false;
                rowId = LastInteger(entry);
            }
            return Update(rowId, columns, values);
        }
        var existing = _mutator.IndexFindPrefix(_table.RootPage, RecordWriter.ToArray(key), key.Length, _pkCollations, _pkDescending, Encoding);
        if (existing is null) return false;
        DeleteWithoutRowId(existing); // leaves the old row's values in the current record
        var old = ForeignKeysActive ? RowImage(0) : null;
        for (int i = 0; i < columns.Length; i++) _record[columns[i]] = values[i];
        var row = (StoredValue[])_record.Clone();
        InsertQuietly(row);
        if (old is not null) AfterUpdate(old, 0, 0, columns);
        return true;
    }

    /// <summary>
    /// Replaces the values of some columns of row <paramref name="rowId"/>. Returns false when the row does not exist.
    /// Changing the INTEGER PRIMARY KEY moves the row to the new rowid.
    /// </summary>
    public bool Update(long rowId, ReadOnlySpan<int> columns, ReadOnlySpan<StoredValue> values)
    {
        if (_table.IsWithoutRowId) throw new InvalidOperationException($"{_table.Name} is a WITHOUT ROWID table: update it by primary key");
        if (!LoadRow(rowId)) return false;
        var old = ForeignKeysActive ? RowImage(rowId) : null;
        var updated = (StoredValue[])_record.Clone();
        int alias = _table.RowIdAliasOrdinal;
        if (alias >= 0) updated[alias] = StoredValue.FromInteger(rowId);
        for (int i = 0; i < columns.Length; i++) updated[columns[i]] = values[i];
        if (!_table.IsAutoIncrement && (alias < 0 || (updated[alias].Type == SharcColumnType.Integer && updated[alias].Integer == rowId)))
        {
            CaptureOldEntries(rowId);
            if (alias >= 0) updated[alias] = StoredValue.Null;
            ReplaceInPlace(rowId, updated);
            if (old is not null) AfterUpdate(old, rowId, rowId, columns);
            return true;
        }
        DeleteRowCore(rowId);
        // A constraint failure below leaves the row deleted: the caller's statement savepoint undoes both.
        if (alias >= 0 && updated[alias].Type == SharcColumnType.Null) updated[alias] = StoredValue.FromInteger(rowId);
        long newRowId = rowId;
        if (alias < 0) InsertAt(rowId, updated); // no rowid alias: the row keeps its rowid
        else newRowId = InsertQuietly(updated);
        if (old is not null) AfterUpdate(old, rowId, newRowId, columns);
        return true;
    }

    private void InsertAt(long rowId, StoredValue[] row)
    {
        row.CopyTo(_record, 0);
        if (HasComputed) PrepareComputedRow(rowId);
        else
        {
            CheckNotNull();
            CheckStrictTypes();
        }
        for (int i = _indexes.Count - 1; i >= 0; i--)
        {
            var ix = _indexes[i];
            if (!ix.Index.IsUnique || !Admits(ix, rowId)) continue;
            if (FindConflict(ix, rowId) != long.MinValue) throw Unique(ix);
        }
        _mutator.TableInsert(_table.RootPage, rowId, BuildRecord());
        foreach (var ix in _indexes) InsertIndexEntry(ix, rowId);
    }

    /// <summary>Reads row <paramref name="rowId"/> into the current record (stored values, copied).</summary>
    private bool LoadRow(long rowId)
    {
        var source = _db.Source;
        // One cursor per writer, parked between loads (a new one per row was most of what a row write allocated).
        if (_rowCursor is null || !ReferenceEquals(_rowCursorSource, source))
        {
            _rowCursor = new BTreeCursor(source, _table.RootPage, _db.Header.UsableSize, isIndex: false);
            _rowCursorSource = source;
        }
        try
        {
            if (!_rowCursor.SeekRowId(rowId)) return false;
            // A copy: the loaded values point into it and outlive the next load.
            DecodeStorageRecord(_rowCursor.GetPayload(_rowCursor.PayloadSize).ToArray());
        }
        finally
        {
            _rowCursor.Park();
        }
        if (_table.RowIdAliasOrdinal >= 0) _record[_table.RowIdAliasOrdinal] = StoredValue.Null;
        ComputeGenerated(rowId);
        return true;
    }

    /// <summary>Fills the current record from a stored table record (fields missing from old rows take their default).</summary>
    private void DecodeStorageRecord(byte[] payload) => DecodeStorageRecord(payload, _record);

    private void DecodeStorageRecord(byte[] payload, StoredValue[] into) => DecodeStorageRecord(payload, payload.Length, into);

    /// <summary>Decodes the first <paramref name="length"/> bytes of <paramref name="payload"/> (a reused buffer) into <paramref name="into"/>.</summary>
    private void DecodeStorageRecord(byte[] payload, int length, StoredValue[] into)
    {
        var layout = _decodeLayout;
        layout.Reset(length, 0);
        var bytes = payload.AsSpan(0, length);
        layout.HeaderSize(bytes);
        for (int c = 0; c < _fieldCount; c++)
        {
            int f = _fieldOf[c];
            if (f >= 0 && layout.TryGetField(f, bytes, out long type, out int off, out int size))
                into[c] = Decode(type, payload.AsMemory(off, size));
            else
                into[c] = StorageAffinity.FromObject(_table.Columns[c].DefaultValue, _table.Columns[c].Affinity, Encoding);
        }
    }

    private void DecodeIndexEntry(IndexPlan ix, byte[] entry)
    {
        var layout = _decodeLayout;
        layout.Reset(entry.Length, 0);
        layout.HeaderSize(entry);
        for (int i = 0; i < ix.Fields.Length; i++)
        {
            if (ix.Fields[i] < 0) continue;
            if (layout.TryGetField(i, entry, out long type, out int off, out int size))
                _record[ix.Fields[i]] = Decode(type, entry.AsMemory(off, size));
        }
    }

    private static StoredValue Decode(long type, ReadOnlyMemory<byte> bytes)
    {
        if (type == 0) return StoredValue.Null;
        if (type == 7) return StoredValue.FromReal(SerialType.ReadReal(bytes.Span));
        if (type <= 9) return StoredValue.FromInteger(SerialType.ReadInteger(type, bytes.Span));
        return (type & 1) == 0 ? StoredValue.FromBlob(bytes) : StoredValue.FromText(bytes);
    }

    private long LastInteger(byte[] record)
    {
        var layout = _decodeLayout;
        layout.Reset(record.Length, 0);
        layout.HeaderSize(record);
        int n = layout.FieldCount(record);
        if (n > 0 && layout.TryGetField(n - 1, record, out long type, out int off, out int size) && SerialType.StorageClass(type) == SharcColumnType.Integer)
            return SerialType.ReadInteger(type, record.AsSpan(off, size));
        return ThrowHelper.Corrupt<long>("index entry does not end with a rowid");
    }

    /// <summary>The table column ordinal for <paramref name="name"/> (the rowid alias included); throws when unknown.</summary>
    public int Ordinal(string name)
    {
        var c = _table.FindColumn(name) ?? throw new SharcException($"no such column: {name} (in {_table.Name})");
        return c.Ordinal;
    }

    /// <summary>Stored values for a full row: given values in column order, defaults for the rest.</summary>
    public void FillDefaults(Span<StoredValue> row, ReadOnlySpan<bool> given)
    {
        foreach (var c in _table.Columns)
        {
            if (given[c.Ordinal]) continue;
            row[c.Ordinal] = DefaultFor(c);
        }
    }

    public StoredValue DefaultFor(SharcColumn c)
    {
        if (c.Generated != SharcGeneratedKind.None) return StoredValue.Null; // computed when the row is written
        if (c.HasConstantDefault) return StorageAffinity.FromObject(c.DefaultValue, c.Affinity, Encoding);
        string sql = (c.DefaultSql ?? "").Trim().Trim('(', ')').Trim();
        var now = DateTime.UtcNow;
        string? text = sql.ToUpperInvariant() switch
        {
            "CURRENT_TIMESTAMP" => now.ToString("yyyy-MM-dd HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture),
            "CURRENT_DATE" => now.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture),
            "CURRENT_TIME" => now.ToString("HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture),
            _ => null,
        };
        if (text is null) throw new SharcException($"the DEFAULT of {_table.Name}.{c.Name} ({c.DefaultSql}) needs the SQL expression engine");
        return StorageAffinity.FromObject(text, c.Affinity, Encoding);
    }

    public SharcTextEncoding TextEncoding => Encoding;

    /// <summary>Fills a newly created index with an entry for every existing row.</summary>
    public void BuildIndex(SharcIndex index)
    {
        var ix = _indexes.FirstOrDefault(i => ReferenceEquals(i.Index, index) || SqlNameComparer.Instance.Equals(i.Index.Name, index.Name))
            ?? throw new SharcException($"index {index.Name} cannot be maintained by the write API");
        // Every entry is made and sorted first, then the b-tree is built from the bottom up (its root is empty here:
        // a new index, or one REINDEX has emptied); duplicates of a UNIQUE key are neighbours once sorted.
        var entries = new IndexEntryBuffer();
        byte[] row = [];
        using (var cursor = new BTreeCursor(_db.Source, _table.RootPage, _db.Header.UsableSize, isIndex: _table.IsWithoutRowId))
        {
            for (bool ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
            {
                long rowId = _table.IsWithoutRowId ? 0 : cursor.RowId;
                var payload = cursor.GetPayload(cursor.PayloadSize);
                if (row.Length < payload.Length) row = new byte[Math.Max(payload.Length, row.Length * 2)];
                payload.CopyTo(row);
                DecodeStorageRecord(row, payload.Length, _record);
                ComputeGenerated(rowId);
                if (Admits(ix, rowId)) entries.Add(IndexRecord(ix, rowId, ix.Fields.Length));
            }
        }
        var collations = ix.Collations;
        var descending = ix.Descending;
        var encoding = Encoding;
        entries.Sort(collations, descending, encoding);
        for (int i = 1; i < entries.Count; i++)
        {
            // Entries equal on the declared key conflict unless a key field is NULL (then it is NULL in both).
            if (ix.Index.IsUnique && entries.Compare(i - 1, i, collations, descending, encoding, ix.KeyCount) == 0 && !entries.HasNull(i, ix.KeyCount))
                throw Unique(ix);
            if (entries.Compare(i - 1, i, collations, descending, encoding) == 0) throw Unique(ix);
        }
        _mutator.BuildIndex(ix.Index.RootPage, entries);
    }

}
