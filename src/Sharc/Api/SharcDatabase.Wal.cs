using Sharc.Storage;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>The database's journal mode: <see cref="SharcJournalMode.Wal"/> when the header marks WAL mode.</summary>
    public SharcJournalMode JournalMode => Header.IsWal ? SharcJournalMode.Wal : SharcJournalMode.Delete;

    /// <summary>
    /// True when this WAL database shares its log with other connections through SQLite's wal-index (the -shm file);
    /// false in rollback-journal mode, in sole-user WAL mode (<see cref="SharcWalSharing.Exclusive"/> or the fallback
    /// where the -shm cannot be shared), and for a read-only snapshot.
    /// </summary>
    public bool IsWalShared => _pager is { IsWalShared: true };

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
    /// In WAL mode, a checkpoint of the given kind, as SQLite's <c>PRAGMA wal_checkpoint(mode)</c>: frames are copied back
    /// only as far as every reader's snapshot allows (PASSIVE without waiting; FULL waiting up to the busy timeout for
    /// the writer and the readers); RESTART and TRUNCATE also wait until no reader uses the log, so the next writer
    /// starts it over (TRUNCATE empties the file now). A checkpoint that could not do all its kind asks reports
    /// <see cref="SharcCheckpointResult.Busy"/> rather than failing. In sole-user WAL mode every kind copies everything
    /// and empties the log. Not allowed inside a transaction.
    /// </summary>
    public SharcCheckpointResult Checkpoint(SharcCheckpointMode mode)
    {
        if (OwnsTransaction) throw new InvalidOperationException("a checkpoint cannot run inside a transaction");
        var o = UnderWriteLock(mode, static (db, m) => db.WritablePager.Checkpoint((Storage.Wal.CheckpointKind)m));
        return new SharcCheckpointResult(o.Busy, o.LogFrames, o.CheckpointedFrames);
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

/// <summary>The checkpoint modes of SQLite's <c>sqlite3_wal_checkpoint_v2</c>.</summary>
public enum SharcCheckpointMode
{
    /// <summary>Copies what no reader or writer is in the way of, without waiting.</summary>
    Passive = 0,
    /// <summary>Waits (up to the busy timeout) for the writer and for readers of older snapshots, then copies the whole log.</summary>
    Full = 1,
    /// <summary>As <see cref="Full"/>, then waits until no reader uses the log, so the next writer starts it over.</summary>
    Restart = 2,
    /// <summary>As <see cref="Restart"/>, and empties the -wal file.</summary>
    Truncate = 3,
}

/// <summary>What a checkpoint did (SQLite's busy flag, log size and checkpointed frames).</summary>
/// <param name="Busy">True when a reader or writer kept it from doing all its mode asks.</param>
/// <param name="LogFrames">Frames in the log afterwards (0 once emptied).</param>
/// <param name="CheckpointedFrames">Frames of the log now in the database file.</param>
public readonly record struct SharcCheckpointResult(bool Busy, int LogFrames, int CheckpointedFrames);
