using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace Sharc.Storage.IO;

/// <summary>
/// Which file a path or handle names (device and inode, not the path: a file replaced by a rename has a new inode),
/// with its size and modification time, from one <c>stat</c>/<c>fstat</c> call.
/// </summary>
internal readonly record struct FileIdentity(ulong Device, ulong Inode, long Size, long ModifiedSeconds, long ModifiedNanoseconds)
{
    // Linux's struct stat on x86-64 (144 bytes) and on arm64 (the generic layout, 128 bytes) differ in the middle but
    // agree on every field read here: st_dev at 0, st_ino at 8, st_size at 48, st_mtim at 88 (seconds) and 96 (ns).
    private const int StatBufferSize = 256;
    private const int DeviceOffset = 0, InodeOffset = 8, SizeOffset = 48, MTimeOffset = 88, MTimeNsOffset = 96;

    /// <summary>
    /// True where the layout above is known: Linux on x86-64 and arm64 (glibc 2.33+ and musl export <c>stat</c>).
    /// Elsewhere (macOS, Windows, WASM, 32-bit) nothing is pooled.
    /// </summary>
    public static bool IsSupported { get; } = OperatingSystem.IsLinux()
        && RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.Arm64;

    private static bool s_broken;

    /// <summary>The identity of the file <paramref name="path"/> names now; false when it is unknown (absent, unsupported).</summary>
    public static bool TryGet(string path, out FileIdentity identity)
    {
        identity = default;
        if (!IsSupported || s_broken) return false;
        // The path goes to libc as NUL-terminated UTF-8 on the stack: no marshalling allocation.
        Span<byte> name = stackalloc byte[1024];
        if (System.Text.Encoding.UTF8.GetMaxByteCount(path.Length) >= name.Length
            && System.Text.Encoding.UTF8.GetByteCount(path) >= name.Length) return false;
        int length = System.Text.Encoding.UTF8.GetBytes(path, name);
        if (name[..length].IndexOf((byte)0) >= 0) return false;
        name[length] = 0;
        Span<byte> buffer = stackalloc byte[StatBufferSize];
        try
        {
            if (Stat(ref MemoryMarshal.GetReference(name), ref MemoryMarshal.GetReference(buffer)) != 0) return false;
        }
        catch (EntryPointNotFoundException)
        {
            // An older glibc exports only __xstat: without the plain symbol, no pooling.
            s_broken = true;
            return false;
        }
        identity = Read(buffer);
        return true;
    }

    /// <summary>The identity of the file an open handle reads.</summary>
    public static bool TryGet(SafeFileHandle handle, out FileIdentity identity)
    {
        identity = default;
        if (!IsSupported || s_broken) return false;
        Span<byte> buffer = stackalloc byte[StatBufferSize];
        bool added = false;
        handle.DangerousAddRef(ref added);
        try
        {
            if (FStat((int)handle.DangerousGetHandle(), ref MemoryMarshal.GetReference(buffer)) != 0) return false;
        }
        catch (EntryPointNotFoundException)
        {
            s_broken = true;
            return false;
        }
        finally
        {
            if (added) handle.DangerousRelease();
        }
        identity = Read(buffer);
        return true;
    }

    /// <summary>Same file, unchanged since: a file rewritten in place without a new change counter still differs here.</summary>
    public bool SameContentStamp(in FileIdentity other)
        => Size == other.Size && ModifiedSeconds == other.ModifiedSeconds && ModifiedNanoseconds == other.ModifiedNanoseconds;

    /// <summary>The same file (device and inode), whatever its content.</summary>
    public bool SameFile(in FileIdentity other) => Device == other.Device && Inode == other.Inode;

    private const int LOCK_SH = 1, LOCK_NB = 4, LOCK_UN = 8;

    /// <summary>
    /// Drops (<paramref name="shared"/> false) or takes again without waiting the advisory <c>flock(LOCK_SH)</c> with
    /// which .NET emulates <see cref="FileShare"/> on Unix: a pooled handle must not keep a later
    /// <c>FileShare.None</c> open of the same file, in this process or another, from succeeding. False when it
    /// cannot be taken (someone holds the file with <c>FileShare.None</c>).
    /// </summary>
    public static bool SetShareLock(SafeFileHandle handle, bool shared)
    {
        bool added = false;
        handle.DangerousAddRef(ref added);
        try
        {
            return Flock((int)handle.DangerousGetHandle(), shared ? LOCK_SH | LOCK_NB : LOCK_UN) == 0;
        }
        finally
        {
            if (added) handle.DangerousRelease();
        }
    }

    // Native byte order: both supported architectures are little-endian.
    private static FileIdentity Read(ReadOnlySpan<byte> b)
        => new(MemoryMarshal.Read<ulong>(b[DeviceOffset..]), MemoryMarshal.Read<ulong>(b[InodeOffset..]),
            MemoryMarshal.Read<long>(b[SizeOffset..]), MemoryMarshal.Read<long>(b[MTimeOffset..]),
            MemoryMarshal.Read<long>(b[MTimeNsOffset..]));

    [DllImport("libc", EntryPoint = "stat", SetLastError = false)]
    private static extern int Stat(ref byte path, ref byte buffer);

    [DllImport("libc", EntryPoint = "flock", SetLastError = false)]
    private static extern int Flock(int fd, int operation);

    [DllImport("libc", EntryPoint = "fstat", SetLastError = false)]
    private static extern int FStat(int fd, ref byte buffer);
}
