using System.Buffers.Binary;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Rows appended past the right edge of a table b-tree (rowids in increasing order). A full right-most leaf is
/// left full and a new right-most leaf takes the row, as SQLite's balance_quick does; a right-most interior page
/// that cannot take the new divider is handled the same way, one level up, instead of being rebalanced with its
/// (usually just as full) neighbours. Pages stay packed on the left and the work per split stays constant.
/// </summary>
internal sealed partial class BTreeMutator
{
    /// <summary>Room for a table interior cell: a 4-byte child and a varint of at most 9 bytes.</summary>
    private const int MaxTableInteriorCell = 13;

    /// <summary>True when the insert position is past the last cell of a leaf that is its parent's right-most child.</summary>
    private bool IsAppendAtRightEdge(uint leaf, int index, out long maxLeft)
    {
        maxLeft = 0;
        var h = Header(leaf, out var span, out var pr);
        try
        {
            if (index != h.CellCount || h.CellCount == 0) return false;
            CellParser.TableLeaf(span, h.CellOffset(span, h.CellCount - 1, leaf, Usable), Usable, leaf, out var last);
            maxLeft = last.RowId;
        }
        finally
        {
            _pager.Release(pr);
        }
        return IsRightMostChild(_depth);
    }

    /// <summary>Whether the page at <paramref name="level"/> of the path is its parent's right-most child.</summary>
    private bool IsRightMostChild(int level)
    {
        var h = Header(_path[level - 1].Page, out _, out var pr);
        _pager.Release(pr);
        return _path[level - 1].Index == h.CellCount;
    }

    private void QuickAppend(uint leaf, long maxLeft, ReadOnlySpan<byte> cell)
    {
        uint fresh = _allocator.Allocate();
        var fb = _pager.Write(fresh);
        PageWriter.Initialize(fb, fresh, BTreePageType.LeafTable, Usable);
        if (!PageWriter.TryInsert(fb, fresh, Usable, 0, cell)) ThrowHelper.Corrupt("a cell does not fit an empty page", fresh);
        _map.MapChildrenOf(fresh, Usable);
        // The old right-most leaf becomes the left child of a new divider; the new page is the right child.
        Span<byte> divider = stackalloc byte[MaxTableInteriorCell];
        AppendDivider(_depth - 1, divider[..CellBuilder.TableInterior(divider, leaf, maxLeft)], fresh);
    }

    /// <summary>
    /// Adds <paramref name="divider"/> as the last cell of the interior page at <paramref name="level"/> of the path
    /// (its left child is the page's right child until now) and makes <paramref name="rightChild"/> the right child.
    /// </summary>
    private void AppendDivider(int level, ReadOnlySpan<byte> divider, uint rightChild)
    {
        uint page = _path[level].Page;
        var buf = _pager.Write(page);
        if (PageWriter.TryInsert(buf, page, Usable, BTreePageHeader.CellCountOf(buf, page), divider))
        {
            SetRightChild(buf, page, rightChild);
            _map.Put(rightChild, PtrmapType.BTree, page);
            _map.Put(BinaryPrimitives.ReadUInt32BigEndian(divider), PtrmapType.BTree, page);
            return;
        }
        if (level > 0 && !_map.Enabled && BTreePageHeader.CellCountOf(buf, page) > 1 && IsRightMostChild(level))
        {
            SplitRightEdge(level, divider, rightChild);
            return;
        }
        _arena.Reset();
        var node = NodeImage.Read(_arena, _pager, page, Usable);
        node.Cells.Add(_arena.Add(divider));
        node.RightChild = rightChild;
        _balancer.Settle(_path.AsSpan(0, level + 1), level, node);
    }

    /// <summary>
    /// A full right-most interior page P gives up its last cell: that cell's child becomes P's right child, and a new
    /// right-most page takes <paramref name="divider"/> (whose left child was P's right child) and
    /// <paramref name="rightChild"/>. The parent then gets P with the removed cell's key as its divider.
    /// </summary>
    private void SplitRightEdge(int level, ReadOnlySpan<byte> divider, uint rightChild)
    {
        uint page = _path[level].Page;
        var buf = _pager.Write(page);
        var h = BTreePageHeader.Parse(buf, page, Usable);
        int last = h.CellCount - 1;
        int at = h.CellOffset(buf, last, page, Usable);
        uint lastChild = CellParser.LeftChild(buf, at);
        long lastKey = CellParser.TableInteriorKey(buf, at, Usable, page);
        PageWriter.Remove(buf, page, Usable, last, CellSize.Of(buf, at, h.Type, Usable, page));
        SetRightChild(buf, page, lastChild);

        uint sibling = _allocator.Allocate();
        var sb = _pager.Write(sibling);
        PageWriter.Initialize(sb, sibling, BTreePageType.InteriorTable, Usable);
        if (!PageWriter.TryInsert(sb, sibling, Usable, 0, divider)) ThrowHelper.Corrupt("a cell does not fit an empty page", sibling);
        SetRightChild(sb, sibling, rightChild);

        Span<byte> up = stackalloc byte[MaxTableInteriorCell];
        AppendDivider(level - 1, up[..CellBuilder.TableInterior(up, page, lastKey)], sibling);
    }

    private static void SetRightChild(Span<byte> buf, uint page, uint child)
        => BinaryPrimitives.WriteUInt32BigEndian(buf[(BTreePageHeader.HeaderOffset(page) + 8)..], child);
}
