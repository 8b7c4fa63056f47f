using System.Buffers.Binary;

namespace Sharc.Integrity;

/// <summary>
/// Pointer-map pages of auto_vacuum and incremental_vacuum databases. Each holds one 5-byte entry (type, parent
/// page) for each of the usable/5 pages that follow it; the first is page 2 and the next follows the pages the
/// previous one covers. The check compares each page's entry with what the walk found the page to be.
/// (SQLite 3.50 skips the entries of root pages when the schema holds a view, and checks them otherwise; Sharc
/// always checks them.)
/// </summary>
internal sealed class PointerMapCheck
{
    public const byte RootPage = 1;
    public const byte FreePage = 2;
    public const byte Overflow1 = 3;
    public const byte Overflow2 = 4;
    public const byte BTreePage = 5;

    private readonly CheckContext _ctx;
    private readonly uint _perMap;

    public PointerMapCheck(CheckContext ctx)
    {
        _ctx = ctx;
        _perMap = (uint)(ctx.UsableSize / 5);
    }

    /// <summary>The pointer-map page that holds the entry of <paramref name="page"/> (page ≥ 3).</summary>
    public uint MapPageFor(uint page)
    {
        ulong group = (page - 2UL) / (_perMap + 1UL);
        ulong map = group * (_perMap + 1UL) + 2;
        // A pointer map never sits on the lock-byte page: it moves to the next page.
        if (map == _ctx.Pages.LockBytePage) map++;
        return map > uint.MaxValue ? uint.MaxValue : (uint)map;
    }

    public bool IsMapPage(uint page) => page >= 2 && MapPageFor(page) == page;

    /// <summary>Marks every pointer-map page of the database as such.</summary>
    public void ReserveMapPages()
    {
        uint n = _ctx.Pages.PageCount;
        for (ulong p = 2; p <= n; p += _perMap + 1UL)
        {
            uint map = MapPageFor((uint)p);
            if (map <= n) _ctx.Pages.Reserve(map, PageUse.PointerMap);
        }
    }

    /// <summary>
    /// Checks that the pointer map says <paramref name="page"/> is of <paramref name="type"/> with parent
    /// <paramref name="parent"/> (0 for roots and free pages).
    /// </summary>
    public void Expect(uint page, byte type, uint parent, in Where from)
    {
        if (page < 3 || page > _ctx.Pages.PageCount) return; // page 1 and 2 have no entry; invalid numbers are reported by the claim
        uint map = MapPageFor(page);
        long offset = 5L * ((long)page - map - 1);
        if (map >= page || map > _ctx.Pages.PageCount || offset < 0 || offset + 5 > _ctx.UsableSize)
        {
            _ctx.Log.Add(from, $"Failed to read ptrmap key={page} (no pointer-map page holds its entry)");
            return;
        }
        Span<byte> entry = stackalloc byte[5];
        if (!_ctx.TryRead(map, (int)offset, entry, in from)) return;
        byte gotType = entry[0];
        uint gotParent = BinaryPrimitives.ReadUInt32BigEndian(entry[1..]);
        if (gotType is < RootPage or > BTreePage)
        {
            _ctx.Log.Add(from, $"Failed to read ptrmap key={page} (entry type {gotType} on pointer-map page {map} is not 1-5)");
            return;
        }
        if (gotType != type || gotParent != parent)
            _ctx.Log.Add(from, $"Bad ptr map entry key={page} expected=({type},{parent}) got=({gotType},{gotParent}) on pointer-map page {map}");
    }

    /// <summary>
    /// The header's largest-root-page field must name the largest root page of the schema when pointer maps are
    /// present, and incremental vacuum needs pointer maps.
    /// </summary>
    public static void CheckHeader(CheckContext ctx, uint largestSchemaRoot)
    {
        var h = ctx.Header;
        if (h.IsAutoVacuum)
        {
            if (h.LargestRootPage != largestSchemaRoot)
                ctx.Log.Add($"max rootpage ({largestSchemaRoot}) disagrees with header ({h.LargestRootPage})");
        }
        else if (h.IncrementalVacuum != 0)
        {
            ctx.Log.Add("incremental_vacuum enabled with a max rootpage of zero");
        }
    }
}
