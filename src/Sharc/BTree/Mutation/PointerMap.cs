using System.Buffers.Binary;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>The kinds of pointer-map entries (SQLite file format, section 1.7).</summary>
internal enum PtrmapType : byte
{
    RootPage = 1,
    FreePage = 2,
    Overflow1 = 3,
    Overflow2 = 4,
    BTree = 5,
}

/// <summary>
/// The pointer map of an auto-vacuum database: for every page after page 1, its kind and the page that points to
/// it, stored in pointer-map pages (page 2, then every usable/5 + 1 pages). Lets a page be moved by fixing the one
/// pointer to it. In databases without auto-vacuum every call is a no-op.
/// </summary>
internal sealed class PointerMap
{
    private readonly Pager _pager;

    public PointerMap(Pager pager, bool enabled)
    {
        _pager = pager;
        Enabled = enabled;
    }

    public bool Enabled { get; }

    private int PagesPerMap => _pager.UsableSize / 5 + 1;

    /// <summary>The pointer-map page that holds the entry for <paramref name="page"/>.</summary>
    public uint MapPageFor(uint page)
    {
        if (page < 2) return 0;
        uint per = (uint)PagesPerMap;
        uint map = (page - 2) / per * per + 2;
        if (map == _pager.LockBytePage) map++;
        return map;
    }

    /// <summary>True for pages that are pointer-map pages (never data) — only in auto-vacuum databases.</summary>
    public bool IsMapPage(uint page) => Enabled && page >= 2 && MapPageFor(page) == page;

    /// <summary>True for pages that can never hold data: pointer-map pages and the lock-byte page.</summary>
    public bool IsReserved(uint page) => page == _pager.LockBytePage || IsMapPage(page);

    public void Put(uint page, PtrmapType type, uint parent)
    {
        if (!Enabled || page < 2) return;
        uint map = MapPageFor(page);
        if (map == page) ThrowHelper.Corrupt($"page {page} is a pointer-map page and cannot be mapped", page);
        var buf = _pager.Write(map);
        int off = 5 * (int)(page - map - 1);
        if (off + 5 > _pager.UsableSize) ThrowHelper.Corrupt("pointer-map entry out of range", map, off);
        if (buf[off] == (byte)type && BinaryPrimitives.ReadUInt32BigEndian(buf.AsSpan(off + 1)) == parent) return;
        buf[off] = (byte)type;
        BinaryPrimitives.WriteUInt32BigEndian(buf.AsSpan(off + 1), parent);
    }

    public (PtrmapType Type, uint Parent) Get(uint page)
    {
        uint map = MapPageFor(page);
        var pr = _pager.Acquire(map);
        try
        {
            int off = 5 * (int)(page - map - 1);
            var span = pr.Span;
            return ((PtrmapType)span[off], BinaryPrimitives.ReadUInt32BigEndian(span[(off + 1)..]));
        }
        finally
        {
            _pager.Release(pr);
        }
    }

    /// <summary>
    /// Records, for a b-tree page just written, that its children and the first pages of its overflow chains
    /// belong to it.
    /// </summary>
    public void MapChildrenOf(uint page, int usable)
    {
        if (!Enabled) return;
        var pr = _pager.Acquire(page);
        var children = new List<(uint, PtrmapType)>();
        try
        {
            var span = pr.Span;
            var h = BTreePageHeader.Parse(span, page, usable);
            for (int i = 0; i < h.CellCount; i++)
            {
                int at = h.CellOffset(span, i, page, usable);
                if (!h.IsLeaf) children.Add((CellParser.LeftChild(span, at), PtrmapType.BTree));
                if (h.Type == BTreePageType.InteriorTable) continue;
                CellPayload p;
                if (h.Type == BTreePageType.LeafTable) CellParser.TableLeaf(span, at, usable, page, out p);
                else CellParser.IndexCell(span, at, usable, page, h.Type == BTreePageType.InteriorIndex, out p);
                if (p.Overflow != 0) children.Add((p.Overflow, PtrmapType.Overflow1));
            }
            if (!h.IsLeaf) children.Add((h.RightChild, PtrmapType.BTree));
        }
        finally
        {
            _pager.Release(pr);
        }
        foreach (var (child, type) in children) Put(child, type, page);
    }
}
