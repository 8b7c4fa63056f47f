namespace Sharc;

/// <summary>SQLite's auto_vacuum modes.</summary>
public enum SharcAutoVacuum
{
    /// <summary>Free pages stay on the freelist.</summary>
    None = 0,
    /// <summary>Every commit moves pages down and truncates the file (pointer-map pages track parents).</summary>
    Full = 1,
    /// <summary>Pages are tracked like Full, but the file shrinks only on <see cref="SharcDatabase.IncrementalVacuum"/>.</summary>
    Incremental = 2,
}

/// <summary>How a database keeps transactions atomic (SQLite's journal_mode).</summary>
public enum SharcJournalMode
{
    /// <summary>A rollback journal beside the file, deleted at commit (SQLite's DELETE mode).</summary>
    Delete = 0,
    /// <summary>A write-ahead log (-wal file) that commits append to and checkpoints copy back.</summary>
    Wal = 1,
}

/// <summary>Settings of a new database (<see cref="SharcDatabase.Create"/>).</summary>
public sealed class SharcCreateOptions
{
    /// <summary>Page size in bytes: a power of two from 512 to 65536. Default 4096 (SQLite's default).</summary>
    public int PageSize { get; init; } = 4096;

    /// <summary>Text encoding of the database. Default UTF-8.</summary>
    public SharcTextEncoding TextEncoding { get; init; } = SharcTextEncoding.Utf8;

    /// <summary>auto_vacuum mode: none (default), full (the file shrinks at every commit) or incremental.</summary>
    public SharcAutoVacuum AutoVacuum { get; init; }

    /// <summary>Rollback journal (default) or write-ahead log, as SQLite's PRAGMA journal_mode.</summary>
    public SharcJournalMode JournalMode { get; init; }

    /// <summary>When true an existing file is replaced; otherwise creating over a non-empty file fails.</summary>
    public bool Overwrite { get; init; }

    /// <summary>
    /// Creates a SQLCipher-encrypted database with this key (see docs/ENCRYPTION.md); null (the default) creates a
    /// plaintext one. The page size is then <see cref="SharcCipherSettings.PageSize"/>, and <see cref="PageSize"/> is ignored.
    /// </summary>
    public SharcEncryptionKey? Key { get; init; }

    /// <summary>The cipher settings of an encrypted database (used only with <see cref="Key"/>). Default SQLCipher 4's.</summary>
    public SharcCipherSettings? Cipher { get; init; }

    /// <summary>Options used when the new database is opened (cache size, busy timeout).</summary>
    public SharcOpenOptions Open { get; init; } = new() { Writable = true };
}
