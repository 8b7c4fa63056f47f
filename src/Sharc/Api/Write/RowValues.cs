using System.Text;
using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Write;

/// <summary>
/// Moves values between the writer's stored form (text in the database encoding) and the SQL engine's form
/// (text always UTF-8), so that expressions over a row being written see what SQLite's VDBE would see.
/// </summary>
internal static class RowValues
{
    /// <summary>A stored value as the expression engine reads it (UTF-8 text borrowed when no transcoding is needed).</summary>
    public static SqlValue ToSql(in StoredValue v, SharcTextEncoding encoding) => v.Type switch
    {
        SharcColumnType.Integer => SqlValue.Integer(v.Integer),
        SharcColumnType.Real => SqlValue.Real(v.Real),
        SharcColumnType.Blob => v.Bytes.Length == 0 ? SqlValue.EmptyBlob : SqlValue.FromMemory(SharcColumnType.Blob, v.Bytes),
        SharcColumnType.Text when v.Bytes.Length == 0 => SqlValue.EmptyText,
        SharcColumnType.Text when encoding == SharcTextEncoding.Utf8 => SqlValue.FromMemory(SharcColumnType.Text, v.Bytes),
        SharcColumnType.Text => SqlValue.OwnedText(Encoding.UTF8.GetBytes(TextCodec.For(encoding).GetString(v.Bytes.Span))),
        _ => SqlValue.Null,
    };

    /// <summary>
    /// A table row as expressions read it: like <see cref="ToSql"/>, except that a REAL column's integral value
    /// (stored as an integer to save space) reads as REAL, as SQLite reads it.
    /// </summary>
    public static void ToSqlRow(StoredValue[] row, SharcTable table, SharcTextEncoding encoding, SqlValue[] into)
    {
        var columns = table.Columns;
        for (int c = 0; c < into.Length; c++)
        {
            into[c] = row[c].Type == SharcColumnType.Integer && columns[c].Affinity == SharcAffinity.Real
                ? SqlValue.Real(row[c].Integer)
                : ToSql(row[c], encoding);
        }
    }

    /// <summary>
    /// A computed value to store: a generated column's value takes the column's affinity; an index expression's
    /// value takes none (<see cref="SharcAffinity.Blob"/>). Text and blobs are copied (the result outlives the evaluation).
    /// </summary>
    public static StoredValue ToStored(in SqlValue v, SharcAffinity affinity, SharcTextEncoding encoding) => v.Type switch
    {
        SharcColumnType.Null => StoredValue.Null,
        SharcColumnType.Blob => StoredValue.FromBlob(v.Bytes.ToArray()),
        _ => StorageAffinity.FromObject(v.ToObject(), affinity, encoding),
    };

    /// <summary>A stored value as a .NET object (text decoded from the database encoding), for affinity conversions.</summary>
    public static object? ToObject(in StoredValue v, SharcTextEncoding encoding) => v.Type switch
    {
        SharcColumnType.Integer => v.Integer,
        SharcColumnType.Real => v.Real,
        SharcColumnType.Text => TextCodec.For(encoding).GetString(v.Bytes.Span),
        SharcColumnType.Blob => v.Bytes.ToArray(),
        _ => null,
    };
}
