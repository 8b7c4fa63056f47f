using Sharc.Format;

namespace Sharc.Write;

/// <summary>
/// The writer's side of FOREIGN KEY enforcement: whole-row images of what changed, handed to
/// <see cref="ForeignKeys"/> after each insert, delete and update, and the entry points its actions use on child rows.
/// An update is delete-then-insert inside the writer; those inner steps stay quiet so that it is reported once, as
/// an update.
/// </summary>
internal sealed partial class TableWriter
{
    private int _quiet;

    private bool ForeignKeysActive => _quiet == 0 && _db.ForeignKeysEnabled;

    /// <summary>A copy of the current record with the rowid alias filled in (what expressions and key lookups read).</summary>
    private StoredValue[] RowImage(long rowId)
    {
        var image = (StoredValue[])_record.Clone();
        for (int i = 0; i < image.Length; i++)
        {
            // Text and blobs may point into buffers the writer reuses: the image must own its bytes.
            if (image[i].Type is SharcColumnType.Text or SharcColumnType.Blob) image[i].Bytes = image[i].Bytes.ToArray();
        }
        if (_table.RowIdAliasOrdinal >= 0 && !_table.IsWithoutRowId) image[_table.RowIdAliasOrdinal] = StoredValue.FromInteger(rowId);
        return image;
    }

    private long InsertQuietly(StoredValue[] row)
    {
        _quiet++;
        try
        {
            return Insert(row, replace: false);
        }
        finally
        {
            _quiet--;
        }
    }

    private void AfterUpdate(StoredValue[] old, long oldRowId, long rowId, ReadOnlySpan<int> columns)
    {
        var changed = new bool[_fieldCount];
        foreach (int c in columns) changed[c] = true;
        _db.ForeignKeyState.AfterUpdate(_table, old, oldRowId, RowImage(rowId), rowId, c => c >= 0 && changed[c]);
    }

    /// <summary>A stored row decoded into a new array (the rowid alias filled in; VIRTUAL columns left NULL).</summary>
    public StoredValue[] ReadRow(byte[] payload, long rowId)
    {
        var row = new StoredValue[_fieldCount];
        DecodeStorageRecord(payload, row);
        if (_table.RowIdAliasOrdinal >= 0 && !_table.IsWithoutRowId) row[_table.RowIdAliasOrdinal] = StoredValue.FromInteger(rowId);
        return row;
    }

    /// <summary>Deletes a row found by a scan (a rowid, or for WITHOUT ROWID tables the primary key in the row).</summary>
    public void DeleteIdentified(long rowId, StoredValue[] row)
    {
        if (_table.IsWithoutRowId) DeleteByKey(PrimaryKeyOf(row));
        else DeleteRow(rowId);
    }

    /// <summary>Updates some columns of a row found by a scan.</summary>
    public void UpdateIdentified(long rowId, StoredValue[] row, int[] columns, StoredValue[] values)
    {
        if (_table.IsWithoutRowId) UpdateByKey(PrimaryKeyOf(row), columns, values);
        else Update(rowId, columns, values);
    }

    private StoredValue[] PrimaryKeyOf(StoredValue[] row)
    {
        var key = new StoredValue[_table.PrimaryKey.Count];
        for (int i = 0; i < key.Length; i++) key[i] = row[_table.PrimaryKey[i]];
        return key;
    }
}
