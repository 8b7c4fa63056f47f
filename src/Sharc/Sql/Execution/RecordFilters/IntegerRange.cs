using System.Runtime.CompilerServices;
using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution.RecordFilters;

/// <summary>
/// The shape most filtered scans have — one integer column compared with integer constants (<c>age = $age</c>,
/// <c>age &gt; 60</c>, <c>age BETWEEN 30 AND 40</c>) — as a closed range of that column, tested by walking the record
/// header once and comparing the stored integer in place. Anything the range cannot answer (a stored real, text or
/// blob, a header with multi-byte varints before the column, a column past the record's end) is Unknown, for the
/// general test to settle, so answers stay exactly the general path's.
/// </summary>
internal struct IntegerRange
{
    /// <summary>The record field tested; -1 when the filter does not have this shape (or its constants are not integers).</summary>
    public int Field;
    public long Low;
    public long High;

    // The body size of serial types 0..127 (a one-byte varint); 0xFF marks the reserved types 10 and 11.
    private static ReadOnlySpan<byte> Sizes =>
    [
        0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0xFF, 0xFF, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9,
        10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25,
        26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37, 38, 38, 39, 39, 40, 40, 41, 41,
        42, 42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52, 52, 53, 53, 54, 54, 55, 55, 56, 56, 57, 57,
    ];

    /// <summary>
    /// The range <paramref name="root"/> (after <see cref="RecordTest.Bind"/>) stands for: a comparison, or an AND of
    /// comparisons, all of one stored column under a numeric (or no) affinity with integer constants; else Field = -1.
    /// </summary>
    public static IntegerRange Of(RecordTest root)
    {
        var range = new IntegerRange { Field = -1, Low = long.MinValue, High = long.MaxValue };
        if (root is CompareTest c) return range.Narrow(c) ? range : Off;
        if (root is not LogicTest { IsAnd: true } l) return Off;
        foreach (var t in l.Terms)
            if (t is not CompareTest term || !range.Narrow(term)) return Off;
        return range;
    }

    private static IntegerRange Off => new() { Field = -1 };

    private bool Narrow(CompareTest c)
    {
        if (!c.TryIntegerConstant(out var column, out var op, out long k) || column.IsRowId) return false;
        if (Field >= 0 && Field != column.Field) return false;
        Field = column.Field;
        switch (op)
        {
            case SqlCompareOp.Eq:
                Low = Math.Max(Low, k);
                High = Math.Min(High, k);
                break;
            case SqlCompareOp.Ge:
                Low = Math.Max(Low, k);
                break;
            case SqlCompareOp.Le:
                High = Math.Min(High, k);
                break;
            case SqlCompareOp.Gt:
                if (k == long.MaxValue) Empty();
                else Low = Math.Max(Low, k + 1);
                break;
            case SqlCompareOp.Lt:
                if (k == long.MinValue) Empty();
                else High = Math.Min(High, k - 1);
                break;
            default:
                return false;
        }
        return true;
    }

    // No integer satisfies the range (Low > High); NULL still gives NULL, which rejects the row all the same.
    private void Empty()
    {
        Low = 1;
        High = 0;
    }

    /// <summary>True or False for a stored integer, Null for a stored NULL, Unknown for anything else.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly RecordTruth Test(ReadOnlySpan<byte> record)
    {
        int field = Field;
        if (record.Length == 0) return RecordTruth.Unknown;
        int header = record[0];
        if (header >= 0x80 || header > record.Length || field + 1 >= header) return RecordTruth.Unknown;
        var sizes = Sizes;
        int offset = header;
        for (int i = 1; i <= field; i++)
        {
            int t = record[i];
            if (t >= 0x80) return RecordTruth.Unknown;
            int size = sizes[t];
            if (size == 0xFF) return RecordTruth.Unknown;
            offset += size;
        }
        int type = record[field + 1];
        long x;
        switch (type)
        {
            case 0:
                return RecordTruth.Null;
            case 8:
                x = 0;
                break;
            case 9:
                x = 1;
                break;
            case >= 1 and <= 6 when offset + sizes[type] <= record.Length:
                x = SerialType.ReadInteger(type, record.Slice(offset));
                break;
            default:
                return RecordTruth.Unknown;
        }
        return x >= Low && x <= High ? RecordTruth.True : RecordTruth.False;
    }
}
