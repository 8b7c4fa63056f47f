namespace Sharc.Storage.Concurrency;

/// <summary>A committed version of the database a reader sees: its number, size, and the owner's parsed state for it.</summary>
internal readonly record struct Snapshot(long Version, uint PageCount, object? State);

/// <summary>Snapshots: which committed version each reader sees, and the publication of new versions.</summary>
internal sealed partial class ConcurrencyControl
{
    private long _version;
    private uint _pageCount;
    private object? _state;
    // Readers per version they read (versions only grow, so few keys are ever live).
    private readonly Dictionary<long, int> _readers = new();
    private int _readerCount;
    // Set while committed content is being overwritten with nothing kept for readers (a commit with no reader to
    // keep it for, or a transaction whose pages were spilled into the file): new snapshots wait.
    private bool _publishing;
    private bool _spilled;

    /// <summary>The number of the latest committed version (read without the lock: a reader compares it with its own).</summary>
    public long LatestVersion => Volatile.Read(ref _version);

    /// <summary>The state published with the latest committed version (read without the lock).</summary>
    public object? LatestState => Volatile.Read(ref _state);

    /// <summary>Replaces the latest version's state with an equivalent one read again (no content changed).</summary>
    public void ReplaceLatestState(object? state)
    {
        lock (Sync) Volatile.Write(ref _state, state);
    }

    /// <summary>The latest committed version.</summary>
    public Snapshot Current
    {
        get
        {
            lock (Sync) return new Snapshot(_version, _pageCount, _state);
        }
    }

    /// <summary>Sets the first committed version's size and state (at open).</summary>
    public void Initialize(uint pageCount, object? state)
    {
        lock (Sync)
        {
            _pageCount = pageCount;
            Volatile.Write(ref _state, state);
        }
    }

    /// <summary>
    /// Registers a reader of the latest committed version. While a commit is being written without kept images (or a
    /// spilled transaction is open) this waits for it, up to <paramref name="timeout"/>.
    /// </summary>
    public Snapshot BeginSnapshot(TimeSpan timeout)
    {
        lock (Sync)
        {
            if (_publishing || _spilled) WaitForPublication(timeout);
            _readers.TryGetValue(_version, out int n);
            _readers[_version] = n + 1;
            _readerCount++;
            return new Snapshot(_version, _pageCount, _state);
        }
    }

    private void WaitForPublication(TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (_publishing || _spilled)
        {
            var left = deadline - DateTime.UtcNow;
            if (left <= TimeSpan.Zero || !Monitor.Wait(Sync, left) && (_publishing || _spilled))
                throw new SharcBusyException("database is locked: a large transaction of another thread has written uncommitted pages into the file; the read waited for it until the busy timeout");
        }
    }

    /// <summary>Ends a reader of <paramref name="version"/>; images no remaining reader needs are dropped.</summary>
    public void EndSnapshot(long version)
    {
        lock (Sync)
        {
            if (!_readers.TryGetValue(version, out int n)) return;
            if (n <= 1) _readers.Remove(version);
            else _readers[version] = n - 1;
            _readerCount--;
            _cache.PruneVersions(OldestReader());
        }
    }

    /// <summary>True when a reader holds a snapshot.</summary>
    public bool HasReaders
    {
        get
        {
            lock (Sync) return _readerCount > 0;
        }
    }

    /// <summary>
    /// The oldest version any image may still be needed for: the oldest reader's, and never past the published
    /// version, since images kept by a commit not yet published serve the readers that start before it is.
    /// </summary>
    private long OldestReader()
    {
        long oldest = _version;
        foreach (long v in _readers.Keys)
            if (v < oldest) oldest = v;
        return oldest;
    }

    /// <summary>
    /// The writer is about to overwrite committed content. Returns true when readers are active: the caller must then
    /// keep the committed image of every page it changes (<see cref="PageCache.KeepVersion"/>) before overwriting it.
    /// Otherwise new readers wait until <see cref="Publish"/>.
    /// </summary>
    public bool BeginOverwrite()
    {
        lock (Sync)
        {
            if (_readerCount > 0) return true;
            _publishing = true;
            return false;
        }
    }

    /// <summary>The version a commit in progress will publish (images kept now are superseded by it).</summary>
    public long NextVersion
    {
        get
        {
            lock (Sync) return _version + 1;
        }
    }

    /// <summary>
    /// A large transaction wants to write uncommitted pages into the file (spill). Allowed only while no reader holds
    /// a snapshot; new snapshots then wait until the transaction ends.
    /// </summary>
    public bool TryBeginSpill()
    {
        lock (Sync)
        {
            if (_readerCount > 0) return false;
            _spilled = true;
            return true;
        }
    }

    /// <summary>Publishes a new committed version (a commit of this connection, or another connection's, noticed).</summary>
    public void Publish(uint pageCount, object? state)
    {
        lock (Sync)
        {
            Volatile.Write(ref _version, _version + 1);
            _pageCount = pageCount;
            Volatile.Write(ref _state, state);
            _publishing = false;
            _cache.PruneVersions(OldestReader());
            Monitor.PulseAll(Sync);
        }
    }

    /// <summary>The write transaction ended: readers no longer wait for it.</summary>
    public void EndTransaction()
    {
        lock (Sync)
        {
            if (!_publishing && !_spilled) return;
            _publishing = false;
            _spilled = false;
            Monitor.PulseAll(Sync);
        }
    }
}
