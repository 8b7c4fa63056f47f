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
    /// <remarks>
    /// Waits happen outside the pager's session gate (which this connection's readers need to end their sessions);
    /// only the moves of this connection's own read lock take it.
    /// </remarks>
    public CheckpointOutcome Checkpoint(IStorageFile db, CheckpointKind kind, TimeSpan busyTimeout)
    {
        var gate = _gate;
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
            // This connection's own snapshot, when it is the newest, need not hold the copy back: its pages are the
            // newest too (and the pager keeps older images for its readers itself).
            lock (gate) Repin();
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
                lock (gate) Repin();
                if (_shm.NBackfill < hdr.MxFrame) busy = true;
                else if (Wait(() => locks.TryExclusive(ReadSlot(1), WalShm.Readers - 1), busyTimeout))
                {
                    try
                    {
                        if (kind == CheckpointKind.Truncate)
                        {
                            // This connection's snapshot on the file alone (see Repin) is the same data after the
                            // restart: it moves to the restarted header, so its next write is not taken for stale.
                            lock (gate)
                            {
                                bool ours = _readLock == 0 && _hdr.Equals(hdr);
                                hdr = Restarted(hdr);
                                if (ours) Take(hdr, 0, 1);
                            }
                            var log = LogFile(create: false);
                            if (log is not null && log.Length > 0)
                            {
                                Span<byte> old = stackalloc byte[WalIndex.HeaderSize];
                                if (log.Read(old, 0) == old.Length)
                                    _lastLog = new WalHeader(true, false, System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(old[12..]),
                                        System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(old[16..]), 0);
                                log.SetLength(0);
                            }
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

    /// <summary>
    /// Moves this connection's read lock, when it holds the newest snapshot and is not writing, to the least
    /// restrictive lock that still protects that snapshot: read mark 0 when the whole log is in the database file,
    /// else a mark at the newest frame (this connection's own commits leave its mark behind them). The snapshot
    /// itself does not change, so the pager's cache stays valid.
    /// </summary>
    private void Repin(bool writing = false)
    {
        // A writer's own snapshot may move too: under the write lock it is the newest and stays so.
        if (_readLock < 0 || _writing != writing || !_shm.HeaderIs(_hdr)) return;
        var locks = _shm.Locks;
        int old = _readLock;
        if (_shm.NBackfill == _hdr.MxFrame)
        {
            if (old == 0 || !locks.TryShared(ReadSlot(0))) return;
            if (_shm.NBackfill != _hdr.MxFrame || !_shm.HeaderIs(_hdr))
            {
                locks.Unlock(ReadSlot(0));
                return;
            }
            locks.Unlock(ReadSlot(old));
            Take(_hdr, 0, _hdr.MxFrame + 1);
            return;
        }
        // (Read mark 0 with the header unchanged means the log is still all copied back: handled above.)
        if (old == 0 || _shm.ReadMark(old) == _hdr.MxFrame) return;
        for (int i = 1; i < WalShm.Readers; i++)
        {
            if (i == old) continue;
            if (_shm.ReadMark(i) != _hdr.MxFrame)
            {
                if (!locks.TryExclusive(ReadSlot(i))) continue;
                _shm.SetReadMark(i, _hdr.MxFrame);
                locks.Unlock(ReadSlot(i));
            }
            if (!locks.TryShared(ReadSlot(i))) continue;
            if (_shm.ReadMark(i) != _hdr.MxFrame || !_shm.HeaderIs(_hdr))
            {
                locks.Unlock(ReadSlot(i));
                continue;
            }
            locks.Unlock(ReadSlot(old));
            Take(_hdr, i, _minFrame);
            return;
        }
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
