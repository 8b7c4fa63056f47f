using Sharc.Storage.IO;

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
        var oldHeader = new byte[PageSize];
        CopyPage(this, 1, oldHeader);
        uint count = image.PageCount;
        for (uint p = 1; p <= count; p++)
        {
            // The lock-byte page is never written, in the image or here.
            if (p == LockBytePage) continue;
            while (PageCount < p) Append();
            var target = Write(p);
            CopyPage(image, p, target);
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

    /// <summary>Copies page <paramref name="page"/> of <paramref name="source"/> into <paramref name="into"/>.</summary>
    internal static void CopyPage(IPageSource source, uint page, Span<byte> into)
    {
        var borrowed = source.Acquire(page);
        try
        {
            borrowed.Span.CopyTo(into);
        }
        finally
        {
            source.Release(borrowed);
        }
    }

    /// <summary>
    /// Writes every page of <paramref name="image"/> into <paramref name="file"/> at the image's page size (the
    /// lock-byte page left out), <paramref name="first"/> standing for page 1 when given, and cuts the file to the
    /// image; <paramref name="afterPage"/> hears of each page (progress, cancellation). The caller syncs.
    /// </summary>
    internal static void WriteImage(IPageSource image, IStorageFile file, byte[]? first, Action<uint, uint>? afterPage)
    {
        uint count = image.PageCount;
        uint lockPage = (uint)(Locking.FileLock.PendingByte / image.PageSize) + 1;
        var buffer = new byte[image.PageSize];
        for (uint p = 1; p <= count; p++)
        {
            if (p == 1 && first is not null) file.Write(first, 0);
            else if (p != lockPage)
            {
                CopyPage(image, p, buffer);
                file.Write(buffer, (long)(p - 1) * buffer.Length);
            }
            afterPage?.Invoke(p, count);
        }
        file.SetLength((long)count * buffer.Length);
    }
}
