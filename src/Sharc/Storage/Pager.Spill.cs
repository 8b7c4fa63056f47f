using Sharc.Storage.Journal;

namespace Sharc.Storage;

/// <summary>
/// Bounded memory for large transactions. Past <see cref="SpillPages"/> changed pages, the transaction's pages leave
/// memory early, as SQLite's pager spills its cache: in rollback-journal mode the journal is synced and sealed,
/// EXCLUSIVE is taken and the pages are written into the database file (a crash or rollback then plays the journal
/// back); in WAL mode they are appended to the log as frames without a commit mark, which no reader takes for
/// committed content. Spills happen only between statements, when no caller holds a page buffer and no statement
/// savepoint would have to undo a spilled page.
/// </summary>
internal sealed partial class Pager
{
    public const int DefaultSpillPages = 2000;

    private bool _spilled;

    /// <summary>The most changed pages a transaction keeps in memory before it spills them.</summary>
    public int SpillPages { get; set; }

    /// <summary>Spills the transaction's changed pages when there are more than <see cref="SpillPages"/>.</summary>
    public void SpillIfNeeded()
    {
        if (!InTransaction || _inStatement || _dirty.Count < SpillPages) return;
        // Spilled pages overwrite committed ones that snapshot readers may need: like SQLite's pager, which spills only
        // when it can take EXCLUSIVE, keep the pages in memory while readers are active.
        if (!_spilled && !Concurrency.TryBeginSpill()) return;
        Spill();
    }

    private void Spill()
    {
        if (_wal is not null)
        {
            foreach (uint page in DirtyPagesInOrder(PageCount)) _wal.Append(page, _dirty[page], 0);
        }
        else
        {
            // The journal must be durable (and hold the original size) before the first database page is overwritten.
            _journal ??= new JournalWriter(_fs, JournalPath, PageSize, _pageCountAtStart, Codec, JournalRecord());
            _journal.Seal();
            Acquire(Locking.LockLevel.Exclusive);
            _fileWritten = true;
            WriteDirtyPages(PageCount);
        }
        _spilled = true;
        foreach (var (page, buf) in _dirty)
        {
            _cache.Update(page, buf);
            _pool.Push(buf);
        }
        _dirty.Clear();
    }
}
