using Sharc.Format;
using Sharc.Schema;
using Sharc.Storage;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;
using Sharc.Storage.Journal;
using Sharc.Storage.Pool;
using Sharc.Storage.Wal;

namespace Sharc;

/// <summary>
/// An open SQLite database.
/// </summary>
/// <remarks>
/// <para><b>Threads.</b> A <see cref="SharcDatabase"/> is safe to share between threads: any thread may read or write
/// through it at any time. A single reader (or prepared statement) must be used by one thread at a time.</para>
/// <para><b>Writes are serialized.</b> An explicit transaction (<see cref="BeginTransaction"/>, SQL BEGIN or SAVEPOINT)
/// belongs to the thread — or async flow — that began it. Another thread's write, a statement or a transaction, waits
/// until that transaction ends (up to <see cref="SharcOpenOptions.BusyTimeout"/>, then <see cref="SharcBusyException"/>);
/// it never joins it. Use a transaction from one thread at a time.</para>
/// <para><b>Reads see committed data.</b> A statement, or a reader from its first row to its last, reads one committed
/// snapshot, whatever other threads commit meanwhile; it never sees another thread's uncommitted changes. Seeking a
/// reader again moves it to the latest commit. The thread that owns a transaction reads its own changes.</para>
/// <para><b>Other connections.</b> Several <see cref="SharcDatabase"/> objects on one file, in one process or many, behave
/// like separate SQLite connections and respect each other's (and SQLite's) file locks. A reader holds SQLite's SHARED
/// lock from its first positioning until it ends, is reset or disposed (see <see cref="SharcOpenOptions.ReadLocking"/>).
/// A WAL database opened read-only is read as the snapshot committed when it was opened (including committed WAL
/// frames); reopen to see later commits.</para>
/// </remarks>
public sealed partial class SharcDatabase : IDisposable
{
    private IPageSource _source; // replaced when an empty database is rewritten at another page size
    private bool _disposed;

    private SharcDatabase(IPageSource source, DatabaseHeader header, string? path)
    {
        _source = source;
        Path = path;
        if (source is Pager pager) AttachPager(pager);
        // Open reads page 1 only, as SQLite does: sqlite_schema is read and parsed at first use.
        InitializeState(DatabaseState.Deferred(header));
    }

    /// <summary>The file path, or null for a database opened from memory.</summary>
    public string? Path { get; }

    /// <summary>
    /// The page size in bytes. It changes when <c>PRAGMA page_size</c> (or <c>encoding</c> / <c>auto_vacuum</c>) is run
    /// through <see cref="Execute(string, object?[])"/> on a writable database with no tables, indexes or views yet: the empty
    /// database is rewritten with the new settings, as SQLite does for a new, zero-length file. Once the database has
    /// content, new values are ignored, as in SQLite.
    /// </summary>
    public int PageSize => _source.PageSize;

    /// <summary>The number of pages in the database (inside a transaction, the transaction's own; elsewhere the latest commit's).</summary>
    public uint PageCount
        => _pager is { } pager && !InOwnTransaction
            // Another thread's open transaction may have added or cut pages: they are not committed yet.
            ? pager.Concurrency.Current.PageCount
            : _source.PageCount;

    /// <summary>The text encoding of the database.</summary>
    public SharcTextEncoding TextEncoding => Header.TextEncoding;

    internal IPageSource Source
    {
        get
        {
            ThrowIfDisposed();
            return _source;
        }
    }

    /// <summary>Every public entry point starts here: a disposed database fails at once, not at some later read.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    internal void ThrowIfDisposed()
    {
        if (_disposed) ThrowHelper.Disposed(nameof(SharcDatabase));
        // Every entry point passes here: from now on this thread compiles SQL with this database's functions and
        // collations (see UserFunctionRegistry.Current).
        _userFunctions.MakeCurrent();
    }

    /// <summary>
    /// Opens a database file for reading. A -wal file beside it is honoured (committed frames only); a hot
    /// rollback journal is recovered in memory (see <see cref="SharcOpenOptions.HotJournal"/>).
    /// </summary>
    /// <exception cref="SharcFormatException">The file is not a SQLite format 3 database.</exception>
    /// <exception cref="SharcCorruptException">The header or schema is malformed.</exception>
    public static SharcDatabase Open(string path, SharcOpenOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(path);
        options ??= new SharcOpenOptions();
        if (options.Writable) return OpenWritable(path, options);
        if (TryOpenPooled(path, options) is { } pooled) return pooled;
        var file = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        FilePageSource? source = null;
        PageCodec? codec = null;
        try
        {
            long length = RandomAccess.GetLength(file);
            Span<byte> first = stackalloc byte[DatabaseHeader.Size];
            int got = length == 0 ? 0 : RandomAccess.Read(file, first, 0);
            if (length == 0)
            {
                file.Dispose();
                return OpenEmpty(path);
            }
            int pageSize;
            if (options.Key is not null)
            {
                // The key is stretched once, with the salt in the file's first bytes. The page size is the cipher's; page 1
                // is authenticated below, through the source, since a hot journal's copy may stand in for a torn one.
                // (An encrypted WAL database is read as the snapshot committed at open: the shared wal-index is not
                // used with encryption.)
                codec = PageCodec.Create(options.Key, options.Cipher, first[..got]);
                pageSize = codec.PageSize;
                if (length < pageSize)
                    throw new SharcCryptoException($"the file is shorter than one {pageSize}-byte page: wrong cipher settings or not an encrypted database", 1);
            }
            else
            {
                var fileHeader = DatabaseHeader.Parse(first[..got]);
                pageSize = fileHeader.PageSize;
                if (fileHeader.IsWal && options.ReadWal && options.ReadLocking && !HotJournal.IsHot(OsStorage.Instance, path + "-journal"))
                {
                    var shared = TryOpenSharedReadOnly(path, options);
                    if (shared is not null)
                    {
                        file.Dispose();
                        return shared;
                    }
                }
            }

            HotJournal? journal = null;
            string journalPath = path + "-journal";
            if (HotJournal.IsHot(OsStorage.Instance, journalPath))
            {
                if (options.HotJournal == HotJournalMode.Refuse)
                    throw new SharcBusyException($"a hot rollback journal ({journalPath}) awaits recovery: a writer was interrupted mid-transaction");
                try
                {
                    using var jh = OsStorage.Instance.OpenReadOnly(journalPath);
                    journal = HotJournal.Read(jh);
                }
                catch (FileNotFoundException)
                {
                    // The writer committed and removed it since we looked: the file alone is the database.
                }
                // Until it is rolled back, the database is the journal's: an interrupted page size change
                // (PRAGMA page_size on an empty database) left page 1 at the new size, the journal the old.
                if (journal is not null) pageSize = journal.PageSize;
            }

            WalIndex? wal = null;
            Microsoft.Win32.SafeHandles.SafeFileHandle? walFile = null;
            string walPath = path + "-wal";
            if (options.ReadWal && journal is null && File.Exists(walPath))
            {
                walFile = File.OpenHandle(walPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
                wal = WalIndex.Build(walFile, pageSize);
                if (wal.IsEmpty)
                {
                    walFile.Dispose();
                    walFile = null;
                    wal = null;
                }
            }

            uint filePages = (uint)Math.Min(uint.MaxValue, (length + pageSize - 1) / pageSize);
            uint provisional = Math.Max(filePages, Math.Max(wal?.PageCount ?? 0, journal?.OriginalPageCount ?? 0));
            source = new FilePageSource(file, pageSize, provisional, options.CachePages, walFile, wal, journal, options.ReadLocking, options.BusyTimeout, codec);
            if (options.PoolFiles && wal is null && journal is null && FileIdentity.TryGet(file, out var identity))
                source.EnablePooling(identity, options.CachePages);
            return CompleteOpen(source, path, filePages, wal, journal, codec);
        }
        catch
        {
            if (source is not null) source.Dispose();
            else
            {
                file.Dispose();
                codec?.Dispose();
            }
            throw;
        }
    }

    /// <summary>Page 1 through the new source (the WAL's or journal's copy may stand in for the file's), then the page count.</summary>
    private static SharcDatabase CompleteOpen(FilePageSource source, string path, uint filePages, WalIndex? wal, HotJournal? journal, PageCodec? codec)
    {
        int pageSize = source.PageSize;
        DatabaseHeader header = ReadHeader(source);
        if (codec is not null) CheckCipherLayout(header, codec);
        if (header.PageSize != pageSize)
            ThrowHelper.Corrupt($"page 1 in the log says {header.PageSize}-byte pages but the file says {pageSize}", 1, 16);

        uint pageCount;
        if (wal is not null) pageCount = wal.PageCount;
        else if (journal is not null && journal.OriginalPageCount > 0) pageCount = journal.OriginalPageCount;
        else if (header.IsPageCountValid)
        {
            if (header.HeaderPageCount > filePages)
                ThrowHelper.Corrupt($"the header says {header.HeaderPageCount} pages but the file holds {filePages}", 1, 28);
            pageCount = header.HeaderPageCount;
        }
        else pageCount = filePages;
        source.SetPageCount(pageCount);
        source.SetChangeCounter(header.ChangeCounter);

        return new SharcDatabase(source, header, path);
    }

    /// <summary>Opens a database image held in memory (for example a file read with File.ReadAllBytes). The memory is not copied.</summary>
    public static SharcDatabase OpenMemory(ReadOnlyMemory<byte> image)
    {
        if (image.Length == 0) return OpenEmpty(null);
        var header = DatabaseHeader.Parse(image.Span[..Math.Min(image.Length, DatabaseHeader.Size)]);
        int pageSize = header.PageSize;
        uint imagePages = (uint)Math.Min(uint.MaxValue, ((long)image.Length + pageSize - 1) / pageSize);
        uint pageCount = imagePages;
        if (header.IsPageCountValid)
        {
            if (header.HeaderPageCount > imagePages)
                ThrowHelper.Corrupt($"the header says {header.HeaderPageCount} pages but the image holds {imagePages}", 1, 28);
            pageCount = header.HeaderPageCount;
        }
        return new SharcDatabase(new MemoryPageSource(image, pageSize, pageCount), header, null);
    }

    private static SharcDatabase OpenEmpty(string? path)
    {
        // SQLite treats a zero-length file as an empty database with default settings.
        byte[] image = new byte[DatabaseHeader.Size];
        "SQLite format 3\0"u8.CopyTo(image);
        image[16] = 0x10; // 4096
        image[18] = image[19] = 1;
        image[21] = 64; image[22] = 32; image[23] = 32;
        var header = DatabaseHeader.Parse(image);
        return new SharcDatabase(new MemoryPageSource(Array.Empty<byte>(), 4096, 0), header, path);
    }

    private static DatabaseHeader ReadHeader(IPageSource source)
    {
        var page = source.Acquire(1);
        try
        {
            return DatabaseHeader.Parse(page.Span);
        }
        finally
        {
            source.Release(page);
        }
    }

    /// <summary>
    /// Opens a forward reader over a table (all declared columns when <paramref name="columns"/> is empty) in storage
    /// order — rowid order, or primary-key order for a WITHOUT ROWID table — or over an index's entries in index
    /// order (key columns then the rowid or primary-key suffix). Column names are matched case-insensitively;
    /// "rowid", "oid" and "_rowid_" name the rowid unless a real column has that name.
    /// </summary>
    /// <remarks>
    /// The reader is planned against the schema of the moment. When another thread or connection commits a schema
    /// change (DDL, ANALYZE, or a VACUUM, which moves tables), the reader's next positioning from scratch (first Read,
    /// Seek, a <see cref="PreparedReader.Reset"/>) plans the same read over the new schema and carries on, as SQLite
    /// re-prepares a statement; a positioned reader keeps reading the version it started on. Only when the table or
    /// index was dropped, or the columns it reads moved (DROP COLUMN, a table rebuilt differently), does that
    /// positioning throw a <see cref="SharcException"/> saying so.
    /// </remarks>
    public SharcDataReader CreateReader(string tableOrIndex, params string[] columns)
        => new(this, ReaderPlan.Create(this, tableOrIndex, columns));

    /// <summary>
    /// Prepares a reader once for repeated use: <see cref="PreparedReader.Reset"/>, <see cref="SharcDataReader.Seek"/>
    /// and scans reuse its buffers, so after warm-up they allocate nothing.
    /// </summary>
    public PreparedReader PrepareReader(string tableOrIndex, params string[] columns)
        => new(this, ReaderPlan.Create(this, tableOrIndex, columns));

    /// <summary>Closes the file. Readers still open over this database fail on their next page read.</summary>
    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        _transaction = null;
        DisposeAttached();
        // A read-only file's handle and cache wait for the next open of the same file (see SharcOpenOptions.PoolFiles).
        if (_source is not FilePageSource file || !FilePool.TryReturn(file)) _source.Dispose();
        _session.Dispose();
    }
}
