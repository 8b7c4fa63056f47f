using System.Text;
using Sharc.Format;
using Sharc.Sql.Values;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>Moves values between the SQL engine (UTF-8 <see cref="SqlValue"/>) and the writer (<see cref="StoredValue"/> in the database encoding).</summary>
internal static class WriteValues
{
    /// <summary>
    /// The value of each column of SET (a, b, …) = …: a row value's items, or each column of a subquery's first row
    /// (its width is checked when it is compiled, once "*" has been expanded).
    /// </summary>
    public static IReadOnlyList<Ast.SqlExpr> AssignedRow(string sql, Ast.SqlAssignment a)
    {
        switch (a.Value)
        {
            case Ast.SqlRowValueExpr row:
                if (row.Items.Count != a.Columns.Count) throw new SharcSqlException($"{a.Columns.Count} columns assigned {row.Items.Count} values", sql, a.Start);
                return row.Items;
            case Ast.SqlSubqueryExpr sub:
            {
                var items = new Ast.SqlExpr[a.Columns.Count];
                for (int i = 0; i < items.Length; i++)
                    items[i] = new Ast.SqlRowElementExpr(sub.Query, i, items.Length) { Start = a.Start, End = sub.End };
                return items;
            }
            default:
                throw new SharcSqlException($"{a.Columns.Count} columns assigned 1 values", sql, a.Start);
        }
    }

    /// <summary>A value about to be stored in a column: the column's affinity applied as SQLite applies it on store.</summary>
    public static void Store(ref StoredValue slot, ref byte[]? scratch, in SqlValue v, SharcAffinity affinity, SharcTextEncoding encoding)
    {
        switch (v.Type)
        {
            case SharcColumnType.Integer:
                StorageAffinity.SetInteger(ref slot, ref scratch, v.IntegerValue, affinity, encoding);
                break;
            case SharcColumnType.Real:
                StorageAffinity.SetReal(ref slot, ref scratch, v.RealValue, affinity, encoding);
                break;
            case SharcColumnType.Text:
                StorageAffinity.SetTextUtf8(ref slot, ref scratch, v.Bytes, affinity, encoding);
                break;
            case SharcColumnType.Blob:
                StorageAffinity.SetBlob(ref slot, ref scratch, v.Bytes);
                break;
            default:
                slot = StoredValue.Null;
                break;
        }
    }

    /// <summary>A stored value as the SQL engine sees it (text as UTF-8; borrowed from the stored bytes when they are UTF-8 already).</summary>
    public static SqlValue ToSql(in StoredValue v, SharcTextEncoding encoding) => v.Type switch
    {
        SharcColumnType.Integer => SqlValue.Integer(v.Integer),
        SharcColumnType.Real => SqlValue.Real(v.Real),
        SharcColumnType.Text when encoding == SharcTextEncoding.Utf8 => SqlValue.FromMemory(SharcColumnType.Text, v.Bytes),
        SharcColumnType.Text => SqlValue.Text(TextCodec.For(encoding).GetString(v.Bytes.Span)),
        SharcColumnType.Blob => SqlValue.FromMemory(SharcColumnType.Blob, v.Bytes),
        _ => SqlValue.Null,
    };

    /// <summary>A stored value of <paramref name="column"/>: a REAL column's integers read back as REAL, as SQLite reads them.</summary>
    public static SqlValue ToSql(in StoredValue v, SharcColumn column, SharcTextEncoding encoding)
        => v.Type == SharcColumnType.Integer && column.Affinity == SharcAffinity.Real ? SqlValue.Real(v.Integer) : ToSql(v, encoding);

    /// <summary>Fills <paramref name="values"/> with a stored row of <paramref name="table"/> as SQL values.</summary>
    public static void ToSql(ReadOnlySpan<StoredValue> row, SqlValue[] values, SharcTable table, SharcTextEncoding encoding)
    {
        for (int i = 0; i < row.Length; i++) values[i] = ToSql(row[i], table.Columns[i], encoding);
    }

    /// <summary>A value for a message or a .NET caller.</summary>
    public static string Describe(in SqlValue v) => v.Type == SharcColumnType.Text ? Encoding.UTF8.GetString(v.Bytes) : v.ToString();
}
