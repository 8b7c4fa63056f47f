using System.Buffers.Binary;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Edits one b-tree page in place the way SQLite lays pages out: cells grow down from the end of the usable
/// area, the pointer array grows up after the header, freed cells join a sorted, coalesced freeblock list, and
/// slivers under 4 bytes are counted as fragmented bytes. When space is scattered the page is defragmented.
/// </summary>
internal static class PageWriter
{
    public const int MaxFragmentedBytes = 60;

    public static int HeaderSize(BTreePageType type) => ((byte)type & 8) != 0 ? 8 : 12;

    /// <summary>Writes an empty page of <paramref name="type"/> (header at 100 on page 1).</summary>
    public static void Initialize(Span<byte> page, uint pageNumber, BTreePageType type, int usable)
    {
        int h = BTreePageHeader.HeaderOffset(pageNumber);
        page[h..usable].Clear();
        page[h] = (byte)type;
        BinaryPrimitives.WriteUInt16BigEndian(page[(h + 5)..], (ushort)(usable == 65536 ? 0 : usable));
    }

    /// <summary>Total free bytes: the gap between pointer array and content, freeblocks, and fragments.</summary>
    public static int FreeSpace(ReadOnlySpan<byte> page, uint pageNumber, int usable)
    {
        int h = BTreePageHeader.HeaderOffset(pageNumber);
        var type = (BTreePageType)page[h];
        int nCell = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 3)..]);
        int content = ContentStart(page, h);
        int free = content - (h + HeaderSize(type) + 2 * nCell) + page[h + 7];
        int block = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 1)..]);
        int guard = 0;
        while (block != 0)
        {
            if (block + 4 > usable || ++guard > usable / 4) ThrowHelper.Corrupt("freeblock list is malformed", pageNumber, block);
            free += BinaryPrimitives.ReadUInt16BigEndian(page[(block + 2)..]);
            block = BinaryPrimitives.ReadUInt16BigEndian(page[block..]);
        }
        return free;
    }

    private static int ContentStart(ReadOnlySpan<byte> page, int h)
    {
        int c = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 5)..]);
        return c == 0 ? 65536 : c;
    }

    private static void SetContentStart(Span<byte> page, int h, int value)
        => BinaryPrimitives.WriteUInt16BigEndian(page[(h + 5)..], (ushort)(value == 65536 ? 0 : value));

    /// <summary>
    /// Inserts <paramref name="cell"/> as cell number <paramref name="index"/> if the page has room (reusing a
    /// freeblock, else the gap, else after defragmenting). Returns false, leaving the page untouched, when it does not fit.
    /// </summary>
    public static bool TryInsert(Span<byte> page, uint pageNumber, int usable, int index, ReadOnlySpan<byte> cell)
    {
        int h = BTreePageHeader.HeaderOffset(pageNumber);
        var type = (BTreePageType)page[h];
        int nCell = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 3)..]);
        int ptrs = h + HeaderSize(type);
        int size = Math.Max(cell.Length, 4);
        if (FreeSpace(page, pageNumber, usable) < size + 2) return false;

        int content = ContentStart(page, h);
        int gap = content - (ptrs + 2 * nCell);
        int at = -1;
        if (gap >= 2 && (page[h + 1] | page[h + 2]) != 0) at = TakeFromFreeblocks(page, h, size, pageNumber, usable);
        if (at < 0)
        {
            if (gap < size + 2)
            {
                Defragment(page, pageNumber, usable);
                content = ContentStart(page, h);
            }
            at = content - size;
            SetContentStart(page, h, at);
        }
        cell.CopyTo(page[at..]);
        // Open a slot in the pointer array.
        int slot = ptrs + 2 * index;
        page.Slice(slot, 2 * (nCell - index)).CopyTo(page[(slot + 2)..]);
        BinaryPrimitives.WriteUInt16BigEndian(page[slot..], (ushort)at);
        BinaryPrimitives.WriteUInt16BigEndian(page[(h + 3)..], (ushort)(nCell + 1));
        return true;
    }

    /// <summary>First fit in the freeblock list; a remainder under 4 bytes becomes fragmentation.</summary>
    private static int TakeFromFreeblocks(Span<byte> page, int h, int size, uint pageNumber, int usable)
    {
        int prev = h + 1;
        int block = BinaryPrimitives.ReadUInt16BigEndian(page[prev..]);
        int guard = 0;
        while (block != 0)
        {
            if (block + 4 > usable || ++guard > usable / 4) ThrowHelper.Corrupt("freeblock list is malformed", pageNumber, block);
            int blockSize = BinaryPrimitives.ReadUInt16BigEndian(page[(block + 2)..]);
            int next = BinaryPrimitives.ReadUInt16BigEndian(page[block..]);
            if (blockSize >= size)
            {
                int rest = blockSize - size;
                if (rest < 4)
                {
                    if (page[h + 7] + rest > MaxFragmentedBytes) return -1;
                    BinaryPrimitives.WriteUInt16BigEndian(page[prev..], (ushort)next);
                    page[h + 7] += (byte)rest;
                    return block;
                }
                BinaryPrimitives.WriteUInt16BigEndian(page[(block + 2)..], (ushort)rest);
                return block + rest;
            }
            prev = block;
            block = next;
        }
        return -1;
    }

    /// <summary>Removes cell <paramref name="index"/> (of <paramref name="cellSize"/> bytes) and frees its space.</summary>
    public static void Remove(Span<byte> page, uint pageNumber, int usable, int index, int cellSize)
    {
        int h = BTreePageHeader.HeaderOffset(pageNumber);
        var type = (BTreePageType)page[h];
        int nCell = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 3)..]);
        int ptrs = h + HeaderSize(type);
        int slot = ptrs + 2 * index;
        int at = BinaryPrimitives.ReadUInt16BigEndian(page[slot..]);
        page.Slice(slot + 2, 2 * (nCell - index - 1)).CopyTo(page[slot..]);
        BinaryPrimitives.WriteUInt16BigEndian(page[(h + 3)..], (ushort)(nCell - 1));
        Free(page, h, at, Math.Max(cellSize, 4), pageNumber, usable);
    }

    /// <summary>
    /// Returns [start, start+size) to the page: merged into the sorted freeblock list with neighbours closer than 4
    /// bytes (absorbing the fragments between them), or into the gap when it borders the cell content start.
    /// </summary>
    private static void Free(Span<byte> page, int h, int start, int size, uint pageNumber, int usable)
    {
        int end = start + size;
        int prev = 0; // 0: the list head lives in the page header
        int block = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 1)..]);
        int guard = 0;
        while (block != 0 && block < start)
        {
            if (++guard > usable / 4) ThrowHelper.Corrupt("freeblock list is malformed", pageNumber, block);
            prev = block;
            block = BinaryPrimitives.ReadUInt16BigEndian(page[block..]);
        }
        int frag = page[h + 7];
        // Coalesce with the following block.
        if (block != 0 && block <= end + 3)
        {
            frag -= block - end;
            end = block + BinaryPrimitives.ReadUInt16BigEndian(page[(block + 2)..]);
            block = BinaryPrimitives.ReadUInt16BigEndian(page[block..]);
        }
        // Coalesce with the preceding block.
        if (prev != 0)
        {
            int prevEnd = prev + BinaryPrimitives.ReadUInt16BigEndian(page[(prev + 2)..]);
            if (prevEnd + 3 >= start)
            {
                frag -= start - prevEnd;
                start = prev;
                prev = FindPredecessor(page, h, prev);
            }
        }
        if (frag < 0) ThrowHelper.Corrupt("fragmented byte count is smaller than the gaps it covers", pageNumber, h + 7);
        page[h + 7] = (byte)frag;

        int content = ContentStart(page, h);
        if (start <= content)
        {
            // The freed space borders the gap: it simply becomes part of it.
            SetContentStart(page, h, end);
            Link(page, h, prev, block);
            return;
        }
        BinaryPrimitives.WriteUInt16BigEndian(page[start..], (ushort)block);
        BinaryPrimitives.WriteUInt16BigEndian(page[(start + 2)..], (ushort)(end - start));
        Link(page, h, prev, start);
    }

    private static int FindPredecessor(ReadOnlySpan<byte> page, int h, int target)
    {
        int prev = 0;
        int block = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 1)..]);
        while (block != 0 && block != target)
        {
            prev = block;
            block = BinaryPrimitives.ReadUInt16BigEndian(page[block..]);
        }
        return prev;
    }

    private static void Link(Span<byte> page, int h, int prev, int next)
    {
        if (prev == 0) BinaryPrimitives.WriteUInt16BigEndian(page[(h + 1)..], (ushort)next);
        else BinaryPrimitives.WriteUInt16BigEndian(page[prev..], (ushort)next);
    }

    /// <summary>Moves every cell to the end of the page so all free space is one gap (no freeblocks, no fragments).</summary>
    public static void Defragment(Span<byte> page, uint pageNumber, int usable)
    {
        int h = BTreePageHeader.HeaderOffset(pageNumber);
        var type = (BTreePageType)page[h];
        int nCell = BinaryPrimitives.ReadUInt16BigEndian(page[(h + 3)..]);
        int ptrs = h + HeaderSize(type);
        byte[] copy = System.Buffers.ArrayPool<byte>.Shared.Rent(usable);
        try
        {
            page[..usable].CopyTo(copy);
            var src = copy.AsSpan(0, usable);
            int top = usable;
            for (int i = 0; i < nCell; i++)
            {
                int at = BinaryPrimitives.ReadUInt16BigEndian(src[(ptrs + 2 * i)..]);
                int len = CellSize.Of(src, at, type, usable, pageNumber);
                top -= len;
                if (top < ptrs + 2 * nCell) ThrowHelper.Corrupt("cells overflow the page", pageNumber, at);
                src.Slice(at, len).CopyTo(page[top..]);
                BinaryPrimitives.WriteUInt16BigEndian(page[(ptrs + 2 * i)..], (ushort)top);
            }
            page[(ptrs + 2 * nCell)..top].Clear();
        }
        finally
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(copy);
        }
        BinaryPrimitives.WriteUInt16BigEndian(page[(h + 1)..], 0);
        page[h + 7] = 0;
        int newTop = usable;
        for (int i = 0; i < nCell; i++) newTop = Math.Min(newTop, BinaryPrimitives.ReadUInt16BigEndian(page[(ptrs + 2 * i)..]));
        SetContentStart(page, h, newTop);
    }

    /// <summary>
    /// Rewrites a page from scratch with the given cells (in order) and, for interior pages, right child.
    /// The caller has checked that they fit.
    /// </summary>
    public static void Build(Span<byte> page, uint pageNumber, int usable, BTreePageType type, ReadOnlySpan<byte> arena, ReadOnlySpan<CellRef> cells, uint rightChild)
    {
        int h = BTreePageHeader.HeaderOffset(pageNumber);
        Initialize(page, pageNumber, type, usable);
        int ptrs = h + HeaderSize(type);
        int top = usable;
        for (int i = 0; i < cells.Length; i++)
        {
            var c = arena.Slice(cells[i].Offset, cells[i].Length);
            int len = Math.Max(c.Length, 4);
            top -= len;
            c.CopyTo(page[top..]);
            BinaryPrimitives.WriteUInt16BigEndian(page[(ptrs + 2 * i)..], (ushort)top);
        }
        if (top < ptrs + 2 * cells.Length) ThrowHelper.Corrupt("cells do not fit the page being built", pageNumber);
        BinaryPrimitives.WriteUInt16BigEndian(page[(h + 3)..], (ushort)cells.Length);
        SetContentStart(page, h, top);
        if (((byte)type & 8) == 0) BinaryPrimitives.WriteUInt32BigEndian(page[(h + 8)..], rightChild);
    }

    /// <summary>The room for cells on a page of this type: usable size minus headers.</summary>
    public static int Capacity(uint pageNumber, BTreePageType type, int usable)
        => usable - BTreePageHeader.HeaderOffset(pageNumber) - HeaderSize(type);

    public static int CellFootprint(int cellLength) => Math.Max(cellLength, 4) + 2;
}
