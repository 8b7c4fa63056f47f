using Sharc.Storage.IO;
using Sharc.Storage.Locking;

namespace Sharc.Storage.Wal;

internal sealed partial class SharedWal
{
    /// <summary>
    /// SQLite's checkpoint (walCheckpoint) through the second descriptor. The checkpoint lock first (another
    /// checkpoint running: busy at once); FULL and stronger also wait for the write lock. Frames are copied back only
    /// up to the oldest frame a reader still needs: a reader's mark that cannot be moved (its lock is held) caps the
    /// copy, PASSIVE without waiting, FULL and stronger after waiting up to the busy timeout. Copying holds read lock 0
    /// exclusively, so no reader takes the database file alone as its snapshot meanwhile. RESTART and TRUNCATE then
    /// wait until no reader uses the log; TRUNCATE restarts it and cuts the file to nothing.
    /// </summary>
    public CheckpointOutcome Checkpoint(IStorageFile db, CheckpointKind kind, TimeSpan busyTimeout)
    {
        var locks = _checkpointLocks;
        if (!locks.TryExclusive(WalShm.CheckpointLock)) return new CheckpointOutcome(true, CommittedFrames, 0, 0);
        bool write = false;
        try
        {
            bool busy = false;
            if (kind >= CheckpointKind.Full)
            {
                write = Wait(() => locks.TryExclusive(WalShm.WriteLock), busyTimeout);
                if (!write)
                {
                    // As SQLite does: without the writer's lock, what can be copied is still copied.
                    busy = true;
                    kind = CheckpointKind.Passive;
                }
            }
            TimeSpan wait = kind >= CheckpointKind.Full ? busyTimeout : TimeSpan.Zero;
            ShmHeader hdr = default;
            if (!Wait(() => ReadHeader(locks, write, out hdr), busyTimeout)) return new CheckpointOutcome(true, 0, 0, 0);
            if (hdr.MxFrame > 0 && hdr.PageSize != _pageSize)
                throw new SharcFormatException($"the wal-index of {Path} says {hdr.PageSize}-byte pages but the database uses {_pageSize}-byte pages");

            uint safe = hdr.MxFrame;
            for (int i = 1; i < WalShm.Readers; i++)
            {
                uint mark = _shm.ReadMark(i);
                if (safe <= mark) continue;
                int slot = ReadSlot(i);
                if (Wait(() => locks.TryExclusive(slot), wait))
                {
                    _shm.SetReadMark(i, i == 1 ? safe : WalShm.ReadMarkNotUsed);
                    locks.Unlock(slot);
                }
                else
                {
                    safe = mark;
                    busy |= kind >= CheckpointKind.Full;
                }
            }

            int copied = 0;
            uint backfill = _shm.NBackfill;
            if (backfill < safe)
            {
                if (Wait(() => locks.TryExclusive(ReadSlot(0)), wait))
                {
                    try
                    {
                        copied = CopyBack(db, hdr, backfill, safe);
                    }
                    finally
                    {
                        locks.Unlock(ReadSlot(0));
                    }
                }
                else busy = true;
            }

            if (!busy && kind >= CheckpointKind.Restart)
            {
                if (_shm.NBackfill < hdr.MxFrame) busy = true;
                else if (Wait(() => locks.TryExclusive(ReadSlot(1), WalShm.Readers - 1), busyTimeout))
                {
                    try
                    {
                        if (kind == CheckpointKind.Truncate)
                        {
                            hdr = Restarted(hdr);
                            var log = LogFile(create: false);
                            if (log is not null && log.Length > 0) log.SetLength(0);
                        }
                    }
                    finally
                    {
                        locks.Unlock(ReadSlot(1), WalShm.Readers - 1);
                    }
                }
                else busy = true;
            }
            return new CheckpointOutcome(busy, (int)hdr.MxFrame, (int)Math.Min(_shm.NBackfill, hdr.MxFrame), copied);
        }
        finally
        {
            if (write) locks.Unlock(WalShm.WriteLock);
            locks.Unlock(WalShm.CheckpointLock);
        }
    }

    /// <summary>
    /// Copies frames (<paramref name="backfill"/>, <paramref name="safe"/>] back: for each page its newest frame in the
    /// log, skipped when that frame is past <paramref name="safe"/> (a reader still reads the older one from the log)
    /// or the page is past the database's end. The log is synced first; the file is cut when the whole log is in
    /// it, then synced; only then does the index say how far it was copied.
    /// </summary>
    private int CopyBack(IStorageFile db, in ShmHeader hdr, uint backfill, uint safe)
    {
        _shm.BackfillAttempted = safe;
        var log = LogFile(create: false) ?? throw new SharcCorruptException($"{Path} is missing but the wal-index holds frames");
        log.Sync();
        var newest = new Dictionary<uint, uint>();
        for (uint f = backfill + 1; f <= hdr.MxFrame; f++) newest[_shm.PageOf(f)] = f;
        byte[] page = new byte[_pageSize];
        int copied = 0;
        foreach (var (pgno, frame) in newest.OrderBy(kv => kv.Key))
        {
            if (frame > safe || pgno == 0 || pgno > hdr.PageCount) continue;
            if (log.Read(page, FrameOffset(frame) + WalIndex.FrameHeaderSize) != page.Length)
                ThrowHelper.Corrupt($"frame {frame} of {Path} is missing during a checkpoint");
            db.Write(page, (long)(pgno - 1) * _pageSize);
            copied++;
        }
        if (_shm.TryReadHeader(out var now, extend: false) && now.MxFrame == safe)
        {
            long size = (long)hdr.PageCount * _pageSize;
            if (db.Length > size) db.SetLength(size);
        }
        db.Sync();
        _shm.NBackfill = safe;
        return copied;
    }

    private static bool Wait(Func<bool> attempt, TimeSpan timeout)
    {
        if (attempt()) return true;
        if (timeout <= TimeSpan.Zero) return false;
        try
        {
            LockWaiter.Acquire(attempt, timeout, "checkpoint");
            return true;
        }
        catch (SharcBusyException)
        {
            return false;
        }
    }
}

/// <summary>SQLite's checkpoint modes (sqlite3_wal_checkpoint_v2).</summary>
internal enum CheckpointKind
{
    Passive = 0,
    Full = 1,
    Restart = 2,
    Truncate = 3,
}

/// <summary>A checkpoint's result: whether it was cut short, the log's frames, how many are in the database file, pages copied.</summary>
internal readonly record struct CheckpointOutcome(bool Busy, int LogFrames, int CheckpointedFrames, int PagesCopied);
