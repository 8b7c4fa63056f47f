using Sharc.Storage.Journal;
using Sharc.Storage.Locking;

namespace Sharc.Storage;

/// <summary>Replacing an empty database with a fresh page 1 of another page size (PRAGMA page_size before the first table).</summary>
internal sealed partial class Pager
{
    /// <summary>
    /// Overwrites a rollback-journal database of one page with the page 1 <paramref name="newPage1"/> makes from the
    /// current one (a whole page, whose length is the new page size), crash-safe as a commit: the old page 1 goes to the journal (whose header
    /// records the old page size, so SQLite and Sharc play it back at that size), the journal is synced and sealed,
    /// EXCLUSIVE is taken, the new page 1 written, the file cut to it and synced, and the journal deleted (the
    /// commit point). Returns a pager over the same file at the new size; this pager must not be used afterwards.
    /// Returns null, writing nothing, when the database holds more than page 1 once locked (another connection may
    /// have added pages) or <paramref name="newPage1"/> returns null.
    /// </summary>
    public Pager? ReplaceEmptyDatabase(Func<byte[], byte[]?> newPage1)
    {
        if (_wal is not null) throw new InvalidOperationException("the page size cannot change in WAL mode");
        lock (_gate)
        {
            if (_sessions > 0 || InTransaction) throw new InvalidOperationException("close the database's readers before changing the page size");
        }
        BeginWrite();
        byte[]? page1;
        try
        {
            var original = Rent();
            var current = _cache.Acquire(1);
            try
            {
                current.Span.CopyTo(original);
            }
            finally
            {
                _cache.Release(current);
            }
            page1 = PageCount == 1 ? newPage1(original) : null;
            // An encrypted database's page size is its cipher's (SQLCipher's cipher_page_size), fixed at creation.
            if (page1 is not null && Codec is not null && page1.Length != PageSize)
                throw new SharcException("the page size of an encrypted database is set by SharcCipherSettings.PageSize when it is created");
            if (page1 is null)
            {
                _pool.Push(original);
                Rollback();
                return null;
            }
            _journal = new JournalWriter(_fs, JournalPath, PageSize, 1, Codec);
            _journal.Append(1, original);
            _pool.Push(original);
            _journal.Seal();
            Acquire(LockLevel.Exclusive);
            _fileWritten = true;
            _file.Write(page1, 0);
            if (_file.Length > page1.Length) _file.SetLength(page1.Length);
            _file.Sync();
            // The commit point: with the journal gone, the file is the new database.
            DeleteJournal();
        }
        catch
        {
            AbortAfterFailure();
            throw;
        }
        EndTransaction();
        // Nothing of this pager's cache or lock state is valid at the new size: its successor starts afresh on the
        // same file (this pager holds no lock now, and is dropped without closing the file).
        return new Pager(_fs, _file, _path, page1.Length, page1.Length - page1[20], 1, _cachePages, _busyTimeout, SpillPages, Concurrency)
        {
            AutoCheckpoint = AutoCheckpoint,
            CommittedState = CommittedState,
        };
    }

    /// <summary>True while a reader of this connection holds a read session.</summary>
    public bool HasReaders
    {
        get
        {
            lock (_gate) return _sessions > 0;
        }
    }
}
