using System.Buffers.Binary;
using Sharc.Storage.Locking;

namespace Sharc.Storage.Wal;

internal sealed partial class SharedWal
{
    private bool _writing;
    private readonly Dictionary<uint, long> _pending = new();
    private readonly List<uint> _pendingPages = new();
    private readonly byte[] _frameHeader = new byte[WalIndex.FrameHeaderSize];
    private WalHeader _logHeader;
    private WalHeader _lastLog;
    private uint _sum0, _sum1, _pendingDbSize;

    /// <inheritdoc/>
    public bool HasPending => _pendingPages.Count > 0;

    /// <summary>True while this connection holds the WAL write lock.</summary>
    public bool IsWriting => _writing;

    /// <summary>
    /// One attempt at the write lock, for a connection holding a snapshot. False with <paramref name="stale"/> when
    /// the lock was free but another connection committed after the snapshot began: this snapshot cannot be written
    /// on (SQLite's SQLITE_BUSY_SNAPSHOT); the caller begins a new one.
    /// </summary>
    public bool TryBeginWrite(out bool stale)
    {
        stale = false;
        if (_writing) return true;
        if (_readLock < 0) throw new InvalidOperationException("a write needs a snapshot first");
        if (!_shm.Locks.TryExclusive(WalShm.WriteLock)) return false;
        if (!_shm.HeaderIs(_hdr))
        {
            _shm.Locks.Unlock(WalShm.WriteLock);
            stale = true;
            return false;
        }
        _writing = true;
        ResetPending();
        LogFile(create: true);
        return true;
    }

    /// <summary>Releases the write lock (what the transaction appended and did not commit is forgotten).</summary>
    public void EndWrite()
    {
        if (!_writing) return;
        ResetPending();
        _writing = false;
        _shm.Locks.Unlock(WalShm.WriteLock);
    }

    private void ResetPending()
    {
        lock (_sync) _pending.Clear();
        _pendingPages.Clear();
        _sum0 = _hdr.FrameSum0;
        _sum1 = _hdr.FrameSum1;
        _logHeader = new WalHeader(true, _hdr.BigEndianSums != 0, 0, _hdr.Salt1, _hdr.Salt2);
        _pendingDbSize = 0;
    }

    /// <inheritdoc/>
    public void Append(uint page, ReadOnlySpan<byte> data, uint commitSize)
    {
        if (!_writing) throw new InvalidOperationException("frames are appended only under the WAL write lock");
        if (_pendingPages.Count == 0) PrepareLog();
        uint frame = _hdr.MxFrame + (uint)_pendingPages.Count + 1;
        long offset = FrameOffset(frame);
        WalIndex.WriteFrame(_file!, _frameHeader, _logHeader, page, commitSize, data, offset, ref _sum0, ref _sum1);
        lock (_sync) _pending[page] = offset + WalIndex.FrameHeaderSize;
        _pendingPages.Add(page);
        if (commitSize != 0) _pendingDbSize = commitSize;
    }

    /// <summary>
    /// Before the transaction's first frame (SQLite's walRestartLog): a snapshot on read mark 0 found the whole log
    /// copied back, so when no reader uses the log either (read locks 1..4 all free) it is restarted from frame 1
    /// with new salts; the snapshot then moves to a real read mark, so a checkpoint cannot pass the frames about to
    /// be written. An empty log gets a fresh header, synced before any frame.
    /// </summary>
    private void PrepareLog()
    {
        lock (_gate) PrepareSnapshotForLog();
        PrepareLogFile();
    }

    /// <summary>
    /// The snapshot moved to read mark 0 when the whole log is in the file (this connection's other readers' older mark
    /// would otherwise keep the log from restarting); then, from mark 0, the restart and a real mark.
    /// </summary>
    private void PrepareSnapshotForLog()
    {
        var locks = _shm.Locks;
        Repin(writing: true);
        if (_readLock == 0)
        {
            if (_shm.NBackfill > 0 && locks.TryExclusive(ReadSlot(1), WalShm.Readers - 1))
            {
                try
                {
                    var restarted = Restarted(_hdr);
                    lock (_sync) _hdr = restarted;
                }
                finally
                {
                    locks.Unlock(ReadSlot(1), WalShm.Readers - 1);
                }
            }
            EndRead();
            LockWaiter.Acquire(this, static w => w.TryBeginRead(useLog: true), _busyTimeout, Path,
                static p => $"{p}: a checkpoint held the read marks");
            ResetPending();
        }
    }

    private void PrepareLogFile()
    {
        var file = LogFile(create: true)!;
        if (_hdr.MxFrame == 0)
        {
            // A restart (SQLite's walRestartHdr, here Restarted) killed between publishing its header and zeroing
            // nBackfill leaves nBackfill past an empty log: readers start at nBackfill + 1, so they would skip the
            // frames about to be written, or see only the tail of a commit. Nothing of an empty log was copied back,
            // so under the write lock the store the restart did not make is made here.
            if (_shm.NBackfill != 0) _shm.NBackfill = 0;
            uint seq = 0, salt1 = (uint)Random.Shared.NextInt64(0, 1L << 32);
            Span<byte> old = stackalloc byte[WalIndex.HeaderSize];
            if (file.Length >= WalIndex.HeaderSize && file.Read(old, 0) == old.Length)
            {
                uint magic = BinaryPrimitives.ReadUInt32BigEndian(old);
                if (magic == WalIndex.MagicLittleEndian || magic == WalIndex.MagicBigEndian)
                {
                    // The next log of the file: sequence and first salt one past the old header's.
                    seq = BinaryPrimitives.ReadUInt32BigEndian(old[12..]) + 1;
                    salt1 = BinaryPrimitives.ReadUInt32BigEndian(old[16..]) + 1;
                }
            }
            else if (_lastLog.IsValid)
            {
                // This connection emptied the file (TRUNCATE): the sequence goes on from the log it cut.
                seq = _lastLog.CheckpointSequence + 1;
                salt1 = _lastLog.Salt1 + 1;
            }
            // A new random second salt: frames of any earlier log can never pass as this one's.
            _logHeader = new WalHeader(true, !BitConverter.IsLittleEndian, seq, salt1, (uint)Random.Shared.NextInt64(0, 1L << 32));
            (_sum0, _sum1) = WalIndex.WriteHeader(file, _logHeader, _pageSize);
            file.Sync();
            if (!_entryDurable)
            {
                // This connection may have created the -wal: its directory entry must be durable before commits
                // live only in it (SQLite syncs the directory at the first sync of a -wal it opened with O_CREAT).
                _fs.SyncDirectory(Path);
                _entryDurable = true;
            }
        }
    }

    private bool _entryDurable;

    /// <summary>
    /// SQLite's walRestartHdr, under the write lock and read locks 1..4: the log starts over at frame 1 with the first
    /// salt bumped and a new second one; nothing is copied back yet and the read marks start over.
    /// </summary>
    private ShmHeader Restarted(ShmHeader hdr)
    {
        hdr.MxFrame = 0;
        hdr.Salt1++;
        hdr.Salt2 = (uint)Random.Shared.NextInt64(0, 1L << 32);
        hdr.Seal();
        _shm.WriteHeader(hdr);
        _shm.NBackfill = 0;
        _shm.BackfillAttempted = 0;
        _shm.SetReadMark(1, 0);
        for (int i = 2; i < WalShm.Readers; i++) _shm.SetReadMark(i, WalShm.ReadMarkNotUsed);
        return hdr;
    }

    /// <inheritdoc/>
    public void Sync() => _file?.Sync();

    /// <summary>
    /// After the log is synced: the frames go into the hash tables, then the header (frame count, database size,
    /// running checksum, change counter, salts) is published, the second copy first. Readers beginning after this
    /// see the transaction; those already reading keep their snapshot (their header).
    /// </summary>
    public void MarkCommitted()
    {
        if (_pendingPages.Count == 0) return;
        uint first = _hdr.MxFrame + 1;
        for (int i = 0; i < _pendingPages.Count; i++) _shm.Append(first + (uint)i, _pendingPages[i]);
        var hdr = _hdr;
        hdr.MxFrame += (uint)_pendingPages.Count;
        hdr.PageCount = _pendingDbSize;
        hdr.FrameSum0 = _sum0;
        hdr.FrameSum1 = _sum1;
        hdr.Change++;
        hdr.Salt1 = _logHeader.Salt1;
        hdr.Salt2 = _logHeader.Salt2;
        hdr.BigEndianSums = (byte)(_logHeader.BigEndianSums ? 1 : 0);
        hdr.PageSizeCode = ShmHeader.EncodePageSize(_pageSize);
        hdr.Seal();
        _shm.WriteHeader(hdr);
        lock (_sync)
        {
            _hdr = hdr;
            _pending.Clear();
        }
        _pendingPages.Clear();
        _pendingDbSize = 0;
    }

    /// <inheritdoc/>
    public void DiscardPending() => ResetPending();
}
