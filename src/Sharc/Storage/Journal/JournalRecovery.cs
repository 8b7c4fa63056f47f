using Sharc.Storage.IO;

namespace Sharc.Storage.Journal;

/// <summary>
/// Rolls a hot journal back into the database file, as SQLite does on open: every saved page is written back,
/// the file is cut to its original size, synced, and only then is the journal deleted.
/// </summary>
internal static class JournalRecovery
{
    /// <summary>Returns true when a rollback was performed.</summary>
    public static bool RollBack(IStorageSystem fs, IStorageFile db, string journalPath, int pageSize)
    {
        HotJournal? journal;
        using (var jf = fs.OpenReadOnly(journalPath))
            journal = HotJournal.Read(jf, pageSize);
        if (journal is null)
        {
            // Not a journal SQLite would play back (bad magic): SQLite deletes it.
            fs.Delete(journalPath);
            return false;
        }
        foreach (var (page, content) in journal.Pages)
        {
            if (page > journal.OriginalPageCount && journal.OriginalPageCount != 0) continue;
            db.Write(content, (long)(page - 1) * pageSize);
        }
        db.SetLength((long)journal.OriginalPageCount * pageSize);
        db.Sync();
        fs.Delete(journalPath);
        return true;
    }
}
