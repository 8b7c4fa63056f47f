using Sharc.Storage;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>The database's journal mode: <see cref="SharcJournalMode.Wal"/> when the header marks WAL mode.</summary>
    public SharcJournalMode JournalMode => Header.IsWal ? SharcJournalMode.Wal : SharcJournalMode.Delete;

    /// <summary>
    /// In WAL mode, copies every committed frame of the -wal file into the database file, syncs it and then empties
    /// the log (SQLite's <c>PRAGMA wal_checkpoint(TRUNCATE)</c>). Returns the number of pages copied; 0 for a
    /// rollback-journal database. Not allowed inside a transaction.
    /// </summary>
    /// <exception cref="SharcBusyException">Another connection has the database open past the busy timeout.</exception>
    public int Checkpoint()
    {
        if (OwnsTransaction) throw new InvalidOperationException("a checkpoint cannot run inside a transaction");
        return UnderWriteLock(static db => db.WritablePager.Checkpoint());
    }

    /// <summary>
    /// Switches the database between a rollback journal and a write-ahead log, as SQLite's <c>PRAGMA journal_mode</c>:
    /// to WAL, the header's file format versions become 2 (committed through the rollback journal); back to DELETE,
    /// the log is checkpointed, the -wal and -shm files removed and the versions set to 1. Not allowed inside a
    /// transaction or while a reader of this database is open.
    /// </summary>
    public void SetJournalMode(SharcJournalMode mode)
    {
        if (OwnsTransaction) throw new InvalidOperationException("the journal mode cannot change inside a transaction");
        UnderWriteLock(mode, static (db, m) =>
        {
            db.SetJournalModeOwned(m);
            return 0;
        });
    }

    private void SetJournalModeOwned(SharcJournalMode mode)
    {
        var pager = WritablePager;
        if (mode == JournalMode) return;
        if (mode == SharcJournalMode.Wal)
        {
            // As leaving WAL mode does, before anything is written: a read session begun in rollback-journal mode
            // holds only SHARED, and a WAL transaction begun while it is open would take none of WAL's sole-user locks.
            if (pager.HasReaders) throw new InvalidOperationException("close the database's readers before changing the journal mode");
            RunWrite(0, static (db, _) =>
            {
                // A log left from an earlier WAL era must not be replayed over the new one.
                db.WritablePager.DeleteWalFiles();
                SetFormatVersions(db, 2);
                return 0;
            });
            pager.UseWal();
        }
        else
        {
            pager.LeaveWal();
            ReloadSchema();
        }
    }

    private static void SetFormatVersions(SharcDatabase db, byte version)
    {
        var p1 = db.WritablePager.Write(1);
        p1[18] = version;
        p1[19] = version;
    }

}
