using Sharc.Storage.IO;

namespace Sharc.Storage.Locking;

/// <summary>
/// Keeps every SQLite connection out of a WAL database's -shm wal-index while Sharc reads or writes the log.
/// SQLite's unix VFS holds a read lock on the -shm's "DMS" byte (offset 128, after the eight wal-index lock bytes
/// at 120..127) for as long as a connection has the -shm open, and the first connection to open it (finding no lock
/// on that byte) truncates it and rebuilds the index from the -wal file. An exclusive lock on that byte therefore
/// proves that no connection holds a wal-index Sharc's writes would make stale, and makes the next one rebuild it.
/// Together with EXCLUSIVE on the database file (which also keeps out locking_mode=EXCLUSIVE connections, whose
/// wal-index lives in their heap), Sharc is the log's sole user while it holds this lock.
/// </summary>
internal sealed class ShmLock : IDisposable
{
    public const long DmsByte = 128;

    private readonly IStorageSystem _fs;
    private readonly string _path;
    private IStorageFile? _shm;

    public ShmLock(IStorageSystem fs, string shmPath)
    {
        _fs = fs;
        _path = shmPath;
    }

    public bool IsHeld { get; private set; }

    public bool TryLock()
    {
        if (IsHeld) return true;
        // Opened afresh for each attempt (SQLite deletes the -shm when its last connection closes, and a lock on a
        // deleted file would guard nothing); created when missing, as SQLite would, so the lock has a file to live on.
        _shm?.Dispose();
        _shm = _fs.Open(_path, create: true);
        if (_shm.Handle is null || OperatingSystem.IsWindows())
        {
            IsHeld = true;
            return true;
        }
        IsHeld = FileLock.TryLockRange(_shm.Handle, DmsByte, 1);
        return IsHeld;
    }

    public void Unlock()
    {
        if (!IsHeld) return;
        if (_shm?.Handle is not null && !OperatingSystem.IsWindows()) FileLock.UnlockRange(_shm.Handle, DmsByte, 1);
        IsHeld = false;
    }

    public void Dispose()
    {
        Unlock();
        _shm?.Dispose();
        _shm = null;
    }
}
