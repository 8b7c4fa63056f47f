using System.Buffers.Binary;
using Microsoft.Win32.SafeHandles;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;
using Sharc.Storage.Locking;
using Sharc.Storage.Journal;
using Sharc.Storage.Wal;

namespace Sharc.Storage;

/// <summary>
/// Pages of a database file read with positional reads (no shared stream position), through a bounded cache.
/// Committed WAL frames and a hot journal's original pages take precedence over the file.
/// </summary>
internal sealed partial class FilePageSource : IPageSource, IReadAheadSource
{
    private readonly SafeFileHandle _file;
    private readonly SafeFileHandle? _walFile;
    private readonly WalIndex? _wal;
    private readonly HotJournal? _journal;
    private long _fileLength;
    private readonly PageCache _cache;
    private bool _disposed;
    private readonly FileLock? _readLock;
    private readonly TimeSpan _busyTimeout;
    private readonly object _sessionGate = new();
    private int _sessions;
    private uint _changeCounter;
    private readonly PageCodec? _codec;
    private readonly EncryptedFile? _decrypting;
    private readonly DecryptAhead? _ahead;
    private long _readEpoch;

    public FilePageSource(SafeFileHandle file, int pageSize, uint pageCount, int cachePages,
        SafeFileHandle? walFile, WalIndex? wal, HotJournal? journal, bool readLocking = false, TimeSpan busyTimeout = default,
        PageCodec? codec = null)
    {
        _codec = codec;
        // Never disposed itself: it only borrows the handle, which this source closes.
        if (codec is not null)
        {
            _decrypting = new EncryptedFile(OsStorage.Wrap(file), codec);
            // A second core authenticates and decrypts the pages a sequential scan will want next; where pages
            // authenticate in batches, the reader batches them too, on one core as well.
            if (Environment.ProcessorCount > 1 || codec.DecryptsInBatches) _ahead = new DecryptAhead(this, codec);
        }
        // Locking only makes sense for the live file: a WAL snapshot or a journal overlay is fixed at open.
        if (readLocking && wal is null && journal is null) _readLock = new FileLock(file);
        _busyTimeout = busyTimeout;
        _file = file;
        _walFile = walFile;
        _wal = wal;
        _journal = journal;
        _fileLength = RandomAccess.GetLength(file);
        PageSize = pageSize;
        PageCount = pageCount;
        _cache = new PageCache(pageSize, cachePages, Load);
    }

    public int PageSize { get; }
    public uint PageCount { get; private set; }

    /// <summary>The page codec of an encrypted database, or null.</summary>
    public PageCodec? Codec => _codec;

    public long Generation { get; private set; }

    /// <summary>Fixes the snapshot size once page 1 has been read (before any cursor exists).</summary>
    public void SetPageCount(uint pageCount) => PageCount = pageCount;

    /// <summary>How many page reads went to storage (cache misses), for tests and diagnostics.</summary>
    public long Misses => _cache.Misses;

    public PageRef Acquire(uint pageNumber)
    {
        if (pageNumber == 0 || pageNumber > PageCount)
            ThrowHelper.PageOutOfRange(pageNumber, PageCount);
        return _cache.Acquire(pageNumber);
    }

    public void Release(in PageRef page) => _cache.Release(page);

    public PageRef Exchange(in PageRef old, uint pageNumber)
    {
        if (pageNumber == 0 || pageNumber > PageCount)
        {
            _cache.Release(old);
            ThrowHelper.PageOutOfRange(pageNumber, PageCount);
        }
        return _cache.Exchange(old, pageNumber);
    }

    /// <summary>Remembers the change counter of the snapshot the cache holds.</summary>
    public void SetChangeCounter(uint counter) => _changeCounter = counter;

    public bool BeginRead()
    {
        if (_readLock is null) return false;
        lock (_sessionGate)
        {
            if (_sessions++ > 0) return false;
            try
            {
                LockWaiter.Acquire(_readLock, LockLevel.Shared, _busyTimeout, "read");
                // A new epoch only once the lock is held: pages read ahead in it are read under the lock.
                Interlocked.Increment(ref _readEpoch);
                Span<byte> h = stackalloc byte[100];
                if ((_decrypting is null ? RandomAccess.Read(_file, h, 0) : _decrypting.Read(h, 0)) < 100) return false;
                uint counter = BinaryPrimitives.ReadUInt32BigEndian(h[24..]);
                if (counter == _changeCounter) return false;
                // Another connection committed: drop what we cached and take the new size.
                _changeCounter = counter;
                _cache.InvalidateAll();
                Generation++;
                _fileLength = RandomAccess.GetLength(_file);
                uint filePages = (uint)((_fileLength + PageSize - 1) / PageSize);
                uint headerPages = BinaryPrimitives.ReadUInt32BigEndian(h[28..]);
                PageCount = headerPages != 0 && BinaryPrimitives.ReadUInt32BigEndian(h[92..]) == counter ? headerPages : filePages;
                return true;
            }
            catch
            {
                _sessions--;
                throw;
            }
        }
    }

    public void EndRead()
    {
        if (_readLock is null) return;
        lock (_sessionGate)
        {
            if (_sessions > 0 && --_sessions == 0)
            {
                // Ends the epoch before the lock goes: nothing read ahead from here on is used in a later session.
                Interlocked.Increment(ref _readEpoch);
                _readLock.UnlockTo(LockLevel.None);
            }
        }
    }

    private void Load(uint pageNumber, byte[] buffer)
    {
        if (_codec is null)
        {
            ReadStored(pageNumber, buffer);
            return;
        }
        if (_ahead is not null && _ahead.TryTake(pageNumber, buffer)) return;
        // An encrypted page is read as stored into scratch, then authenticated and decrypted into the cache's buffer.
        var raw = EncryptedFile.RawScratch(PageSize);
        ReadStored(pageNumber, raw);
        _codec.Decrypt(pageNumber, raw, buffer);
    }

    long IReadAheadSource.ReadEpoch => Interlocked.Read(ref _readEpoch);

    /// <summary>Reads a page as stored: a hot journal's original, a committed WAL frame, or the file's.</summary>
    public void ReadStored(uint pageNumber, byte[] target)
    {
        if (_journal is not null && _journal.TryGetPage(pageNumber, out var original))
            original.CopyTo(target, 0);
        else if (_wal is not null && _walFile is not null && _wal.TryGetFrame(pageNumber, out long walOffset))
            ReadFully(_walFile, target, walOffset, pageNumber);
        else
            ReadFully(_file, target, (long)(pageNumber - 1) * PageSize, pageNumber);
    }

    private void ReadFully(SafeFileHandle handle, byte[] buffer, long offset, uint pageNumber)
    {
        int done = 0;
        while (done < buffer.Length)
        {
            int n = RandomAccess.Read(handle, buffer.AsSpan(done), offset + done);
            if (n <= 0) break;
            done += n;
        }
        if (done < buffer.Length)
        {
            // Like SQLite, a short read at the end of the file yields zeros (a partial last page).
            if (handle == _file && offset < _fileLength) buffer.AsSpan(done).Clear();
            else ThrowHelper.Corrupt("page lies beyond the end of the file (truncated file)", pageNumber);
        }
    }

    public void Dispose()
    {
        _disposed = true;
        // The helper reads the files: it stops before they close.
        _ahead?.Dispose();
        _walFile?.Dispose();
        _file.Dispose();
        _codec?.Dispose();
        _cache.ReturnBuffers();
    }
}
