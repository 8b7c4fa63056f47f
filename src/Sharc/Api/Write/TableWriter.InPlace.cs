using Sharc.Format;

namespace Sharc.Write;

/// <summary>
/// An update that keeps its rowid rewrites the row where it stands and touches only the index entries whose bytes
/// change: an entry whose key columns were not assigned (or were assigned the same values) stays as it is, where a
/// delete and re-insert would descend each index twice and may split or merge pages for nothing.
/// </summary>
internal sealed partial class TableWriter
{
    /// <summary>Per index (in <see cref="_indexes"/> order): whether the entry of the row being updated changes.</summary>
    private bool[] _indexChanged = [];

    /// <summary>
    /// Keeps each index's entry for the row now in the current record (loaded by <see cref="LoadRow"/>), to compare
    /// with the entry of the updated row.
    /// </summary>
    private void CaptureOldEntries(long rowId)
    {
        foreach (var ix in _indexes)
        {
            ix.OldAdmitted = Admits(ix, rowId);
            if (!ix.OldAdmitted) continue;
            var entry = IndexRecord(ix, rowId, ix.Fields.Length);
            if (ix.OldEntry.Length < entry.Length) ix.OldEntry = new byte[Math.Max(entry.Length, ix.OldEntry.Length * 2)];
            entry.CopyTo(ix.OldEntry);
            ix.OldLength = entry.Length;
        }
    }

    /// <summary>Whether the current record gives <paramref name="ix"/> the same entry as the captured old row.</summary>
    private bool EntryUnchanged(IndexPlan ix, long rowId)
    {
        bool admitted = Admits(ix, rowId);
        if (admitted != ix.OldAdmitted) return false;
        return !admitted || IndexRecord(ix, rowId, ix.Fields.Length).SequenceEqual(ix.OldEntry.AsSpan(0, ix.OldLength));
    }

    /// <summary>
    /// Writes <paramref name="row"/> over row <paramref name="rowId"/> (whose entries <see cref="CaptureOldEntries"/>
    /// kept), with the checks <see cref="InsertAt"/> makes: generated columns, NOT NULL, CHECK, strict types, and
    /// UNIQUE for the entries that change.
    /// </summary>
    private void ReplaceInPlace(long rowId, StoredValue[] row)
    {
        row.CopyTo(_record, 0);
        if (HasComputed) PrepareComputedRow(rowId);
        else
        {
            CheckNotNull();
            CheckStrictTypes();
        }
        if (_indexChanged.Length != _indexes.Count) _indexChanged = new bool[_indexes.Count];
        for (int i = _indexes.Count - 1; i >= 0; i--)
        {
            var ix = _indexes[i];
            bool changed = _indexChanged[i] = !EntryUnchanged(ix, rowId);
            if (!changed || !ix.Index.IsUnique || !Admits(ix, rowId)) continue;
            // The row's own old entry may compare equal under the index's collation (a change of case under NOCASE).
            long conflict = FindConflict(ix, rowId);
            if (conflict != long.MinValue && conflict != rowId) throw Unique(ix);
        }
        for (int i = 0; i < _indexes.Count; i++)
        {
            var ix = _indexes[i];
            if (_indexChanged[i] && ix.OldAdmitted)
                _mutator.IndexDelete(ix.Index.RootPage, ix.OldEntry.AsSpan(0, ix.OldLength), ix.Collations, ix.Descending, Encoding);
        }
        _mutator.TableInsert(_table.RootPage, rowId, BuildRecord()); // replaces the cell of the same rowid
        for (int i = 0; i < _indexes.Count; i++)
            if (_indexChanged[i]) InsertIndexEntry(_indexes[i], rowId);
        _maxRowIdAtWrite = -1;
    }
}
