using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Sharc.BTree;

/// <summary>The four b-tree page types (first byte of the page header).</summary>
internal enum BTreePageType : byte
{
    InteriorIndex = 2,
    InteriorTable = 5,
    LeafIndex = 10,
    LeafTable = 13,
}

/// <summary>
/// The parsed header of one b-tree page, validated so that every cell pointer it implies lies on the page.
/// </summary>
internal readonly struct BTreePageHeader
{
    public readonly BTreePageType Type;
    public readonly int CellCount;
    /// <summary>Offset of the cell pointer array within the page.</summary>
    public readonly int CellPointers;
    /// <summary>Right-most child of an interior page; 0 for leaves.</summary>
    public readonly uint RightChild;
    public readonly int FirstFreeblock;
    public readonly int CellContentStart;
    public readonly int FragmentedBytes;

    private BTreePageHeader(BTreePageType type, int cellCount, int cellPointers, uint rightChild, int freeblock, int contentStart, int fragmented)
    {
        Type = type;
        CellCount = cellCount;
        CellPointers = cellPointers;
        RightChild = rightChild;
        FirstFreeblock = freeblock;
        CellContentStart = contentStart;
        FragmentedBytes = fragmented;
    }

    public bool IsLeaf
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ((byte)Type & 8) != 0;
    }

    public bool IsTable
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ((byte)Type & 1) != 0;
    }

    /// <summary>The header starts at 100 on page 1 (after the database header) and at 0 elsewhere.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int HeaderOffset(uint pageNumber) => pageNumber == 1 ? 100 : 0;

    /// <summary>The cell count alone, without checking the rest of the header.</summary>
    public static int CellCountOf(ReadOnlySpan<byte> page, uint pageNumber) => BinaryPrimitives.ReadUInt16BigEndian(page[(HeaderOffset(pageNumber) + 3)..]);

    public static BTreePageHeader Parse(ReadOnlySpan<byte> page, uint pageNumber, int usableSize)
    {
        int h = HeaderOffset(pageNumber);
        var type = (BTreePageType)page[h];
        if (type is not (BTreePageType.InteriorIndex or BTreePageType.InteriorTable or BTreePageType.LeafIndex or BTreePageType.LeafTable))
            InvalidType(page[h], pageNumber, h);

        bool leaf = ((byte)type & 8) != 0;
        int headerSize = leaf ? 8 : 12;
        int cellCount = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 3)..]);
        int contentStart = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 5)..]);
        if (contentStart == 0) contentStart = 65536;
        int ptrs = h + headerSize;
        if (ptrs + 2 * cellCount > usableSize) TooManyCells(cellCount, pageNumber, h + 3);
        uint right = leaf ? 0 : BinaryPrimitives.ReadUInt32BigEndian(page[(h + 8)..]);
        return new BTreePageHeader(type, cellCount, ptrs, right,
            BinaryPrimitives.ReadUInt16BigEndian(page[(h + 1)..]), contentStart, page[h + 7]);
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void InvalidType(byte type, uint page, int at) => ThrowHelper.Corrupt($"invalid b-tree page type {type}", page, at);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void TooManyCells(int count, uint page, int at) => ThrowHelper.Corrupt($"{count} cells do not fit on the page", page, at);

    /// <summary>The offset of cell <paramref name="index"/>, checked to lie inside the cell content area.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int CellOffset(ReadOnlySpan<byte> page, int index, uint pageNumber, int usableSize)
    {
        int off = BinaryPrimitives.ReadUInt16BigEndian(page[(CellPointers + 2 * index)..]);
        if (off < CellPointers + 2 * CellCount || off >= usableSize)
            ThrowHelper.CellPointerOutside(index, off, pageNumber, CellPointers + 2 * index);
        return off;
    }
}
