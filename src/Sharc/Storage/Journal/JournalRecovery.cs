using Sharc.Storage.IO;

namespace Sharc.Storage.Journal;

/// <summary>
/// Rolls a hot journal back into the database file, as SQLite does on open: every saved page is written back,
/// the file is cut to its original size, synced, and only then is the journal deleted.
/// </summary>
internal static class JournalRecovery
{
    /// <summary>
    /// Returns true when a rollback was performed. Pages are written back with the journal's page size, which is
    /// the database's before the interrupted transaction (it differs from page 1's after a crash in the middle of
    /// a page size change), as SQLite's playback does.
    /// </summary>
    public static bool RollBack(IStorageSystem fs, IStorageFile db, string journalPath)
    {
        HotJournal? journal;
        using (var jf = fs.OpenReadOnly(journalPath))
            journal = HotJournal.Read(jf);
        if (journal is null)
        {
            // Not a journal SQLite would play back (bad magic): SQLite deletes it.
            fs.Delete(journalPath);
            return false;
        }
        foreach (var (page, content) in journal.Pages)
        {
            if (page > journal.OriginalPageCount && journal.OriginalPageCount != 0) continue;
            db.Write(content, (long)(page - 1) * journal.PageSize);
        }
        db.SetLength((long)journal.OriginalPageCount * journal.PageSize);
        db.Sync();
        fs.Delete(journalPath);
        return true;
    }
}
