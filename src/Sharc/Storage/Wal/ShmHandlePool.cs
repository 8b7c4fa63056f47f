using Microsoft.Win32.SafeHandles;
using Sharc.Storage.IO;

namespace Sharc.Storage.Wal;

/// <summary>
/// Descriptors of -shm files this process opened and no longer uses. Closing any descriptor of a file drops every
/// classic POSIX lock the process holds on it, and SQLite connections of this process (Microsoft.Data.Sqlite) hold
/// theirs that way on the -shm; so, as SQLite's own unix VFS does with its unused descriptors, a -shm descriptor is
/// parked instead of closed and handed to the next connection to the same file. Parked descriptors of files since
/// deleted (whose locks nobody can need) are closed.
/// </summary>
internal static class ShmHandlePool
{
    private static readonly Dictionary<string, Stack<SafeFileHandle>> s_parked = new(StringComparer.Ordinal);

    /// <summary>A parked descriptor of <paramref name="path"/> still naming that file, or null.</summary>
    public static IStorageFile? Rent(string path)
    {
        string full = System.IO.Path.GetFullPath(path);
        lock (s_parked)
        {
            Sweep();
            if (!s_parked.TryGetValue(full, out var stack)) return null;
            while (stack.Count > 0)
            {
                var h = stack.Pop();
                if (Names(h, full)) return OsStorage.Wrap(h);
                h.Dispose();
            }
            return null;
        }
    }

    /// <summary>Parks the descriptor of <paramref name="file"/> (its locks already released) for reuse.</summary>
    public static void Return(string path, IStorageFile file)
    {
        var h = file.Handle;
        if (h is null || !OperatingSystem.IsLinux())
        {
            file.Dispose();
            return;
        }
        string full = System.IO.Path.GetFullPath(path);
        lock (s_parked)
        {
            if (!s_parked.TryGetValue(full, out var stack)) s_parked[full] = stack = new Stack<SafeFileHandle>();
            stack.Push(h);
        }
    }

    private static int s_sweeps;

    private static void Sweep()
    {
        // Now and then: descriptors of deleted files (temporary databases) would otherwise pile up.
        if (++s_sweeps % 64 != 0) return;
        foreach (var (path, stack) in s_parked.ToArray())
        {
            var keep = stack.Where(h => Names(h, path)).ToArray();
            foreach (var h in stack.Except(keep)) h.Dispose();
            if (keep.Length == 0) s_parked.Remove(path);
            else s_parked[path] = new Stack<SafeFileHandle>(Enumerable.Reverse(keep));
        }
    }

    private static bool Names(SafeFileHandle h, string path)
    {
        try
        {
            // /proc shows the file a descriptor is open on, with " (deleted)" once it was unlinked.
            return new FileInfo("/proc/self/fd/" + h.DangerousGetHandle()).LinkTarget == path;
        }
        catch (IOException)
        {
            return false;
        }
    }
}
