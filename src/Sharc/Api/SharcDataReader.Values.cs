using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using Sharc.Format;

namespace Sharc;

public partial class SharcDataReader
{
    /// <summary>One value as stored: its class, and its number or its bytes (text in the database encoding).</summary>
    private ref struct Raw
    {
        public SharcColumnType Type;
        public long Integer;
        public double Real;
        public ReadOnlySpan<byte> Bytes;
    }

    private byte[] _scratch = new byte[64];
    private byte[]?[]? _defaultBytes;

    /// <summary>The storage class of the value in column <paramref name="ordinal"/> of the current row.</summary>
    public SharcColumnType GetColumnType(int ordinal) => GetRaw(ordinal).Type;

    /// <summary>True when the value in column <paramref name="ordinal"/> is NULL.</summary>
    public bool IsNull(int ordinal) => GetRaw(ordinal).Type == SharcColumnType.Null;

    /// <summary>
    /// The value as a 64-bit integer, converted as SQLite's sqlite3_column_int64 does: reals truncate toward zero
    /// (saturating), text yields its leading integer, NULL yields 0.
    /// </summary>
    public long GetInt64(int ordinal)
    {
        if (TryStoredInt64(ordinal, out long stored)) return stored;
        var v = GetRaw(ordinal);
        return v.Type switch
        {
            SharcColumnType.Integer => v.Integer,
            SharcColumnType.Real => ValueConvert.RealToInt64(v.Real),
            SharcColumnType.Text => ValueConvert.TextToInt64(Utf8Of(v.Bytes)),
            SharcColumnType.Blob => ValueConvert.TextToInt64(v.Bytes),
            _ => 0,
        };
    }

    /// <summary>
    /// The value when it is an integer (as <see cref="GetColumnType(int)"/> reports it), without conversion: one read
    /// where checking the type and then getting the value take two. False for NULL, reals, text and blobs.
    /// </summary>
    public bool TryGetInt64(int ordinal, out long value)
    {
        if (TryStoredInt64(ordinal, out value)) return true;
        var v = GetRaw(ordinal);
        value = v.Integer;
        return v.Type == SharcColumnType.Integer;
    }

    /// <summary>The value as a double, converted as sqlite3_column_double does (text yields its leading number, NULL 0.0).</summary>
    public double GetDouble(int ordinal)
    {
        var v = GetRaw(ordinal);
        return v.Type switch
        {
            SharcColumnType.Real => v.Real,
            SharcColumnType.Integer => v.Integer,
            SharcColumnType.Text => ValueConvert.TextToDouble(Utf8Of(v.Bytes)),
            SharcColumnType.Blob => ValueConvert.TextToDouble(v.Bytes),
            _ => 0.0,
        };
    }

    /// <summary>
    /// The value as a string (allocates), or null for NULL. Numbers are rendered as SQLite renders them
    /// (reals as SQLite 3.53 prints them: up to 17 significant digits, the shortest that reads back as the same
    /// double when it ends in a run of 0s or 9s, always with a decimal point or exponent); blobs are read as text.
    /// </summary>
    public string? GetString(int ordinal)
    {
        var v = GetRaw(ordinal);
        return v.Type switch
        {
            SharcColumnType.Null => null,
            SharcColumnType.Integer => v.Integer.ToString(CultureInfo.InvariantCulture),
            SharcColumnType.Real => ValueConvert.RealToText(v.Real),
            _ => TextCodec.GetString(_encoding, v.Bytes),
        };
    }

    /// <summary>
    /// The value as UTF-8 bytes, without allocating: text stored as UTF-8 is returned in place; UTF-16 text and
    /// numbers are converted into a buffer the reader reuses. Valid until the reader moves or the next call that
    /// converts. Empty for NULL.
    /// </summary>
    public ReadOnlySpan<byte> GetUtf8Span(int ordinal)
    {
        var v = GetRaw(ordinal);
        switch (v.Type)
        {
            case SharcColumnType.Null:
                return default;
            case SharcColumnType.Integer:
            {
                EnsureScratch(24);
                v.Integer.TryFormat(_scratch, out int n, default, CultureInfo.InvariantCulture);
                return new ReadOnlySpan<byte>(_scratch, 0, n);
            }
            case SharcColumnType.Real:
            {
                EnsureScratch(40);
                int n = ValueConvert.FormatReal(v.Real, _scratch);
                return new ReadOnlySpan<byte>(_scratch, 0, n);
            }
            case SharcColumnType.Text:
                return Utf8Of(v.Bytes);
            default:
                return v.Bytes;
        }
    }

    /// <summary>
    /// The stored bytes of a BLOB or TEXT value (text in the database encoding), without allocating; numbers as
    /// their UTF-8 text, as sqlite3_column_blob gives them. Empty for NULL.
    /// </summary>
    public ReadOnlySpan<byte> GetBlobSpan(int ordinal)
    {
        var v = GetRaw(ordinal);
        return v.Type is SharcColumnType.Blob or SharcColumnType.Text ? v.Bytes : GetUtf8Span(ordinal);
    }

    /// <summary>A copy of <see cref="GetBlobSpan"/>, or null for NULL.</summary>
    public byte[]? GetBytes(int ordinal) => IsNull(ordinal) ? null : GetBlobSpan(ordinal).ToArray();

    /// <summary>The value as stored: null, <see cref="long"/>, <see cref="double"/>, <see cref="string"/> or byte[] (allocates).</summary>
    public object? GetValue(int ordinal)
    {
        var v = GetRaw(ordinal);
        return v.Type switch
        {
            SharcColumnType.Null => null,
            SharcColumnType.Integer => v.Integer,
            SharcColumnType.Real => v.Real,
            SharcColumnType.Text => TextCodec.GetString(_encoding, v.Bytes),
            _ => v.Bytes.ToArray(),
        };
    }

    private Raw GetRaw(int ordinal)
    {
        if (_query is not null) return QueryRaw(ordinal);
        if (_state != State.OnRow) NotOnRow();
        var columns = _columns;
        if ((uint)ordinal >= (uint)columns.Length) ThrowHelper.ColumnOutOfRange(ordinal, columns.Length);
        var col = columns[ordinal];
        if (col.Kind != ColumnKind.Field) return SpecialRaw(col);

        var cursor = _cursor;
        long type;
        ReadOnlySpan<byte> bytes;
        if (cursor.IsPayloadLocal)
        {
            if (!TryLocalField(col.Field, out type, out bytes)) return DefaultOf(ordinal, col);
        }
        else
        {
            int offset, size;
            int headerSize = _layout.HeaderSize(cursor.GetPayload(9));
            if (!_layout.TryGetField(col.Field, cursor.GetPayload(headerSize), out type, out offset, out size))
                return DefaultOf(ordinal, col);
            bytes = cursor.GetPayload(offset + size).Slice(offset, size);
        }
        return Decode(type, bytes, col.RealAffinity);
    }

    /// <summary>
    /// The integer stored in column <paramref name="ordinal"/> of the current row, read straight from a record that
    /// lies on its page: the common case of integer reads (keys, graph edges), spared the general value decode. False
    /// sends the caller the general way (not on a row, a query, a spilled record, another storage class, a column
    /// with REAL affinity, which reads integers back as reals), which also raises any error.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryStoredInt64(int ordinal, out long value)
    {
        var columns = _columns;
        if (_query is null && _state == State.OnRow && (uint)ordinal < (uint)columns.Length && _cursor.IsPayloadLocal)
        {
            var col = columns[ordinal];
            if (col.Kind == ColumnKind.Field && !col.RealAffinity && TryLocalField(col.Field, out long type, out var bytes) && SerialType.IsInteger(type))
            {
                value = SerialType.ReadInteger(type, bytes);
                return true;
            }
        }
        value = 0;
        return false;
    }

    /// <summary>
    /// Record field <paramref name="field"/> of the current row when its record lies on the page (the common case:
    /// one span serves the header and the value); false when the record has fewer fields.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryLocalField(int field, out long type, out ReadOnlySpan<byte> bytes)
    {
        var payload = _cursor.LocalPayload;
        _layout.HeaderSize(payload);
        if (!_layout.TryGetField(field, payload, out type, out int offset, out int size))
        {
            bytes = default;
            return false;
        }
        bytes = payload.Slice(offset, size);
        return true;
    }

    /// <summary>One stored value from its serial type and content bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Raw Decode(long type, ReadOnlySpan<byte> bytes, bool realAffinity)
    {
        Raw raw = default;
        if (SerialType.IsInteger(type))
        {
            long v = SerialType.ReadInteger(type, bytes);
            if (realAffinity)
            {
                raw.Type = SharcColumnType.Real;
                raw.Real = v;
            }
            else
            {
                raw.Type = SharcColumnType.Integer;
                raw.Integer = v;
            }
        }
        else if (type == 7)
        {
            double d = SerialType.ReadReal(bytes);
            // SQLite never stores NaN; it reads back as NULL.
            if (double.IsNaN(d)) return raw;
            raw.Type = SharcColumnType.Real;
            raw.Real = d;
        }
        else if (type >= 12)
        {
            raw.Type = (type & 1) == 0 ? SharcColumnType.Blob : SharcColumnType.Text;
            raw.Bytes = bytes;
        }
        return raw;
    }

    /// <summary>The rowid column, or a VIRTUAL generated column (which this reader cannot compute).</summary>
    private Raw SpecialRaw(ColumnSource col)
    {
        if (col.Kind == ColumnKind.Virtual)
            throw new SharcException($"column {col.Name} is a VIRTUAL generated column: computing it needs the SQL expression engine, which this reader does not have");
        Raw raw = default;
        raw.Type = SharcColumnType.Integer;
        raw.Integer = RowId;
        return raw;
    }

    private Raw DefaultOf(int ordinal, ColumnSource col)
    {
        Raw raw = default;
        switch (col.Default)
        {
            case null:
                break;
            case long l:
                raw.Type = SharcColumnType.Integer;
                raw.Integer = l;
                break;
            case double d:
                raw.Type = SharcColumnType.Real;
                raw.Real = d;
                break;
            case string s:
                raw.Type = SharcColumnType.Text;
                raw.Bytes = DefaultText(ordinal, s);
                break;
            case byte[] b:
                raw.Type = SharcColumnType.Blob;
                raw.Bytes = b;
                break;
            default:
                throw new SharcException($"column {col.Name} has a default of unexpected type {col.Default.GetType().Name}");
        }
        return raw;
    }

    private byte[] DefaultText(int ordinal, string text)
    {
        _defaultBytes ??= new byte[]?[_columns.Length];
        return _defaultBytes[ordinal] ??= TextCodec.For(_encoding).GetBytes(text);
    }

    /// <summary>Text bytes as UTF-8: in place for UTF-8 databases, converted into the scratch buffer otherwise.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReadOnlySpan<byte> Utf8Of(ReadOnlySpan<byte> text)
    {
        if (_encoding == SharcTextEncoding.Utf8) return text;
        return Transcode(text);
    }

    private ReadOnlySpan<byte> Transcode(ReadOnlySpan<byte> utf16)
    {
        var codec = TextCodec.For(_encoding);
        // Each UTF-16 code unit becomes at most 3 UTF-8 bytes.
        EnsureScratch(utf16.Length / 2 * 3 + 4);
        int chars = codec.GetCharCount(utf16);
        char[]? rented = null;
        Span<char> tmp = chars <= 512 ? stackalloc char[512] : (rented = System.Buffers.ArrayPool<char>.Shared.Rent(chars));
        int nc = codec.GetChars(utf16, tmp);
        int needed = Encoding.UTF8.GetByteCount(tmp[..nc]);
        EnsureScratch(needed);
        int nb = Encoding.UTF8.GetBytes(tmp[..nc], _scratch);
        if (rented is not null) System.Buffers.ArrayPool<char>.Shared.Return(rented);
        return new ReadOnlySpan<byte>(_scratch, 0, nb);
    }

    private void EnsureScratch(int n)
    {
        if (_scratch.Length < n) _scratch = new byte[Math.Max(n, _scratch.Length * 2)];
    }
}
