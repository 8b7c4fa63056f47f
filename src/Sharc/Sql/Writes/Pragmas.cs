using System.Buffers.Binary;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// PRAGMA statements: header fields (page_size, encoding, auto_vacuum, user_version, application_id,
/// schema_version, freelist_count, page_count), schema listings (table_info, table_xinfo, index_list, index_info,
/// index_xinfo), connection settings (foreign_keys, journal_mode) and integrity_check / quick_check, with SQLite's
/// column names and values. Pragmas SQLite knows but Sharc does not run are refused; names SQLite does not know are
/// ignored, as SQLite ignores them.
/// </summary>
internal static partial class Pragmas
{
    public static StatementOutcome Run(SharcDatabase db, string sql, SqlPragmaStatement pragma)
    {
        if (pragma.Schema is { } s && !SqlNameComparer.Instance.Equals(s, db.SchemaName))
            throw new SharcSqlException($"unknown database {s}", sql, pragma.Start);
        string name = pragma.Name.ToLowerInvariant();
        string? value = pragma.Value;
        switch (name)
        {
            case "user_version":
                return HeaderInt(db, name, 60, value, signed: true);
            case "application_id":
                return HeaderInt(db, name, 68, value, signed: true);
            case "schema_version":
                return HeaderInt(db, name, 40, value, signed: true);
            case "freelist_count":
                return Single(name, SqlValue.Integer(ReadHeader(db, 36)));
            case "page_count":
                return Single(name, SqlValue.Integer(db.UnderWriteLock(static d => d.Source.PageCount)));
            case "page_size":
                if (value is null) return Single(name, SqlValue.Integer(db.PageSize));
                return PageSize(db, sql, pragma, ParseInteger(value));
            case "encoding":
                if (value is null) return Single(name, SqlValue.Text(EncodingName(db.TextEncoding)));
                return Encoding(db, sql, pragma, value);
            case "auto_vacuum":
                return AutoVacuum(db, sql, pragma);
            case "foreign_keys":
                if (value is null) return Single(name, SqlValue.Integer(db.ForeignKeysEnabled ? 1 : 0));
                if (!db.InExplicitTransaction) db.ForeignKeysEnabled = Boolean(value, sql, pragma);
                return StatementOutcome.None;
            case "recursive_triggers":
                if (value is null) return Single(name, SqlValue.Integer(db.Settings.RecursiveTriggers ? 1 : 0));
                db.Settings.RecursiveTriggers = Boolean(value, sql, pragma);
                return StatementOutcome.None;
            case "journal_mode":
                return JournalMode(db, value, sql, pragma);
            case "integrity_check":
            case "quick_check":
                return IntegrityCheck(db, name, value);
            case "incremental_vacuum":
                db.IncrementalVacuum(value is null ? 0 : (int)Math.Clamp(Number(value, sql, pragma), 0, int.MaxValue));
                return StatementOutcome.None;
            case "database_list":
                return Rows(["seq", "name", "file"], [.. db.DatabaseList().Select(d => new[] { SqlValue.Integer(d.Seq), SqlValue.Text(d.Name), SqlValue.Text(d.File) })]);
            case "table_info":
                return value is null ? StatementOutcome.None : TableInfo(db, value, extended: false);
            case "table_xinfo":
                return value is null ? StatementOutcome.None : TableInfo(db, value, extended: true);
            case "index_list":
                return value is null ? StatementOutcome.None : IndexList(db, value);
            case "index_info":
                return value is null ? StatementOutcome.None : IndexInfo(db, value, extended: false);
            case "index_xinfo":
                return value is null ? StatementOutcome.None : IndexInfo(db, value, extended: true);
        }
        if (TryRunCipher(db, name, value, sql, pragma, out var cipher)) return cipher;
        if (TryRunSetting(db, name, value, sql, pragma, out var setting)) return setting;
        if (TryRunConnection(db, name, value, sql, pragma, out var connection)) return connection;
        if (KnownToSqlite.Contains(name)) Unsupported.Throw($"PRAGMA {pragma.Name}", sql, pragma.Start);
        return StatementOutcome.None; // SQLite ignores pragmas it does not know
    }

    /// <summary>Pragmas SQLite has that Sharc does not run: refused rather than ignored.</summary>
    private static readonly HashSet<string> KnownToSqlite = new(StringComparer.Ordinal)
    {
        "analysis_limit", "automatic_index", "busy_timeout", "cache_size", "cache_spill", "case_sensitive_like",
        "cell_size_check", "checkpoint_fullfsync", "collation_list", "compile_options", "count_changes", "data_store_directory",
        "data_version", "default_cache_size", "defer_foreign_keys", "empty_result_callbacks", "foreign_key_check",
        "foreign_key_list", "full_column_names", "fullfsync", "function_list", "hard_heap_limit", "ignore_check_constraints",
        "journal_size_limit", "legacy_alter_table", "legacy_file_format", "locking_mode", "max_page_count", "mmap_size",
        "module_list", "optimize", "pragma_list", "query_only", "read_uncommitted", "reverse_unordered_selects",
        "secure_delete", "short_column_names", "shrink_memory", "soft_heap_limit", "stats", "synchronous", "table_list",
        "temp_store", "temp_store_directory", "threads", "trusted_schema", "wal_autocheckpoint", "wal_checkpoint",
        "writable_schema",
    };

    private static StatementOutcome HeaderInt(SharcDatabase db, string name, int offset, string? value, bool signed)
    {
        if (value is null)
        {
            uint raw = ReadHeader(db, offset);
            return Single(name, SqlValue.Integer(signed ? (int)raw : raw));
        }
        // SQLite keeps the low 32 bits of the value, as sqlite3_value_int does.
        uint v = (uint)(int)ParseInteger(value);
        return db.RunSqlStatement(() =>
        {
            BinaryPrimitives.WriteUInt32BigEndian(db.WritablePager.Write(1).AsSpan(offset), v);
            if (offset == 40) db.MarkSchemaChanged();
            return StatementOutcome.None;
        });
    }

    /// <summary>A header field as page 1 holds it now (inside a transaction, with its changes).</summary>
    private static uint ReadHeader(SharcDatabase db, int offset) => db.UnderWriteLock(d =>
    {
        var page = d.Source.Acquire(1);
        try
        {
            return BinaryPrimitives.ReadUInt32BigEndian(page.Span[offset..]);
        }
        finally
        {
            d.Source.Release(page);
        }
    });

    private static bool HasContent(SharcDatabase db)
        => db.Schema.Tables.Any(t => !t.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) || db.Schema.Views.Count > 0 || db.Schema.Indexes.Count > 0;

    private static StatementOutcome AutoVacuum(SharcDatabase db, string sql, SqlPragmaStatement pragma)
    {
        int mode = db.Header.AutoVacuumMode;
        if (pragma.Value is not { } value) return Single("auto_vacuum", SqlValue.Integer(mode));
        int wanted = value.ToLowerInvariant() switch
        {
            "none" or "0" => 0,
            "full" or "1" => 1,
            "incremental" or "2" => 2,
            _ => (int)Math.Clamp(ParseInteger(value), 0, 2),
        };
        // Between NONE and FULL/INCREMENTAL with content, the change waits for the next VACUUM, as in SQLite.
        db.PendingAutoVacuum = wanted == mode ? null : (SharcAutoVacuum)wanted;
        if (wanted == mode) return StatementOutcome.None;
        if (mode != 0 && wanted != 0)
        {
            // Between FULL and INCREMENTAL only the header flag changes, as in SQLite.
            return db.RunSqlStatement(() =>
            {
                BinaryPrimitives.WriteUInt32BigEndian(db.WritablePager.Write(1).AsSpan(64), wanted == 2 ? 1u : 0u);
                return StatementOutcome.None;
            });
        }
        // Between NONE and FULL/INCREMENTAL the file's layout changes (pointer-map pages): only before the first table.
        return Recreate(db, sql, pragma, db.PageSize, db.TextEncoding, (SharcAutoVacuum)wanted);
    }

    private static StatementOutcome IntegrityCheck(SharcDatabase db, string name, string? value)
    {
        int max = value is not null && long.TryParse(value, out long n) && n > 0 ? (int)Math.Min(n, int.MaxValue) : 100;
        var problems = db.CheckIntegrity(max);
        var rows = new List<SqlValue[]>();
        if (problems.Count == 0) rows.Add([SqlValue.Text("ok")]);
        foreach (var p in problems) rows.Add([SqlValue.Text(p)]);
        return Rows([name], rows);
    }

    private static string EncodingName(SharcTextEncoding e) => e switch
    {
        SharcTextEncoding.Utf16LE => "UTF-16le",
        SharcTextEncoding.Utf16BE => "UTF-16be",
        _ => "UTF-8",
    };

    private static bool Boolean(string value, string sql, SqlPragmaStatement pragma) => value.ToLowerInvariant() switch
    {
        "on" or "yes" or "true" => true,
        "off" or "no" or "false" => false,
        _ => Number(value, sql, pragma) != 0,
    };

    private static long Number(string value, string sql, SqlPragmaStatement pragma) => ParseInteger(value);

    /// <summary>The integer SQLite reads from a pragma value: its leading digits (0 when there are none).</summary>
    private static long ParseInteger(string value)
    {
        int i = 0;
        bool negative = false;
        if (i < value.Length && value[i] is '-' or '+') negative = value[i++] == '-';
        long n = 0;
        while (i < value.Length && char.IsAsciiDigit(value[i]) && n < long.MaxValue / 10) n = n * 10 + (value[i++] - '0');
        return negative ? -n : n;
    }

    /// <summary>
    /// journal_mode: reports "delete" or "wal"; setting DELETE or WAL switches as SQLite does (outside a transaction);
    /// the modes Sharc does not write (TRUNCATE, PERSIST, MEMORY, OFF) are refused.
    /// </summary>
    private static StatementOutcome JournalMode(SharcDatabase db, string? value, string sql, SqlPragmaStatement pragma)
    {
        if (value is not null)
        {
            SharcJournalMode mode;
            if (SqlText.EqualsIgnoreCase(value, "delete")) mode = SharcJournalMode.Delete;
            else if (SqlText.EqualsIgnoreCase(value, "wal")) mode = SharcJournalMode.Wal;
            else return Unsupported.Throw<StatementOutcome>($"PRAGMA journal_mode = {value}", "Sharc writes the DELETE and WAL journal modes", sql, pragma.Start);
            if (mode != db.JournalMode)
            {
                if (db.InExplicitTransaction)
                    throw new SharcSqlException(mode == SharcJournalMode.Wal ? "cannot change into wal mode from within a transaction" : "cannot change out of wal mode from within a transaction", sql, pragma.Start);
                if (!db.IsWritable) throw new SharcReadOnlyException();
                db.SetJournalMode(mode);
            }
        }
        return Single("journal_mode", SqlValue.Text(db.JournalMode == SharcJournalMode.Wal ? "wal" : "delete"));
    }

    private static StatementOutcome Single(string column, SqlValue value) => Rows([column], [[value]]);

    private static StatementOutcome Rows(string[] columns, List<SqlValue[]> rows)
    {
        var sources = new ColumnSource[columns.Length];
        for (int i = 0; i < sources.Length; i++) sources[i] = new ColumnSource { Name = columns[i], Field = i };
        return new StatementOutcome(0, false, new QueryExecution(sources, rows));
    }
}
