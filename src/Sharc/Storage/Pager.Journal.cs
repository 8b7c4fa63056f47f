using System.Buffers.Binary;
using Sharc.Storage.Journal;
using Sharc.Storage.Locking;

namespace Sharc.Storage;

/// <summary>Rollback-journal mode: change detection through the file change counter, commit, rollback.</summary>
internal sealed partial class Pager
{
    /// <summary>Drops cached pages when another connection committed since we last looked (file change counter).</summary>
    private bool RefreshIfChanged()
    {
        Span<byte> header = stackalloc byte[100];
        int n = _file.Read(header, 0);
        if (n < 100) return false;
        uint fileCounter = BinaryPrimitives.ReadUInt32BigEndian(header[24..]);
        var page1 = _cache.Acquire(1);
        uint cachedCounter;
        try
        {
            cachedCounter = BinaryPrimitives.ReadUInt32BigEndian(page1.Span[24..]);
        }
        finally
        {
            _cache.Release(page1);
        }
        if (fileCounter != cachedCounter)
        {
            if (header[18] == 2 || header[19] == 2)
                throw new SharcException($"{_path} was switched to WAL mode by another connection: open it again to go on writing");
            int size = header[16] << 8 | header[17];
            if ((size == 1 ? 65536 : size) != PageSize)
                throw new SharcException($"{_path} was rewritten with another page size by another connection: open it again to go on writing");
            _cache.InvalidateAll();
            uint headerCount = BinaryPrimitives.ReadUInt32BigEndian(header[28..]);
            uint filePages = (uint)((_file.Length + PageSize - 1) / PageSize);
            PageCount = headerCount != 0 && BinaryPrimitives.ReadUInt32BigEndian(header[92..]) == fileCounter ? headerCount : filePages;
            DataVersion++;
            ExternalChange = true;
            ExternalCommits++;
            PublishVersion();
            return true;
        }
        return false;
    }

    public void Commit()
    {
        if (!InTransaction)
        {
            RunCommitPoint();
            return;
        }
        if (_wal is not null)
        {
            // A WAL file commits atomically on its own; SQLite gives no atomicity across files in WAL mode either.
            CommitWal();
            RunCommitPoint();
            return;
        }
        try
        {
            if (_dirty.Count > 0 || _fileWritten)
            {
                // Page 1 always changes on commit (change counter), so it is journaled before anything else is written.
                StampPage1();

                if (SuperJournal is { } super) _journal?.WriteSuperJournal(super);
                _journal?.Seal();
                Acquire(LockLevel.Exclusive);
                KeepCommittedImages();
                _fileWritten = true;
                WriteDirtyPages(uint.MaxValue);
                long size = (long)PageCount * PageSize;
                if (_file.Length > size) _file.SetLength(size);
                _file.Sync();
                // Across several files the commit point is the super-journal's deletion, after every file is written.
                RunCommitPoint();
                // The commit point: once the journal is gone, the transaction is durable.
                DeleteJournal();
                foreach (var (page, buf) in _dirty) _cache.Update(page, buf);
                PublishVersion();
            }
            else if (_journal is not null)
            {
                // Every change was undone by statement rollbacks: nothing to write, but the journal they started must
                // not stay behind (other connections would take it for a hot journal).
                RunCommitPoint();
                DeleteJournal();
            }
            RunCommitPoint();
        }
        catch
        {
            CommitPoint = null;
            SuperJournal = null;
            // A failed commit leaves the file to the journal: roll back in memory, and on disk if anything was written.
            AbortAfterFailure();
            throw;
        }
        EndTransaction();
    }

    /// <summary>
    /// The super-journal of a commit across several files (SQLite's protocol): its name goes into this journal before
    /// the database file is written, so that a crash leaves the journal hot exactly while the super-journal exists.
    /// </summary>
    public string? SuperJournal { get; set; }

    /// <summary>
    /// Runs once this file is written and synced, before its journal goes: the other files of a commit across several
    /// commit there in turn, and the last deletes the super-journal. Cleared when run.
    /// </summary>
    public Action? CommitPoint { get; set; }

    private void RunCommitPoint()
    {
        var point = CommitPoint;
        if (point is null) return;
        CommitPoint = null;
        SuperJournal = null;
        point();
    }

    /// <summary>Closes and removes this transaction's journal (after a commit, this is the commit point).</summary>
    private void DeleteJournal()
    {
        _journal?.Dispose();
        _journal = null;
        if (_fs.Exists(JournalPath)) _fs.Delete(JournalPath);
    }

    public void Rollback()
    {
        if (!InTransaction) return;
        if (_wal is not null || _fileWritten)
        {
            // Pages already spilled to the file (or the log) must be undone there too.
            AbortAfterFailure();
            return;
        }
        PageCount = _pageCountAtStart;
        _journal?.Dispose();
        _journal = null;
        try
        {
            // Nothing reached the database file before commit, so dropping the journal is the whole rollback.
            if (_fs.Exists(JournalPath)) _fs.Delete(JournalPath);
        }
        finally
        {
            EndTransaction();
        }
    }

    private void AbortAfterFailure()
    {
        if (_wal is not null)
        {
            _wal.DiscardPending();
            if (_spilled) _cache.InvalidateAll();
            PageCount = _pageCountAtStart;
            EndTransaction();
            return;
        }
        try
        {
            _journal?.Dispose();
            _journal = null;
            if (!_fileWritten)
            {
                if (_fs.Exists(JournalPath)) _fs.Delete(JournalPath);
            }
            else if (HotJournal.IsHot(_fs, JournalPath))
            {
                JournalRecovery.RollBack(_fs, RawFile, JournalPath);
            }
        }
        catch (IOException)
        {
            // The journal stays on disk; the next opener (Sharc or SQLite) rolls it back.
        }
        _cache.InvalidateAll();
        PageCount = _pageCountAtStart;
        EndTransaction();
    }
}
