using System.Buffers.Binary;
using Sharc.Storage.Locking;
using Sharc.Storage.Wal;

namespace Sharc.Storage;

/// <summary>
/// WAL mode, one of two ways. Shared (the default where the -shm can be mapped and locked, see Pager.WalShared.cs):
/// SQLite's wal-index protocol, so Sharc and SQLite connections read and write the log at the same time. Sole user
/// (<see cref="SharcWalSharing.Exclusive"/>, or the fallback): Sharc keeps its own index of the log and reads and
/// writes it only as its sole user: every read session and write transaction holds EXCLUSIVE on the database file
/// and an exclusive lock on the -shm's DMS byte (<see cref="ShmLock"/>), waiting up to the busy timeout while any
/// SQLite connection has the database open. Each session first checks whether the log is still as this connection
/// left it, and re-reads it when not.
/// </summary>
internal sealed partial class Pager
{
    private IWalLog? _wal;
    private ShmLock? _shm;

    private WalLog SoleWal => (WalLog)_wal!;

    /// <summary>True when the database is in WAL mode (writes go to the -wal file).</summary>
    public bool IsWal => _wal is not null;

    /// <summary>Commits whose log holds at least this many frames checkpoint it; 0 never does.</summary>
    public int AutoCheckpoint { get; set; } = 1000;

    /// <summary>Committed frames in the log (0 in rollback-journal mode).</summary>
    public int WalFrames => _wal?.CommittedFrames ?? 0;

    /// <summary>Switches this pager to WAL mode and reads the current log (no lock: every session re-checks it).</summary>
    public void UseWal()
    {
        if (_wal is not null) return;
        // Under the gate, and the -shm lock before the log: a reader of another thread beginning its session
        // (BeginRead) must see either rollback-journal mode or a whole WAL pager, never a log without its lock.
        lock (_gate)
        {
            // The shared wal-index is not used with encryption (the opener asks for sole use then too).
            if (WalSharing == SharcWalSharing.Shared && Codec is null && TryUseSharedWal()) return;
            if (ReadOnly) throw new SharcBusyException($"{_path}: the wal-index (-shm) cannot be shared here");
            var wal = new WalLog(_fs, _path + "-wal", PageSize, _cache.Sync, Codec);
            _shm = new ShmLock(_fs, _path + "-shm");
            wal.Refresh();
            _wal = wal;
            if (_wal.DbPageCount != 0) PageCount = _wal.DbPageCount;
            _cache.InvalidateAll();
        }
    }

    /// <summary>
    /// Leaves WAL mode, as the log's sole user throughout: the log is checkpointed, the header's file format versions
    /// are set to 1 in the file (one write within its first sector) and synced, and the -wal and -shm files deleted.
    /// A crash before the header reaches the file leaves a WAL database with an empty log; after, a rollback one.
    /// </summary>
    public void LeaveWal()
    {
        if (_wal is null) return;
        lock (_gate)
        {
            if (_sessions > 0 || InTransaction) throw new InvalidOperationException("close the database's readers before changing the journal mode");
            // Leaving WAL mode needs every other connection gone anyway: from here on as the sole user.
            if (_shared is not null) StopSharingWal();
            BeginWalSession();
            try
            {
                SoleWal.Checkpoint(RawFile);
                Span<byte> header = stackalloc byte[100];
                _file.Read(header, 0);
                header[18] = header[19] = 1;
                uint counter = BinaryPrimitives.ReadUInt32BigEndian(header[24..]);
                bool sizeValid = BinaryPrimitives.ReadUInt32BigEndian(header[92..]) == counter;
                BinaryPrimitives.WriteUInt32BigEndian(header[24..], counter + 1);
                // The header's page count stays trusted only if it was (databases from old writers may not keep it).
                if (sizeValid) BinaryPrimitives.WriteUInt32BigEndian(header[92..], counter + 1);
                _file.Write(header, 0);
                _file.Sync();
                _wal.Dispose();
                _wal = null;
                _shm!.Unlock();
                DeleteWalFiles();
                _cache.InvalidateAll();
                DataVersion++;
            }
            finally
            {
                ReleaseLocks();
                if (_wal is null) _shm = null;
            }
        }
    }

    /// <summary>Removes the -wal and -shm files (only when no other connection can be using them).</summary>
    public void DeleteWalFiles()
    {
        foreach (var side in new[] { _path + "-wal", _path + "-shm" })
            if (_fs.Exists(side)) _fs.Delete(side);
    }

    private bool BeginWalSession()
    {
        AcquireSoleLock();
        try
        {
            return RefreshWal();
        }
        catch
        {
            ReleaseLocks();
            throw;
        }
    }

    private bool _dbOfdHeld;

    /// <summary>
    /// EXCLUSIVE on the database file, then the -shm's DMS byte. On Linux the database lock is an open-file-description
    /// lock over SQLite's whole lock range (PENDING, RESERVED and SHARED bytes): other processes see it as SQLite's
    /// EXCLUSIVE, and unlike a classic lock it also conflicts with SQLite connections in this process.
    /// </summary>
    private void AcquireSoleLock()
    {
        var handle = _file.Handle;
        bool ofd = OfdLock.IsSupported && handle is not null;
        try
        {
            LockWaiter.Acquire(() => (ofd ? TryLockDbOfd(handle!) : _lock.TryLock(LockLevel.Exclusive)) && _shm!.TryLock(), _busyTimeout,
                $"{_path} is in WAL mode, which Sharc uses only while no other connection has it open");
        }
        catch
        {
            ReleaseLocks();
            throw;
        }
    }

    private bool TryLockDbOfd(Microsoft.Win32.SafeHandles.SafeFileHandle handle)
        => _dbOfdHeld || (_dbOfdHeld = OfdLock.TryLockExclusive(handle, FileLock.PendingByte, 2 + FileLock.SharedSize));

    private void ReleaseLocks()
    {
        if (_shared is not null)
        {
            // The SHARED lock on the database file stays for as long as the log is shared.
            _shared.EndWrite();
            _shared.EndRead();
            return;
        }
        _shm?.Unlock();
        if (_dbOfdHeld)
        {
            OfdLock.Unlock(_file.Handle!, FileLock.PendingByte, 2 + FileLock.SharedSize);
            _dbOfdHeld = false;
        }
        _lock.UnlockTo(LockLevel.None);
    }

    /// <summary>Re-reads the log when another connection changed it; true when cached pages were dropped.</summary>
    private bool RefreshWal()
    {
        if (!SoleWal.Refresh()) return false;
        Span<byte> header = stackalloc byte[100];
        if (_file.Read(header, 0) == 100 && header[18] != 2 && header[19] != 2)
            throw new SharcException($"{_path} was switched out of WAL mode by another connection: open it again to go on writing");
        _cache.InvalidateAll();
        PageCount = SoleWal.DbPageCount != 0 ? SoleWal.DbPageCount : FileHeaderPageCount(header);
        DataVersion++;
        ExternalChange = true;
        ExternalCommits++;
        PublishVersion();
        return true;
    }

    /// <summary>The size the database file's own header gives (or, when the header's size is not trusted, the file's length).</summary>
    private uint FileHeaderPageCount(ReadOnlySpan<byte> header)
    {
        uint headerCount = header.Length >= 100 ? BinaryPrimitives.ReadUInt32BigEndian(header[28..]) : 0;
        bool valid = headerCount != 0 && BinaryPrimitives.ReadUInt32BigEndian(header[92..]) == BinaryPrimitives.ReadUInt32BigEndian(header[24..]);
        return valid ? headerCount : (uint)((_file.Length + PageSize - 1) / PageSize);
    }

    /// <summary>
    /// Appends the transaction's pages as frames, the last one carrying the database size (the commit mark), and
    /// syncs the log: once that sync returns the transaction is durable.
    /// </summary>
    private void CommitWal()
    {
        var wal = _wal!;
        bool checkpoint;
        try
        {
            if (_dirty.Count > 0 || wal.HasPending)
            {
                // Like SQLite, page 1 changes only when it must: its header's size is stale, or it changed anyway (a
                // commit needs at least one frame, so a transaction whose pages were all spilled rewrites page 1).
                if (_dirty.Count == 0 || PageCount != _pageCountAtStart || _dirty.ContainsKey(1))
                    StampPage1();
                KeepCommittedImages();
                var pages = _dirty.Keys.Where(p => p <= PageCount).OrderBy(p => p).ToArray();
                for (int i = 0; i < pages.Length; i++)
                    wal.Append(pages[i], _dirty[pages[i]], i == pages.Length - 1 ? PageCount : 0);
                wal.Sync();
                wal.MarkCommitted();
                foreach (var (page, buf) in _dirty) _cache.Update(page, buf);
                PublishVersion();
            }
        }
        catch
        {
            AbortAfterFailure();
            throw;
        }
        checkpoint = AutoCheckpoint > 0 && wal.CommittedFrames >= AutoCheckpoint;
        try
        {
            if (checkpoint && _shared is null) SoleWal.Checkpoint(RawFile);
        }
        catch (IOException)
        {
            // The commit is durable already; the log stays valid and the next checkpoint copies it.
        }
        EndTransaction();
        // Shared: as SQLite's automatic checkpoint, PASSIVE and after the transaction's locks are gone, so this
        // connection's own snapshot does not hold it back.
        if (checkpoint && _shared is not null) AutoCheckpointShared();
    }

    /// <summary>
    /// Copies the log's committed pages into the database file and empties the log (SQLite's TRUNCATE checkpoint).
    /// Returns the number of pages copied; 0 in rollback-journal mode.
    /// </summary>
    public int Checkpoint()
    {
        if (_wal is null) return 0;
        if (InTransaction) throw new InvalidOperationException("a checkpoint cannot run inside a transaction");
        if (_shared is not null)
        {
            var outcome = Checkpoint(CheckpointKind.Truncate);
            if (outcome.Busy) throw new SharcBusyException($"database is locked: a reader or writer of {_path} kept the checkpoint from emptying the log");
            return outcome.PagesCopied;
        }
        lock (_gate)
        {
            bool held = _sessions > 0;
            if (!held) BeginWalSession();
            try
            {
                return SoleWal.Checkpoint(RawFile);
            }
            finally
            {
                if (!held) ReleaseLocks();
            }
        }
    }
}
