using System.Runtime.CompilerServices;
using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution.RecordFilters;

/// <summary>
/// Where a tested column lives in the record: a field, or the row's key (an INTEGER PRIMARY KEY alias). Stored text
/// is only compared in a UTF-8 database (<paramref name="Utf8"/>): constants are UTF-8.
/// </summary>
internal readonly record struct RecordColumn(int Field, bool Utf8)
{
    /// <summary>The rowid (or the column that aliases it), which the record does not hold.</summary>
    public static readonly RecordColumn RowId = new(-1, true);

    public bool IsRowId => Field < 0;
}

/// <summary>
/// One column's value as it lies in a record: its storage class and, for numbers, the decoded number; text and
/// blobs stay in place. Nothing is copied.
/// </summary>
internal ref struct StoredValue
{
    public SharcColumnType Type;
    public long Integer;
    public double Real;
    public ReadOnlySpan<byte> Bytes;

    /// <summary>
    /// Reads <paramref name="column"/> of <paramref name="record"/>. Returns <see cref="RecordTruth.True"/> with the
    /// value, or <see cref="RecordTruth.Unknown"/> when the bytes do not hold it (a field past the record's end —
    /// a column added later, whose value is its default — or a malformed header, which the general path reports).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryRead(ReadOnlySpan<byte> record, long rowId, RecordColumn column, out StoredValue value)
    {
        value = default;
        if (column.IsRowId)
        {
            value.Type = SharcColumnType.Integer;
            value.Integer = rowId;
            return true;
        }
        if (!TryField(record, column.Field, out long type, out var body)) return false;
        switch (type)
        {
            case 0:
                value.Type = SharcColumnType.Null;
                return true;
            case 7:
                value.Real = SerialType.ReadReal(body);
                // SQLite never stores a NaN (it stores NULL); a file that does is left to the general path.
                if (double.IsNaN(value.Real)) return false;
                value.Type = SharcColumnType.Real;
                return true;
            case 10 or 11:
                return false;
            case < 12:
                value.Type = SharcColumnType.Integer;
                value.Integer = SerialType.ReadInteger(type, body);
                return true;
            default:
                value.Type = (type & 1) == 0 ? SharcColumnType.Blob : SharcColumnType.Text;
                value.Bytes = body;
                return value.Type == SharcColumnType.Blob || column.Utf8;
        }
    }

    /// <summary>The serial type and body of field <paramref name="field"/>; false when the record does not hold it whole.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryField(ReadOnlySpan<byte> record, int field, out long type, out ReadOnlySpan<byte> body)
    {
        type = 0;
        body = default;
        if (record.IsEmpty) return false;
        int at;
        long headerSize;
        if (record[0] < 0x80)
        {
            headerSize = record[0];
            at = 1;
        }
        else
        {
            at = Varint.Read(record, out headerSize);
            if (at == 0) return false;
        }
        if (headerSize > record.Length) return false;
        int end = (int)headerSize;
        long offset = headerSize;
        for (int i = 0; ; i++)
        {
            if (at >= end) return false;
            long t;
            byte b = record[at];
            if (b < 0x80)
            {
                t = b;
                at++;
            }
            else
            {
                int n = Varint.Read(record[at..end], out t);
                if (n == 0) return false;
                at += n;
            }
            long size = SerialType.ContentSize(t);
            if (size < 0) return false;
            if (i == field)
            {
                if (offset + size > record.Length) return false;
                type = t;
                body = record.Slice((int)offset, (int)size);
                return true;
            }
            offset += size;
        }
    }
}

/// <summary>
/// SQLite's comparison of a stored value with a constant, after the comparison affinity: the constant already has it
/// (applied once per run), and the stored value is only compared where applying it would change nothing — numeric
/// affinity with a stored number or blob, TEXT affinity with stored text or a blob, or no affinity. Anything else
/// (stored text under numeric affinity, a stored number under TEXT affinity) is left to the general evaluator.
/// </summary>
internal static class StoredCompare
{
    /// <summary>Compares non-NULL <paramref name="x"/> with non-NULL <paramref name="k"/>; false when it cannot on bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryCompare(in StoredValue x, in SqlValue k, SqlAffinity affinity, Collation collation, out int c)
    {
        c = 0;
        switch (x.Type)
        {
            case SharcColumnType.Integer:
                if (affinity == SqlAffinity.Text) return false;
                c = k.Type switch
                {
                    SharcColumnType.Integer => x.Integer.CompareTo(k.IntegerValue),
                    SharcColumnType.Real => SqlCompare.CompareIntegerReal(x.Integer, k.RealValue),
                    _ => -1,
                };
                return true;
            case SharcColumnType.Real:
                if (affinity == SqlAffinity.Text) return false;
                switch (k.Type)
                {
                    case SharcColumnType.Integer:
                        c = -SqlCompare.CompareIntegerReal(k.IntegerValue, x.Real);
                        break;
                    case SharcColumnType.Real:
                        double r = k.RealValue;
                        c = x.Real < r ? -1 : x.Real > r ? 1 : 0;
                        break;
                    default:
                        c = -1;
                        break;
                }
                return true;
            case SharcColumnType.Text:
                if (SqlAffinities.IsNumeric(affinity)) return false;
                c = k.Type switch
                {
                    SharcColumnType.Integer or SharcColumnType.Real => 1,
                    SharcColumnType.Text => collation == Collation.Binary ? Sign(x.Bytes.SequenceCompareTo(k.Bytes)) : CollationCompare.CompareUtf8(collation, x.Bytes, k.Bytes),
                    _ => -1,
                };
                return true;
            default:
                c = k.Type == SharcColumnType.Blob ? Sign(x.Bytes.SequenceCompareTo(k.Bytes)) : 1;
                return true;
        }
    }

    /// <summary>True when the byte path can compare with collation <paramref name="c"/> (user collations it cannot).</summary>
    public static bool Supports(Collation c) => c is Collation.Binary or Collation.NoCase or Collation.RTrim;

    private static int Sign(int c) => c < 0 ? -1 : c > 0 ? 1 : 0;
}
