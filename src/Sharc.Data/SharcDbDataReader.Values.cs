using System.Data.Common;
using System.Diagnostics.CodeAnalysis;
using System.Text;

namespace Sharc.Data;

public sealed partial class SharcDbDataReader
{
    /// <inheritdoc/>
    public override string GetName(int ordinal) => Row(ordinal, needRow: false).GetName(ordinal);

    /// <summary>The ordinal of the column named <paramref name="name"/> (exact match first, then ignoring case).</summary>
    /// <exception cref="ArgumentOutOfRangeException">No column has that name (as Microsoft.Data.Sqlite throws).</exception>
    public override int GetOrdinal(string name) => Row(0, needRow: false, checkOrdinal: false).GetOrdinal(name);

    /// <summary>
    /// The column's declared type as written up to any "(" ("VARCHAR" for VARCHAR(10)); without one, the storage
    /// class of the current value (INTEGER, REAL, TEXT or BLOB; BLOB for NULL), as Microsoft.Data.Sqlite answers.
    /// </summary>
    public override string GetDataTypeName(int ordinal)
    {
        var r = Row(ordinal, needRow: false);
        string declared = r.GetDeclaredType(ordinal);
        int paren = declared.IndexOf('(', StringComparison.Ordinal);
        if (paren >= 0) declared = declared[..paren];
        declared = declared.Trim();
        if (declared.Length > 0) return declared;
        return (_onRow ? r.GetColumnType(ordinal) : SharcColumnType.Null) switch
        {
            SharcColumnType.Integer => "INTEGER",
            SharcColumnType.Real => "REAL",
            SharcColumnType.Text => "TEXT",
            _ => "BLOB",
        };
    }

    /// <summary>
    /// The .NET type of the current value (long, double, string or byte[]); for NULL or with no row, the type the
    /// column's declared affinity suggests (INTEGER long, REAL double, TEXT and NUMERIC string, none byte[]).
    /// </summary>
    [return: DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicFields | DynamicallyAccessedMemberTypes.PublicProperties)]
    public override Type GetFieldType(int ordinal)
    {
        var r = Row(ordinal, needRow: false);
        var type = _onRow ? r.GetColumnType(ordinal) : SharcColumnType.Null;
        return type switch
        {
            SharcColumnType.Integer => typeof(long),
            SharcColumnType.Real => typeof(double),
            SharcColumnType.Text => typeof(string),
            SharcColumnType.Blob => typeof(byte[]),
            _ => r.GetDeclaredAffinity(ordinal) switch
            {
                SharcAffinity.Integer => typeof(long),
                SharcAffinity.Real => typeof(double),
                SharcAffinity.Text or SharcAffinity.Numeric => typeof(string),
                _ => typeof(byte[]),
            },
        };
    }

    /// <inheritdoc/>
    public override bool IsDBNull(int ordinal) => Row(ordinal).IsNull(ordinal);

    /// <summary>The value as stored: long, double, string, byte[] or <see cref="DBNull.Value"/>.</summary>
    public override object GetValue(int ordinal)
    {
        var r = Row(ordinal);
        return r.IsNull(ordinal) ? DBNull.Value : r.GetValue(ordinal)!;
    }

    /// <inheritdoc/>
    public override int GetValues(object[] values)
    {
        ArgumentNullException.ThrowIfNull(values);
        int n = Math.Min(values.Length, FieldCount);
        for (int i = 0; i < n; i++) values[i] = GetValue(i);
        return n;
    }

    /// <inheritdoc/>
    public override bool GetBoolean(int ordinal) => NotNull(ordinal).GetBoolean(ordinal);

    /// <inheritdoc/>
    public override byte GetByte(int ordinal) => NotNull(ordinal).GetByte(ordinal);

    /// <inheritdoc/>
    public override char GetChar(int ordinal) => NotNull(ordinal).GetChar(ordinal);

    /// <inheritdoc/>
    public override DateTime GetDateTime(int ordinal) => NotNull(ordinal).GetDateTime(ordinal);

    /// <inheritdoc/>
    public override decimal GetDecimal(int ordinal) => NotNull(ordinal).GetDecimal(ordinal);

    /// <inheritdoc/>
    public override double GetDouble(int ordinal) => NotNull(ordinal).GetDouble(ordinal);

    /// <inheritdoc/>
    public override float GetFloat(int ordinal) => NotNull(ordinal).GetFloat(ordinal);

    /// <inheritdoc/>
    public override Guid GetGuid(int ordinal) => NotNull(ordinal).GetGuid(ordinal);

    /// <inheritdoc/>
    public override short GetInt16(int ordinal) => NotNull(ordinal).GetInt16(ordinal);

    /// <inheritdoc/>
    public override int GetInt32(int ordinal) => NotNull(ordinal).GetInt32(ordinal);

    /// <inheritdoc/>
    public override long GetInt64(int ordinal) => NotNull(ordinal).GetInt64(ordinal);

    /// <inheritdoc/>
    public override string GetString(int ordinal) => NotNull(ordinal).GetString(ordinal)!;

    /// <summary>
    /// The value converted as Microsoft.Data.Sqlite converts it (see <see cref="SharcDataReader.GetFieldValue{T}(int)"/>),
    /// plus <see cref="Stream"/> and <see cref="TextReader"/>. NULL is <see cref="DBNull.Value"/> for object, an empty
    /// reader for TextReader, and an error for every other type (as in Microsoft.Data.Sqlite).
    /// </summary>
    public override T GetFieldValue<T>(int ordinal)
    {
        var r = Row(ordinal);
        if (r.IsNull(ordinal))
        {
            if (typeof(T) == typeof(object) || typeof(T) == typeof(DBNull)) return (T)(object)DBNull.Value;
            if (typeof(T) == typeof(TextReader)) return (T)(object)new StringReader("");
            NullValue(ordinal);
        }
        if (typeof(T) == typeof(Stream)) return (T)(object)GetStream(ordinal);
        if (typeof(T) == typeof(TextReader)) return (T)(object)GetTextReader(ordinal);
        return r.GetFieldValue<T>(ordinal);
    }

    /// <summary>A read-only stream over the value's bytes (a copy, valid after the reader moves on).</summary>
    public override Stream GetStream(int ordinal) => new MemoryStream(NotNull(ordinal).GetBlobSpan(ordinal).ToArray(), writable: false);

    /// <summary>A reader over the value's text (empty for NULL).</summary>
    public override TextReader GetTextReader(int ordinal) => new StringReader(IsDBNull(ordinal) ? "" : GetString(ordinal));

    /// <inheritdoc/>
    public override long GetBytes(int ordinal, long dataOffset, byte[]? buffer, int bufferOffset, int length)
    {
        var bytes = NotNull(ordinal).GetBlobSpan(ordinal);
        if (buffer is null) return bytes.Length;
        int start = (int)Math.Min(dataOffset, bytes.Length);
        int n = Math.Min(length, bytes.Length - start);
        bytes.Slice(start, n).CopyTo(buffer.AsSpan(bufferOffset, n));
        return n;
    }

    /// <inheritdoc/>
    public override long GetChars(int ordinal, long dataOffset, char[]? buffer, int bufferOffset, int length)
    {
        string s = GetString(ordinal);
        if (buffer is null) return s.Length;
        int start = (int)Math.Min(dataOffset, s.Length);
        int n = Math.Min(length, s.Length - start);
        s.AsSpan(start, n).CopyTo(buffer.AsSpan(bufferOffset, n));
        return n;
    }

    private SharcDataReader Row(int ordinal, bool needRow = true, bool checkOrdinal = true)
    {
        if (_closed) throw Closed();
        var r = _current ?? throw new InvalidOperationException("The reader has no result set: the command returned no columns, or NextResult() went past the last.");
        if (needRow && (!_onRow || _firstPending)) throw new InvalidOperationException("No data exists for the row/column.");
        if (checkOrdinal && (uint)ordinal >= (uint)r.FieldCount) throw new ArgumentOutOfRangeException(nameof(ordinal), ordinal, $"Column ordinal must be in [0, {r.FieldCount}).");
        return r;
    }

    private SharcDataReader NotNull(int ordinal)
    {
        var r = Row(ordinal);
        if (r.IsNull(ordinal)) NullValue(ordinal);
        return r;
    }

    private static void NullValue(int ordinal)
        => throw new InvalidOperationException($"The data is NULL at ordinal {ordinal}. This method can't be called on NULL values. Check using IsDBNull before calling.");
}
