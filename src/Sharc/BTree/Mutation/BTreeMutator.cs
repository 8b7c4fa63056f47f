using System.Buffers.Binary;
using Sharc.Format;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Inserts and deletes entries in table and index b-trees. The common case edits one leaf in place; a page that
/// overflows or underflows goes to the <see cref="Balancer"/> along the path recorded on the way down.
/// </summary>
internal sealed partial class BTreeMutator
{
    private readonly Pager _pager;
    private readonly PageAllocator _allocator;
    private readonly CellBuilder _cells;
    private readonly Balancer _balancer;
    private readonly (uint Page, int Index)[] _path = new (uint, int)[BTreeCursor.MaxDepth];
    private int _depth;
    /// <summary>Set by <see cref="DescendTable"/>: every interior page on the path was left by its right-most child.</summary>
    private bool _rightEdge;
    private readonly AppendHint _append = new();
    private byte[] _payload = new byte[256];
    private readonly CellArena _arena = new();

    public BTreeMutator(Pager pager, bool autoVacuum)
    {
        _pager = pager;
        _map = new PointerMap(pager, autoVacuum);
        _allocator = new PageAllocator(pager, _map);
        _cells = new CellBuilder(pager, _allocator, _map);
        _balancer = new Balancer(pager, _allocator, _map, _arena);
        Vacuum = new AutoVacuum(pager, _map, _allocator);
    }

    private readonly PointerMap _map;

    public PointerMap Map => _map;
    public AutoVacuum Vacuum { get; }
    public PageAllocator Allocator => _allocator;
    public CellBuilder Cells => _cells;
    private int Usable => _pager.UsableSize;

    // ---------------------------------------------------------------- table b-trees

    /// <summary>Inserts (or replaces) the row <paramref name="rowId"/> of the table rooted at <paramref name="root"/>.</summary>
    public void TableInsert(uint root, long rowId, ReadOnlySpan<byte> record)
    {
        bool exists = false, rightEdge = true;
        int index;
        _depth = _append.TryFollow(root, rowId, _pager, _path, out index);
        if (_depth < 0)
        {
            exists = DescendTable(root, rowId, out index);
            rightEdge = _rightEdge;
        }
        uint leaf = _path[_depth].Page;
        if (exists) RemoveCellAt(leaf, index, freeOverflow: true);
        var cellSpan = _cells.TableLeaf(rowId, record);
        var buf = _pager.Write(leaf);
        int before = BTreePageHeader.CellCountOf(buf, leaf);
        if (PageWriter.TryInsert(buf, leaf, Usable, index, cellSpan))
        {
            if (_map.Enabled) _map.MapChildrenOf(leaf, Usable);
            if (rightEdge && !exists && index == before) _append.Remember(root, _path.AsSpan(0, _depth + 1), index + 1, rowId, _pager);
            return;
        }

        // Appending past the right edge (rowids in increasing order): start a new right-most page with just the
        // new cell and leave the full page full, as SQLite's balance_quick does.
        if (_depth > 0 && _path[_depth - 1].Page != 1 && IsAppendAtRightEdge(leaf, index, out long maxLeft))
        {
            QuickAppend(leaf, maxLeft, cellSpan);
            return;
        }
        _arena.Reset();
        var node = NodeImage.Read(_arena, _pager, leaf, Usable);
        node.Cells.Insert(index, _arena.Add(cellSpan));
        _balancer.Settle(_path.AsSpan(0, _depth + 1), _depth, node);
    }

    /// <summary>Deletes row <paramref name="rowId"/>; false when it does not exist.</summary>
    public bool TableDelete(uint root, long rowId)
    {
        if (!DescendTable(root, rowId, out int index)) return false;
        _arena.Reset();
        uint leaf = _path[_depth].Page;
        RemoveCellAt(leaf, index, freeOverflow: true);
        AfterRemoval();
        return true;
    }

    /// <summary>True when the table has a row with <paramref name="rowId"/>.</summary>
    public bool TableContains(uint root, long rowId) => DescendTable(root, rowId, out _);

    /// <summary>The largest rowid in the table, or 0 when it is empty.</summary>
    public long MaxRowId(uint root)
    {
        uint page = root;
        for (int depth = 0; depth < BTreeCursor.MaxDepth; depth++)
        {
            var node = Header(page, out var span, out var pr);
            try
            {
                if (node.IsLeaf)
                {
                    if (node.CellCount == 0) return 0;
                    int at = node.CellOffset(span, node.CellCount - 1, page, Usable);
                    CellParser.TableLeaf(span, at, Usable, page, out var p);
                    return p.RowId;
                }
                page = node.RightChild;
            }
            finally
            {
                _pager.Release(pr);
            }
        }
        return ThrowHelper.Corrupt<long>("b-tree is deeper than 20 levels", root);
    }

    /// <summary>Walks to the leaf where <paramref name="rowId"/> is or would be; returns whether it is there.</summary>
    private bool DescendTable(uint root, long rowId, out int index)
    {
        uint page = root;
        _rightEdge = true;
        for (_depth = 0; _depth < BTreeCursor.MaxDepth; _depth++)
        {
            var h = Header(page, out var span, out var pr);
            try
            {
                if (!h.IsTable) ThrowHelper.Corrupt("index page inside a table b-tree", page);
                int lo = 0, hi = h.CellCount;
                if (h.IsLeaf)
                {
                    while (lo < hi)
                    {
                        int mid = (lo + hi) >>> 1;
                        CellParser.TableLeaf(span, h.CellOffset(span, mid, page, Usable), Usable, page, out var p);
                        if (p.RowId < rowId) lo = mid + 1;
                        else hi = mid;
                    }
                    _path[_depth] = (page, lo);
                    index = lo;
                    if (lo >= h.CellCount) return false;
                    CellParser.TableLeaf(span, h.CellOffset(span, lo, page, Usable), Usable, page, out var q);
                    return q.RowId == rowId;
                }
                while (lo < hi)
                {
                    int mid = (lo + hi) >>> 1;
                    if (CellParser.TableInteriorKey(span, h.CellOffset(span, mid, page, Usable), Usable, page) < rowId) lo = mid + 1;
                    else hi = mid;
                }
                _path[_depth] = (page, lo);
                if (lo < h.CellCount) _rightEdge = false;
                page = lo < h.CellCount ? CellParser.LeftChild(span, h.CellOffset(span, lo, page, Usable)) : h.RightChild;
                if (page == 0 || page > _pager.PageCount) ThrowHelper.Corrupt($"child page {page} is outside the database", _path[_depth].Page);
            }
            finally
            {
                _pager.Release(pr);
            }
        }
        index = 0;
        return ThrowHelper.Corrupt<bool>("b-tree is deeper than 20 levels", root);
    }

    // ---------------------------------------------------------------- index b-trees

    /// <summary>
    /// Inserts <paramref name="record"/> into the index (or WITHOUT ROWID table) rooted at <paramref name="root"/>.
    /// Returns false, changing nothing, when an entry comparing equal on all fields already exists.
    /// </summary>
    public bool IndexInsert(uint root, ReadOnlySpan<byte> record, Collation[] collations, bool[] descending, SharcTextEncoding encoding)
    {
        if (DescendIndex(root, record, collations, descending, encoding, out int index)) return false;
        uint page = _path[_depth].Page;
        var h = Header(page, out _, out var pr);
        _pager.Release(pr);
        if (!h.IsLeaf)
        {
            // Lower bound in an interior page means "descend"; DescendIndex always ends on a leaf unless it found a match.
            ThrowHelper.Corrupt("index insert did not reach a leaf", page);
        }
        var cellSpan = _cells.IndexLeaf(record);
        var buf = _pager.Write(page);
        if (PageWriter.TryInsert(buf, page, Usable, index, cellSpan))
        {
            if (_map.Enabled) _map.MapChildrenOf(page, Usable);
            return true;
        }
        _arena.Reset();
        var node = NodeImage.Read(_arena, _pager, page, Usable);
        node.Cells.Insert(index, _arena.Add(cellSpan));
        _balancer.Settle(_path.AsSpan(0, _depth + 1), _depth, node);
        return true;
    }

    /// <summary>Deletes the entry equal to <paramref name="key"/> on every field; false when there is none.</summary>
    public bool IndexDelete(uint root, ReadOnlySpan<byte> key, Collation[] collations, bool[] descending, SharcTextEncoding encoding)
    {
        if (!DescendIndex(root, key, collations, descending, encoding, out int index)) return false;
        _arena.Reset();
        uint page = _path[_depth].Page;
        var h = Header(page, out _, out var pr);
        _pager.Release(pr);
        if (h.IsLeaf)
        {
            RemoveCellAt(page, index, freeOverflow: true);
            AfterRemoval();
            return true;
        }

        // An entry on an interior page: replace it with its predecessor (the largest entry of its left subtree),
        // which is removed from its leaf first. Each step re-descends, because balancing moves entries around.
        byte[] target = key.ToArray();
        int depthOfTarget = _depth;
        uint child = ChildAt(page, index);
        for (int d = depthOfTarget + 1; ; d++)
        {
            if (d >= BTreeCursor.MaxDepth) ThrowHelper.Corrupt("b-tree is deeper than 20 levels", root);
            var ch = Header(child, out var span, out var cpr);
            try
            {
                if (ch.IsLeaf)
                {
                    if (ch.CellCount == 0) ThrowHelper.Corrupt("empty leaf page in an index", child);
                    break;
                }
                child = ch.RightChild;
            }
            finally
            {
                _pager.Release(cpr);
            }
        }
        var leafNode = NodeImage.Read(_arena, _pager, child, Usable);
        var predecessor = leafNode.Cells[^1];
        byte[] predecessorRecord = ReadPayloadOf(_arena[predecessor], BTreePageType.LeafIndex, child).ToArray();

        // Remove the predecessor from its leaf (keeping its overflow chain: the cell moves), rebalancing as needed.
        if (!DescendIndex(root, predecessorRecord, collations, descending, encoding, out int pi)) ThrowHelper.Corrupt("index predecessor vanished", child);
        RemoveCellAt(_path[_depth].Page, pi, freeOverflow: false);
        AfterRemoval();

        // Find the target again and put the predecessor in its place.
        if (!DescendIndex(root, target, collations, descending, encoding, out int ti)) ThrowHelper.Corrupt("index entry vanished while deleting it", root);
        uint tp = _path[_depth].Page;
        var tnode = NodeImage.Read(_arena, _pager, tp, Usable);
        var old = tnode.Cells[ti];
        var oldBuf = _pager.Write(tp);
        var th = BTreePageHeader.Parse(oldBuf, tp, Usable);
        _cells.FreeOverflow(oldBuf, th.CellOffset(oldBuf, ti, tp, Usable), th.Type, tp);
        tnode.Cells[ti] = tnode.IsLeaf ? predecessor : _arena.AddWithChild(BinaryPrimitives.ReadUInt32BigEndian(_arena[old]), predecessor);
        _balancer.Settle(_path.AsSpan(0, _depth + 1), _depth, tnode);
        return true;
    }

    /// <summary>
    /// The first entry whose leading <paramref name="fields"/> fields equal those of <paramref name="key"/> (a copy of
    /// its whole record), or null. Used for UNIQUE and PRIMARY KEY checks and lookups by key.
    /// </summary>
    public byte[]? IndexFindPrefix(uint root, ReadOnlySpan<byte> key, int fields, Collation[] collations, bool[] descending, SharcTextEncoding encoding)
    {
        uint page = root;
        PrepareProbe(key, fields, collations, descending, encoding);
        for (int depth = 0; depth < BTreeCursor.MaxDepth; depth++)
        {
            var h = Header(page, out var span, out var pr);
            try
            {
                if (h.IsTable) ThrowHelper.Corrupt("table page inside an index b-tree", page);
                int lo = 0, hi = h.CellCount;
                while (lo < hi)
                {
                    int mid = (lo + hi) >>> 1;
                    var rec = CellRecord(span, h.CellOffset(span, mid, page, Usable), h.Type, page);
                    int c = Probe(rec, key, collations, descending, encoding, page, fields);
                    if (c == 0) return rec.ToArray();
                    if (c < 0) lo = mid + 1;
                    else hi = mid;
                }
                if (h.IsLeaf) return null;
                page = lo < h.CellCount ? CellParser.LeftChild(span, h.CellOffset(span, lo, page, Usable)) : h.RightChild;
                if (page == 0 || page > _pager.PageCount) ThrowHelper.Corrupt($"child page {page} is outside the database", page);
            }
            finally
            {
                _pager.Release(pr);
            }
        }
        return ThrowHelper.Corrupt<byte[]>("b-tree is deeper than 20 levels", root);
    }

    /// <summary>
    /// Walks down comparing <paramref name="key"/> with entries; stops at an equal entry (true) or at the leaf
    /// position where the key would go (false). Fills the path.
    /// </summary>
    private bool DescendIndex(uint root, ReadOnlySpan<byte> key, Collation[] collations, bool[] descending, SharcTextEncoding encoding, out int index)
    {
        uint page = root;
        PrepareProbe(key, int.MaxValue, collations, descending, encoding);
        for (_depth = 0; _depth < BTreeCursor.MaxDepth; _depth++)
        {
            var h = Header(page, out var span, out var pr);
            try
            {
                if (h.IsTable) ThrowHelper.Corrupt("table page inside an index b-tree", page);
                int lo = 0, hi = h.CellCount;
                bool found = false;
                while (lo < hi)
                {
                    int mid = (lo + hi) >>> 1;
                    int at = h.CellOffset(span, mid, page, Usable);
                    var rec = CellRecord(span, at, h.Type, page);
                    int c = Probe(rec, key, collations, descending, encoding, page, int.MaxValue);
                    if (c < 0) lo = mid + 1;
                    else
                    {
                        if (c == 0) found = true;
                        hi = mid;
                    }
                }
                _path[_depth] = (page, lo);
                if (found && lo < h.CellCount)
                {
                    int at = h.CellOffset(span, lo, page, Usable);
                    if (Probe(CellRecord(span, at, h.Type, page), key, collations, descending, encoding, page, int.MaxValue) == 0)
                    {
                        index = lo;
                        return true;
                    }
                }
                if (h.IsLeaf)
                {
                    index = lo;
                    return false;
                }
                page = lo < h.CellCount ? CellParser.LeftChild(span, h.CellOffset(span, lo, page, Usable)) : h.RightChild;
                if (page == 0 || page > _pager.PageCount) ThrowHelper.Corrupt($"child page {page} is outside the database", _path[_depth].Page);
            }
            finally
            {
                _pager.Release(pr);
            }
        }
        index = 0;
        return ThrowHelper.Corrupt<bool>("b-tree is deeper than 20 levels", root);
    }

    private ReadOnlySpan<byte> CellRecord(ReadOnlySpan<byte> span, int at, BTreePageType type, uint page)
    {
        CellParser.IndexCell(span, at, Usable, page, type == BTreePageType.InteriorIndex, out var p);
        if (p.Overflow == 0) return span.Slice(p.LocalOffset, p.PayloadSize);
        return Gather(span.Slice(p.LocalOffset, p.LocalSize), p.Overflow, p.PayloadSize, page);
    }

    /// <summary>The record of a cell held outside any page (local-size rule of this tree, bounds of the array).</summary>
    private ReadOnlySpan<byte> ReadPayloadOf(ReadOnlySpan<byte> cell, BTreePageType type, uint page)
    {
        int start = type == BTreePageType.InteriorIndex ? 4 : 0;
        int n = Varint.Read(cell[start..], out long size);
        int local = CellParser.LocalSize(size, Usable, tableLeaf: false);
        int off = start + n;
        if (n == 0 || off + local > cell.Length) ThrowHelper.Corrupt("index cell is malformed", page);
        if (local == size) return cell.Slice(off, (int)size);
        uint overflow = BinaryPrimitives.ReadUInt32BigEndian(cell[(off + local)..]);
        return Gather(cell.Slice(off, local), overflow, (int)size, page);
    }

    private ReadOnlySpan<byte> Gather(ReadOnlySpan<byte> local, uint first, int total, uint page)
    {
        if (_payload.Length < total) _payload = new byte[Math.Max(total, _payload.Length * 2)];
        local.CopyTo(_payload);
        int have = local.Length;
        uint next = first;
        while (have < total)
        {
            if (next == 0 || next > _pager.PageCount) ThrowHelper.Corrupt("overflow chain ends early", page);
            var pr = _pager.Acquire(next);
            try
            {
                int take = Math.Min(Usable - 4, total - have);
                pr.Span.Slice(4, take).CopyTo(_payload.AsSpan(have));
                have += take;
                next = BinaryPrimitives.ReadUInt32BigEndian(pr.Span);
            }
            finally
            {
                _pager.Release(pr);
            }
        }
        return _payload.AsSpan(0, total);
    }

    // ---------------------------------------------------------------- shared

    private BTreePageHeader Header(uint page, out ReadOnlySpan<byte> span, out PageRef pr)
    {
        pr = _pager.Acquire(page);
        span = pr.Span;
        try
        {
            return BTreePageHeader.Parse(span, page, Usable);
        }
        catch
        {
            _pager.Release(pr);
            throw;
        }
    }

    private uint ChildAt(uint page, int index)
    {
        var h = Header(page, out var span, out var pr);
        try
        {
            uint c = index < h.CellCount ? CellParser.LeftChild(span, h.CellOffset(span, index, page, Usable)) : h.RightChild;
            if (c == 0 || c > _pager.PageCount) ThrowHelper.Corrupt($"child page {c} is outside the database", page);
            return c;
        }
        finally
        {
            _pager.Release(pr);
        }
    }

    private void RemoveCellAt(uint page, int index, bool freeOverflow)
    {
        var buf = _pager.Write(page);
        var h = BTreePageHeader.Parse(buf, page, Usable);
        int at = h.CellOffset(buf, index, page, Usable);
        int size = CellSize.Of(buf, at, h.Type, Usable, page);
        if (freeOverflow) _cells.FreeOverflow(buf, at, h.Type, page);
        PageWriter.Remove(buf, page, Usable, index, size);
    }

    /// <summary>After a cell left the page at the end of the path: rebalance if that page is now too empty.</summary>
    private void AfterRemoval()
    {
        if (_depth == 0) return; // the root may be as empty as it likes
        uint page = _path[_depth].Page;
        // The page's own free-space accounting decides, so a removal that leaves the page well filled (nearly all of
        // them) copies no cells; only an underfull page is read into an image for the balancer.
        var h = Header(page, out var span, out var pr);
        int free, count = h.CellCount;
        try
        {
            free = PageWriter.FreeSpace(span, page, Usable);
        }
        finally
        {
            _pager.Release(pr);
        }
        if (count > 0 && free <= Usable * 2 / 3) return;
        var node = NodeImage.Read(_arena, _pager, page, Usable);
        _balancer.Settle(_path.AsSpan(0, _depth + 1), _depth, node);
    }

    /// <summary>Frees every page of the b-tree rooted at <paramref name="root"/> (and overflow chains); the root too unless kept.</summary>
    public void FreeTree(uint root, bool keepRoot)
    {
        var stack = new Stack<(uint Page, int Depth)>();
        stack.Push((root, 0));
        long visited = 0;
        var toFree = new List<uint>();
        while (stack.Count > 0)
        {
            var (page, depth) = stack.Pop();
            if (depth >= BTreeCursor.MaxDepth || ++visited > _pager.PageCount) ThrowHelper.Corrupt("b-tree has a cycle", page);
            // Each page's image is done with before the next one is read.
            _arena.Reset();
            var node = NodeImage.Read(_arena, _pager, page, Usable);
            var pr = _pager.Acquire(page);
            try
            {
                var span = pr.Span;
                var h = BTreePageHeader.Parse(span, page, Usable);
                for (int i = 0; i < h.CellCount; i++) _cells.FreeOverflow(span, h.CellOffset(span, i, page, Usable), h.Type, page);
            }
            finally
            {
                _pager.Release(pr);
            }
            if (!node.IsLeaf)
                for (int i = 0; i <= node.Cells.Count; i++) stack.Push((node.Child(i), depth + 1));
            if (page != root || !keepRoot) toFree.Add(page);
            else _arena.Rent(node.IsTable ? BTreePageType.LeafTable : BTreePageType.LeafIndex, 0).Write(_pager, root, _map);
        }
        foreach (var p in toFree) _allocator.Free(p);
    }
}
