using System.Buffers.Binary;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;

namespace Sharc.Storage.Wal;

/// <summary>
/// The -wal file of a database Sharc writes in WAL mode, in SQLite's format: frames are appended after the last
/// committed frame with the log's salts and a cumulative checksum, the last frame of a transaction carries the
/// database size (the commit mark), and the log is synced at every commit. Frames written before their commit
/// (a spilled transaction) are visible to this connection only, and are abandoned by a rollback.
/// </summary>
/// <remarks>
/// Sharc keeps no -shm wal-index: it writes only while it holds the locks that keep every SQLite connection out of
/// the -shm (see <see cref="Locking.ShmLock"/>), so the next SQLite connection is the first to open the -shm and
/// rebuilds its index from this file, as SQLite's recovery does after a crash.
/// </remarks>
internal sealed class WalLog : IWalLog
{
    private readonly IStorageSystem _fs;
    private readonly int _pageSize;
    private readonly byte[] _frameHeader = new byte[WalIndex.FrameHeaderSize];
    private IStorageFile? _file;
    private WalHeader _header;
    private uint _lastCheckpointSequence, _lastSalt1;
    private bool _hadHeader;
    private Dictionary<uint, long> _committed = new();
    private readonly Dictionary<uint, long> _pending = new();
    private long _committedEnd, _pendingEnd;
    private uint _sum0, _sum1, _pendingSum0, _pendingSum1;
    private readonly byte[] _fingerprint = new byte[WalIndex.HeaderSize];
    private long _fingerprintLength = -1;

    // Readers on other threads look frames up (TryGetFrame, from a page cache miss) under this lock; every change to
    // the frame maps, and cutting the log, happens under it too.
    private readonly object _sync;

    private PageCodec? _codec;

    /// <summary>Frames appended from now on are encrypted under <paramref name="codec"/> (a rekey).</summary>
    public void SetCodec(PageCodec codec) => _codec = codec;
    private readonly byte[]? _encrypted;

    public WalLog(IStorageSystem fs, string path, int pageSize, object sync, PageCodec? codec = null)
    {
        _codec = codec;
        if (codec is not null) _encrypted = new byte[pageSize];
        _sync = sync;
        _fs = fs;
        Path = path;
        _pageSize = pageSize;
    }

    public string Path { get; }

    /// <summary>The database size in pages recorded by the last commit frame; 0 when the log holds no commit.</summary>
    public uint DbPageCount { get; private set; }

    /// <summary>Committed frames in the log.</summary>
    public int CommittedFrames { get; private set; }

    /// <summary>True while the open transaction has frames in the log that are not committed yet.</summary>
    public bool HasPending => _pending.Count > 0;

    /// <summary>The offset of the newest visible page data for <paramref name="page"/>: this transaction's, then committed.</summary>
    public bool TryGetFrame(uint page, out long dataOffset)
    {
        if (_pending.Count != 0 && _pending.TryGetValue(page, out dataOffset)) return true;
        return _committed.TryGetValue(page, out dataOffset);
    }

    public void ReadPage(long dataOffset, Span<byte> buffer)
    {
        if (_file is null || _file.Read(buffer, dataOffset) != buffer.Length)
            ThrowHelper.Corrupt("a frame of the -wal file is missing (the log was truncated under this connection)");
    }

    /// <summary>
    /// Reads the log again when it is not exactly as this connection left it (another connection wrote, checkpointed
    /// or deleted it). Returns true when the committed content may have changed, so cached pages must be dropped.
    /// An empty or missing log says nothing about the database file, which may have been checkpointed meanwhile.
    /// </summary>
    public bool Refresh()
    {
        lock (_sync) return RefreshLocked();
    }

    private bool RefreshLocked()
    {
        _pending.Clear();
        if (!_fs.Exists(Path))
        {
            _file?.Dispose();
            _file = null;
            SetEmpty();
            return true;
        }
        // A fresh handle each time: SQLite deletes the log when its last connection closes and may create another.
        var fresh = _fs.Open(Path, create: false);
        try
        {
            long length = fresh.Length;
            if (length >= WalIndex.HeaderSize && length == _fingerprintLength)
            {
                Span<byte> head = stackalloc byte[WalIndex.HeaderSize];
                if (fresh.Read(head, 0) == head.Length && head.SequenceEqual(_fingerprint))
                {
                    fresh.Dispose();
                    return false;
                }
            }
        }
        catch
        {
            fresh.Dispose();
            throw;
        }
        _file?.Dispose();
        _file = fresh;
        Reload();
        return true;
    }

    private void Reload()
    {
        var index = WalIndex.Build(_file!, _pageSize);
        _header = index.Header;
        if (_header.IsValid) Remember(_header);
        _committed = new Dictionary<uint, long>(index.Frames);
        _committedEnd = _pendingEnd = index.CommittedEnd;
        _sum0 = _pendingSum0 = index.Sum0;
        _sum1 = _pendingSum1 = index.Sum1;
        CommittedFrames = index.CommittedFrames;
        DbPageCount = index.PageCount;
        TakeFingerprint();
    }

    private void SetEmpty()
    {
        _header = WalHeader.Invalid;
        _committed.Clear();
        _committedEnd = _pendingEnd = 0;
        CommittedFrames = 0;
        DbPageCount = 0;
        _fingerprintLength = -1;
    }

    private void Remember(WalHeader h)
    {
        _hadHeader = true;
        _lastCheckpointSequence = h.CheckpointSequence;
        _lastSalt1 = h.Salt1;
    }

    private void TakeFingerprint()
    {
        _fingerprintLength = _file?.Length ?? -1;
        if (_file is null || _file.Read(_fingerprint, 0) != _fingerprint.Length) _fingerprintLength = -1;
    }

    /// <summary>
    /// Appends one frame of the open transaction; <paramref name="commitSize"/> is the database size in pages on the
    /// transaction's last frame, 0 on the others. The first frame of an empty log starts a new log.
    /// </summary>
    public void Append(uint page, ReadOnlySpan<byte> data, uint commitSize)
    {
        if (CommittedFrames == 0 && _pending.Count == 0) StartNewLog();
        if (_codec is not null)
        {
            // Frames hold pages as the database file does (encrypted); the frame checksum covers the stored bytes.
            _codec.Encrypt(page, data, _encrypted);
            data = _encrypted;
        }
        uint s0 = _pendingSum0, s1 = _pendingSum1;
        WalIndex.WriteFrame(_file!, _frameHeader, _header, page, commitSize, data, _pendingEnd, ref s0, ref s1);
        lock (_sync) _pending[page] = _pendingEnd + WalIndex.FrameHeaderSize;
        _pendingEnd += WalIndex.FrameHeaderSize + _pageSize;
        _pendingSum0 = s0;
        _pendingSum1 = s1;
        if (commitSize != 0) _pendingDbSize = commitSize;
    }

    private uint _pendingDbSize;
    private bool _entryPending;

    /// <summary>
    /// A fresh log: checkpoint sequence and first salt one past the previous log's, a new random second salt (so frames
    /// left from an earlier log can never pass as this one's), the header synced before any frame, as SQLite does.
    /// </summary>
    private void StartNewLog()
    {
        if (_file is null)
        {
            _file = _fs.Open(Path, create: true);
            _entryPending = true;
        }
        uint seq = _hadHeader ? _lastCheckpointSequence + 1 : 0;
        uint salt1 = _hadHeader ? _lastSalt1 + 1 : (uint)Random.Shared.NextInt64(0, 1L << 32);
        uint salt2 = (uint)Random.Shared.NextInt64(0, 1L << 32);
        // Frames are checksummed in the machine's byte order, as SQLite writes them.
        var h = new WalHeader(true, !BitConverter.IsLittleEndian, seq, salt1, salt2);
        lock (_sync)
        {
            _file.SetLength(0);
            _committed.Clear();
        }
        var (s0, s1) = WalIndex.WriteHeader(_file, h, _pageSize);
        _file.Sync();
        if (_entryPending)
        {
            // A new -wal file's directory entry must be durable before commits live only in it (as SQLite does).
            _fs.SyncDirectory(Path);
            _entryPending = false;
        }
        _header = h;
        Remember(h);
        _committedEnd = _pendingEnd = WalIndex.HeaderSize;
        _sum0 = _pendingSum0 = s0;
        _sum1 = _pendingSum1 = s1;
    }

    /// <summary>The commit point: the log (ending in the commit frame) reaches stable storage.</summary>
    public void Sync() => _file?.Sync();

    /// <summary>After <see cref="Sync"/>: the transaction's frames become the committed content.</summary>
    public void MarkCommitted()
    {
        lock (_sync) MarkCommittedLocked();
    }

    private void MarkCommittedLocked()
    {
        foreach (var (page, offset) in _pending) _committed[page] = offset;
        CommittedFrames += (int)((_pendingEnd - _committedEnd) / (WalIndex.FrameHeaderSize + _pageSize));
        _pending.Clear();
        _committedEnd = _pendingEnd;
        _sum0 = _pendingSum0;
        _sum1 = _pendingSum1;
        DbPageCount = _pendingDbSize;
        TakeFingerprint();
    }

    /// <summary>Forgets the open transaction's frames: the next transaction writes over them.</summary>
    public void DiscardPending()
    {
        lock (_sync) _pending.Clear();
        _pendingEnd = _committedEnd;
        _pendingSum0 = _sum0;
        _pendingSum1 = _sum1;
        TakeFingerprint();
    }

    /// <summary>
    /// Copies every committed page back into the database file, cuts the file to the committed size and syncs it;
    /// only then is the log truncated (SQLite's TRUNCATE checkpoint), so a crash at any step leaves a log that
    /// replays onto the file. Returns the number of pages copied.
    /// </summary>
    public int Checkpoint(IStorageFile db)
    {
        if (_pending.Count != 0) throw new InvalidOperationException("a checkpoint cannot run inside a write transaction");
        if (_file is null) return 0;
        int copied = 0;
        if (CommittedFrames > 0)
        {
            // The log may have been written by a connection that syncs it only at checkpoints (synchronous=NORMAL).
            _file.Sync();
            byte[] page = new byte[_pageSize];
            foreach (var (pgno, offset) in _committed.OrderBy(kv => kv.Key))
            {
                if (pgno > DbPageCount) continue;
                ReadPage(offset, page);
                db.Write(page, (long)(pgno - 1) * _pageSize);
                copied++;
            }
            long size = (long)DbPageCount * _pageSize;
            if (db.Length > size) db.SetLength(size);
            db.Sync();
        }
        lock (_sync)
        {
            if (_file.Length > 0) _file.SetLength(0);
            SetEmpty();
        }
        TakeFingerprint();
        return copied;
    }

    public void Dispose()
    {
        _file?.Dispose();
        _file = null;
    }
}
