using Sharc.Storage.IO;

namespace Sharc.Storage.Locking;

/// <summary>
/// Keeps every SQLite connection out of a WAL database's -shm wal-index while Sharc reads or writes the log.
/// SQLite's unix VFS holds a read lock on the -shm's "DMS" byte (offset 128, after the eight wal-index lock bytes
/// at 120..127) for as long as a connection has the -shm open, and the first connection to open it (finding no lock
/// on that byte) truncates it and rebuilds the index from the -wal file. An exclusive lock on that byte therefore
/// proves that no connection holds a wal-index Sharc's writes would make stale, and makes the next one rebuild it.
/// It is taken after EXCLUSIVE on the database file (which every SQLite connection with the -shm open holds SHARED
/// on, and which also keeps out locking_mode=EXCLUSIVE connections, whose wal-index lives in their heap).
/// </summary>
/// <remarks>
/// The -shm is opened for each lock and closed at unlock, both while the database lock is held: closing a file drops
/// every classic POSIX lock this process holds on it, so Sharc must never close a -shm that a SQLite connection of
/// this process might have open — and under the database lock none can.
/// </remarks>
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
        // Created when missing, as SQLite would, so the lock has a file to live on.
        _shm = _fs.Open(_path, create: true);
        if (_shm.Handle is null || OperatingSystem.IsWindows()) IsHeld = true;
        else IsHeld = OfdLock.IsSupported ? OfdLock.TryLockExclusive(_shm.Handle, DmsByte, 1) : FileLock.TryLockRange(_shm.Handle, DmsByte, 1);
        if (!IsHeld) Close();
        return IsHeld;
    }

    public void Unlock()
    {
        if (IsHeld && _shm?.Handle is not null && !OperatingSystem.IsWindows())
        {
            if (OfdLock.IsSupported) OfdLock.Unlock(_shm.Handle, DmsByte, 1);
            else FileLock.UnlockRange(_shm.Handle, DmsByte, 1);
        }
        IsHeld = false;
        Close();
    }

    private void Close()
    {
        _shm?.Dispose();
        _shm = null;
    }

    public void Dispose() => Unlock();
}
