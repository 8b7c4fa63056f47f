using System.Buffers.Binary;

namespace Sharc.Integrity;

/// <summary>
/// The freelist: a chain of trunk pages starting at header offset 32, each holding the next trunk's number, a leaf
/// count and that many leaf page numbers. Every trunk and leaf is claimed once (so a cycle ends at its repeat),
/// carries a "free page" pointer-map entry in auto_vacuum databases, and the pages found must add up to the count
/// at header offset 36.
/// </summary>
internal static class FreelistCheck
{
    public static void Run(CheckContext ctx)
    {
        uint expected = ctx.Header.FreelistPageCount;
        uint trunk = ctx.Header.FirstFreelistTrunk;
        long found = 0;
        int maxLeaves = ctx.UsableSize / 4 - 2;
        var buffer = new byte[ctx.PageSize];
        var freelist = Where.Other("Freelist");

        while (trunk != 0)
        {
            if (!ctx.Pages.Claim(trunk, PageUse.FreelistTrunk, freelist)) break;
            found++;
            var here = Where.Other($"Freelist trunk page {trunk}");
            ctx.PointerMap?.Expect(trunk, PointerMapCheck.FreePage, 0, here);
            if (!ctx.TryCopyPage(trunk, buffer, here)) break;
            uint next = BinaryPrimitives.ReadUInt32BigEndian(buffer);
            uint leaves = BinaryPrimitives.ReadUInt32BigEndian(buffer.AsSpan(4));
            if (leaves > (uint)maxLeaves)
            {
                ctx.Log.Add(here, $"freelist leaf count too big: {leaves} (a trunk holds at most {maxLeaves})");
            }
            else
            {
                for (int i = 0; i < (int)leaves; i++)
                {
                    uint leaf = BinaryPrimitives.ReadUInt32BigEndian(buffer.AsSpan(8 + 4 * i));
                    var at = Where.Other($"Freelist trunk page {trunk} leaf {i}");
                    if (!ctx.Pages.Claim(leaf, PageUse.FreelistLeaf, at)) continue;
                    found++;
                    ctx.PointerMap?.Expect(leaf, PointerMapCheck.FreePage, 0, at);
                }
            }
            trunk = next;
        }

        if (found != expected)
            ctx.Log.Add(freelist, $"size is {found} but should be {expected} (the header's freelist count)");
    }
}
