namespace Sharc.Integrity;

/// <summary>What a page of the database is used for. Every page must have exactly one use.</summary>
internal enum PageUse : byte
{
    None = 0,
    BTree,
    Overflow,
    FreelistTrunk,
    FreelistLeaf,
    PointerMap,
    LockByte,
}

/// <summary>
/// Page accounting: one byte per page recording its use. A page claimed twice is reported as a "2nd reference",
/// a page number outside the database as invalid, and at the end every page nobody claimed as "never used".
/// Claiming is also what keeps every walk finite: a page is entered at most once, so cycles end at the repeat.
/// </summary>
internal sealed class PageAccounting
{
    /// <summary>The byte offset SQLite locks (PENDING_BYTE); the page holding it is never used for data.</summary>
    private const long LockByteOffset = 0x40000000;

    private readonly byte[] _use;
    private readonly ProblemLog _log;

    public PageAccounting(uint pageCount, int pageSize, ProblemLog log)
    {
        PageCount = pageCount;
        _log = log;
        _use = new byte[(long)pageCount + 1];
        LockBytePage = (uint)(LockByteOffset / pageSize + 1);
        if (LockBytePage <= pageCount) _use[LockBytePage] = (byte)PageUse.LockByte;
    }

    public uint PageCount { get; }

    /// <summary>Told ("pages", pages claimed so far, page count) as pages are claimed, for a progress display.</summary>
    public Action<string, long, long>? Progress { get; set; }

    private long _claimed;

    /// <summary>The lock-byte page's number (it may lie beyond the end of a small database).</summary>
    public uint LockBytePage { get; }

    public PageUse UseOf(uint page) => page == 0 || page > PageCount ? PageUse.None : (PageUse)_use[page];

    /// <summary>True when <paramref name="page"/> is a page number of this database.</summary>
    public bool InRange(uint page) => page != 0 && page <= PageCount;

    /// <summary>
    /// Records that <paramref name="page"/> is used as <paramref name="use"/>, reached from <paramref name="from"/>.
    /// Returns false, after reporting the problem, when the page number is invalid or the page already has a use;
    /// the caller must then not walk into the page.
    /// </summary>
    public bool Claim(uint page, PageUse use, in Where from)
    {
        if (!InRange(page))
        {
            _log.Add(from, $"invalid page number {page}");
            return false;
        }
        var old = (PageUse)_use[page];
        if (old != PageUse.None)
        {
            _log.Add(from, $"2nd reference to page {page} (it is already {Describe(old)}, now referenced as {Describe(use)})");
            return false;
        }
        _use[page] = (byte)use;
        Progress?.Invoke("pages", ++_claimed, PageCount);
        return true;
    }

    /// <summary>Marks a page without reporting anything (pages whose use follows from the header, such as pointer maps).</summary>
    public void Reserve(uint page, PageUse use)
    {
        if (InRange(page) && _use[page] == (byte)PageUse.None) _use[page] = (byte)use;
    }

    /// <summary>Reports every page that no b-tree, overflow chain, freelist or pointer map accounts for.</summary>
    public void ReportNeverUsed()
    {
        for (uint p = 1; p <= PageCount; p++)
            if (_use[p] == (byte)PageUse.None) _log.Add($"Page {p} is never used");
    }

    public static string Describe(PageUse use) => use switch
    {
        PageUse.BTree => "a b-tree page",
        PageUse.Overflow => "an overflow page",
        PageUse.FreelistTrunk => "a freelist trunk page",
        PageUse.FreelistLeaf => "a freelist leaf page",
        PageUse.PointerMap => "a pointer-map page",
        PageUse.LockByte => "the lock-byte page",
        _ => "unused",
    };
}
