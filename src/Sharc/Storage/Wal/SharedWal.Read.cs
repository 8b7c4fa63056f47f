using Sharc.Storage.Locking;

namespace Sharc.Storage.Wal;

internal sealed partial class SharedWal
{
    private static int ReadSlot(int i) => WalShm.FirstReadLock + i;

    /// <summary>
    /// Begins a snapshot: the newest committed header, pinned by a read mark (SQLite's walTryBeginRead), retried with
    /// backoff while a writer publishes or a checkpointer moves marks, up to the busy timeout. Returns true when the
    /// snapshot differs from this connection's previous one (cached pages must go).
    /// </summary>
    public bool BeginRead()
    {
        if (_readLock >= 0) return false;
        var previous = _hdr;
        bool had = _hasSnapshot;
        LockWaiter.Acquire(this, static w => w.TryBeginRead(useLog: false), _busyTimeout, Path,
            static p => $"{p}: the wal-index stayed busy (a writer publishing or a recovery running)");
        _hasSnapshot = true;
        // Opened here, under the pager's gate, so reader threads and checkpoints find it open.
        if (_hdr.MxFrame > 0 && LogFile(create: false) is null)
            ThrowHelper.Corrupt($"{Path} is missing but the wal-index says it holds {_hdr.MxFrame} frames");
        return !had || !previous.Equals(_hdr);
    }

    /// <summary>Ends the snapshot: its read mark no longer holds checkpoints back.</summary>
    public void EndRead()
    {
        if (_readLock < 0) return;
        _shm.Locks.Unlock(ReadSlot(_readLock));
        _readLock = -1;
    }

    /// <summary>
    /// One attempt. With everything in the log already copied to the database file (and <paramref name="useLog"/>
    /// false) read mark 0 is taken: the file alone is the snapshot. Otherwise the largest mark not past the newest
    /// frame is used, or a free mark is set to the newest frame; the mark is then locked shared and the header checked
    /// unchanged, so no checkpoint can have copied past the mark nor a restart reused the log meanwhile.
    /// </summary>
    private bool TryBeginRead(bool useLog)
    {
        var locks = _shm.Locks;
        if (!ReadHeader(locks, _writing, out var hdr)) return false;
        if (hdr.MxFrame > 0 && hdr.PageSize != _pageSize)
            throw new SharcFormatException($"the wal-index of {Path} says {hdr.PageSize}-byte pages but the database uses {_pageSize}-byte pages");
        uint backfill = _shm.NBackfill;
        if (!useLog && backfill == hdr.MxFrame)
        {
            if (!locks.TryShared(ReadSlot(0))) return false;
            if (!_shm.HeaderIs(hdr))
            {
                locks.Unlock(ReadSlot(0));
                return false;
            }
            Take(hdr, 0, backfill + 1);
            return true;
        }

        uint mark = 0;
        int slot = 0;
        for (int i = 1; i < WalShm.Readers; i++)
        {
            uint m = _shm.ReadMark(i);
            if (mark <= m && m <= hdr.MxFrame)
            {
                mark = m;
                slot = i;
            }
        }
        if (mark < hdr.MxFrame || slot == 0)
        {
            for (int i = 1; i < WalShm.Readers; i++)
            {
                if (!locks.TryExclusive(ReadSlot(i))) continue;
                _shm.SetReadMark(i, hdr.MxFrame);
                mark = hdr.MxFrame;
                slot = i;
                locks.Unlock(ReadSlot(i));
                break;
            }
        }
        if (slot == 0) return false;
        if (!locks.TryShared(ReadSlot(slot))) return false;
        uint minFrame = _shm.NBackfill + 1;
        if (_shm.ReadMark(slot) != mark || !_shm.HeaderIs(hdr))
        {
            locks.Unlock(ReadSlot(slot));
            return false;
        }
        Take(hdr, slot, minFrame);
        return true;
    }

    private void Take(in ShmHeader hdr, int slot, uint minFrame)
    {
        lock (_sync)
        {
            _hdr = hdr;
            _readLock = slot;
            _minFrame = minFrame;
        }
    }

    /// <summary>
    /// The current header (SQLite's walIndexReadHdr). Two disagreeing or invalid copies mean a writer is mid-publish
    /// or the index needs rebuilding: under the write lock (taken here unless <paramref name="holdsWrite"/>) a header
    /// still invalid is rebuilt from the log. False: try again.
    /// </summary>
    private bool ReadHeader(ShmLocks locks, bool holdsWrite, out ShmHeader hdr)
    {
        if (_shm.TryReadHeader(out hdr, extend: holdsWrite)) return true;
        if (holdsWrite) return _shm.TryReadHeader(out hdr, extend: true) || Recover(locks, out hdr);
        if (!locks.TryExclusive(WalShm.WriteLock)) return false;
        try
        {
            return _shm.TryReadHeader(out hdr, extend: true) || Recover(locks, out hdr);
        }
        finally
        {
            locks.Unlock(WalShm.WriteLock);
        }
    }

    /// <summary>
    /// Rebuilds the index from the log (SQLite's walIndexRecover), holding the write, checkpoint and recover locks:
    /// every valid frame goes into the hash tables, the header ends at the last commit frame, nothing counts as copied
    /// back, and the read marks are reset.
    /// </summary>
    private bool Recover(ShmLocks locks, out ShmHeader hdr)
    {
        hdr = default;
        if (!locks.TryExclusive(WalShm.CheckpointLock, 2)) return false;
        try
        {
            var rebuilt = new ShmHeader { PageSizeCode = ShmHeader.EncodePageSize(_pageSize), BigEndianSums = (byte)(BitConverter.IsLittleEndian ? 0 : 1) };
            var log = LogFile(create: false);
            if (log is not null)
            {
                uint frame = 0;
                var scan = WalIndex.Scan(log, _pageSize, (page, _, _) => _shm.Append(++frame, page));
                if (scan.Header.IsValid)
                {
                    rebuilt.MxFrame = (uint)scan.CommittedFrames;
                    rebuilt.PageCount = scan.PageCount;
                    rebuilt.FrameSum0 = scan.Sum0;
                    rebuilt.FrameSum1 = scan.Sum1;
                    rebuilt.Salt1 = scan.Header.Salt1;
                    rebuilt.Salt2 = scan.Header.Salt2;
                    rebuilt.BigEndianSums = (byte)(scan.Header.BigEndianSums ? 1 : 0);
                }
            }
            _shm.NBackfill = 0;
            _shm.BackfillAttempted = rebuilt.MxFrame;
            _shm.SetReadMark(0, 0);
            for (int i = 1; i < WalShm.Readers; i++)
            {
                if (!locks.TryExclusive(ReadSlot(i))) continue;
                _shm.SetReadMark(i, i == 1 && rebuilt.MxFrame > 0 ? rebuilt.MxFrame : WalShm.ReadMarkNotUsed);
                locks.Unlock(ReadSlot(i));
            }
            rebuilt.Seal();
            _shm.WriteHeader(rebuilt);
            hdr = rebuilt;
            return true;
        }
        finally
        {
            locks.Unlock(WalShm.CheckpointLock, 2);
        }
    }
}
