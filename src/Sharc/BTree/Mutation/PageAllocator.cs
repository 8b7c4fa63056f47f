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

    public PageAllocator(Pager pager) => _pager = pager;

    /// <summary>Leaves per trunk page. SQLite writes at most usable/4 − 8 so that very old readers cope.</summary>
    private int MaxLeaves => _pager.UsableSize / 4 - 8;

    public uint FreeCount => BinaryPrimitives.ReadUInt32BigEndian(Header()[36..]);

    private ReadOnlySpan<byte> Header()
    {
        var p = _pager.Acquire(1);
        try
        {
            return p.Span[..100].ToArray();
        }
        finally
        {
            _pager.Release(p);
        }
    }

    /// <summary>A page to use: a freelist leaf, else a trunk, else a new page at the end of the file.</summary>
    public uint Allocate()
    {
        var p1 = _pager.Write(1);
        uint trunk = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(32));
        uint count = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(36));
        if (trunk == 0 || count == 0) return _pager.Append();
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

    /// <summary>Puts <paramref name="page"/> on the freelist.</summary>
    public void Free(uint page)
    {
        if (page <= 1 || page > _pager.PageCount) ThrowHelper.Corrupt($"cannot free page {page}", page);
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
