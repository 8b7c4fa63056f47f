using System.Buffers.Binary;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Hands out and takes back pages through the freelist, as SQLite does: trunk pages chain from header offset 32,
/// each listing leaf pages; the total count lives at offset 36. Freed pages are reused before the file grows.
/// </summary>
internal sealed class PageAllocator
{
    private readonly Pager _pager;
    private readonly PointerMap _map;

    public PageAllocator(Pager pager, PointerMap map)
    {
        _pager = pager;
        _map = map;
    }

    /// <summary>Leaves per trunk page. SQLite writes at most usable/4 − 8 so that very old readers cope.</summary>
    private int MaxLeaves => _pager.UsableSize / 4 - 8;

    /// <summary>A page to use: a freelist leaf, else a trunk, else a new page at the end of the file.</summary>
    public uint Allocate()
    {
        var p1 = _pager.Write(1);
        uint trunk = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(32));
        uint count = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(36));
        if (trunk == 0 || count == 0) return Append();
        if (trunk > _pager.PageCount) ThrowHelper.Corrupt($"freelist trunk page {trunk} is outside the database", 1, 32);

        var t = _pager.Write(trunk);
        uint leaves = BinaryPrimitives.ReadUInt32BigEndian(t.AsSpan(4));
        if (leaves > (uint)(_pager.UsableSize / 4 - 2)) ThrowHelper.Corrupt($"freelist trunk lists {leaves} leaves", trunk, 4);
        uint page;
        if (leaves > 0)
        {
            page = BinaryPrimitives.ReadUInt32BigEndian(t.AsSpan(8 + 4 * ((int)leaves - 1)));
            BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(4), leaves - 1);
            if (page == 0 || page > _pager.PageCount) ThrowHelper.Corrupt($"freelist leaf page {page} is outside the database", trunk);
        }
        else
        {
            // An empty trunk is itself the page handed out; the next trunk takes its place.
            page = trunk;
            BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(32), BinaryPrimitives.ReadUInt32BigEndian(t.AsSpan(0)));
        }
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(36), count - 1);
        return page;
    }

    /// <summary>A new page at the end of the file (pointer-map pages it passes are created zeroed).</summary>
    public uint Append()
    {
        uint page = _pager.Append();
        while (_map.IsReserved(page)) page = _pager.Append();
        return page;
    }

    /// <summary>Takes every page off the freelist (trunks included) and empties it.</summary>
    public SortedSet<uint> Drain()
    {
        var pages = new SortedSet<uint>();
        var p1 = _pager.Write(1);
        uint trunk = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(32));
        uint count = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(36));
        int guard = 0;
        while (trunk != 0)
        {
            if (trunk > _pager.PageCount || ++guard > _pager.PageCount || !pages.Add(trunk))
                ThrowHelper.Corrupt($"freelist trunk chain is broken at page {trunk}", trunk);
            var pr = _pager.Acquire(trunk);
            try
            {
                var span = pr.Span;
                uint leaves = BinaryPrimitives.ReadUInt32BigEndian(span[4..]);
                if (leaves > (uint)(_pager.UsableSize / 4 - 2)) ThrowHelper.Corrupt($"freelist trunk lists {leaves} leaves", trunk, 4);
                for (int i = 0; i < leaves; i++) pages.Add(BinaryPrimitives.ReadUInt32BigEndian(span[(8 + 4 * i)..]));
                trunk = BinaryPrimitives.ReadUInt32BigEndian(span);
            }
            finally
            {
                _pager.Release(pr);
            }
        }
        if (pages.Count != count) ThrowHelper.Corrupt($"the freelist holds {pages.Count} pages but the header says {count}", 1, 36);
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(32), 0);
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(36), 0);
        return pages;
    }

    /// <summary>Puts pages back on the freelist (largest first, so the lowest pages are handed out first).</summary>
    public void Refill(IEnumerable<uint> pages)
    {
        foreach (uint p in pages.OrderByDescending(p => p)) Free(p);
    }

    /// <summary>Puts <paramref name="page"/> on the freelist.</summary>
    public void Free(uint page)
    {
        if (page <= 1 || page > _pager.PageCount) ThrowHelper.Corrupt($"cannot free page {page}", page);
        _map.Put(page, PtrmapType.FreePage, 0);
        var p1 = _pager.Write(1);
        uint trunk = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(32));
        uint count = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(36));
        if (trunk != 0)
        {
            var t = _pager.Write(trunk);
            uint leaves = BinaryPrimitives.ReadUInt32BigEndian(t.AsSpan(4));
            if (leaves < MaxLeaves)
            {
                BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(8 + 4 * (int)leaves), page);
                BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(4), leaves + 1);
                BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(36), count + 1);
                return;
            }
        }
        // The freed page becomes the new first trunk.
        var n = _pager.Write(page);
        Array.Clear(n);
        BinaryPrimitives.WriteUInt32BigEndian(n.AsSpan(0), trunk);
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(32), page);
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(36), count + 1);
    }
}
