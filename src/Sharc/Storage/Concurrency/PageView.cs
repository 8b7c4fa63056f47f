namespace Sharc.Storage.Concurrency;

/// <summary>
/// The pages one reader (or one statement's readers) of a writable database sees during a read session: either a
/// committed snapshot (any flow but the writer's) or the writer's own view, its uncommitted pages first. Cursors
/// read through it, so which one it is is decided once per session, not per page.
/// </summary>
internal sealed class PageView : IPageSource
{
    private readonly Pager _pager;
    private bool _latest = true;
    private long _version;
    private uint _pageCount;

    public PageView(Pager pager) => _pager = pager;

    /// <summary>True while the view is the writer's own (uncommitted pages visible); false for a snapshot.</summary>
    public bool IsWriterView => _latest;

    /// <summary>The committed version a snapshot view reads.</summary>
    public long Version => _version;

    public int PageSize => _pager.PageSize;

    public uint PageCount => _latest ? _pager.PageCount : _pageCount;

    // Snapshots count down from -1 so that no snapshot shares a generation with the writer's view.
    public long Generation => _latest ? _pager.Generation : -1 - _version;

    /// <summary>Reads committed version <paramref name="snapshot"/>.</summary>
    public void SetSnapshot(in Snapshot snapshot)
    {
        _latest = false;
        _version = snapshot.Version;
        _pageCount = snapshot.PageCount;
    }

    /// <summary>Reads what the writing flow sees: its own changes over the latest commit.</summary>
    public void SetWriterView() => _latest = true;

    /// <summary>Takes the same view as <paramref name="other"/> (readers of one statement share its snapshot).</summary>
    public void CopyFrom(PageView other)
    {
        _latest = other._latest;
        _version = other._version;
        _pageCount = other._pageCount;
    }

    public PageRef Acquire(uint pageNumber)
    {
        return _latest ? _pager.Acquire(pageNumber) : _pager.AcquireAt(pageNumber, _version, _pageCount);
    }

    public void Release(in PageRef page) => _pager.Release(page);

    public PageRef Exchange(in PageRef old, uint pageNumber)
    {
        if (_latest)
        {
            _pager.Release(old);
            return _pager.Acquire(pageNumber);
        }
        return _pager.ExchangeAt(old, pageNumber, _version, _pageCount);
    }

    // Sessions are begun on the database (SharcDatabase.BeginReadSession), which then sets this view.
    public bool BeginRead() => throw new InvalidOperationException("read sessions begin on the database, not on a page view");

    public void EndRead() => throw new InvalidOperationException("read sessions end on the database, not on a page view");

    public void Dispose()
    {
    }
}
