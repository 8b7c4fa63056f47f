using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace Sharc.Storage.Locking;

/// <summary>SQLite's lock levels on a database file.</summary>
internal enum LockLevel
{
    None = 0,
    Shared = 1,
    Reserved = 2,
    Pending = 3,
    Exclusive = 4,
}

/// <summary>
/// SQLite's locking protocol as its unix VFS implements it: POSIX advisory (fcntl) locks on the lock-byte range
/// at offset 2^30 — PENDING byte, RESERVED byte, and a 510-byte SHARED range. A Sharc process and a SQLite process
/// on the same file therefore see each other's locks. On systems without fcntl locks (Windows) locking is a no-op
/// and the class says so through <see cref="IsEnforced"/>.
/// </summary>
/// <remarks>
/// On Linux the locks are open-file-description locks (<see cref="OfdLock"/>): they belong to this connection's open
/// file, so two Sharc connections in one process exclude each other as two processes do, they conflict with SQLite's
/// classic locks in this process and others, and closing another descriptor of the file does not drop them.
/// Elsewhere they are classic POSIX locks, which belong to the process: there two connections in one process do not
/// exclude each other.
/// </remarks>
internal sealed class FileLock
{
    public const long PendingByte = 0x40000000;
    public const long ReservedByte = PendingByte + 1;
    public const long SharedFirst = PendingByte + 2;
    public const int SharedSize = 510;

    private const short ReadLock = 0, WriteLock = 1, Unlock = 2;

    private readonly SafeFileHandle? _handle;

    public FileLock(SafeFileHandle? handle)
    {
        _handle = handle;
        IsEnforced = handle is not null && !OperatingSystem.IsWindows();
    }

    public LockLevel Level { get; private set; }

    public bool IsEnforced { get; }

    /// <summary>Moves up to <paramref name="target"/>; false (holding what it held) when another process is in the way.</summary>
    public bool TryLock(LockLevel target)
    {
        if (Level >= target) return true;
        if (!IsEnforced)
        {
            Level = target;
            return true;
        }
        switch (target)
        {
            case LockLevel.Shared:
                // PENDING blocks new readers, so a writer waiting for EXCLUSIVE is not starved.
                if (!Region(PendingByte, 1, ReadLock)) return false;
                bool ok = Region(SharedFirst, SharedSize, ReadLock);
                Region(PendingByte, 1, Unlock);
                if (!ok) return false;
                break;
            case LockLevel.Reserved:
                if (Level < LockLevel.Shared && !TryLock(LockLevel.Shared)) return false;
                if (!Region(ReservedByte, 1, WriteLock)) return false;
                break;
            case LockLevel.Pending:
                if (Level < LockLevel.Reserved && !TryLock(LockLevel.Reserved)) return false;
                if (!Region(PendingByte, 1, WriteLock)) return false;
                break;
            case LockLevel.Exclusive:
                if (Level < LockLevel.Pending && !TryLock(LockLevel.Pending)) return false;
                if (!Region(SharedFirst, SharedSize, WriteLock)) return false;
                break;
        }
        Level = target;
        return true;
    }

    /// <summary>Drops to <paramref name="target"/> (None or Shared).</summary>
    public void UnlockTo(LockLevel target)
    {
        if (Level <= target) return;
        if (IsEnforced)
        {
            if (target == LockLevel.Shared)
            {
                if (Level == LockLevel.Exclusive) Region(SharedFirst, SharedSize, ReadLock);
                Region(PendingByte, 2, Unlock); // PENDING and RESERVED
            }
            else
            {
                Region(PendingByte, 2 + SharedSize, Unlock);
            }
        }
        Level = target;
    }

    /// <summary>True when some process (possibly this one) holds RESERVED or more on the file.</summary>
    public bool IsReservedByOther()
    {
        if (!IsEnforced || Level >= LockLevel.Reserved) return false;
        if (!Region(ReservedByte, 1, WriteLock)) return true;
        Region(ReservedByte, 1, Unlock);
        return false;
    }

    private bool Region(long offset, long length, short type)
        => OfdLock.IsSupported ? OfdLock.TrySet(_handle!, type, offset, length) : LockFileRegion(_handle!, offset, length, type) == 0;

    /// <summary>Takes a write (exclusive) POSIX lock on a byte range of any file without waiting; false when it is held elsewhere.</summary>
    internal static bool TryLockRange(SafeFileHandle handle, long offset, long length)
        => LockFileRegion(handle, offset, length, WriteLock) == 0;

    /// <summary>Drops this process's POSIX lock on a byte range.</summary>
    internal static void UnlockRange(SafeFileHandle handle, long offset, long length)
        => LockFileRegion(handle, offset, length, Unlock);

    [DllImport("libSystem.Native", EntryPoint = "SystemNative_LockFileRegion", SetLastError = true)]
    private static extern int LockFileRegion(SafeFileHandle fd, long offset, long length, short lockType);
}
