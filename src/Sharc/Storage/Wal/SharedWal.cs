using Sharc.Storage.IO;
using Sharc.Storage.Locking;

namespace Sharc.Storage.Wal;

/// <summary>
/// A write-ahead log shared with SQLite through its wal-index (<see cref="WalShm"/>), in SQLite's protocol: a reader
/// takes a read mark that pins its snapshot (SharedWal.Read.cs); the writer takes the write lock, appends frames and
/// publishes them through the index's hash tables and header (SharedWal.Write.cs); checkpoints copy frames back only
/// as far as every reader's mark allows and restart the log only when no reader needs it (SharedWal.Checkpoint.cs); a
/// missing or damaged index is rebuilt from the log under the recover lock by whichever connection finds it so.
/// </summary>
/// <remarks>
/// The connection's read and write locks go through the -shm descriptor that holds the map; checkpoints take theirs
/// through a second descriptor, so that to them this connection's own reader is one reader among others (locks of one
/// open file description never conflict with each other).
/// </remarks>
internal sealed partial class SharedWal : IWalLog
{
    private readonly IStorageSystem _fs;
    // The pager's session gate: moves of this connection's read lock by a checkpoint or a writer take it, as the
    // pager's session begin and end do.
    private readonly object _gate;
    private readonly int _pageSize;
    private readonly object _sync;
    private readonly bool _readOnly;
    private readonly TimeSpan _busyTimeout;
    private readonly WalShm _shm;
    private readonly IStorageFile _checkpointFile;
    private readonly ShmLocks _checkpointLocks;
    private IStorageFile? _file;

    private SharedWal(IStorageSystem fs, string path, int pageSize, object sync, bool readOnly, TimeSpan busyTimeout, WalShm shm, IStorageFile checkpointFile, object gate)
    {
        _gate = gate;
        _fs = fs;
        Path = path;
        _pageSize = pageSize;
        _sync = sync;
        _readOnly = readOnly;
        _busyTimeout = busyTimeout;
        _shm = shm;
        _checkpointFile = checkpointFile;
        _checkpointLocks = new ShmLocks(checkpointFile.Handle!);
    }

    /// <summary>Maps <paramref name="dbPath"/>'s -shm; null when it cannot be shared (the caller falls back to sole use).</summary>
    public static SharedWal? TryOpen(IStorageSystem fs, string dbPath, int pageSize, object sync, object gate, bool readOnly, TimeSpan busyTimeout)
    {
        string shmPath = dbPath + "-shm";
        var shm = WalShm.TryOpen(fs, shmPath, busyTimeout);
        if (shm is null) return null;
        IStorageFile? second = null;
        try
        {
            second = ShmHandlePool.Rent(shmPath) ?? fs.Open(shmPath, create: false);
            if (second.Handle is null) throw new IOException($"{shmPath} has no descriptor to lock");
            return new SharedWal(fs, dbPath + "-wal", pageSize, sync, readOnly, busyTimeout, shm, second, gate) { _shmPath = shmPath };
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            second?.Dispose();
            shm.Dispose();
            return null;
        }
    }

    public string Path { get; }

    private string _shmPath = "";

    private ShmHeader _hdr;
    private bool _hasSnapshot;
    private int _readLock = -1;
    private uint _minFrame;

    /// <inheritdoc/>
    public uint DbPageCount => _hdr.MxFrame > 0 ? _hdr.PageCount : 0;

    /// <inheritdoc/>
    public int CommittedFrames => (int)_hdr.MxFrame;

    /// <summary>True while this connection holds a read mark (a snapshot).</summary>
    public bool IsReading => _readLock >= 0;

    private long FrameOffset(uint frame) => WalIndex.HeaderSize + (long)(frame - 1) * (WalIndex.FrameHeaderSize + _pageSize);

    /// <inheritdoc/>
    public bool TryGetFrame(uint page, out long dataOffset)
    {
        if (_pending.Count != 0 && _pending.TryGetValue(page, out dataOffset)) return true;
        dataOffset = 0;
        // Read mark 0 means the whole log was in the database file when the snapshot began: the file alone is read.
        // Outside a session (a connection's own reads under its write ownership) the last snapshot is read.
        if (_readLock == 0 || !_hasSnapshot) return false;
        uint frame = _shm.Find(page, _minFrame, _hdr.MxFrame);
        if (frame == 0) return false;
        dataOffset = FrameOffset(frame) + WalIndex.FrameHeaderSize;
        return true;
    }

    /// <inheritdoc/>
    public void ReadPage(long dataOffset, Span<byte> buffer)
    {
        if (_file is null || _file.Read(buffer, dataOffset) != buffer.Length)
            ThrowHelper.Corrupt($"a frame of {Path} is missing: the wal-index names a frame the log does not hold");
    }

    /// <summary>Opens the log when it exists (or, for a writer, when <paramref name="create"/>); kept open for the connection's life.</summary>
    private IStorageFile? LogFile(bool create)
    {
        if (_file is not null) return _file;
        if (!create && !_fs.Exists(Path)) return null;
        try
        {
            _file = _readOnly ? _fs.OpenReadOnly(Path) : _fs.Open(Path, create);
        }
        catch (FileNotFoundException) when (!create)
        {
            return null;
        }
        return _file;
    }

    public void Dispose()
    {
        EndWrite();
        EndRead();
        _checkpointLocks.UnlockAll();
        ShmHandlePool.Return(_shmPath, _checkpointFile);
        _shm.Dispose();
        _file?.Dispose();
        _file = null;
    }
}
