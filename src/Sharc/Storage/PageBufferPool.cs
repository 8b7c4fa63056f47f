using System.Numerics;

namespace Sharc.Storage;

/// <summary>
/// Page buffers handed back by closed databases, for the next database opened in the process. An application that
/// opens, writes and closes a database per unit of work otherwise allocates its whole working set of pages again each
/// time (a 100-row indexed update on a fresh open allocated 2.2 MB, nearly all of it page buffers read into the cache
/// and copied for the transaction); SQLite's page cache memory is likewise recycled by its allocator across connections.
/// Bounded by <see cref="MaxBytes"/>, so a process never keeps more than about one default cache's worth after its
/// databases are closed. Thread-safe; buffers come back with whatever a previous database left in them.
/// </summary>
internal static class PageBufferPool
{
    /// <summary>The most bytes kept across all page sizes: a 2,000-page default cache of 4 KB pages.</summary>
    public const long MaxBytes = 8L * 1024 * 1024;

    private static readonly object s_lock = new();
    // One stack per power-of-two page size (512 .. 65536), indexed by log2 of the size.
    private static readonly Stack<byte[]>?[] s_bySize = new Stack<byte[]>?[17];
    private static long s_bytes;

    /// <summary>Bytes currently held (for tests).</summary>
    public static long HeldBytes
    {
        get
        {
            lock (s_lock) return s_bytes;
        }
    }

    /// <summary>A buffer of exactly <paramref name="size"/> bytes: a returned one when there is one, else a new array.</summary>
    public static byte[] Rent(int size)
    {
        if (BitOperations.IsPow2(size) && size <= 65536)
        {
            lock (s_lock)
            {
                if (s_bySize[BitOperations.Log2((uint)size)] is { Count: > 0 } stack)
                {
                    s_bytes -= size;
                    return stack.Pop();
                }
            }
        }
        return new byte[size];
    }

    /// <summary>Keeps <paramref name="buffers"/> for later <see cref="Rent"/> calls, as far as the bound allows; the rest go to the GC.</summary>
    public static void Return(IEnumerable<byte[]> buffers)
    {
        lock (s_lock)
        {
            foreach (var buffer in buffers)
            {
                int size = buffer.Length;
                if (!BitOperations.IsPow2(size) || size > 65536 || s_bytes + size > MaxBytes) continue;
                int slot = BitOperations.Log2((uint)size);
                (s_bySize[slot] ??= new Stack<byte[]>()).Push(buffer);
                s_bytes += size;
            }
        }
    }
}
