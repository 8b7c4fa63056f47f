namespace Sharc.Storage;

/// <summary>Making the whole database another image of the same page size (VACUUM, a backup into an open database).</summary>
internal sealed partial class Pager
{
    /// <summary>
    /// Inside the open write transaction, makes every page that of <paramref name="image"/>, which must have this
    /// pager's page size. Each page goes through <see cref="Write"/>, so the originals are journaled (or the new pages
    /// logged) and the commit is as crash-safe as any other; pages past the image's end are cut at commit, and large
    /// images spill as large transactions do. <paramref name="adjustPage1"/> sees the old header and the new page 1;
    /// <paramref name="afterPage"/> hears of every page copied (progress; it may throw to cancel, and the caller rolls back).
    /// </summary>
    public void OverwriteWith(IPageSource image, Action<byte[], byte[]> adjustPage1, Action<uint, uint>? afterPage = null)
    {
        if (image.PageSize != PageSize)
            throw new InvalidOperationException($"the image has {image.PageSize}-byte pages, the database {PageSize}-byte ones");
        var oldHeader = new byte[100];
        var first = Acquire(1);
        try
        {
            first.Span[..oldHeader.Length].CopyTo(oldHeader);
        }
        finally
        {
            Release(first);
        }
        uint count = image.PageCount;
        for (uint p = 1; p <= count; p++)
        {
            // The lock-byte page is never written, in the image or here.
            if (p == LockBytePage) continue;
            while (PageCount < p) Append();
            var target = Write(p);
            var source = image.Acquire(p);
            try
            {
                source.Span.CopyTo(target);
            }
            finally
            {
                image.Release(source);
            }
            if (p == 1) adjustPage1(oldHeader, target);
            else SpillIfNeeded();
            afterPage?.Invoke(p, count);
        }
        // Pages past the new end are journaled before the cut, as SQLite's backup does: a rollback (or a hot journal
        // after a crash) must find them to restore the old file, which they belong to.
        // (A log needs no such copies: the old pages stay in the file until a checkpoint.)
        for (uint p = count + 1; _wal is null && p <= PageCount; p++)
        {
            if (p == LockBytePage) continue;
            Write(p);
            SpillIfNeeded();
        }
        if (count < PageCount) Truncate(count);
    }
}
