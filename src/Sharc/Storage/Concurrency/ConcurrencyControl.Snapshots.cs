namespace Sharc.Storage.Concurrency;

/// <summary>A committed version of the database a reader sees: its number, size, and the owner's parsed state for it.</summary>
internal readonly record struct Snapshot(long Version, uint PageCount, object? State);

/// <summary>Snapshots: which committed version each reader sees, and the publication of new versions.</summary>
internal sealed partial class ConcurrencyControl
{
    private long _version;
    private uint _pageCount;
    private object? _state;
    // Readers per version they read (versions only grow, so few keys are ever live); a version without readers has
    // no entry, so an empty map means no reader.
    private readonly Dictionary<long, int> _readers = new();
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
            if ((_publishing || _spilled) && !MonitorWait.Until(Sync, timeout, this, static cc => !cc._publishing && !cc._spilled))
                throw new SharcBusyException("database is locked: a large transaction of another thread has written uncommitted pages into the file; the read waited for it until the busy timeout");
            _readers.TryGetValue(_version, out int n);
            _readers[_version] = n + 1;
            return new Snapshot(_version, _pageCount, _state);
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
            _cache.PruneVersions(OldestReader());
        }
    }

    /// <summary>True when a reader holds a snapshot.</summary>
    public bool HasReaders
    {
        get
        {
            lock (Sync) return _readers.Count > 0;
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
    /// keep the committed image of every page it changes (<see cref="PageCache.KeepVersion"/>), tagged with
    /// <paramref name="supersededAt"/> (the version the commit will publish), before overwriting it. Otherwise new
    /// readers wait until <see cref="Publish"/>.
    /// </summary>
    public bool BeginOverwrite(out long supersededAt)
    {
        lock (Sync)
        {
            supersededAt = _version + 1;
            if (_readers.Count > 0) return true;
            _publishing = true;
            return false;
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
            if (_readers.Count > 0) return false;
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
