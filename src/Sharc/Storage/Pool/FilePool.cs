using Sharc.Storage.IO;

namespace Sharc.Storage.Pool;

/// <summary>
/// A process-wide pool of the file handles and page caches of recently closed read-only databases, so that
/// open → read → close of the same file neither reopens it nor rereads its pages while nobody changed it — what a
/// pooled SQLite connection gains. Entries are keyed by the file's identity (device and inode), never its path; a
/// pooled handle holds no SQLite lock (its read sessions ended), so other connections and processes write freely.
/// </summary>
internal static class FilePool
{
    /// <summary>How many closed files wait at most; the least recently closed is closed first.</summary>
    public const int Capacity = 4;

    private static readonly object s_gate = new();
    // Most recently returned last; a handful of entries, so a linear search beats any map.
    private static readonly FilePageSource?[] s_entries = new FilePageSource?[Capacity];
    private static int s_count;

    /// <summary>How many closed files wait now (for tests).</summary>
    public static int Count
    {
        get
        {
            lock (s_gate) return s_count;
        }
    }

    /// <summary>
    /// Takes the pooled source of the file <paramref name="identity"/> names, built with the same options; the caller
    /// owns it from then on (revalidates it through <see cref="FilePageSource.Reuse"/>, disposes it on failure).
    /// </summary>
    public static FilePageSource? TryTake(in FileIdentity identity, int cachePages, TimeSpan busyTimeout)
    {
        lock (s_gate)
        {
            for (int i = s_count - 1; i >= 0; i--)
            {
                var source = s_entries[i]!;
                if (!source.PoolIdentity!.Value.SameFile(identity)) continue;
                if (source.PooledCachePages != cachePages || source.BusyTimeout != busyTimeout) continue;
                RemoveAt(i);
                return source;
            }
        }
        return null;
    }

    /// <summary>Keeps a closed database's source for a later open; false when it may not be pooled (the caller disposes it).</summary>
    public static bool TryReturn(FilePageSource source)
    {
        if (!source.CanPool || !source.SetShareLock(shared: false)) return false;
        FilePageSource? evicted = null;
        lock (s_gate)
        {
            if (s_count == Capacity)
            {
                evicted = s_entries[0];
                RemoveAt(0);
            }
            s_entries[s_count++] = source;
        }
        // Closed outside the gate: closing a file can block.
        evicted?.Dispose();
        return true;
    }

    /// <summary>Closes every pooled file.</summary>
    public static void Clear()
    {
        FilePageSource?[] closing;
        lock (s_gate)
        {
            closing = s_entries[..s_count];
            Array.Clear(s_entries);
            s_count = 0;
        }
        foreach (var source in closing) source!.Dispose();
    }

    private static void RemoveAt(int index)
    {
        Array.Copy(s_entries, index + 1, s_entries, index, s_count - index - 1);
        s_entries[--s_count] = null;
    }
}
