using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using Sharc.Format;

namespace Sharc.BTree;

/// <summary>Where a cell's payload is: its total size, the part stored on the page, and the first overflow page.</summary>
internal struct CellPayload
{
    public long RowId;
    public int PayloadSize;
    /// <summary>Offset of the payload's first byte within the page.</summary>
    public int LocalOffset;
    public int LocalSize;
    /// <summary>First overflow page, or 0 when the payload is entirely local.</summary>
    public uint Overflow;
}

/// <summary>Decodes the four cell formats, checking every length against the page bounds.</summary>
internal static class CellParser
{
    /// <summary>The largest payload SQLite will write (SQLITE_MAX_LENGTH is at most 2^31-1).</summary>
    private const long MaxPayload = int.MaxValue;

    /// <summary>How many payload bytes a cell keeps on the page (SQLite file format, section 1.6).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int LocalSize(long payload, int usable, bool tableLeaf)
    {
        int maxLocal = tableLeaf ? usable - 35 : IndexMaxLocal(usable);
        if (payload <= maxLocal) return (int)payload;
        int minLocal = ((usable - 12) * 32 / 255) - 23;
        long k = minLocal + ((payload - minLocal) % (usable - 4));
        return k <= maxLocal ? (int)k : minLocal;
    }

    /// <summary>The largest index payload a cell keeps whole on the page.</summary>
    public static int IndexMaxLocal(int usable) => ((usable - 12) * 64 / 255) - 23;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint LeftChild(ReadOnlySpan<byte> page, int cell) => BinaryPrimitives.ReadUInt32BigEndian(page[cell..]);

    /// <summary>The integer key of a table interior cell.</summary>
    public static long TableInteriorKey(ReadOnlySpan<byte> page, int cell, int usable, uint pageNumber)
    {
        if (cell + 4 >= usable) ThrowHelper.Corrupt("interior cell runs off the page", pageNumber, cell);
        int n = Varint.Read(page[(cell + 4)..usable], out long key);
        if (n == 0) ThrowHelper.Corrupt("interior cell key runs off the page", pageNumber, cell);
        return key;
    }

    /// <summary>Parses a table leaf cell: payload size, rowid, payload.</summary>
    public static void TableLeaf(ReadOnlySpan<byte> page, int cell, int usable, uint pageNumber, out CellPayload p)
    {
        var area = page[..usable];
        int n1 = Varint.Read(area[cell..], out long size);
        if (n1 == 0) ThrowHelper.Corrupt("cell payload size runs off the page", pageNumber, cell);
        int n2 = Varint.Read(area[(cell + n1)..], out long rowid);
        if (n2 == 0) ThrowHelper.Corrupt("cell rowid runs off the page", pageNumber, cell);
        p.RowId = rowid;
        Finish(area, cell, cell + n1 + n2, size, usable, true, pageNumber, out p.PayloadSize, out p.LocalOffset, out p.LocalSize, out p.Overflow);
    }

    /// <summary>Parses an index cell (leaf, or interior when <paramref name="interior"/>: a 4-byte child pointer first).</summary>
    public static void IndexCell(ReadOnlySpan<byte> page, int cell, int usable, uint pageNumber, bool interior, out CellPayload p)
    {
        var area = page[..usable];
        int start = interior ? cell + 4 : cell;
        if (start >= usable) ThrowHelper.Corrupt("cell runs off the page", pageNumber, cell);
        int n1 = Varint.Read(area[start..], out long size);
        if (n1 == 0) ThrowHelper.Corrupt("cell payload size runs off the page", pageNumber, cell);
        p.RowId = 0;
        Finish(area, cell, start + n1, size, usable, false, pageNumber, out p.PayloadSize, out p.LocalOffset, out p.LocalSize, out p.Overflow);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Finish(ReadOnlySpan<byte> area, int cell, int payloadStart, long size, int usable, bool tableLeaf, uint pageNumber,
        out int payloadSize, out int localOffset, out int localSize, out uint overflow)
    {
        if ((ulong)size > MaxPayload) ThrowHelper.Corrupt($"payload size {size} is impossible", pageNumber, cell);
        int local = LocalSize(size, usable, tableLeaf);
        int end = payloadStart + local + (local < size ? 4 : 0);
        if (end > usable) ThrowHelper.Corrupt("cell payload runs off the page", pageNumber, cell);
        payloadSize = (int)size;
        localOffset = payloadStart;
        localSize = local;
        overflow = local < size ? BinaryPrimitives.ReadUInt32BigEndian(area[(payloadStart + local)..]) : 0;
    }
}
