namespace Sharc.Storage.Concurrency;

/// <summary>
/// A <see cref="PageView"/> whose read session its owner already holds, served as a page source of its own: a
/// read-only database over it reads that one snapshot (or the writer's view) for as long as the session lasts, however
/// many queries it runs (VACUUM INTO and backups copy one consistent state this way while writers go on).
/// </summary>
internal sealed class SessionPageSource(PageView view) : IPageSource
{
    public int PageSize => view.PageSize;

    public uint PageCount => view.PageCount;

    public long Generation => view.Generation;

    public PageRef Acquire(uint pageNumber) => view.Acquire(pageNumber);

    public void Release(in PageRef page) => view.Release(page);

    public PageRef Exchange(in PageRef old, uint pageNumber) => view.Exchange(old, pageNumber);

    // The owner's session already protects the pages: nothing changes under this source while it lasts.
    public bool BeginRead() => false;

    public void EndRead()
    {
    }

    public void Dispose()
    {
    }
}
