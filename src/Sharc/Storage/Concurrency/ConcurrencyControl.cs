namespace Sharc.Storage.Concurrency;

/// <summary>
/// The one place that decides who may touch which page when, for one writable database shared by many threads.
/// <list type="bullet">
/// <item><b>Write ownership</b> (ConcurrencyControl.Writer.cs): writes are serialized. An explicit transaction belongs to
/// the async flow (thread, for synchronous code) that began it; an autocommit statement belongs to its thread while
/// it runs. Any other flow's write waits for the owner to finish, up to the busy timeout.</item>
/// <item><b>Snapshots</b> (ConcurrencyControl.Snapshots.cs): every read session outside the owning flow reads one
/// committed version of the database from its first page to its last. A commit never changes a page such a reader
/// can see: before committed content is overwritten (in the file, the log or the cache), its old image is kept in
/// the <see cref="PageCache"/>'s version store for as long as a reader of an older version is active; with no such
/// reader, new readers wait the few moments until the commit is published instead.</item>
/// <item>The owning flow reads its own uncommitted pages (the pager's dirty pages) and nobody else does.</item>
/// </list>
/// Lock order: the pager's session gate, then <see cref="Sync"/> (the page cache's lock), never the reverse; the
/// write-ownership monitor is taken before either and never while holding them.
/// </summary>
internal sealed partial class ConcurrencyControl
{
    private PageCache _cache;

    public ConcurrencyControl(PageCache cache) => _cache = cache;

    /// <summary>
    /// Moves the snapshot state to a new pager's cache (an empty database rewritten at another page size, with no
    /// reader active); write ownership carries over, since the statement doing it still holds it.
    /// </summary>
    public void Attach(PageCache cache)
    {
        lock (Sync)
        {
            if (_readers.Count > 0) throw new InvalidOperationException("close the database's readers before changing the page size");
            _cache = cache;
        }
    }

    /// <summary>The lock under which page lookups, the version store and the published version change together.</summary>
    public object Sync => _cache.Sync;
}
