using System.Buffers.Binary;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Integrity;

/// <summary>
/// A database file in memory, for breaking on purpose with knowledge of the file format: pages, b-tree page
/// headers, cell pointers, cells. Page numbers are 1-based; offsets are within the page.
/// </summary>
internal sealed class DbImage
{
    private DbImage(byte[] bytes)
    {
        Bytes = bytes;
        int raw = BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(16));
        PageSize = raw == 1 ? 65536 : raw;
        Usable = PageSize - bytes[20];
    }

    public byte[] Bytes { get; }
    public int PageSize { get; }
    public int Usable { get; }

    public static DbImage Load(string path) => new(File.ReadAllBytes(path));

    public void Save(string path) => File.WriteAllBytes(path, Bytes);

    /// <summary>The root page of a table or index, as SQLite records it.</summary>
    public static uint RootOf(string path, string name)
    {
        using var c = Oracle.Open(path, readOnly: true);
        using var cmd = c.CreateCommand();
        cmd.CommandText = "SELECT rootpage FROM sqlite_schema WHERE name = $n";
        cmd.Parameters.AddWithValue("$n", name);
        return (uint)(long)cmd.ExecuteScalar()!;
    }

    public Span<byte> Page(uint page) => Bytes.AsSpan((int)((page - 1) * (long)PageSize), PageSize);

    public uint U32(uint page, int offset) => BinaryPrimitives.ReadUInt32BigEndian(Page(page)[offset..]);
    public void SetU32(uint page, int offset, uint value) => BinaryPrimitives.WriteUInt32BigEndian(Page(page)[offset..], value);
    public int U16(uint page, int offset) => BinaryPrimitives.ReadUInt16BigEndian(Page(page)[offset..]);
    public void SetU16(uint page, int offset, int value) => BinaryPrimitives.WriteUInt16BigEndian(Page(page)[offset..], (ushort)value);

    /// <summary>Header field offsets: 32 first freelist trunk, 36 freelist count, 52 largest root page.</summary>
    public uint HeaderU32(int offset) => BinaryPrimitives.ReadUInt32BigEndian(Bytes.AsSpan(offset));
    public void SetHeaderU32(int offset, uint value) => BinaryPrimitives.WriteUInt32BigEndian(Bytes.AsSpan(offset), value);

    public static int HeaderOffset(uint page) => page == 1 ? 100 : 0;
    public byte Type(uint page) => Page(page)[HeaderOffset(page)];
    public bool IsLeaf(uint page) => (Type(page) & 8) != 0;
    public int CellCount(uint page) => U16(page, HeaderOffset(page) + 3);
    public int PointerArray(uint page) => HeaderOffset(page) + (IsLeaf(page) ? 8 : 12);
    public int CellOffset(uint page, int cell) => U16(page, PointerArray(page) + 2 * cell);
    public void SetCellOffset(uint page, int cell, int offset) => SetU16(page, PointerArray(page) + 2 * cell, offset);
    public uint LeftChild(uint page, int cell) => U32(page, CellOffset(page, cell));
    public void SetLeftChild(uint page, int cell, uint child) => SetU32(page, CellOffset(page, cell), child);
    public uint RightChild(uint page) => U32(page, HeaderOffset(page) + 8);
    public void SetRightChild(uint page, uint child) => SetU32(page, HeaderOffset(page) + 8, child);

    /// <summary>The children of an interior page, left to right (the right child last).</summary>
    public List<uint> Children(uint page)
    {
        var list = new List<uint>();
        for (int i = 0; i < CellCount(page); i++) list.Add(LeftChild(page, i));
        list.Add(RightChild(page));
        return list;
    }

    /// <summary>The leaves of the b-tree rooted at <paramref name="root"/>, left to right.</summary>
    public List<uint> Leaves(uint root)
    {
        if (IsLeaf(root)) return [root];
        return Children(root).SelectMany(Leaves).ToList();
    }

    /// <summary>Reads a varint at <paramref name="offset"/>; returns its length.</summary>
    public int Varint(uint page, int offset, out long value)
    {
        var p = Page(page);
        ulong v = 0;
        for (int i = 0; i < 8; i++)
        {
            byte b = p[offset + i];
            v = (v << 7) | (uint)(b & 0x7f);
            if (b < 0x80)
            {
                value = (long)v;
                return i + 1;
            }
        }
        value = (long)((v << 8) | p[offset + 8]);
        return 9;
    }

    /// <summary>A table leaf cell: the offset of its rowid varint, the rowid, the payload size and where the payload starts.</summary>
    public (int RowIdOffset, long RowId, long Payload, int PayloadOffset) TableLeafCell(uint page, int cell)
    {
        int off = CellOffset(page, cell);
        int n1 = Varint(page, off, out long payload);
        int n2 = Varint(page, off + n1, out long rowid);
        return (off + n1, rowid, payload, off + n1 + n2);
    }

    /// <summary>
    /// Rewrites a leaf page (index or table) without cell <paramref name="drop"/>, the way a careful writer would:
    /// the other cells packed at the end of the page, no freeblocks, no fragments. Cells must not overflow.
    /// </summary>
    public void RewriteLeafWithout(uint page, int drop)
    {
        var p = Page(page);
        int hdr = HeaderOffset(page);
        bool table = (Type(page) & 1) != 0;
        var cells = new List<byte[]>();
        for (int i = 0; i < CellCount(page); i++)
        {
            if (i == drop) continue;
            int off = CellOffset(page, i);
            int n = Varint(page, off, out long payload);
            if (table) n += Varint(page, off + n, out _);
            cells.Add(p.Slice(off, n + (int)payload).ToArray());
        }
        int ptr = PointerArray(page);
        p[ptr..Usable].Clear();
        int top = Usable;
        for (int i = 0; i < cells.Count; i++)
        {
            top -= cells[i].Length;
            cells[i].CopyTo(p[top..]);
            SetU16(page, ptr + 2 * i, top);
        }
        SetU16(page, hdr + 1, 0); // no freeblocks
        SetU16(page, hdr + 3, cells.Count);
        SetU16(page, hdr + 5, top);
        p[hdr + 7] = 0;
    }
}
