namespace Sharc;

/// <summary>Options for <see cref="SharcDatabase.Open(string, SharcOpenOptions?)"/>.</summary>
public sealed class SharcOpenOptions
{
    /// <summary>The most pages the cache keeps (pinned pages of live readers may briefly exceed it). Default 2000.</summary>
    public int CachePages { get; init; } = 2000;

    /// <summary>
    /// When true (the default), a -wal file beside the database is read as SQLite reads it: its committed frames
    /// take precedence over the database file. When false, the -wal file is ignored (the last checkpointed state).
    /// </summary>
    public bool ReadWal { get; init; } = true;

    /// <summary>
    /// What to do when a hot rollback journal lies beside the database (a writer crashed mid-transaction).
    /// The default, <see cref="HotJournalMode.Recover"/>, serves the pages saved in the journal over the file,
    /// which is exactly the state SQLite's rollback restores, without writing to either file.
    /// </summary>
    public HotJournalMode HotJournal { get; init; } = HotJournalMode.Recover;

    /// <summary>
    /// Opens the database for writing. Writes take SQLite's file locks, so Sharc and SQLite processes can share a
    /// rollback-journal file; a hot journal is rolled back on the file, as SQLite would. A WAL-mode file is written by
    /// appending frames to its -wal file, but only while no other connection has the database open: each transaction
    /// and read session waits (up to <see cref="BusyTimeout"/>) until Sharc can be the database's sole user. Default false.
    /// </summary>
    public bool Writable { get; init; }

    /// <summary>
    /// The most changed pages a write transaction keeps in memory; past it they are spilled (written to the database
    /// file behind a synced rollback journal, or to the -wal file as uncommitted frames), so a large transaction needs
    /// bounded memory. Default 2000 pages.
    /// </summary>
    public int SpillPages { get; init; } = 2000;

    /// <summary>
    /// In WAL mode, a commit that leaves at least this many frames in the -wal file checkpoints it into the database
    /// file and empties it (SQLite's wal_autocheckpoint, default 1000); 0 turns automatic checkpoints off.
    /// </summary>
    public int WalAutoCheckpoint { get; init; } = 1000;

    /// <summary>
    /// When true (the default), each reader holds SQLite's SHARED lock from its first positioning until it reaches
    /// the end, is reset or disposed — as a SQLite statement does until it is reset — so a writer in another process
    /// cannot commit under it, and a reader that starts after such a commit sees it (the cache is refreshed).
    /// When false, the database is read as the snapshot committed at open, without locks: the fastest mode, correct
    /// only if no other process writes the file meanwhile. WAL files and hot-journal recovery always read a snapshot.
    /// </summary>
    public bool ReadLocking { get; init; } = true;

    /// <summary>
    /// When true (the default), closing a read-only database keeps its file handle and page cache in a small
    /// process-wide pool (a few files, least recently closed out first), and the next read-only open of the same
    /// file — the same device and inode, not merely the same path — takes them instead of opening the file again.
    /// The cached pages are kept only while the file's change counter, size and modification time are unchanged,
    /// and every read session checks the counter again under SQLite's SHARED lock, as for a long-lived open; a pooled
    /// handle holds no SQLite lock. Only plain rollback-journal files opened with <see cref="ReadLocking"/> and no
    /// key are pooled, on Linux (x64, arm64). <see cref="SharcDatabase.ClearFilePool"/> closes the pooled handles.
    /// </summary>
    public bool PoolFiles { get; init; } = true;

    /// <summary>
    /// Enforces FOREIGN KEY constraints on writes, as SQLite's <c>PRAGMA foreign_keys=ON</c>. Default false, SQLite's
    /// default for every connection; <see cref="SharcDatabase.ForeignKeysEnabled"/> changes it later.
    /// </summary>
    public bool ForeignKeys { get; init; }

    /// <summary>How long a writer waits for another connection's lock before <see cref="SharcBusyException"/>. Default 5 s.</summary>
    public TimeSpan BusyTimeout { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// The key of a SQLCipher-encrypted database (see docs/ENCRYPTION.md), or null (the default) for a plaintext one.
    /// The passphrase is stretched once, when the database is opened; the caller keeps ownership of the key object.
    /// </summary>
    public SharcEncryptionKey? Key { get; init; }

    /// <summary>The cipher settings of an encrypted database (used only with <see cref="Key"/>). Default SQLCipher 4's.</summary>
    public SharcCipherSettings? Cipher { get; init; }

    /// <summary>
    /// How a WAL database is shared with other connections. <see cref="SharcWalSharing.Shared"/> (the default) uses
    /// SQLite's wal-index (the -shm file, memory-mapped) so that Sharc and SQLite connections, in this process and
    /// others, read and write the log at the same time; where the -shm cannot be mapped and locked (a read-only
    /// directory, a platform without Linux open-file-description locks such as Windows or macOS) Sharc falls back
    /// to <see cref="SharcWalSharing.Exclusive"/>, or, opened read-only, to the snapshot committed at open. An encrypted
    /// database (<see cref="Key"/>) is always its sole user: the wal-index is not shared with encryption.
    /// </summary>
    public SharcWalSharing WalSharing { get; init; } = SharcWalSharing.Shared;
}

/// <summary>How a WAL database is shared with other connections (see <see cref="SharcOpenOptions.WalSharing"/>).</summary>
public enum SharcWalSharing
{
    /// <summary>
    /// SQLite's wal-index protocol: readers pin snapshots with read marks, one writer at a time appends under the WAL
    /// write lock, checkpoints respect every reader. Readers never block the writer, nor the writer readers.
    /// </summary>
    Shared = 0,

    /// <summary>
    /// Sole use, like SQLite's <c>locking_mode=EXCLUSIVE</c>: each read session and write transaction waits until no
    /// other connection has the database open and keeps every other connection out meanwhile; no wal-index is kept.
    /// </summary>
    Exclusive = 1,
}

/// <summary>How to treat a hot rollback journal found when opening a database.</summary>
public enum HotJournalMode
{
    /// <summary>Read the database as of before the interrupted transaction (the journal's saved pages win).</summary>
    Recover = 0,
    /// <summary>Refuse to open, with <see cref="SharcBusyException"/>.</summary>
    Refuse = 1,
}
