using Sharc.BTree;
using Sharc.Format;

namespace Sharc.Integrity;

/// <summary>
/// Each table against its indexes, and the key order of index b-trees, by walking them with
/// <see cref="BTreeCursor"/> and comparing keys with <see cref="KeyComparer"/> (the collations and directions the
/// reader uses for seeks):
/// <list type="bullet">
/// <item>every row's expected entry (its key columns in index order, then the rowid or the primary-key columns the
/// index lacks) is in each index whose keys are plain stored columns;</item>
/// <item>each index has exactly as many entries as its table has rows;</item>
/// <item>index entries are in ascending key order, WITHOUT ROWID rows in primary-key order, and a UNIQUE index has
/// no two entries with equal keys unless a key column is NULL;</item>
/// <item>NOT NULL columns (and the primary key of a WITHOUT ROWID table) hold no NULL;</item>
/// <item>every row's record is well formed: no reserved serial type, no field running past the record.</item>
/// </list>
/// Finding every row's entry costs one pass over the table and one over each index: both sides are summarised by a
/// <see cref="KeyDigest"/>, and only when the digests differ (or the index is out of order, so that seeks may miss
/// entries it holds) does a second pass seek each row's entry (one seek per row) to name the missing rows.
/// Memory stays bounded by the cursors' page stacks and one record at a time.
/// Not checked, because they need the SQL engine to evaluate expressions: entries of expression indexes (their
/// count is still checked), partial indexes (neither their count, which depends on the WHERE clause, nor their
/// entries; their key order and uniqueness are checked), CHECK constraints, and keys whose collation Sharc does not
/// implement (only their count is checked).
/// </summary>
internal sealed class IndexConsistencyCheck
{
    private readonly CheckContext _ctx;
    private readonly SharcTextEncoding _enc;

    private sealed class IndexState
    {
        public required SharcIndex Index { get; init; }
        public required ReaderPlan Plan { get; init; }
        public required List<int> Suffix { get; init; }
        /// <summary>True when each row's expected entry can be built from the row (plain stored columns, known collations).</summary>
        public bool Rowwise { get; init; }
        /// <summary>Some row's expected entry could not be built (a missing field without a constant default).</summary>
        public bool Unknown { get; set; }
        /// <summary>The keys the table's rows need, and the entries the index holds.</summary>
        public KeyDigest Expected;
        public KeyDigest Actual;
        public bool IndexComplete { get; set; }
        /// <summary>The index scan found entries out of order: seeks may miss them, so each row is sought.</summary>
        public bool OutOfOrder { get; set; }
        public BTreeCursor? Cursor { get; set; }
        public KeyValue[] Key { get; init; } = [];
        public KeyComparer Comparer;
    }

    public IndexConsistencyCheck(CheckContext ctx)
    {
        _ctx = ctx;
        _enc = ctx.Header.TextEncoding;
    }

    public void CheckTable(SharcTable table)
    {
        if (table.IsVirtual || table.RootPage == 0) return;
        var fieldMap = ReaderPlan.TableFieldMap(table);

        var states = new List<IndexState>();
        foreach (var index in table.Indexes)
        {
            if (index.RootPage == 0 || index.IsPrimaryKey && table.IsWithoutRowId) continue;
            states.Add(CreateState(table, index, fieldMap));
        }
        var notNull = new List<SharcColumn>();
        foreach (var c in table.Columns)
        {
            bool required = c.IsNotNull || table.IsWithoutRowId && c.IsPrimaryKey;
            if (required && !c.IsRowIdAlias && c.Generated != SharcGeneratedKind.Virtual && fieldMap[c.Ordinal] >= 0) notNull.Add(c);
        }
        // STRICT tables: every stored value must be of its column's type, as SQLite's integrity_check verifies.
        var strict = new List<SharcColumn>();
        if (table.IsStrict)
            foreach (var c in table.Columns)
                if (c.StrictType is not null and not "ANY" && !c.IsRowIdAlias && c.Generated != SharcGeneratedKind.Virtual && fieldMap[c.Ordinal] >= 0)
                    strict.Add(c);

        try
        {
            long rows = ScanTable(table, fieldMap, states, notNull, strict, out bool tableComplete);
            var verify = new List<IndexState>();
            foreach (var s in states)
            {
                long entries = ScanIndex(s);
                // A partial index holds only the rows its WHERE clause accepts: evaluating that needs the SQL engine.
                if (tableComplete && s.IndexComplete && !s.Index.IsPartial && entries != rows)
                    _ctx.Log.Add($"wrong # of entries in index {s.Index.Name} ({entries} entries, table {table.Name} has {rows} rows)");
                if (s.Rowwise && (s.Unknown || s.OutOfOrder || !tableComplete || !s.IndexComplete || !s.Expected.SameAs(s.Actual))) verify.Add(s);
            }
            if (verify.Count > 0) SeekEveryRow(table, fieldMap, verify);
        }
        finally
        {
            foreach (var s in states) s.Cursor?.Dispose();
        }
    }

    private IndexState CreateState(SharcTable table, SharcIndex index, int[] fieldMap)
    {
        var plan = ReaderPlan.ForIndex(table, index, []);
        var suffix = ReaderPlan.IndexSuffix(table, index);
        bool rowwise = !index.IsPartial && plan.UnsupportedCollation is null;
        foreach (var k in index.Columns)
            if (!Stored(table, k.TableOrdinal, fieldMap)) rowwise = false;
        foreach (int ord in suffix)
            if (!Stored(table, ord, fieldMap)) rowwise = false;
        var state = new IndexState
        {
            Index = index,
            Plan = plan,
            Suffix = suffix,
            Rowwise = rowwise,
            Key = new KeyValue[plan.KeyCollations.Length],
        };
        state.Comparer.Key = state.Key;
        state.Comparer.KeyCount = state.Key.Length;
        state.Comparer.Collations = plan.KeyCollations;
        state.Comparer.Descending = plan.KeyDescending;
        state.Comparer.Encoding = _enc;
        state.Comparer.Page = index.RootPage;
        return state;
    }

    /// <summary>True when the value of table column <paramref name="ordinal"/> (-1: the rowid) can be read from a row.</summary>
    private static bool Stored(SharcTable table, int ordinal, int[] fieldMap)
    {
        if (ordinal == -1) return !table.IsWithoutRowId;
        if (ordinal < 0 || ordinal >= fieldMap.Length) return false; // an expression
        return table.Columns[ordinal].IsRowIdAlias || fieldMap[ordinal] >= 0; // not a VIRTUAL generated column
    }

    /// <summary>The highest record field the expected entries of <paramref name="states"/> read (-1: none).</summary>
    private static int MaxField(int[] fieldMap, List<IndexState> states)
    {
        int max = -1;
        foreach (var s in states)
        {
            if (!s.Rowwise) continue;
            foreach (var k in s.Index.Columns) if (k.TableOrdinal >= 0) max = Math.Max(max, fieldMap[k.TableOrdinal]);
            foreach (int ord in s.Suffix) if (ord >= 0) max = Math.Max(max, fieldMap[ord]);
        }
        return max;
    }

    /// <summary>
    /// The first pass over the table: counts rows, checks each record, NOT NULL columns and (WITHOUT ROWID) primary-key
    /// order, and digests the entry each row needs in each index.
    /// </summary>
    private long ScanTable(SharcTable table, int[] fieldMap, List<IndexState> states, List<SharcColumn> notNull, List<SharcColumn> strict, out bool complete)
    {
        complete = false;
        uint root = table.RootPage;
        int maxField = MaxField(fieldMap, states);
        foreach (var c in strict) maxField = Math.Max(maxField, fieldMap[c.Ordinal]);

        // WITHOUT ROWID: rows must be in strictly ascending primary-key order.
        ReaderPlan? pkPlan = null;
        KeyValue[] pkPrevious = [], pkCurrent = [];
        KeyComparer pkComparer = default;
        if (table.IsWithoutRowId && table.PrimaryKey.Count > 0)
        {
            pkPlan = ReaderPlan.ForTable(table, []);
            if (pkPlan.UnsupportedCollation is not null) pkPlan = null;
            else
            {
                int k = table.PrimaryKey.Count;
                pkPrevious = new KeyValue[k];
                pkCurrent = new KeyValue[k];
                pkComparer = new KeyComparer { KeyCount = k, Collations = pkPlan.KeyCollations, Descending = pkPlan.KeyDescending, Encoding = _enc, Page = root };
                maxField = Math.Max(maxField, k - 1);
            }
        }
        bool havePrevious = false;

        long rows = 0;
        var layout = new RecordLayout(table.Columns.Count + 1);
        using var cursor = new BTreeCursor(_ctx.Source, root, _ctx.UsableSize, isIndex: table.IsWithoutRowId);
        try
        {
            for (bool ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
            {
                rows++;
                long rowId = table.IsWithoutRowId ? rows : cursor.RowId;
                try
                {
                    var record = LoadRecord(cursor, layout, maxField);
                    foreach (var c in notNull)
                    {
                        bool isNull = layout.TryGetField(fieldMap[c.Ordinal], record, out long type, out _, out _)
                            ? type == 0
                            : c.HasConstantDefault && c.DefaultValue is null;
                        if (isNull)
                            _ctx.Log.Add($"NULL value in {table.Name}.{c.Name} ({RowName(table, rowId)} on page {cursor.CurrentPage})");
                    }
                    foreach (var c in strict)
                    {
                        if (!layout.TryGetField(fieldMap[c.Ordinal], record, out long type, out _, out _) || type == 0) continue;
                        if (!Write.TableWriter.StrictTypeAdmits(c.StrictType, SerialType.StorageClass(type)))
                            _ctx.Log.Add($"non-{c.StrictType} value in {table.Name}.{c.Name} ({RowName(table, rowId)} on page {cursor.CurrentPage})");
                    }
                    if (pkPlan is not null)
                    {
                        if (havePrevious)
                        {
                            pkComparer.Key = pkPrevious;
                            if (pkComparer.CompareRecordToKey(record) <= 0)
                                _ctx.Log.Add($"row not in PRIMARY KEY order for {table.Name} ({RowName(table, rowId)} on page {cursor.CurrentPage})");
                        }
                        for (int i = 0; i < pkCurrent.Length; i++) LoadField(ref pkCurrent[i], layout, record, i, null);
                        (pkPrevious, pkCurrent) = (pkCurrent, pkPrevious);
                        havePrevious = true;
                    }
                    foreach (var s in states)
                        if (s.Rowwise) DigestExpected(table, s, fieldMap, layout, record, rowId);
                }
                catch (SharcCorruptException e)
                {
                    _ctx.Log.Add(Where.Page(root, cursor.CurrentPage), $"{RowName(table, rowId)} of {table.Name}: {e.Message}");
                    havePrevious = false;
                }
            }
            complete = true;
        }
        catch (SharcException e)
        {
            _ctx.Log.Add(Where.Tree(root), $"table {table.Name} cannot be read to the end ({rows} rows read): {e.Message}");
        }
        return rows;
    }

    /// <summary>Adds the entry the current row needs in the index to the index's expected digest.</summary>
    private void DigestExpected(SharcTable table, IndexState s, int[] fieldMap, RecordLayout layout, ReadOnlySpan<byte> record, long rowId)
    {
        ref KeyDigest d = ref s.Expected;
        d.Begin();
        foreach (var k in s.Index.Columns)
            if (!DigestColumn(ref d, table, k.TableOrdinal, fieldMap, layout, record, rowId)) { s.Unknown = true; return; }
        foreach (int ord in s.Suffix)
            if (!DigestColumn(ref d, table, ord, fieldMap, layout, record, rowId)) { s.Unknown = true; return; }
        d.End();
    }

    private bool DigestColumn(ref KeyDigest d, SharcTable table, int ordinal, int[] fieldMap, RecordLayout layout, ReadOnlySpan<byte> record, long rowId)
    {
        if (ordinal == -1 || table.Columns[ordinal].IsRowIdAlias)
        {
            d.AddInteger(rowId);
            return true;
        }
        var column = table.Columns[ordinal];
        if (layout.TryGetField(fieldMap[ordinal], record, out long type, out int offset, out int size))
            d.AddField(type, record.Slice(offset, size));
        else if (column.HasConstantDefault)
            d.AddObject(column.DefaultValue, _enc);
        else
            return false;
        return true;
    }

    /// <summary>
    /// The precise pass, for indexes whose digest did not match: every row's expected entry is sought in the index
    /// and each one missing is reported. Problems the first pass reported (unreadable rows) are not repeated.
    /// </summary>
    private void SeekEveryRow(SharcTable table, int[] fieldMap, List<IndexState> states)
    {
        foreach (var s in states) s.Cursor = new BTreeCursor(_ctx.Source, s.Index.RootPage, _ctx.UsableSize, isIndex: true);
        int maxField = MaxField(fieldMap, states);
        var layout = new RecordLayout(table.Columns.Count + 1);
        using var cursor = new BTreeCursor(_ctx.Source, table.RootPage, _ctx.UsableSize, isIndex: table.IsWithoutRowId);
        long rows = 0;
        try
        {
            for (bool ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
            {
                rows++;
                long rowId = table.IsWithoutRowId ? rows : cursor.RowId;
                ReadOnlySpan<byte> record;
                try
                {
                    record = LoadRecord(cursor, layout, maxField);
                }
                catch (SharcCorruptException)
                {
                    continue; // reported by the first pass
                }
                foreach (var s in states)
                    if (s.Cursor is not null) LookUp(table, s, fieldMap, layout, record, rowId);
            }
        }
        catch (SharcException)
        {
            // Reported by the first pass; the rows before the damage were looked up.
        }
    }

    /// <summary>Looks the row's expected entry up in the index; reports it missing.</summary>
    private void LookUp(SharcTable table, IndexState s, int[] fieldMap, RecordLayout layout, ReadOnlySpan<byte> record, long rowId)
    {
        int n = 0;
        foreach (var k in s.Index.Columns)
            if (!LoadColumn(ref s.Key[n++], table, k.TableOrdinal, fieldMap, layout, record, rowId)) return;
        foreach (int ord in s.Suffix)
            if (!LoadColumn(ref s.Key[n++], table, ord, fieldMap, layout, record, rowId)) return;
        s.Comparer.KeyCount = n;
        var ic = s.Cursor!;
        try
        {
            ic.SeekKey(ref s.Comparer);
            bool found = ic.IsValid && s.Comparer.CompareRecordToKey(ic.GetPayload(ic.PayloadSize)) == 0;
            if (!found) _ctx.Log.Add($"row {rowId} missing from index {s.Index.Name}");
        }
        catch (SharcException e)
        {
            _ctx.Log.Add(Where.Tree(s.Index.RootPage), $"index {s.Index.Name} cannot be searched: {e.Message}");
            ic.Dispose();
            s.Cursor = null; // its count and order were checked by its scan
        }
    }

    /// <summary>The value of table column <paramref name="ordinal"/> (-1: the rowid) of the current row; false when unknown.</summary>
    private bool LoadColumn(ref KeyValue kv, SharcTable table, int ordinal, int[] fieldMap, RecordLayout layout, ReadOnlySpan<byte> record, long rowId)
    {
        if (ordinal == -1 || table.Columns[ordinal].IsRowIdAlias)
        {
            kv.SetInteger(rowId);
            return true;
        }
        var column = table.Columns[ordinal];
        if (!column.HasConstantDefault && !layout.TryGetField(fieldMap[ordinal], record, out _, out _, out _)) return false;
        LoadField(ref kv, layout, record, fieldMap[ordinal], column);
        return true;
    }

    /// <summary>A record field into a key value; a field the record lacks (a column added later) takes the column's default.</summary>
    private void LoadField(ref KeyValue kv, RecordLayout layout, ReadOnlySpan<byte> record, int field, SharcColumn? column)
    {
        if (layout.TryGetField(field, record, out long type, out int offset, out int size))
            KeyValueLoader.FromField(ref kv, type, record.Slice(offset, size), _enc);
        else
            KeyValueLoader.FromObject(ref kv, column?.DefaultValue, _enc);
    }

    /// <summary>
    /// Walks an index in key order: counts its entries, checks their order and, for UNIQUE indexes, uniqueness, and
    /// digests the entries (for indexes whose entries are checked against the rows).
    /// </summary>
    private long ScanIndex(IndexState s)
    {
        var index = s.Index;
        uint root = index.RootPage;
        bool compare = s.Plan.UnsupportedCollation is null;
        int total = s.Plan.KeyCollations.Length, declared = index.Columns.Count;
        var previous = new KeyValue[total];
        var current = new KeyValue[total];
        int previousCount = 0;
        bool previousHasNull = false;
        var comparer = new KeyComparer { Collations = s.Plan.KeyCollations, Descending = s.Plan.KeyDescending, Encoding = _enc, Page = root };
        var layout = new RecordLayout(total + 1);

        long entries = 0;
        using var cursor = new BTreeCursor(_ctx.Source, root, _ctx.UsableSize, isIndex: true);
        try
        {
            for (bool ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
            {
                entries++;
                if (!compare) continue;
                try
                {
                    var record = cursor.GetPayload(cursor.PayloadSize);
                    if (previousCount > 0)
                    {
                        comparer.Key = previous;
                        comparer.KeyCount = previousCount;
                        int c = comparer.CompareRecordToKey(record);
                        if (c < 0)
                        {
                            s.OutOfOrder = true;
                            _ctx.Log.Add(Where.Page(root, cursor.CurrentPage), $"entry {entries} of index {index.Name} is out of order (sorts before the entry preceding it)");
                        }
                        else if (c == 0 && previousCount == total)
                            _ctx.Log.Add(Where.Page(root, cursor.CurrentPage), $"entry {entries} of index {index.Name} repeats the entry preceding it");
                        else if (index.IsUnique && !previousHasNull && previousCount >= declared)
                        {
                            comparer.KeyCount = declared;
                            if (comparer.CompareRecordToKey(record) == 0)
                                _ctx.Log.Add($"non-unique entry in index {index.Name} (entry {entries}, page {cursor.CurrentPage})");
                        }
                    }
                    layout.Reset(cursor.PayloadSize, cursor.CurrentPage);
                    layout.HeaderSize(record);
                    int fields = layout.FieldCount(record);
                    int n = Math.Min(fields, total);
                    bool hasNull = false;
                    if (s.Rowwise) s.Actual.Begin();
                    for (int i = 0; i < n; i++)
                    {
                        layout.TryGetField(i, record, out long type, out int offset, out int size);
                        var value = record.Slice(offset, size);
                        KeyValueLoader.FromField(ref current[i], type, value, _enc);
                        if (s.Rowwise) s.Actual.AddField(type, value);
                        if (i < declared && type == 0) hasNull = true;
                    }
                    if (s.Rowwise)
                    {
                        if (fields > total) s.Actual.AddNull(); // an entry with extra fields is not the entry a row needs
                        s.Actual.End();
                    }
                    (previous, current) = (current, previous);
                    previousCount = n;
                    previousHasNull = hasNull;
                }
                catch (SharcCorruptException e)
                {
                    _ctx.Log.Add(Where.Page(root, cursor.CurrentPage), $"entry {entries} of index {index.Name}: {e.Message}");
                    previousCount = 0;
                }
            }
            s.IndexComplete = true;
        }
        catch (SharcException e)
        {
            _ctx.Log.Add(Where.Tree(root), $"index {index.Name} cannot be read to the end ({entries} entries read): {e.Message}");
        }
        return entries;
    }

    /// <summary>
    /// The current entry's payload, at least its header and the fields through <paramref name="maxField"/> (-1: none):
    /// a spilled payload is gathered from its overflow chain only as far as needed. The whole header is decoded, so
    /// a malformed record (a reserved serial type, a field running past the end) is reported.
    /// </summary>
    private static ReadOnlySpan<byte> LoadRecord(BTreeCursor cursor, RecordLayout layout, int maxField)
    {
        int size = cursor.PayloadSize;
        layout.Reset(size, cursor.CurrentPage);
        var p = cursor.GetPayload(Math.Min(size, 9));
        int headerSize = layout.HeaderSize(p);
        p = cursor.GetPayload(headerSize);
        // Decoding the whole header checks every serial type and that every field lies inside the record.
        int fields = layout.FieldCount(p);
        int need = headerSize;
        int last = Math.Min(maxField, fields - 1);
        if (last >= 0 && layout.TryGetField(last, p, out _, out int off, out int len)) need = off + len;
        return cursor.GetPayload(need);
    }

    private static string RowName(SharcTable table, long rowId) => table.IsWithoutRowId ? $"row {rowId}" : $"rowid {rowId}";
}
