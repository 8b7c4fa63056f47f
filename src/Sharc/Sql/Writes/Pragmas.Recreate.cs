using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Schema.Parsing;

namespace Sharc.Sql.Writes;

/// <summary>
/// page_size, encoding and auto_vacuum (NONE to FULL/INCREMENTAL and back) set before the first table: the database,
/// still one page with an empty sqlite_schema, is rewritten as a fresh one with the new settings
/// (<see cref="SharcDatabase.RecreateEmpty"/>). Once any table, index or view exists a new value is ignored, as
/// SQLite ignores it. SQLite honours these on a zero-length file and also, for page_size and auto_vacuum, on a file
/// whose page 1 holds no schema; Sharc's Create always writes page 1, so Sharc honours them on any empty database.
/// </summary>
internal static partial class Pragmas
{
    private static StatementOutcome PageSize(SharcDatabase db, string sql, SqlPragmaStatement pragma, long size)
    {
        // SQLite ignores a size that is not a power of two from 512 to 65536.
        if (size < 512 || size > 65536 || (size & (size - 1)) != 0) return StatementOutcome.None;
        // With content, as in SQLite, the size waits for the next VACUUM (which applies it to VACUUM INTO's copy).
        db.PendingPageSize = size == db.PageSize ? null : (int)size;
        if (size == db.PageSize) return StatementOutcome.None;
        return Recreate(db, sql, pragma, (int)size, db.TextEncoding, (SharcAutoVacuum)db.Header.AutoVacuumMode);
    }

    private static StatementOutcome Encoding(SharcDatabase db, string sql, SqlPragmaStatement pragma, string value)
    {
        SharcTextEncoding encoding;
        if (SqlText.EqualsIgnoreCase(value, "UTF-8") || SqlText.EqualsIgnoreCase(value, "UTF8")) encoding = SharcTextEncoding.Utf8;
        // "UTF-16" means the machine's byte order, as in SQLite.
        else if (SqlText.EqualsIgnoreCase(value, "UTF-16") || SqlText.EqualsIgnoreCase(value, "UTF16"))
            encoding = BitConverter.IsLittleEndian ? SharcTextEncoding.Utf16LE : SharcTextEncoding.Utf16BE;
        else if (SqlText.EqualsIgnoreCase(value, "UTF-16le") || SqlText.EqualsIgnoreCase(value, "UTF16le")) encoding = SharcTextEncoding.Utf16LE;
        else if (SqlText.EqualsIgnoreCase(value, "UTF-16be") || SqlText.EqualsIgnoreCase(value, "UTF16be")) encoding = SharcTextEncoding.Utf16BE;
        else throw new SharcSqlException($"unsupported encoding: {value}", sql, pragma.Start);
        if (encoding == db.TextEncoding) return StatementOutcome.None;
        return Recreate(db, sql, pragma, db.PageSize, encoding, (SharcAutoVacuum)db.Header.AutoVacuumMode);
    }

    /// <summary>Rewrites the empty database with new settings; with schema objects present, ignores them as SQLite does.</summary>
    private static StatementOutcome Recreate(SharcDatabase db, string sql, SqlPragmaStatement pragma, int pageSize, SharcTextEncoding encoding, SharcAutoVacuum autoVacuum)
    {
        if (HasContent(db) || db.Source.PageCount != 1) return StatementOutcome.None;
        if (!db.IsWritable) throw new SharcReadOnlyException();
        string what = $"PRAGMA {pragma.Name} = {pragma.Value}";
        if (db.InExplicitTransaction) Unsupported.Throw($"{what} inside a transaction", "it rewrites the empty database", sql, pragma.Start);
        if (db.JournalMode == SharcJournalMode.Wal) Unsupported.Throw($"{what} in WAL mode", "set it before PRAGMA journal_mode = WAL", sql, pragma.Start);
        if (db.HasOpenReaders) Unsupported.Throw($"{what} while a reader of this database is open", sql, pragma.Start);
        db.RecreateEmpty(pageSize, encoding, autoVacuum);
        return StatementOutcome.None;
    }
}
