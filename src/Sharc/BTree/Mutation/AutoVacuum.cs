using System.Buffers.Binary;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// What auto-vacuum databases need beyond the pointer map: root pages kept together at the start of the file
/// (a new root goes right after the largest one, moving whatever lived there; a dropped root is filled by the last
/// root), and vacuuming — moving pages from the end of the file into free pages and truncating it, at every
/// commit (auto_vacuum=FULL) or on request (incremental_vacuum).
/// </summary>
internal sealed class AutoVacuum
{
    private readonly Pager _pager;
    private readonly PointerMap _map;
    private readonly PageAllocator _allocator;

    public AutoVacuum(Pager pager, PointerMap map, PageAllocator allocator)
    {
        _pager = pager;
        _map = map;
        _allocator = allocator;
    }

    private uint LargestRoot
    {
        get
        {
            var p = _pager.Acquire(1);
            try { return BinaryPrimitives.ReadUInt32BigEndian(p.Span[52..]); }
            finally { _pager.Release(p); }
        }
        set => BinaryPrimitives.WriteUInt32BigEndian(_pager.Write(1).AsSpan(52), value);
    }

    /// <summary>The page for a new b-tree root: the first data page after the largest root.</summary>
    public uint PlaceRoot()
    {
        uint target = LargestRoot + 1;
        while (_map.IsReserved(target)) target++;
        if (target > _pager.PageCount)
        {
            while (_pager.PageCount < target) _pager.Append();
        }
        else
        {
            var free = _allocator.Drain();
            if (!free.Remove(target))
            {
                // Someone lives there: move it to a free page (or a new one) first.
                uint dest = free.Count > 0 ? free.Min : _allocator.Append();
                free.Remove(dest);
                Relocate(target, dest);
            }
            _allocator.Refill(free);
        }
        _map.Put(target, PtrmapType.RootPage, 0);
        LargestRoot = target;
        return target;
    }

    /// <summary>
    /// After the b-tree rooted at <paramref name="freedRoot"/> was freed: the last root moves into its place so roots
    /// stay contiguous. <paramref name="rootMoved"/> is told (old, new) so sqlite_schema can follow.
    /// </summary>
    public void CompactRoots(uint freedRoot, Action<uint, uint> rootMoved)
    {
        uint last = LargestRoot;
        if (freedRoot < last)
        {
            var free = _allocator.Drain();
            free.Remove(freedRoot);
            Relocate(last, freedRoot);
            rootMoved(last, freedRoot);
            free.Add(last);
            _allocator.Refill(free);
        }
        uint largest = freedRoot <= last ? last - 1 : last;
        while (largest > 1 && _map.IsReserved(largest)) largest--;
        LargestRoot = Math.Max(largest, 1);
    }

    /// <summary>
    /// Moves pages from the end of the file into free pages and truncates: all free pages when
    /// <paramref name="maxPages"/> is 0, else at most that many.
    /// </summary>
    public void Vacuum(int maxPages)
    {
        var free = _allocator.Drain();
        if (free.Count == 0) return;
        uint original = _pager.PageCount;
        int remove = maxPages <= 0 ? free.Count : Math.Min(maxPages, free.Count);
        long wanted = DataPagesUpTo(original) - remove;
        uint final = (uint)Math.Max(1, wanted);
        while (DataPagesUpTo(final) < wanted || _map.IsReserved(final)) final++;

        var low = new SortedSet<uint>(free.Where(p => p <= final));
        for (uint p = original; p > final; p--)
        {
            if (_map.IsReserved(p) || free.Contains(p)) continue;
            if (low.Count == 0) ThrowHelper.Corrupt("auto-vacuum ran out of free pages (freelist count is wrong)", p);
            uint dest = low.Min;
            low.Remove(dest);
            Relocate(p, dest);
        }
        _pager.Truncate(final);
        _allocator.Refill(low);
    }

    private long DataPagesUpTo(uint n)
    {
        long reserved = 0;
        if (n >= _pager.LockBytePage) reserved++;
        uint per = (uint)(_pager.UsableSize / 5 + 1);
        for (uint m = 2; m <= n; m += per)
        {
            uint map = m == _pager.LockBytePage ? m + 1 : m;
            if (map <= n) reserved++;
        }
        return n - reserved;
    }

    /// <summary>Moves page <paramref name="from"/> to <paramref name="to"/>, fixing the one pointer to it and its children's map entries.</summary>
    public void Relocate(uint from, uint to)
    {
        var (type, parent) = _map.Get(from);
        var src = _pager.Acquire(from);
        try
        {
            src.Span.CopyTo(_pager.Write(to));
        }
        finally
        {
            _pager.Release(src);
        }
        int usable = _pager.UsableSize;
        switch (type)
        {
            case PtrmapType.RootPage:
                break;
            case PtrmapType.BTree:
                RepointChild(parent, from, to);
                break;
            case PtrmapType.Overflow1:
                RepointOverflow(parent, from, to);
                break;
            case PtrmapType.Overflow2:
            {
                var buf = _pager.Write(parent);
                if (BinaryPrimitives.ReadUInt32BigEndian(buf) != from) ThrowHelper.Corrupt($"overflow page {parent} does not point to {from}", parent);
                BinaryPrimitives.WriteUInt32BigEndian(buf, to);
                break;
            }
            default:
                ThrowHelper.Corrupt($"page {from} has pointer-map type {(byte)type} and cannot be moved", from);
                break;
        }
        _map.Put(to, type, parent);
        if (type is PtrmapType.BTree or PtrmapType.RootPage)
        {
            _map.MapChildrenOf(to, usable);
        }
        else
        {
            uint next = BinaryPrimitives.ReadUInt32BigEndian(_pager.Write(to));
            if (next != 0) _map.Put(next, PtrmapType.Overflow2, to);
        }
    }

    private void RepointChild(uint parent, uint from, uint to)
    {
        var buf = _pager.Write(parent);
        int usable = _pager.UsableSize;
        var h = BTreePageHeader.Parse(buf, parent, usable);
        if (h.RightChild == from)
        {
            BinaryPrimitives.WriteUInt32BigEndian(buf.AsSpan(BTreePageHeader.HeaderOffset(parent) + 8), to);
            return;
        }
        for (int i = 0; i < h.CellCount; i++)
        {
            int at = h.CellOffset(buf, i, parent, usable);
            if (CellParser.LeftChild(buf, at) != from) continue;
            BinaryPrimitives.WriteUInt32BigEndian(buf.AsSpan(at), to);
            return;
        }
        ThrowHelper.Corrupt($"page {parent} does not point to its child {from}", parent);
    }

    private void RepointOverflow(uint parent, uint from, uint to)
    {
        var buf = _pager.Write(parent);
        int usable = _pager.UsableSize;
        var h = BTreePageHeader.Parse(buf, parent, usable);
        for (int i = 0; i < h.CellCount; i++)
        {
            int at = h.CellOffset(buf, i, parent, usable);
            if (h.Type == BTreePageType.InteriorTable) continue;
            CellPayload p;
            if (h.Type == BTreePageType.LeafTable) CellParser.TableLeaf(buf, at, usable, parent, out p);
            else CellParser.IndexCell(buf, at, usable, parent, h.Type == BTreePageType.InteriorIndex, out p);
            if (p.Overflow != from) continue;
            BinaryPrimitives.WriteUInt32BigEndian(buf.AsSpan(p.LocalOffset + p.LocalSize), to);
            return;
        }
        ThrowHelper.Corrupt($"page {parent} has no cell overflowing into {from}", parent);
    }
}
