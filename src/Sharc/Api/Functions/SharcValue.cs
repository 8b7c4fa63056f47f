using System.Text;
using Sharc.Sql.Values;

namespace Sharc;

/// <summary>
/// One SQL value as a user-defined function sees it or returns it: NULL, INTEGER, REAL, TEXT or BLOB, without boxing.
/// Text and blob arguments may point into the database's pages: read them during the call (copy what you keep).
/// </summary>
public readonly struct SharcValue
{
    internal readonly SqlValue Value;

    internal SharcValue(SqlValue value) => Value = value;

    /// <summary>SQL NULL.</summary>
    public static SharcValue Null => default;

    /// <summary>The storage class.</summary>
    public SharcColumnType Type => Value.Type;

    /// <summary>True for SQL NULL.</summary>
    public bool IsNull => Value.IsNull;

    /// <summary>The value as SQLite's sqlite3_value_int64 reads it (reals truncate, text gives its leading integer, NULL 0).</summary>
    public long AsInt64() => Value.ToInt64();

    /// <summary>The value as sqlite3_value_double reads it (text gives its leading number, NULL 0.0).</summary>
    public double AsDouble() => Value.ToDouble();

    /// <summary>The value's text (numbers rendered as SQLite renders them), or null for NULL. Allocates a string.</summary>
    public string? AsString() => Value.AsString();

    /// <summary>
    /// The bytes of a TEXT (UTF-8) or BLOB value without copying; empty for NULL and numbers (use <see cref="AsString"/>
    /// for their text).
    /// </summary>
    public ReadOnlySpan<byte> AsBytes() => Value.HasBytes ? Value.Bytes : default;

    /// <summary>The value as a .NET object: null, long, double, string or byte[] (a copy).</summary>
    public object? ToObject() => Value.ToObject();

    /// <summary>An INTEGER.</summary>
    public static SharcValue FromInt64(long value) => new(SqlValue.Integer(value));

    /// <summary>A REAL (NaN becomes NULL, as in SQLite).</summary>
    public static SharcValue FromDouble(double value) => new(SqlValue.Real(value));

    /// <summary>A TEXT value, or NULL for a null string.</summary>
    public static SharcValue FromText(string? value) => value is null ? default : new(SqlValue.Text(value));

    /// <summary>A TEXT value from UTF-8 bytes (copied).</summary>
    public static SharcValue FromUtf8(ReadOnlySpan<byte> utf8) => new(SqlValue.CopyText(utf8));

    /// <summary>A BLOB (copied), or NULL for a null array.</summary>
    public static SharcValue FromBlob(ReadOnlySpan<byte> bytes) => new(SqlValue.CopyBlob(bytes));

    /// <summary>A value from a .NET object, stored as <see cref="SharcDatabase.Query(string, object?[])"/> binds parameters.</summary>
    public static SharcValue FromObject(object? value) => value is SharcValue v ? v : new(SqlValue.FromObject(value));

    /// <summary>An INTEGER.</summary>
    public static implicit operator SharcValue(long value) => FromInt64(value);

    /// <summary>A REAL.</summary>
    public static implicit operator SharcValue(double value) => FromDouble(value);

    /// <summary>A TEXT value (NULL for null).</summary>
    public static implicit operator SharcValue(string? value) => FromText(value);

    /// <summary>The value as SQL would write it in a result: NULL, a number, or the text.</summary>
    public override string ToString() => Value.Type switch
    {
        SharcColumnType.Null => "NULL",
        SharcColumnType.Blob => "x'" + Convert.ToHexString(Value.Bytes) + "'",
        _ => Value.AsString() ?? "",
    };
}

/// <summary>
/// A scalar SQL function over arguments as <see cref="SharcValue"/>s: no boxing, text and blobs as spans.
/// <paramref name="args"/> is valid only during the call.
/// </summary>
public delegate SharcValue SharcScalarFunction(ReadOnlySpan<SharcValue> args);
