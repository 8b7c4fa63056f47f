using Sharc.Format;
using Sharc.Storage;
using Sharc.Storage.IO;
using Sharc.Storage.Journal;
using Sharc.Storage.Pool;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>
    /// Closes the file handles that closed read-only databases left in the process-wide pool (see
    /// <see cref="SharcOpenOptions.PoolFiles"/>). They hold no lock, so this is never needed for other connections;
    /// it releases the descriptors and memory at once, for example before a file is deleted on a platform that cares.
    /// </summary>
    public static void ClearFilePool() => FilePool.Clear();

    /// <summary>
    /// Open through a pooled handle of the same file (same device and inode as <paramref name="path"/> names now), or
    /// null: nothing pooled, or the file is no longer a plain rollback-journal database (WAL mode, a hot journal, a
    /// -wal file), which the full open handles.
    /// </summary>
    private static SharcDatabase? TryOpenPooled(string path, SharcOpenOptions options)
    {
        if (!options.PoolFiles || !options.ReadLocking || options.Key is not null) return null;
        if (!FileIdentity.TryGet(path, out var identity)) return null;
        var source = FilePool.TryTake(identity, options.CachePages, options.BusyTimeout);
        if (source is null) return null;
        bool handedOver = false;
        try
        {
            // As a fresh open would, fail to share a file someone holds with FileShare.None (the full open reports it).
            if (!source.SetShareLock(shared: true)) return null;
            Span<byte> first = stackalloc byte[DatabaseHeader.Size];
            if (source.ReadFile(first, 0) < DatabaseHeader.Size) return null;
            var header = DatabaseHeader.Parse(first);
            if (header.IsWal || header.PageSize != source.PageSize) return null;
            if (HotJournal.IsHot(OsStorage.Instance, path + "-journal")) return null;
            if (options.ReadWal && File.Exists(path + "-wal")) return null;
            source.Reuse(header.ChangeCounter, identity);
            var db = CompleteOpen(source, path, source.PageCount, wal: null, journal: null, codec: null);
            handedOver = true;
            return db;
        }
        catch (SharcException)
        {
            // Whatever is wrong with the file now, the full open reports it as it would without the pool.
            return null;
        }
        finally
        {
            if (!handedOver) source.Dispose();
        }
    }
}
