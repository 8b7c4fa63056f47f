using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace Sharc.Storage.Locking;

/// <summary>
/// Linux open-file-description locks (F_OFD_SETLK). Unlike classic POSIX locks they belong to one open file rather
/// than to the process, so they conflict with SQLite's classic locks taken in this same process, and closing some
/// other descriptor of the file (as a SQLite connection does when it closes) does not drop them.
/// </summary>
internal static class OfdLock
{
    private const int F_OFD_GETLK = 36;
    private const int F_OFD_SETLK = 37;
    private const short F_RDLCK = 0, F_WRLCK = 1, F_UNLCK = 2;

    [StructLayout(LayoutKind.Sequential)]
    private struct Flock
    {
        public short Type;
        public short Whence;
        public long Start;
        public long Length;
        public int Pid;
    }

    /// <summary>True where OFD locks exist (Linux on 64-bit: the struct layout above is that ABI's).</summary>
    public static bool IsSupported { get; } = OperatingSystem.IsLinux() && Environment.Is64BitProcess;

    public static bool TryLockExclusive(SafeFileHandle handle, long offset, long length) => Set(handle, F_WRLCK, offset, length);

    public static void Unlock(SafeFileHandle handle, long offset, long length) => Set(handle, F_UNLCK, offset, length);

    /// <summary>Sets a lock of SQLite's fcntl type (0 read, 1 write, 2 unlock) on a byte range without waiting.</summary>
    public static bool TrySet(SafeFileHandle handle, short type, long offset, long length) => Set(handle, type, offset, length);

    /// <summary>
    /// True when a classic POSIX lock of this very process (a SQLite connection's) lies on the range: closing any
    /// descriptor of the file would silently drop it, so such a descriptor must stay open.
    /// </summary>
    public static bool HeldByThisProcess(SafeFileHandle handle, long offset, long length)
    {
        var lk = new Flock { Type = F_WRLCK, Whence = 0, Start = offset, Length = length, Pid = 0 };
        bool added = false;
        handle.DangerousAddRef(ref added);
        try
        {
            // An OFD holder reports pid -1; a classic lock reports its owner's pid.
            return Fcntl((int)handle.DangerousGetHandle(), F_OFD_GETLK, ref lk) == 0 && lk.Type != F_UNLCK && lk.Pid == Environment.ProcessId;
        }
        finally
        {
            if (added) handle.DangerousRelease();
        }
    }

    private static bool Set(SafeFileHandle handle, short type, long offset, long length)
    {
        var lk = new Flock { Type = type, Whence = 0, Start = offset, Length = length, Pid = 0 };
        bool added = false;
        handle.DangerousAddRef(ref added);
        try
        {
            return Fcntl((int)handle.DangerousGetHandle(), F_OFD_SETLK, ref lk) == 0;
        }
        finally
        {
            if (added) handle.DangerousRelease();
        }
    }

    [DllImport("libc", EntryPoint = "fcntl", SetLastError = true)]
    private static extern int Fcntl(int fd, int cmd, ref Flock lk);
}
