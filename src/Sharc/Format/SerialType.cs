using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Sharc.Format;

/// <summary>
/// Record serial types: how a value is stored in a record body, and how many bytes it takes.
/// </summary>
internal static class SerialType
{
    private static ReadOnlySpan<byte> FixedSizes => [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0];

    /// <summary>The size in bytes of a value of this serial type; -1 for the reserved types 10 and 11.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long ContentSize(long serialType)
    {
        if ((ulong)serialType < 12)
        {
            return serialType is 10 or 11 ? -1 : FixedSizes[(int)serialType];
        }
        return serialType < 0 ? -1 : (serialType - 12) >> 1;
    }

    /// <summary>The storage class of a value of this serial type.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static SharcColumnType StorageClass(long serialType) => serialType switch
    {
        0 => SharcColumnType.Null,
        <= 6 or 8 or 9 => SharcColumnType.Integer,
        7 => SharcColumnType.Real,
        _ => (serialType & 1) == 0 ? SharcColumnType.Blob : SharcColumnType.Text,
    };

    /// <summary>True for the integer serial types (1–6, 8, 9).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsInteger(long serialType) => (ulong)(serialType - 1) < 6 || serialType is 8 or 9;

    /// <summary>Decodes an integer serial type (1–6, 8, 9) from its content bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long ReadInteger(long serialType, ReadOnlySpan<byte> b) => serialType switch
    {
        1 => (sbyte)b[0],
        2 => BinaryPrimitives.ReadInt16BigEndian(b),
        3 => ((sbyte)b[0] << 16) | (b[1] << 8) | b[2],
        4 => BinaryPrimitives.ReadInt32BigEndian(b),
        5 => ((long)BinaryPrimitives.ReadInt16BigEndian(b) << 32) | BinaryPrimitives.ReadUInt32BigEndian(b[2..]),
        6 => BinaryPrimitives.ReadInt64BigEndian(b),
        8 => 0,
        9 => 1,
        _ => 0,
    };

    /// <summary>
    /// The last field of <paramref name="record"/> when it is an integer and the header is short: a one-byte header
    /// size and one-byte serial types (an index entry's trailing rowid, nearly always). False for anything else, which
    /// the caller decodes the general way (and checks).
    /// </summary>
    public static bool TryReadLastInteger(ReadOnlySpan<byte> record, out long value)
    {
        value = 0;
        if (record.Length < 2) return false;
        int header = record[0];
        if (header < 2 || header >= 0x80 || header > record.Length) return false;
        int body = header;
        for (int i = 1; i < header - 1; i++)
        {
            int type = record[i];
            if (type >= 0x80 || type is 10 or 11) return false;
            body += (int)ContentSize(type);
        }
        int last = record[header - 1];
        if (!IsInteger(last)) return false;
        int size = FixedSizes[last];
        if (body + size != record.Length) return false;
        value = ReadInteger(last, record.Slice(body, size));
        return true;
    }

    /// <summary>Decodes a serial type 7 value.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static double ReadReal(ReadOnlySpan<byte> b) => BinaryPrimitives.ReadDoubleBigEndian(b);
}
