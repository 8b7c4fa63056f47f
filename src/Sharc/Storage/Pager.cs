using System.Buffers.Binary;
using Sharc.Storage.Concurrency;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;
using Sharc.Storage.Journal;
using Sharc.Storage.Locking;

namespace Sharc.Storage;

/// <summary>
/// The writable page store of one database file. Clean pages come from the bounded <see cref="PageCache"/>;
/// a write transaction keeps the pages it changes in memory, up to <see cref="SpillPages"/> (then they are spilled,
/// see Pager.Spill.cs). In rollback-journal mode each page's original content is saved in the journal first, and
/// commit follows SQLite's order: journal synced and sealed, EXCLUSIVE lock, pages written, file synced, journal
/// deleted (the commit point), locks released (Pager.Journal.cs). In WAL mode pages are appended to the -wal file
/// instead (Pager.Wal.cs).
/// </summary>
internal sealed partial class Pager : IPageSource
{
    private readonly IStorageSystem _fs;
    private readonly IStorageFile _file;
    private readonly string _path;
    private readonly PageCache _cache;
    private readonly FileLock _lock;
    private TimeSpan _busyTimeout;
    private readonly Dictionary<uint, byte[]> _dirty = new();
    private readonly HashSet<uint> _journaled = new();
    private readonly Stack<byte[]> _pool = new();
    private readonly object _gate = new();
    private readonly Dictionary<uint, byte[]?> _statement = new();
    private bool _inStatement;
    private uint _pageCountAtStatement;
    private JournalWriter? _journal;
    private uint _pageCountAtStart;
    private bool _fileWritten;
    private readonly int _cachePages;
    private readonly WriterQueue? _writers;
    private bool _leftWriters;

    public Pager(IStorageSystem fs, IStorageFile file, string path, int pageSize, int usableSize, uint pageCount, int cachePages, TimeSpan busyTimeout, int spillPages = DefaultSpillPages, ConcurrencyControl? concurrency = null)
    {
        SpillPages = Math.Max(16, spillPages);
        _fs = fs;
        _file = file;
        _path = path;
        PageSize = pageSize;
        UsableSize = usableSize;
        PageCount = pageCount;
        _busyTimeout = busyTimeout;
        _cachePages = cachePages;
        _lock = new FileLock(file.Handle);
        if (_lock.IsEnforced) _writers = WriterQueue.Join(System.IO.Path.GetFullPath(path));
        _cache = new PageCache(pageSize, cachePages, Load);
        if (concurrency is null) Concurrency = new ConcurrencyControl(_cache);
        else
        {
            concurrency.Attach(_cache);
            Concurrency = concurrency;
        }
    }

    /// <summary>Pages whose older committed images are kept for readers (for tests).</summary>
    public int KeptImages => _cache.VersionedPages;

    /// <summary>Who may write, and which committed version each reader sees (see <see cref="ConcurrencyControl"/>).</summary>
    public ConcurrencyControl Concurrency { get; }

    /// <summary>
    /// Called when a new committed version is about to be published (after a commit's pages are durable, with the
    /// transaction's pages still readable; or after another connection's commit was noticed): what it returns is
    /// published with the version (the database's header and schema for it).
    /// </summary>
    public Func<object?>? CommittedState { get; set; }

    /// <summary>Borrows <paramref name="pageNumber"/> as committed version <paramref name="version"/> of <paramref name="pageCount"/> pages has it.</summary>
    public PageRef AcquireAt(uint pageNumber, long version, uint pageCount)
    {
        if (pageNumber == 0 || pageNumber > pageCount) ThrowHelper.PageOutOfRange(pageNumber, pageCount);
        return _cache.AcquireAt(pageNumber, version);
    }

    /// <summary><see cref="IPageSource.Exchange"/> at a committed version.</summary>
    public PageRef ExchangeAt(in PageRef old, uint pageNumber, long version, uint pageCount)
    {
        if (pageNumber == 0 || pageNumber > pageCount)
        {
            _cache.Release(old);
            ThrowHelper.PageOutOfRange(pageNumber, pageCount);
        }
        return _cache.ExchangeAt(old, pageNumber, version);
    }

    public int PageSize { get; }
    public int UsableSize { get; }

    /// <summary>The page codec of an encrypted database, or null.</summary>
    public PageCodec? Codec => (_file as EncryptedFile)?.Codec;

    /// <summary>The database file as stored: journals and logs hold pages in that form and are copied back as is.</summary>
    private IStorageFile RawFile => _file is EncryptedFile e ? e.Inner : _file;

    /// <summary>The database size in pages, including pages added by the open transaction.</summary>
    public uint PageCount { get; private set; }

    public bool InTransaction { get; private set; }

    /// <summary>Bumped by every commit and rollback, so readers can tell that what they were reading changed.</summary>
    public long DataVersion { get; private set; }

    public string JournalPath => _path + "-journal";

    public FileLock Lock => _lock;

    /// <summary>This process's line of writers to the file, or null where file locks are not enforced.</summary>
    public WriterQueue? Writers => _writers;

    /// <summary>How long a write or a read waits for another connection's (or thread's) lock.</summary>
    public TimeSpan BusyTimeout
    {
        get => _busyTimeout;
        // PRAGMA busy_timeout changes it for later waits; a wait already running keeps the timeout it started with.
        set => _busyTimeout = value;
    }

    /// <summary>The file system this pager writes through (an attached database is opened through the same one).</summary>
    public IStorageSystem Storage => _fs;

    /// <summary>The page number of the lock-byte page (never used for data).</summary>
    public uint LockBytePage => (uint)(FileLock.PendingByte / PageSize) + 1;

    public PageRef Acquire(uint pageNumber)
    {
        if (pageNumber == 0 || pageNumber > PageCount)
            ThrowHelper.Corrupt($"page number {pageNumber} is outside the database (1..{PageCount})", pageNumber);
        if (_dirty.Count != 0 && _dirty.TryGetValue(pageNumber, out var buf))
            return new PageRef(buf, 0, PageSize, pageNumber, -1);
        return _cache.Acquire(pageNumber);
    }

    public void Release(in PageRef page) => _cache.Release(page);

    private int _sessions;

    public bool BeginRead()
    {
        lock (_gate)
        {
            if (_sessions++ > 0 || InTransaction) return false;
            try
            {
                if (_shared is not null) return BeginSharedSession();
                if (_wal is not null) return BeginWalSession();
                Acquire(LockLevel.Shared);
                return RefreshIfChanged();
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
        lock (_gate)
        {
            if (_sessions > 0 && --_sessions == 0 && !InTransaction) ReleaseLocks();
        }
    }

    private void Load(uint page, byte[] buffer)
    {
        if (_wal is not null && _wal.TryGetFrame(page, out long walOffset))
        {
            if (Codec is { } codec)
            {
                var raw = EncryptedFile.RawScratch(PageSize);
                _wal.ReadPage(walOffset, raw);
                codec.Decrypt(page, raw, buffer);
            }
            else _wal.ReadPage(walOffset, buffer);
            return;
        }
        int n = _file.Read(buffer, (long)(page - 1) * PageSize);
        // A page past the end of the file reads as zeros (a partial last page, or one never written).
        if (n < buffer.Length) buffer.AsSpan(n).Clear();
    }

    /// <summary>
    /// Starts a write transaction: SHARED then RESERVED lock (waiting up to the busy timeout), and a check that no
    /// other process changed the file since our pages were cached.
    /// </summary>
    public void BeginWrite()
    {
        if (InTransaction) return;
        var deadline = DateTime.UtcNow + _busyTimeout;
        bool turnTaken = TakeWriterTurn(deadline);
        try
        {
            BeginWrite(deadline);
        }
        catch
        {
            if (turnTaken) _writers!.Exit(this);
            throw;
        }
    }

    /// <summary>
    /// Waits in this process's line of writers to the file (see <see cref="WriterQueue"/>); true when the turn was
    /// taken now (so a failure to begin must give it back), false when there is no line or the turn was already held.
    /// </summary>
    private bool TakeWriterTurn(DateTime deadline)
    {
        // A sole-user WAL connection has the file to itself: nobody else in the process can be in line.
        if (_writers is null || (_wal is not null && _shared is null) || _writers.IsHeldBy(this)) return false;
        bool holdsShared;
        lock (_gate) holdsShared = _wal is null && _shared is null && _lock.Level >= LockLevel.Shared;
        // Reading in rollback mode this connection holds SHARED, and the turn's holder needs every SHARED lock gone to
        // commit: waiting in line would block the one it waits for. It takes a free turn or is busy at once, as it is
        // when RESERVED is taken (LockWaiter).
        bool taken = holdsShared ? _writers.TryEnter(this) : _writers.Enter(this, deadline);
        if (!taken)
            throw new SharcBusyException($"database is locked: another connection of this process is writing to {_path} ({(holdsShared ? "this connection is reading, so it cannot wait" : "waited in line for the busy timeout")})");
        return true;
    }

    private void BeginWrite(DateTime deadline)
    {
        if (_shared is not null)
        {
            BeginSharedWrite(deadline);
            return;
        }
        lock (_gate)
        {
            if (_wal is not null)
            {
                if (_sessions == 0) BeginWalSession();
            }
            else
            {
                LockWaiter.Acquire(_lock, LockLevel.Reserved, Remaining(deadline), _path);
                try
                {
                    if (HotJournal.IsHot(_fs, JournalPath))
                        JournalRecovery.RollBack(_fs, RawFile, JournalPath);
                    RefreshIfChanged();
                }
                catch
                {
                    _lock.UnlockTo(_sessions > 0 ? LockLevel.Shared : LockLevel.None);
                    throw;
                }
            }
            // Under the gate: a reader of another thread ending its session between the lock taken above and this
            // flag would otherwise see no transaction and release the locks (RESERVED, or WAL's sole-user locks) the
            // transaction has just taken, leaving it to write with no lock against other connections.
            _pageCountAtStart = PageCount;
            InTransaction = true;
        }
    }

    /// <summary>Set when another connection's commit was noticed; the owner reloads its schema and clears it.</summary>
    public bool ExternalChange { get; set; }

    /// <summary>How many commits of other connections this pager has noticed (PRAGMA data_version).</summary>
    public long ExternalCommits { get; set; }

    /// <summary>Counts calls that may change a page, so a caller can tell whether an operation wrote anything.</summary>
    public long WriteCount { get; private set; }

    /// <summary>Both counters only grow, so their sum changes whenever either does.</summary>
    public long Generation => WriteCount + DataVersion;

    /// <summary>The writable image of <paramref name="page"/>; its original is journaled the first time.</summary>
    public byte[] Write(uint page)
    {
        if (!InTransaction) throw new InvalidOperationException("no write transaction is open");
        WriteCount++;
        if (_dirty.TryGetValue(page, out var buf))
        {
            if (_inStatement && !_statement.ContainsKey(page))
            {
                var copy = Rent();
                buf.CopyTo(copy, 0);
                _statement[page] = copy;
            }
            return buf;
        }
        if (_inStatement) _statement.TryAdd(page, null);
        if (page == 0 || page > PageCount) ThrowHelper.Corrupt($"page {page} is outside the database (1..{PageCount})", page);
        buf = Rent();
        var current = _cache.Acquire(page);
        try
        {
            current.Span.CopyTo(buf);
        }
        finally
        {
            _cache.Release(current);
        }
        if (_wal is null && page <= _pageCountAtStart && _journaled.Add(page))
        {
            _journal ??= new JournalWriter(_fs, JournalPath, PageSize, _pageCountAtStart, Codec, JournalRecord());
            _journal.Append(page, buf);
        }
        _dirty[page] = buf;
        return buf;
    }

    /// <summary>Adds a zeroed page at the end of the file (skipping the lock-byte page) and returns its number.</summary>
    public uint Append()
    {
        if (!InTransaction) throw new InvalidOperationException("no write transaction is open");
        WriteCount++;
        PageCount++;
        if (PageCount == LockBytePage) PageCount++;
        if (_inStatement) _statement.TryAdd(PageCount, null);
        var buf = Rent();
        Array.Clear(buf);
        _dirty[PageCount] = buf;
        return PageCount;
    }

    /// <summary>Shrinks the database to <paramref name="pageCount"/> pages at commit (auto-vacuum).</summary>
    public void Truncate(uint pageCount)
    {
        for (uint p = pageCount + 1; p <= PageCount; p++)
            if (_dirty.Remove(p, out var b)) _pool.Push(b);
        PageCount = pageCount;
    }

    private void EndTransaction()
    {
        foreach (var buf in _dirty.Values) _pool.Push(buf);
        _dirty.Clear();
        _journaled.Clear();
        _statement.Clear();
        _inStatement = false;
        _fileWritten = false;
        _spilled = false;
        lock (_gate)
        {
            InTransaction = false;
            DataVersion++;
            // Readers of this connection still reading keep their lock (SHARED; in WAL mode the sole-user locks).
            if (_sessions == 0) ReleaseLocks();
            else if (_shared is not null) _shared.EndWrite();
            else if (_wal is null) _lock.UnlockTo(LockLevel.Shared);
        }
        _writers?.Exit(this);
        Concurrency.EndTransaction();
    }

    /// <summary>
    /// Before committed content is overwritten: when readers hold snapshots, keeps the committed image of every page
    /// the transaction changed (and of every page past the new end of the database) for them.
    /// </summary>
    private void KeepCommittedImages()
    {
        if (!Concurrency.BeginOverwrite(out long next)) return;
        foreach (uint page in _dirty.Keys)
            if (page <= _pageCountAtStart) _cache.KeepVersion(page, next);
        for (uint page = PageCount + 1; page <= _pageCountAtStart; page++)
            if (!_dirty.ContainsKey(page)) _cache.KeepVersion(page, next);
    }

    /// <summary>
    /// Publishes what is committed now (this transaction's commit, or another connection's noticed) as the version new
    /// readers start from, with the owner's state for it.
    /// </summary>
    private void PublishVersion() => Concurrency.Publish(PageCount, CommittedState?.Invoke());

    /// <summary>A committing page 1: change counter bumped, size recorded, and the size marked valid for this counter.</summary>
    private void StampPage1()
    {
        var p1 = Write(1);
        uint counter = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(24)) + 1;
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(24), counter);
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(28), PageCount);
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(92), counter);
    }

    private byte[]? _journalRecord;

    /// <summary>The journal's record buffer, kept across transactions: a small auto-commit write otherwise allocates a page for it.</summary>
    private byte[] JournalRecord() => _journalRecord is { } r && r.Length == PageSize + 8 ? r : _journalRecord = new byte[PageSize + 8];

    private byte[] Rent() => _pool.Count > 0 ? _pool.Pop() : PageBufferPool.Rent(PageSize);

    /// <summary>The closed pager's free and cached page buffers go to <see cref="PageBufferPool"/> for the next database opened.</summary>
    private void ReturnBuffers()
    {
        foreach (var buf in _dirty.Values) _pool.Push(buf);
        _dirty.Clear();
        PageBufferPool.Return(_pool);
        _pool.Clear();
        _cache.ReturnBuffers();
    }

    private void Acquire(LockLevel level) => LockWaiter.Acquire(_lock, level, _busyTimeout, _path);

    private static TimeSpan Remaining(DateTime deadline)
    {
        var left = deadline - DateTime.UtcNow;
        return left > TimeSpan.Zero ? left : TimeSpan.Zero;
    }

    public void Dispose()
    {
        try
        {
            if (InTransaction) Rollback();
        }
        catch (IOException)
        {
            // The journal stays behind as a hot journal; the next opener (Sharc or SQLite) rolls it back.
        }
        finally
        {
            ReleaseLocks();
            _wal?.Dispose();
            _shm?.Dispose();
            _lock.UnlockTo(LockLevel.None);
            if (!_leftWriters)
            {
                _leftWriters = true;
                _writers?.Leave(this);
            }
            var codec = Codec;
            _file.Dispose();
            codec?.Dispose();
            foreach (var retired in _retiredCodecs) retired.Dispose();
            ReturnBuffers();
        }
    }
}
