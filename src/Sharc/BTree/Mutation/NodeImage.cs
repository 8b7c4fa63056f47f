using System.Buffers.Binary;
using System.Runtime.InteropServices;
using Sharc.Format;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// The content of one b-tree page as a list of cells (copied out into a <see cref="CellArena"/>) plus, for interior
/// pages, the right child. Balancing works on these images and writes pages back from them. Images come from
/// <see cref="CellArena.Rent"/> and are only valid until the arena is reset.
/// </summary>
internal sealed class NodeImage
{
    public BTreePageType Type;
    public readonly List<CellRef> Cells = [];
    public uint RightChild;
    public readonly CellArena Arena;

    public NodeImage(CellArena arena) => Arena = arena;

    public bool IsLeaf => ((byte)Type & 8) != 0;
    public bool IsTable => ((byte)Type & 1) != 0;

    /// <summary>Bytes the cells need on a page: each cell (at least 4 bytes) plus its 2-byte pointer.</summary>
    public int Footprint()
    {
        int n = 0;
        foreach (var c in CollectionsMarshal.AsSpan(Cells)) n += PageWriter.CellFootprint(c.Length);
        return n;
    }

    public bool FitsOn(uint pageNumber, int usable) => Footprint() <= PageWriter.Capacity(pageNumber, Type, usable);

    public static NodeImage Read(CellArena arena, IPageSource pages, uint pageNumber, int usable)
    {
        var pr = pages.Acquire(pageNumber);
        try
        {
            var span = pr.Span;
            var header = BTreePageHeader.Parse(span, pageNumber, usable);
            var node = arena.Rent(header.Type, header.RightChild);
            var cells = node.Cells;
            cells.EnsureCapacity(header.CellCount + 1);
            for (int i = 0; i < header.CellCount; i++)
            {
                int at = header.CellOffset(span, i, pageNumber, usable);
                int len = CellSize.Of(span, at, header.Type, usable, pageNumber);
                cells.Add(arena.Add(span.Slice(at, len)));
            }
            return node;
        }
        finally
        {
            pages.Release(pr);
        }
    }

    public void Write(Pager pager, uint pageNumber, PointerMap map)
        => WriteCells(pager, pageNumber, map, Type, Arena, CollectionsMarshal.AsSpan(Cells), RightChild);

    /// <summary>Builds page <paramref name="pageNumber"/> from <paramref name="cells"/> held in <paramref name="arena"/>.</summary>
    public static void WriteCells(Pager pager, uint pageNumber, PointerMap map, BTreePageType type, CellArena arena, ReadOnlySpan<CellRef> cells, uint rightChild)
    {
        var buf = pager.Write(pageNumber);
        PageWriter.Build(buf, pageNumber, pager.UsableSize, type, arena.Bytes, cells, rightChild);
        // Children and overflow chains now hang off this page.
        map.MapChildrenOf(pageNumber, pager.UsableSize);
    }

    /// <summary>The child that cell <paramref name="index"/> points to (or the right child at index = count).</summary>
    public uint Child(int index) => index < Cells.Count ? BinaryPrimitives.ReadUInt32BigEndian(Arena[Cells[index]]) : RightChild;

    public void SetChild(int index, uint child)
    {
        if (index < Cells.Count) BinaryPrimitives.WriteUInt32BigEndian(Arena[Cells[index]], child);
        else RightChild = child;
    }

    public static BTreePageType InteriorOf(BTreePageType t) => t is BTreePageType.LeafTable or BTreePageType.InteriorTable ? BTreePageType.InteriorTable : BTreePageType.InteriorIndex;

    /// <summary>The rowid of a table leaf cell, or the key of a table interior cell.</summary>
    public static long TableKey(ReadOnlySpan<byte> cell, BTreePageType type)
    {
        if (type == BTreePageType.InteriorTable)
        {
            Varint.Read(cell[4..], out long k);
            return k;
        }
        int n = Varint.Read(cell, out _);
        Varint.Read(cell[n..], out long rowid);
        return rowid;
    }

    /// <summary>An index cell in leaf form (no child pointer): the same bytes past the child.</summary>
    public static CellRef ToIndexLeaf(CellRef interiorCell) => new(interiorCell.Offset + 4, interiorCell.Length - 4);
}
