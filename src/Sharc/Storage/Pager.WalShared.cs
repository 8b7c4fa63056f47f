using Sharc.Storage.Locking;
using Sharc.Storage.Wal;

namespace Sharc.Storage;

/// <summary>
/// WAL mode shared with SQLite through the -shm wal-index (<see cref="SharedWal"/>). The connection holds SHARED on
/// the database file for as long as it uses the log, as SQLite's WAL connections do, so no connection can leave WAL
/// mode or delete the log under it. A read session is a snapshot pinned by a read mark; a write transaction adds the
/// WAL write lock (waiting up to the busy timeout for another writer) on a snapshot that is still the newest.
/// </summary>
internal sealed partial class Pager
{
    private SharedWal? _shared;

    /// <summary>How a WAL database is shared (set at open).</summary>
    public SharcWalSharing WalSharing { get; init; } = SharcWalSharing.Shared;

    /// <summary>True for a connection that only reads (a WAL database opened without <see cref="SharcOpenOptions.Writable"/>).</summary>
    public bool ReadOnly { get; init; }

    /// <summary>True when the log is shared with other connections through the wal-index.</summary>
    public bool IsWalShared => _shared is not null;

    private bool TryUseSharedWal()
    {
        Acquire(LockLevel.Shared);
        SharedWal? shared;
        try
        {
            shared = SharedWal.TryOpen(_fs, _path, PageSize, _cache.Sync, _gate, ReadOnly, _busyTimeout);
        }
        catch
        {
            _lock.UnlockTo(LockLevel.None);
            throw;
        }
        if (shared is null)
        {
            _lock.UnlockTo(LockLevel.None);
            return false;
        }
        _shared = shared;
        _wal = shared;
        _cache.InvalidateAll();
        return true;
    }

    /// <summary>Back to sole use (leaving WAL mode): the wal-index, its locks and the SHARED lock are released.</summary>
    private void StopSharingWal()
    {
        _shared!.Dispose();
        _shared = null;
        _lock.UnlockTo(LockLevel.None);
        var wal = new WalLog(_fs, _path + "-wal", PageSize, _cache.Sync);
        _shm = new ShmLock(_fs, _path + "-shm");
        wal.Refresh();
        _wal = wal;
        _cache.InvalidateAll();
    }

    /// <summary>Begins a snapshot; when it is not the one cached, the cache goes and the new size is taken.</summary>
    private bool BeginSharedSession() => _shared!.BeginRead() && ApplySharedSnapshot();

    private bool ApplySharedSnapshot()
    {
        _cache.InvalidateAll();
        if (_shared!.DbPageCount != 0) PageCount = _shared.DbPageCount;
        else
        {
            // The log holds nothing newer than the file (or all of it was copied back): the file's header says.
            Span<byte> header = stackalloc byte[100];
            PageCount = FileHeaderPageCount(header[.._file.Read(header, 0)]);
        }
        DataVersion++;
        ExternalChange = true;
        PublishVersion();
        return true;
    }

    /// <summary>
    /// The write lock on the newest snapshot, then the transaction. Without a session of its own the connection takes a
    /// fresh snapshot for each attempt (and holds none while it waits). With readers of this connection still on an
    /// older snapshot, a commit by another connection since makes the write fail at once, as SQLite's
    /// SQLITE_BUSY_SNAPSHOT: those readers' snapshot cannot become a write transaction. Attempts run under the gate,
    /// waits outside it, so this connection's readers begin and end sessions while its writer waits.
    /// </summary>
    private void BeginSharedWrite(DateTime deadline)
    {
        if (ReadOnly) throw new SharcReadOnlyException();
        int sleep = 1;
        while (true)
        {
            lock (_gate)
            {
                if (InTransaction) throw new InvalidOperationException("a write transaction is already open on this connection");
                if (TrySharedWrite())
                {
                    _pageCountAtStart = PageCount;
                    InTransaction = true;
                    return;
                }
            }
            if (DateTime.UtcNow >= deadline)
                throw new SharcBusyException($"database is locked: another connection holds the file ({_path}: another connection is writing (WAL write lock))");
            Thread.Sleep(sleep);
            sleep = Math.Min(sleep * 2, 50);
        }
    }

    private bool TrySharedWrite()
    {
        var shared = _shared!;
        try
        {
            if (!shared.IsReading) BeginSharedSession();
            if (shared.TryBeginWrite(out bool stale)) return true;
            if (stale && _sessions > 0)
                throw new SharcBusyException($"database is locked: another connection committed to {_path} after this connection's open readers began (their snapshot cannot be written on)");
            if (stale)
            {
                // The lock was free and only the snapshot was old: a fresh one is tried at once. Sleeping first lets
                // writers that take the lock before reading (SQLite's BEGIN IMMEDIATE) commit again meanwhile, so
                // under a steady stream of their commits this writer's snapshot would be stale at every attempt.
                shared.EndRead();
                BeginSharedSession();
                if (shared.TryBeginWrite(out _)) return true;
            }
        }
        catch
        {
            if (_sessions == 0) shared.EndRead();
            throw;
        }
        if (_sessions == 0) shared.EndRead();
        return false;
    }

    /// <summary>A PASSIVE checkpoint after a commit crossed the threshold; a busy or failing one is left for later.</summary>
    private void AutoCheckpointShared()
    {
        try
        {
            _shared?.Checkpoint(_file, CheckpointKind.Passive, TimeSpan.Zero);
        }
        catch (IOException)
        {
            // The commit is durable; the log stays valid and a later checkpoint copies it.
        }
    }

    /// <summary>
    /// A checkpoint of the given kind (SQLite's PRAGMA wal_checkpoint modes). In sole-user mode every kind is a
    /// TRUNCATE checkpoint (the sole user has no readers to wait for).
    /// </summary>
    public CheckpointOutcome Checkpoint(CheckpointKind kind)
    {
        if (_wal is null) return default;
        if (InTransaction) throw new InvalidOperationException("a checkpoint cannot run inside a transaction");
        if (_shared is null)
        {
            int copied = Checkpoint();
            return new CheckpointOutcome(false, 0, 0, copied);
        }
        if (ReadOnly) throw new SharcReadOnlyException();
        return _shared.Checkpoint(_file, kind, _busyTimeout);
    }
}
