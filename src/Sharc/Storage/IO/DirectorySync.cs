using System.Runtime.InteropServices;

namespace Sharc.Storage.IO;

/// <summary>
/// fsync of a directory, so that a rename (or a new file) in it survives a power failure: on Linux and other Unix
/// systems a rename is only durable once the directory holding it is synced.
/// </summary>
internal static class DirectorySync
{
    private const int ReadOnly = 0;

    /// <summary>
    /// Syncs the directory holding <paramref name="path"/>. Does nothing on Windows (NTFS journals its metadata, and a
    /// directory cannot be flushed there). A directory that cannot be opened or synced is ignored, as SQLite ignores
    /// it: some file systems refuse to sync directories, and the rename itself has happened.
    /// </summary>
    public static void SyncParentOf(string path)
    {
        if (OperatingSystem.IsWindows()) return;
        string directory = Path.GetDirectoryName(Path.GetFullPath(path)) is { Length: > 0 } d ? d : "/";
        int fd = Open(directory, ReadOnly);
        if (fd < 0) return;
        try
        {
            Fsync(fd);
        }
        finally
        {
            Close(fd);
        }
    }

    [DllImport("libc", EntryPoint = "open", SetLastError = true)]
    private static extern int Open([MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags);

    [DllImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static extern int Fsync(int fd);

    [DllImport("libc", EntryPoint = "close", SetLastError = true)]
    private static extern int Close(int fd);
}
