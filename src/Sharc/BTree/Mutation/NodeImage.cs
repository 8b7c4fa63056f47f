using System.Buffers.Binary;
using Sharc.Format;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// The content of one b-tree page as a list of cells (copied out) plus, for interior pages, the right child.
/// Balancing works on these images and writes pages back from them.
/// </summary>
internal sealed class NodeImage
{
    public BTreePageType Type;
    public List<byte[]> Cells;
    public uint RightChild;

    public NodeImage(BTreePageType type, List<byte[]> cells, uint rightChild)
    {
        Type = type;
        Cells = cells;
        RightChild = rightChild;
    }

    public bool IsLeaf => ((byte)Type & 8) != 0;
    public bool IsTable => ((byte)Type & 1) != 0;

    /// <summary>Bytes the cells need on a page: each cell (at least 4 bytes) plus its 2-byte pointer.</summary>
    public int Footprint()
    {
        int n = 0;
        foreach (var c in Cells) n += PageWriter.CellFootprint(c.Length);
        return n;
    }

    public bool FitsOn(uint pageNumber, int usable) => Footprint() <= PageWriter.Capacity(pageNumber, Type, usable);

    public static NodeImage Read(IPageSource pages, uint pageNumber, int usable)
    {
        var pr = pages.Acquire(pageNumber);
        try
        {
            var span = pr.Span;
            var header = BTreePageHeader.Parse(span, pageNumber, usable);
            var cells = new List<byte[]>(header.CellCount + 1);
            for (int i = 0; i < header.CellCount; i++)
            {
                int at = header.CellOffset(span, i, pageNumber, usable);
                int len = CellSize.Of(span, at, header.Type, usable, pageNumber);
                cells.Add(span.Slice(at, len).ToArray());
            }
            return new NodeImage(header.Type, cells, header.RightChild);
        }
        finally
        {
            pages.Release(pr);
        }
    }

    public void Write(Pager pager, uint pageNumber, PointerMap map)
    {
        var buf = pager.Write(pageNumber);
        var list = new CellBytes[Cells.Count];
        for (int i = 0; i < list.Length; i++) list[i] = new CellBytes(Cells[i]);
        PageWriter.Build(buf, pageNumber, pager.UsableSize, Type, list, RightChild);
        // Children and overflow chains now hang off this page.
        map.MapChildrenOf(pageNumber, pager.UsableSize);
    }

    /// <summary>The child that cell <paramref name="index"/> points to (or the right child at index = count).</summary>
    public uint Child(int index) => index < Cells.Count ? BinaryPrimitives.ReadUInt32BigEndian(Cells[index]) : RightChild;

    public void SetChild(int index, uint child)
    {
        if (index < Cells.Count) BinaryPrimitives.WriteUInt32BigEndian(Cells[index], child);
        else RightChild = child;
    }

    public static BTreePageType InteriorOf(BTreePageType t) => t is BTreePageType.LeafTable or BTreePageType.InteriorTable ? BTreePageType.InteriorTable : BTreePageType.InteriorIndex;

    /// <summary>The rowid of a table leaf cell, or the key of a table interior cell.</summary>
    public static long TableKey(byte[] cell, BTreePageType type)
    {
        if (type == BTreePageType.InteriorTable)
        {
            Varint.Read(cell.AsSpan(4), out long k);
            return k;
        }
        int n = Varint.Read(cell, out _);
        Varint.Read(cell.AsSpan(n), out long rowid);
        return rowid;
    }

    /// <summary>An index cell in leaf form (no child pointer).</summary>
    public static byte[] ToIndexLeaf(byte[] interiorCell) => interiorCell.AsSpan(4).ToArray();

    /// <summary>An index cell in interior form with <paramref name="child"/> as its left child.</summary>
    public static byte[] ToIndexInterior(byte[] leafCell, uint child)
    {
        var c = new byte[leafCell.Length + 4];
        BinaryPrimitives.WriteUInt32BigEndian(c, child);
        leafCell.CopyTo(c, 4);
        return c;
    }
}
