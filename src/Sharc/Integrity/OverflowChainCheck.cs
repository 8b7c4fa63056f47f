using System.Buffers.Binary;

namespace Sharc.Integrity;

/// <summary>
/// Overflow chains: a payload too big for its cell continues on a linked list of pages, each starting with the
/// next page's number (0 on the last) followed by usable−4 bytes of payload. The chain must have exactly the
/// number of pages the payload needs, every page claimed once, and (auto_vacuum) pointer-map entries of type 3
/// for the first page (parent: the b-tree page) and 4 for the rest (parent: the previous overflow page).
/// </summary>
internal static class OverflowChainCheck
{
    /// <summary>The number of overflow pages a payload of <paramref name="payload"/> bytes with <paramref name="local"/> bytes on the page needs.</summary>
    public static long PagesNeeded(long payload, int local, int usable)
        => payload <= local ? 0 : (payload - local + usable - 5) / (usable - 4);

    public static void Check(CheckContext ctx, uint first, long payload, int local, uint owner, in Where from)
    {
        long needed = PagesNeeded(payload, local, ctx.UsableSize);
        uint page = first, previous = owner;
        Span<byte> next = stackalloc byte[4];
        for (long k = 0; k < needed; k++)
        {
            if (page == 0)
            {
                ctx.Log.Add(from, $"overflow list length is {k} but should be {needed} (the chain ends after page {previous})");
                return;
            }
            if (!ctx.Pages.Claim(page, PageUse.Overflow, from)) return;
            ctx.PointerMap?.Expect(page, k == 0 ? PointerMapCheck.Overflow1 : PointerMapCheck.Overflow2, previous, from);
            if (!ctx.TryRead(page, 0, next, from)) return;
            previous = page;
            page = BinaryPrimitives.ReadUInt32BigEndian(next);
        }
        if (page != 0)
            ctx.Log.Add(from, $"overflow list runs past its {needed} page(s): the last, page {previous}, points on to page {page}");
    }
}
