using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Sharc.Format;

namespace Sharc.Sql.Values;

/// <summary>
/// One SQLite value — NULL, INTEGER, REAL, TEXT or BLOB — as the SQL engine passes it between operators.
/// </summary>
/// <remarks>
/// <para>Twenty-four bytes, no allocation for numbers. TEXT is always UTF-8; TEXT and BLOB are a slice
/// (array, offset, length) of a byte array, so a value can point straight into a record.</para>
/// <para><b>Lifetime rule.</b> A value made by <see cref="BorrowedText"/> or <see cref="BorrowedBlob"/> refers to
/// bytes someone else owns (a page, a record buffer a cursor reuses); it is valid only until that owner moves on,
/// typically the next row. Anything that keeps a value past the current row — aggregate state, sort and DISTINCT
/// buffers, result rows handed to the caller — must call <see cref="ToOwned"/> first. Operators and functions never
/// retain their arguments; a result may alias an argument (coalesce returns one of them), so a result is borrowed
/// when the argument it came from was.</para>
/// <para>Owned values made from a byte array take the array as is (no copy): the caller must not change it later.</para>
/// </remarks>
internal readonly struct SqlValue
{
    // Integer: the value. Real: its bits. Text/Blob: offset in the low 32 bits, length in the high 32 bits.
    private readonly long _word;
    private readonly byte[]? _bytes;
    private readonly SharcColumnType _type;
    private readonly bool _borrowed;
    // SQLite's JSON subtype: TEXT made by a JSON function, embedded as JSON (not quoted) by the next one.
    private readonly bool _json;

    private SqlValue(SharcColumnType type, long word, byte[]? bytes, bool borrowed, bool json = false)
    {
        _type = type;
        _word = word;
        _bytes = bytes;
        _borrowed = borrowed;
        _json = json;
    }

    /// <summary>True for TEXT a JSON function returned (SQLite's subtype 'J'): JSON functions take it as JSON, not as a string.</summary>
    public bool IsJson => _json;

    /// <summary>The same TEXT marked as JSON (see <see cref="IsJson"/>).</summary>
    public SqlValue AsJson() => _type == SharcColumnType.Text ? new(_type, _word, _bytes, _borrowed, json: true) : this;

    /// <summary>SQL NULL (also what <c>default(SqlValue)</c> is).</summary>
    public static SqlValue Null => default;

    /// <summary>The integer 0, SQLite's false.</summary>
    public static SqlValue False => new(SharcColumnType.Integer, 0, null, false);

    /// <summary>The integer 1, SQLite's true.</summary>
    public static SqlValue True => new(SharcColumnType.Integer, 1, null, false);

    /// <summary>An empty TEXT value.</summary>
    public static SqlValue EmptyText => new(SharcColumnType.Text, 0, Array.Empty<byte>(), false);

    /// <summary>An empty BLOB value.</summary>
    public static SqlValue EmptyBlob => new(SharcColumnType.Blob, 0, Array.Empty<byte>(), false);

    /// <summary>An INTEGER.</summary>
    public static SqlValue Integer(long value) => new(SharcColumnType.Integer, value, null, false);

    /// <summary>1 or 0.</summary>
    public static SqlValue Boolean(bool value) => new(SharcColumnType.Integer, value ? 1 : 0, null, false);

    /// <summary>A REAL; NaN becomes NULL, as SQLite never stores a NaN.</summary>
    public static SqlValue Real(double value)
        => double.IsNaN(value) ? default : new(SharcColumnType.Real, BitConverter.DoubleToInt64Bits(value), null, false);

    /// <summary>TEXT from a .NET string (encoded to UTF-8 once, here).</summary>
    public static SqlValue Text(string value) => value.Length == 0 ? EmptyText : OwnedText(Encoding.UTF8.GetBytes(value));

    /// <summary>TEXT that takes ownership of <paramref name="utf8"/> (no copy).</summary>
    public static SqlValue OwnedText(byte[] utf8) => Slice(SharcColumnType.Text, utf8, 0, utf8.Length, false);

    /// <summary>TEXT that takes ownership of a slice of <paramref name="utf8"/> (no copy).</summary>
    public static SqlValue OwnedText(byte[] utf8, int offset, int length) => Slice(SharcColumnType.Text, utf8, offset, length, false);

    /// <summary>TEXT that copies <paramref name="utf8"/>.</summary>
    public static SqlValue CopyText(ReadOnlySpan<byte> utf8) => utf8.Length == 0 ? EmptyText : OwnedText(utf8.ToArray());

    /// <summary>TEXT pointing into bytes owned elsewhere; see the lifetime rule on <see cref="SqlValue"/>.</summary>
    public static SqlValue BorrowedText(byte[] utf8, int offset, int length) => Slice(SharcColumnType.Text, utf8, offset, length, true);

    /// <summary>A BLOB that takes ownership of <paramref name="bytes"/> (no copy).</summary>
    public static SqlValue OwnedBlob(byte[] bytes) => Slice(SharcColumnType.Blob, bytes, 0, bytes.Length, false);

    /// <summary>A BLOB that takes ownership of a slice of <paramref name="bytes"/> (no copy).</summary>
    public static SqlValue OwnedBlob(byte[] bytes, int offset, int length) => Slice(SharcColumnType.Blob, bytes, offset, length, false);

    /// <summary>A BLOB that copies <paramref name="bytes"/>.</summary>
    public static SqlValue CopyBlob(ReadOnlySpan<byte> bytes) => bytes.Length == 0 ? EmptyBlob : OwnedBlob(bytes.ToArray());

    /// <summary>A BLOB pointing into bytes owned elsewhere; see the lifetime rule on <see cref="SqlValue"/>.</summary>
    public static SqlValue BorrowedBlob(byte[] bytes, int offset, int length) => Slice(SharcColumnType.Blob, bytes, offset, length, true);

    /// <summary>
    /// TEXT or BLOB over <paramref name="memory"/>: borrowed without a copy when it is backed by an array, copied
    /// (and then owned) otherwise.
    /// </summary>
    public static SqlValue FromMemory(SharcColumnType type, ReadOnlyMemory<byte> memory)
    {
        if (type is not (SharcColumnType.Text or SharcColumnType.Blob))
            throw new ArgumentOutOfRangeException(nameof(type), type, "Only TEXT and BLOB values have bytes.");
        if (MemoryMarshal.TryGetArray(memory, out ArraySegment<byte> seg) && seg.Array is not null)
            return Slice(type, seg.Array, seg.Offset, seg.Count, true);
        return type == SharcColumnType.Text ? CopyText(memory.Span) : CopyBlob(memory.Span);
    }

    private static SqlValue Slice(SharcColumnType type, byte[] bytes, int offset, int length, bool borrowed)
    {
        ArgumentNullException.ThrowIfNull(bytes);
        if ((uint)offset > (uint)bytes.Length || (uint)length > (uint)(bytes.Length - offset))
            throw new ArgumentOutOfRangeException(nameof(length), "The slice lies outside the array.");
        return new(type, (uint)offset | ((long)length << 32), bytes, borrowed);
    }

    /// <summary>
    /// A value from a .NET object, stored as Microsoft.Data.Sqlite stores it (see <see cref="ClrValues"/>): numbers,
    /// bool and enums as INTEGER or REAL, text-like values (decimal, char, dates and times, Guid) as TEXT, byte
    /// arrays and memory as BLOB, null and DBNull as NULL; or a <see cref="SqlValue"/> as it is.
    /// </summary>
    public static SqlValue FromObject(object? value) => value switch
    {
        null or DBNull => default,
        SqlValue v => v,
        long l => Integer(l),
        int i => Integer(i),
        double d => Real(d),
        string s => Text(s),
        byte[] a => OwnedBlob(a),
        _ => FromNormalized(ClrValues.Normalize(value), value),
    };

    private static SqlValue FromNormalized(object? normal, object original) => normal switch
    {
        null => default,
        long l => Integer(l),
        double d => Real(d),
        string s => Text(s),
        byte[] a => OwnedBlob(a),
        _ => throw ClrValues.Unsupported(original, "value"),
    };

    /// <summary>The storage class.</summary>
    public SharcColumnType Type => _type;

    /// <summary>True for NULL.</summary>
    public bool IsNull => _type == SharcColumnType.Null;

    /// <summary>True for INTEGER and REAL.</summary>
    public bool IsNumber => _type is SharcColumnType.Integer or SharcColumnType.Real;

    /// <summary>True for TEXT and BLOB.</summary>
    public bool HasBytes => _type is SharcColumnType.Text or SharcColumnType.Blob;

    /// <summary>True when the bytes belong to someone else (see the lifetime rule on <see cref="SqlValue"/>).</summary>
    public bool IsBorrowed => _borrowed;

    /// <summary>The integer of an INTEGER (no conversion; other classes give 0).</summary>
    public long IntegerValue => _type == SharcColumnType.Integer ? _word : 0;

    /// <summary>The double of a REAL (no conversion; other classes give 0).</summary>
    public double RealValue => _type == SharcColumnType.Real ? BitConverter.Int64BitsToDouble(_word) : 0;

    /// <summary>The bytes of a TEXT (UTF-8) or BLOB; empty for other classes.</summary>
    public ReadOnlySpan<byte> Bytes => _bytes is null ? default : new ReadOnlySpan<byte>(_bytes, (int)(uint)_word, (int)(_word >>> 32));

    /// <summary>The bytes of a TEXT or BLOB as memory over the same array.</summary>
    public ReadOnlyMemory<byte> Memory => _bytes is null ? default : new ReadOnlyMemory<byte>(_bytes, (int)(uint)_word, (int)(_word >>> 32));

    /// <summary>The length in bytes of a TEXT or BLOB.</summary>
    public int ByteLength => _bytes is null ? 0 : (int)(_word >>> 32);

    /// <summary>What <c>typeof()</c> returns: "null", "integer", "real", "text" or "blob".</summary>
    public string TypeName => TypeNameOf(_type);

    /// <summary>The <c>typeof()</c> name of a storage class.</summary>
    public static string TypeNameOf(SharcColumnType type) => type switch
    {
        SharcColumnType.Integer => "integer",
        SharcColumnType.Real => "real",
        SharcColumnType.Text => "text",
        SharcColumnType.Blob => "blob",
        _ => "null",
    };

    /// <summary>
    /// Part of a TEXT or BLOB's bytes as a value of the same class and ownership, sharing the array (no copy).
    /// </summary>
    public SqlValue Slice(int start, int length)
    {
        if (!HasBytes) throw new InvalidOperationException("Only TEXT and BLOB values can be sliced.");
        int len = ByteLength;
        if ((uint)start > (uint)len || (uint)length > (uint)(len - start))
            throw new ArgumentOutOfRangeException(nameof(length), "The slice lies outside the value.");
        int offset = (int)(uint)_word + start;
        return new(_type, (uint)offset | ((long)length << 32), _bytes, _borrowed);
    }

    /// <summary>A value safe to keep: borrowed bytes are copied; anything else is returned as is.</summary>
    public SqlValue ToOwned()
    {
        if (!_borrowed) return this;
        var copy = Bytes.ToArray();
        return new(_type, (long)copy.Length << 32, copy, false, _json);
    }

    /// <summary>The value as sqlite3_value_int64 reads it: reals truncate (saturating), text and blobs give their leading integer, NULL 0.</summary>
    public long ToInt64() => _type switch
    {
        SharcColumnType.Integer => _word,
        SharcColumnType.Real => ValueConvert.RealToInt64(RealValue),
        SharcColumnType.Text or SharcColumnType.Blob => ValueConvert.TextToInt64(Bytes),
        _ => 0,
    };

    /// <summary>The value as sqlite3_value_double reads it: text and blobs give their leading number (<see cref="SqlRealParser"/>), NULL 0.0.</summary>
    public double ToDouble() => _type switch
    {
        SharcColumnType.Integer => _word,
        SharcColumnType.Real => RealValue,
        SharcColumnType.Text or SharcColumnType.Blob => SqlRealParser.Parse(Bytes),
        _ => 0.0,
    };

    /// <summary>
    /// The value's text as SQLite renders it, without allocating: TEXT and BLOB return their bytes; numbers are
    /// written into <paramref name="buffer"/> (at least <see cref="NumberTextMax"/> bytes); NULL gives an empty span.
    /// </summary>
    public ReadOnlySpan<byte> TextBytes(Span<byte> buffer) => _type switch
    {
        SharcColumnType.Integer => buffer[..FormatInteger(_word, buffer)],
        SharcColumnType.Real => buffer[..ValueConvert.FormatReal(RealValue, buffer)],
        SharcColumnType.Text or SharcColumnType.Blob => Bytes,
        _ => default,
    };

    /// <summary>Bytes a buffer for <see cref="TextBytes"/> needs.</summary>
    public const int NumberTextMax = 40;

    /// <summary>The value converted to TEXT (NULL stays NULL); TEXT is returned as is.</summary>
    public SqlValue ToTextValue() => _type switch
    {
        SharcColumnType.Null or SharcColumnType.Text => this,
        SharcColumnType.Blob => new(SharcColumnType.Text, _word, _bytes, _borrowed),
        _ => NumberToText(),
    };

    /// <summary>The value converted to BLOB (NULL stays NULL); BLOB is returned as is.</summary>
    public SqlValue ToBlobValue() => _type switch
    {
        SharcColumnType.Null or SharcColumnType.Blob => this,
        SharcColumnType.Text => new(SharcColumnType.Blob, _word, _bytes, _borrowed),
        _ => NumberToText().ToBlobValue(),
    };

    private SqlValue NumberToText()
    {
        Span<byte> buf = stackalloc byte[NumberTextMax];
        return CopyText(TextBytes(buf));
    }

    /// <summary>The value's text as a .NET string (allocates), or null for NULL; numbers are rendered as SQLite renders them.</summary>
    public string? AsString() => _type switch
    {
        SharcColumnType.Null => null,
        SharcColumnType.Integer => _word.ToString(CultureInfo.InvariantCulture),
        SharcColumnType.Real => ValueConvert.RealToText(RealValue),
        _ => SqliteUtf8.GetString(Bytes),
    };

    /// <summary>The value as a .NET object: null, long, double, string (TEXT) or byte[] (BLOB, a copy).</summary>
    public object? ToObject() => _type switch
    {
        SharcColumnType.Null => null,
        SharcColumnType.Integer => _word,
        SharcColumnType.Real => RealValue,
        SharcColumnType.Text => SqliteUtf8.GetString(Bytes),
        _ => Bytes.ToArray(),
    };

    /// <summary>Writes a 64-bit integer in decimal; returns the length (at most 20).</summary>
    public static int FormatInteger(long value, Span<byte> dst)
    {
        value.TryFormat(dst, out int n, default, CultureInfo.InvariantCulture);
        return n;
    }

    /// <summary>A debugging view, in SQL literal form.</summary>
    public override string ToString() => _type switch
    {
        SharcColumnType.Null => "NULL",
        SharcColumnType.Integer => _word.ToString(CultureInfo.InvariantCulture),
        SharcColumnType.Real => RealValue.ToString("R", CultureInfo.InvariantCulture),
        SharcColumnType.Text => "'" + Encoding.UTF8.GetString(Bytes).Replace("'", "''", StringComparison.Ordinal) + "'",
        _ => "x'" + Convert.ToHexString(Bytes) + "'",
    };
}
