using Sharc.Format;
using Sharc.Write;

namespace Sharc;

/// <summary>
/// An insert prepared once and executed many times (<see cref="SharcDatabase.PrepareInsert"/>). Set the values of
/// the chosen columns with the typed setters — text as UTF-8 spans, blobs as spans — then call <see cref="Execute"/>.
/// Values persist between executions until set again. Buffers are reused: after warm-up an insert allocates nothing
/// unless a page has to split. Not thread-safe.
/// </summary>
public sealed class PreparedInsert
{
    private readonly SharcDatabase _db;
    private readonly SharcTable _table;
    private readonly int[] _ordinals;
    private readonly StoredValue[] _values;
    private readonly byte[]?[] _scratch;
    private readonly StoredValue[] _row;
    private readonly bool[] _given;
    private readonly bool _hasVolatileDefault;

    internal PreparedInsert(SharcDatabase db, SharcTable table, string[] columns)
    {
        _db = db;
        _table = table;
        if (columns.Length == 0) columns = table.Columns.Where(c => c.Generated == SharcGeneratedKind.None).Select(c => c.Name).ToArray();
        _ordinals = new int[columns.Length];
        var writer = db.WriterFor(table.Name);
        for (int i = 0; i < columns.Length; i++)
        {
            _ordinals[i] = writer.Ordinal(columns[i]);
            writer.CheckWritable(_ordinals[i], insert: true);
        }
        _values = new StoredValue[columns.Length];
        _scratch = new byte[]?[columns.Length];
        _row = new StoredValue[table.Columns.Count];
        _given = new bool[table.Columns.Count];
        foreach (int o in _ordinals) _given[o] = true;
        foreach (var c in table.Columns)
        {
            if (_given[c.Ordinal] || c.Generated != SharcGeneratedKind.None) continue;
            if (c.HasConstantDefault) _row[c.Ordinal] = writer.DefaultFor(c);
            else _hasVolatileDefault = true;
        }
    }

    /// <summary>The number of columns this insert sets.</summary>
    public int FieldCount => _ordinals.Length;

    /// <summary>When true, rows conflicting on a UNIQUE or PRIMARY KEY constraint are replaced (INSERT OR REPLACE).</summary>
    public bool OrReplace { get; set; }

    private SharcAffinity Affinity(int i) => _table.Columns[_ordinals[i]].Affinity;

    /// <summary>Sets column <paramref name="i"/> (in the prepared column order) to NULL.</summary>
    public void SetNull(int i) => _values[i] = StoredValue.Null;

    /// <summary>Sets an integer (converted by the column's affinity, e.g. to text for TEXT columns).</summary>
    public void SetInt64(int i, long value) => StorageAffinity.SetInteger(ref _values[i], ref _scratch[i], value, Affinity(i), _db.TextEncoding);

    /// <summary>Sets a real (integral values go into INTEGER/NUMERIC/REAL columns as SQLite stores them).</summary>
    public void SetDouble(int i, double value) => StorageAffinity.SetReal(ref _values[i], ref _scratch[i], value, Affinity(i), _db.TextEncoding);

    /// <summary>Sets text given as UTF-8 bytes (copied; converted for UTF-16 databases).</summary>
    public void SetText(int i, ReadOnlySpan<byte> utf8) => StorageAffinity.SetTextUtf8(ref _values[i], ref _scratch[i], utf8, Affinity(i), _db.TextEncoding);

    /// <summary>Sets text (encoded to UTF-8 in a temporary buffer, then copied as <see cref="SetText(int, ReadOnlySpan{byte})"/> does).</summary>
    public void SetText(int i, string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        // The value is copied into the column's own buffer, so the encoding only needs a scratch area.
        const int StackLimit = 512;
        int max = System.Text.Encoding.UTF8.GetMaxByteCount(value.Length);
        if (max <= StackLimit)
        {
            Span<byte> utf8 = stackalloc byte[StackLimit];
            SetText(i, utf8[..System.Text.Encoding.UTF8.GetBytes(value, utf8)]);
            return;
        }
        byte[] rented = System.Buffers.ArrayPool<byte>.Shared.Rent(max);
        try
        {
            SetText(i, rented.AsSpan(0, System.Text.Encoding.UTF8.GetBytes(value, rented)));
        }
        finally
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>Sets a blob (copied).</summary>
    public void SetBlob(int i, ReadOnlySpan<byte> bytes) => StorageAffinity.SetBlob(ref _values[i], ref _scratch[i], bytes);

    /// <summary>Inserts the row; returns its rowid (0 for WITHOUT ROWID tables).</summary>
    public long Execute() => _db.RunWrite(this, static (db, self) => self.ExecuteCore(db), checkedBeforeWriting: !OrReplace && _db.Schema.Triggers.Count == 0);

    private long ExecuteCore(SharcDatabase db)
    {
        var writer = db.WriterFor(_table.Name);
        for (int i = 0; i < _ordinals.Length; i++) _row[_ordinals[i]] = _values[i];
        if (_hasVolatileDefault)
            foreach (var c in _table.Columns)
                if (!_given[c.Ordinal] && !c.HasConstantDefault) _row[c.Ordinal] = writer.DefaultFor(c);
        return writer.HasTriggers ? db.Triggers.Insert(writer, _row, OrReplace, StoredValue.Null) : writer.Insert(_row, OrReplace);
    }
}
