using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>The connection's remaining settings a server or migration tool sets and reads back.</summary>
internal sealed partial class ConnectionSettings
{
    public long JournalSizeLimit = -1;
    public long MmapSize;
    public long Threads;
    public long SoftHeapLimit;
    public long HardHeapLimit;
    public long AnalysisLimit;
    public bool CellSizeCheck;
    public bool FullFsync;
    public bool CheckpointFullFsync;
    public bool ReadUncommitted;
}

/// <summary>
/// PRAGMAs that SQLite users run against a connection and expect to be answered as SQLite answers them:
/// wal_checkpoint and wal_autocheckpoint (which act), foreign_key_list and collation_list (which list), settings that
/// change nothing Sharc does (mmap_size, journal_size_limit, threads, heap limits, analysis_limit, fsync flavours,
/// cell_size_check, read_uncommitted, shrink_memory: stored and reported back), and flags whose other value would
/// change results Sharc does not change (locking_mode EXCLUSIVE, legacy_alter_table, reverse_unordered_selects,
/// defer_foreign_keys, count_changes, query_only, trusted_schema OFF, secure_delete, max_page_count): their default
/// is answered and accepted, the other value refused as not supported rather than silently ignored.
/// </summary>
internal static partial class Pragmas
{
    // SQLite's compile-time ceilings as the oracle's build has them.
    private const long MaxMmapSize = 0x7fff0000;
    private const long MaxWorkerThreads = 8;
    private const long MaxPageCount = 4294967294;

    private static bool TryRunConnection(SharcDatabase db, string name, string? value, string sql, SqlPragmaStatement pragma, out StatementOutcome outcome)
    {
        var s = db.Settings;
        outcome = StatementOutcome.None;
        switch (name)
        {
            case "wal_checkpoint":
                outcome = WalCheckpoint(db, value);
                return true;
            case "wal_autocheckpoint":
                if (db.IsWritable)
                {
                    if (value is not null) db.WritablePager.AutoCheckpoint = (int)Math.Clamp(ParseInteger(value), 0, int.MaxValue);
                    outcome = Single(name, SqlValue.Integer(db.WritablePager.AutoCheckpoint));
                }
                else outcome = Single(name, SqlValue.Integer(1000));
                return true;
            case "foreign_key_list":
                outcome = Rows(ForeignKeyListRows(db, value));
                return true;
            case "collation_list":
                outcome = Rows(CollationListRows(db));
                return true;
            case "journal_size_limit":
                if (value is not null) s.JournalSizeLimit = Math.Max(-1, ParseInteger(value));
                outcome = Single(name, SqlValue.Integer(s.JournalSizeLimit));
                return true;
            case "mmap_size":
                if (value is not null) s.MmapSize = Math.Clamp(ParseInteger(value), 0, MaxMmapSize);
                outcome = Single(name, SqlValue.Integer(s.MmapSize));
                return true;
            case "threads":
                if (value is not null && ParseInteger(value) is >= 0 and var n) s.Threads = Math.Min(n, MaxWorkerThreads);
                outcome = Single(name, SqlValue.Integer(s.Threads));
                return true;
            case "soft_heap_limit":
                if (value is not null && ParseInteger(value) is >= 0 and var soft) s.SoftHeapLimit = s.HardHeapLimit > 0 && (soft == 0 || soft > s.HardHeapLimit) ? s.HardHeapLimit : soft;
                outcome = Single(name, SqlValue.Integer(s.SoftHeapLimit));
                return true;
            case "hard_heap_limit":
                if (value is not null && ParseInteger(value) is > 0 and var hard && (s.HardHeapLimit == 0 || hard < s.HardHeapLimit))
                {
                    s.HardHeapLimit = hard;
                    if (s.SoftHeapLimit == 0 || s.SoftHeapLimit > hard) s.SoftHeapLimit = hard;
                }
                outcome = Single(name, SqlValue.Integer(s.HardHeapLimit));
                return true;
            case "analysis_limit":
                if (value is not null && ParseInteger(value) is >= 0 and var limit) s.AnalysisLimit = limit & 0x7fffffff;
                outcome = Single(name, SqlValue.Integer(s.AnalysisLimit));
                return true;
            case "cell_size_check":
                return Flag(ref s.CellSizeCheck, name, value, sql, pragma, out outcome);
            case "fullfsync":
                return Flag(ref s.FullFsync, name, value, sql, pragma, out outcome);
            case "checkpoint_fullfsync":
                return Flag(ref s.CheckpointFullFsync, name, value, sql, pragma, out outcome);
            case "read_uncommitted":
                // Only SQLite's shared-cache mode reads uncommitted rows; Sharc has no shared cache, as SQLite without it.
                return Flag(ref s.ReadUncommitted, name, value, sql, pragma, out outcome);
            case "shrink_memory":
                return true;
            case "locking_mode":
                if (value is not null && SqlText.EqualsIgnoreCase(value, "exclusive")) Unsupported.Throw("PRAGMA locking_mode = EXCLUSIVE", sql, pragma.Start);
                outcome = Single(name, SqlValue.Text("normal"));
                return true;
            case "max_page_count":
                if (value is not null) Unsupported.Throw("PRAGMA max_page_count = N", sql, pragma.Start);
                outcome = Single(name, SqlValue.Integer(MaxPageCount));
                return true;
            case "secure_delete":
                // Sharc leaves freed content in place, as SQLite does by default.
                if (value is not null && (SqlText.EqualsIgnoreCase(value, "fast") || Boolean(value, sql, pragma)))
                    Unsupported.Throw($"PRAGMA secure_delete = {value}", sql, pragma.Start);
                outcome = Single(name, SqlValue.Integer(0));
                return true;
            case "trusted_schema":
                return FixedFlag(true, name, value, sql, pragma, out outcome);
            case "legacy_alter_table":
            case "reverse_unordered_selects":
            case "defer_foreign_keys":
            case "count_changes":
            case "query_only":
                return FixedFlag(false, name, value, sql, pragma, out outcome);
        }
        return false;
    }

    /// <summary>A boolean setting that is stored and reported back: reading gives 0 or 1; setting answers nothing.</summary>
    private static bool Flag(ref bool flag, string name, string? value, string sql, SqlPragmaStatement pragma, out StatementOutcome outcome)
    {
        outcome = StatementOutcome.None;
        if (value is null) outcome = Single(name, SqlValue.Integer(flag ? 1 : 0));
        else flag = Boolean(value, sql, pragma);
        return true;
    }

    /// <summary>A boolean Sharc supports only at its default: reading answers it, setting it again is accepted.</summary>
    private static bool FixedFlag(bool fixedValue, string name, string? value, string sql, SqlPragmaStatement pragma, out StatementOutcome outcome)
    {
        outcome = StatementOutcome.None;
        if (value is null) outcome = Single(name, SqlValue.Integer(fixedValue ? 1 : 0));
        else if (Boolean(value, sql, pragma) != fixedValue) Unsupported.Throw($"PRAGMA {pragma.Name} = {(fixedValue ? "OFF" : "ON")}", sql, pragma.Start);
        return true;
    }

    private static StatementOutcome WalCheckpoint(SharcDatabase db, string? value)
    {
        string[] columns = ["busy", "log", "checkpointed"];
        if (!db.IsWritable || db.JournalMode != SharcJournalMode.Wal)
            return Rows(columns, [[SqlValue.Integer(0), SqlValue.Integer(-1), SqlValue.Integer(-1)]]);
        var mode = value?.ToLowerInvariant() switch
        {
            "full" => SharcCheckpointMode.Full,
            "restart" => SharcCheckpointMode.Restart,
            "truncate" => SharcCheckpointMode.Truncate,
            _ => SharcCheckpointMode.Passive,
        };
        var r = db.Checkpoint(mode);
        return Rows(columns, [[SqlValue.Integer(r.Busy ? 1 : 0), SqlValue.Integer(r.LogFrames), SqlValue.Integer(r.CheckpointedFrames)]]);
    }

    /// <summary>
    /// PRAGMA foreign_key_list(t): one row per column of each foreign key, numbered as SQLite numbers them (the last
    /// declared is 0); nothing for no table or an unknown one.
    /// </summary>
    internal static (string[] Columns, List<SqlValue[]> Rows) ForeignKeyListRows(SharcDatabase db, string? table)
    {
        var rows = new List<SqlValue[]>();
        if (table is not null && db.Schema.FindTable(table) is { } t)
        {
            int count = t.ForeignKeys.Count;
            for (int id = 0; id < count; id++)
            {
                var fk = t.ForeignKeys[count - 1 - id];
                for (int k = 0; k < fk.Columns.Count; k++)
                    rows.Add([
                        SqlValue.Integer(id), SqlValue.Integer(k), SqlValue.Text(fk.ParentTable), SqlValue.Text(t.Columns[fk.Columns[k]].Name),
                        k < fk.ParentColumns.Count ? SqlValue.Text(fk.ParentColumns[k]) : SqlValue.Null,
                        SqlValue.Text(ActionName(fk.OnUpdate)), SqlValue.Text(ActionName(fk.OnDelete)), SqlValue.Text("NONE"),
                    ]);
            }
        }
        return (["id", "seq", "table", "from", "to", "on_update", "on_delete", "match"], rows);
    }

    private static string ActionName(SharcForeignKeyAction action) => action switch
    {
        SharcForeignKeyAction.Restrict => "RESTRICT",
        SharcForeignKeyAction.SetNull => "SET NULL",
        SharcForeignKeyAction.SetDefault => "SET DEFAULT",
        SharcForeignKeyAction.Cascade => "CASCADE",
        _ => "NO ACTION",
    };

    /// <summary>PRAGMA collation_list: the collations registered on the connection, newest first, then SQLite's three.</summary>
    internal static (string[] Columns, List<SqlValue[]> Rows) CollationListRows(SharcDatabase db)
    {
        var names = db.UserFunctions.CollationNames.Reverse()
            .Where(n => !SqlText.EqualsIgnoreCase(n, "RTRIM") && !SqlText.EqualsIgnoreCase(n, "NOCASE") && !SqlText.EqualsIgnoreCase(n, "BINARY"))
            .Concat(["RTRIM", "NOCASE", "BINARY"]).ToList();
        var rows = new List<SqlValue[]>(names.Count);
        for (int i = 0; i < names.Count; i++) rows.Add([SqlValue.Integer(i), SqlValue.Text(names[i])]);
        return (["seq", "name"], rows);
    }
}
