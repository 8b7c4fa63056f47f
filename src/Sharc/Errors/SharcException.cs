namespace Sharc;

/// <summary>
/// Base type of every error Sharc raises on purpose. It is a <see cref="System.Data.Common.DbException"/>, so ADO.NET
/// code (and Dapper, EF Core) that catches database errors catches Sharc's too.
/// </summary>
public class SharcException : System.Data.Common.DbException
{
    /// <summary>Creates an exception with a message.</summary>
    public SharcException(string message) : base(message) { }

    /// <summary>Creates an exception with a message and the error that caused it.</summary>
    public SharcException(string message, Exception? inner) : base(message, inner) { }
}

/// <summary>
/// The file is a SQLite database, but its content is malformed. <see cref="Page"/> and
/// <see cref="Offset"/> say where, when that is known.
/// </summary>
public sealed class SharcCorruptException : SharcException
{
    /// <summary>Creates a corruption error; page 0 means "not tied to one page".</summary>
    public SharcCorruptException(string message, uint page = 0, int offset = -1)
        : base(Describe(message, page, offset))
    {
        Page = page;
        Offset = offset;
    }

    /// <summary>The 1-based page number where the problem was found, or 0 when not tied to a page.</summary>
    public uint Page { get; }

    /// <summary>The byte offset within the page (or file, for header problems), or -1 when unknown.</summary>
    public int Offset { get; }

    private static string Describe(string message, uint page, int offset)
    {
        if (page == 0) return "database disk image is malformed: " + message;
        return offset >= 0
            ? $"database disk image is malformed: page {page}, offset {offset}: {message}"
            : $"database disk image is malformed: page {page}: {message}";
    }
}

/// <summary>The file is not a SQLite format 3 database Sharc can read (random bytes, an encrypted file, a newer format).</summary>
public sealed class SharcFormatException : SharcException
{
    /// <summary>Creates a format error.</summary>
    public SharcFormatException(string message) : base(message) { }
}

/// <summary>The file cannot be used right now because another connection holds it (for example a hot journal awaiting recovery).</summary>
public sealed class SharcBusyException : SharcException
{
    /// <summary>Creates a busy error.</summary>
    public SharcBusyException(string message) : base(message) { }
}

/// <summary>A write broke a constraint (UNIQUE, PRIMARY KEY, NOT NULL, datatype); nothing was changed.</summary>
public sealed class SharcConstraintException : SharcException
{
    /// <summary>Creates a constraint error.</summary>
    public SharcConstraintException(string message) : base(message) { }
}

/// <summary>
/// A reader can no longer go on: the thread that owns the open transaction wrote the database after positioning a
/// reader that reads the transaction's own pages. Seek again (or reset the reader) to read the new state.
/// </summary>
public sealed class SharcReaderInvalidatedException : SharcException
{
    /// <summary>Creates the error.</summary>
    public SharcReaderInvalidatedException(string message) : base(message) { }
}

/// <summary>
/// A schema change would store text in sqlite_schema that does not read back as the object it defines (the database
/// could not be opened again); the statement was refused and nothing was changed.
/// </summary>
public sealed class SharcSchemaTextException : SharcException
{
    /// <summary>Creates the error for the refused text.</summary>
    public SharcSchemaTextException(string message, string schemaText) : base(message) => SchemaText = schemaText;

    /// <summary>The text that would have been stored.</summary>
    public string SchemaText { get; }
}

/// <summary>
/// The statement was stopped by <see cref="SharcDatabase.Interrupt"/> (SQLite's SQLITE_INTERRUPT, message
/// "interrupted"). A write stopped this way is undone as on any other error.
/// </summary>
public sealed class SharcInterruptedException : SharcException
{
    /// <summary>Creates an interruption error with SQLite's message.</summary>
    public SharcInterruptedException() : base("interrupted") { }
}

/// <summary>
/// A write was attempted on a database opened read-only (SQLite's SQLITE_READONLY): the same error whether the write
/// came through SQL or through the row API (<see cref="SharcDatabase.Insert(string, object?[])"/> and the like).
/// </summary>
public sealed class SharcReadOnlyException : SharcException
{
    /// <summary>Creates the error with SQLite's message and what to do about it.</summary>
    public SharcReadOnlyException()
        : base("attempt to write a readonly database (open it with SharcOpenOptions { Writable = true })") { }
}
