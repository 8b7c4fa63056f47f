using Sharc.Storage.IO;

namespace Sharc.Storage;

/// <summary>
/// What lets a closed read-only database's file handle and page cache wait in <see cref="Pool.FilePool"/> for the
/// next open of the same file: its identity at open, and revalidation when it is taken again.
/// </summary>
internal sealed partial class FilePageSource
{
    /// <summary>
    /// The file's identity when this source was opened or last taken from the pool; null when the source may not be
    /// pooled (encrypted, a WAL snapshot or journal overlay, no read locking, pooling off, or an unsupported OS).
    /// </summary>
    public FileIdentity? PoolIdentity { get; private set; }

    /// <summary>The lock timeout the source was built with: a pooled source serves only equal options.</summary>
    public TimeSpan BusyTimeout => _busyTimeout;

    /// <summary>Makes this source poolable at close; it must read the live file under SHARED locks.</summary>
    public void EnablePooling(in FileIdentity identity, int cachePages)
    {
        if (_readLock is null || _codec is not null) return;
        PoolIdentity = identity;
        _cachePages = cachePages;
    }

    private int _cachePages;

    /// <summary>The cache size the source was built with.</summary>
    public int PooledCachePages => _cachePages;

    /// <summary>True when nothing reads through the source any more, so another database may take it.</summary>
    public bool CanPool
    {
        get
        {
            if (PoolIdentity is null || _disposed) return false;
            lock (_sessionGate) return _sessions == 0;
        }
    }

    /// <summary>
    /// Pooled, the handle gives up .NET's <see cref="FileShare"/> lock, so a closed database never keeps another
    /// open with <c>FileShare.None</c> from succeeding; taken again, it takes that lock back, or is not reused.
    /// </summary>
    public bool SetShareLock(bool shared) => FileIdentity.SetShareLock(_file, shared);

    /// <summary>Reads bytes of the file itself (not the cache), as a fresh open reads the header.</summary>
    public int ReadFile(Span<byte> buffer, long offset) => RandomAccess.Read(_file, buffer, offset);

    /// <summary>
    /// Readies a pooled source for a new database. The cache survives only when both the change counter (which every
    /// SQLite commit in rollback mode changes) and the file's size and modification time are as at the last open;
    /// the first read session checks the counter again under the SHARED lock, as for a long-lived open.
    /// </summary>
    public void Reuse(uint changeCounter, in FileIdentity now)
    {
        var before = PoolIdentity!.Value;
        if (changeCounter != _changeCounter || !before.SameContentStamp(now))
        {
            _cache.InvalidateAll();
            Generation++;
        }
        _changeCounter = changeCounter;
        _fileLength = now.Size;
        // Provisional, as at a fresh open: the header read next fixes it.
        PageCount = (uint)Math.Min(uint.MaxValue, (now.Size + PageSize - 1) / PageSize);
        PoolIdentity = now;
    }
}
