using System.Buffers.Binary;
using Sharc.Storage.Journal;
using Sharc.Storage.Locking;

namespace Sharc.Storage;

/// <summary>
/// Rewriting a rollback-journal database at another page size: an empty one with a fresh page 1 (PRAGMA page_size
/// before the first table), or a whole image (VACUUM after PRAGMA page_size).
/// </summary>
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
            CopyPage(this, 1, original);
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
        return Successor(page1.Length, page1[20], 1);
    }

    /// <summary>
    /// Nothing of this pager's cache or lock state is valid at a new page size: its successor starts afresh on the
    /// same file (this pager holds no lock now, and is dropped without closing the file).
    /// </summary>
    private Pager Successor(int pageSize, int reserve, uint pageCount)
        => new(_fs, _file, _path, pageSize, pageSize - reserve, pageCount, _cachePages, _busyTimeout, SpillPages, Concurrency)
        {
            AutoCheckpoint = AutoCheckpoint,
            CommittedState = CommittedState,
        };

    /// <summary>
    /// Overwrites a rollback-journal database with <paramref name="image"/>, whose page size differs (VACUUM after
    /// PRAGMA page_size): every old page goes to the journal at the old size, the journal is synced and sealed,
    /// EXCLUSIVE is taken, the image is written at its size with page 1 adjusted by <paramref name="adjustPage1"/>
    /// (old header, new page 1) and stamped, the file cut and synced, and the journal deleted (the commit point). A
    /// crash before that plays the journal back at the old size. Returns the pager over the file at the new size;
    /// this one must not be used afterwards. The caller holds the write lock; no reader may be open.
    /// </summary>
    public Pager ReplaceWithImage(IPageSource image, Action<byte[], byte[]> adjustPage1)
    {
        if (_wal is not null) throw new InvalidOperationException("the page size cannot change in WAL mode");
        if (Codec is not null) throw new InvalidOperationException("the page size of an encrypted database is its cipher's");
        lock (_gate)
        {
            if (_sessions > 0 || InTransaction) throw new InvalidOperationException("close the database's readers before changing the page size");
        }
        BeginWrite();
        uint count = image.PageCount;
        var page1 = new byte[image.PageSize];
        try
        {
            var old = Rent();
            _journal = new JournalWriter(_fs, JournalPath, PageSize, PageCount, Codec);
            for (uint p = 1; p <= PageCount; p++)
            {
                if (p == LockBytePage) continue;
                CopyPage(this, p, old);
                _journal.Append(p, old);
                if (p == 1)
                {
                    CopyPage(image, 1, page1);
                    adjustPage1(old[..100], page1);
                }
            }
            _pool.Push(old);
            _journal.Seal();
            Acquire(LockLevel.Exclusive);
            _fileWritten = true;
            uint counter = BinaryPrimitives.ReadUInt32BigEndian(page1.AsSpan(24)) + 1;
            BinaryPrimitives.WriteUInt32BigEndian(page1.AsSpan(24), counter);
            BinaryPrimitives.WriteUInt32BigEndian(page1.AsSpan(28), count);
            BinaryPrimitives.WriteUInt32BigEndian(page1.AsSpan(92), counter);
            WriteImage(image, _file, page1, null);
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
        return Successor(image.PageSize, page1[20], count);
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
