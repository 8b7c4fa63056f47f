using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions;
using Sharc.Sql.Values;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// The values of the connection PRAGMAs that SQLite keeps per connection and Sharc accepts and reports without
/// acting on them (its page cache is sized by <see cref="SharcOpenOptions.CachePages"/>, it always syncs fully,
/// keeps temporary data in memory and plans without automatic indexes). Plain fields: a PRAGMA sets one value.
/// </summary>
internal sealed partial class ConnectionSettings
{
    public long CacheSize = -2000;

    /// <summary>SQLite's safety level minus one: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA (and up to 6, as SQLite keeps).</summary>
    public int Synchronous = 2;

    public int TempStore;

    public bool AutomaticIndex = true;

    public bool WritableSchema;

    /// <summary>PRAGMA recursive_triggers: a trigger may fire while it is already running (to SQLite's depth limit).</summary>
    public bool RecursiveTriggers;

    public TimeSpan ReadOnlyBusyTimeout = TimeSpan.FromSeconds(5);
}

/// <summary>
/// The connection-setting pragmas (cache_size, synchronous, busy_timeout, temp_store, automatic_index,
/// writable_schema), the informational ones (data_version, compile_options, function_list, table_list, optimize) and
/// foreign_key_check. Each listing's rows come from a method of its own, which the pragma_* table-valued functions
/// can call.
/// </summary>
internal static partial class Pragmas
{
    /// <summary>Runs one of this file's pragmas; false when <paramref name="name"/> is not one of them.</summary>
    private static bool TryRunSetting(SharcDatabase db, string name, string? value, string sql, SqlPragmaStatement pragma, out StatementOutcome outcome)
    {
        var s = db.Settings;
        outcome = StatementOutcome.None;
        switch (name)
        {
            case "cache_size":
                if (value is null) outcome = Single(name, SqlValue.Integer(s.CacheSize));
                else s.CacheSize = (int)ParseInteger(value);
                return true;
            case "synchronous":
                if (value is null) outcome = Single(name, SqlValue.Integer(s.Synchronous));
                else s.Synchronous = SynchronousLevel(value);
                return true;
            case "temp_store":
                if (value is null) outcome = Single(name, SqlValue.Integer(s.TempStore));
                else s.TempStore = TempStore(value);
                return true;
            case "automatic_index":
                if (value is null) outcome = Single(name, SqlValue.Integer(s.AutomaticIndex ? 1 : 0));
                else s.AutomaticIndex = Boolean(value, sql, pragma);
                return true;
            case "writable_schema":
                if (value is null) outcome = Single(name, SqlValue.Integer(s.WritableSchema ? 1 : 0));
                else s.WritableSchema = !SqlText.EqualsIgnoreCase(value, "reset") && Boolean(value, sql, pragma);
                return true;
            case "busy_timeout":
                if (value is not null) db.BusyTimeoutSetting = TimeSpan.FromMilliseconds(Math.Max(0, (int)ParseInteger(value)));
                outcome = Single("timeout", SqlValue.Integer((long)db.BusyTimeoutSetting.TotalMilliseconds));
                return true;
            case "data_version":
                outcome = Single(name, SqlValue.Integer(DataVersion(db)));
                return true;
            case "optimize":
                // SQLite runs ANALYZE where its statistics are stale; Sharc's planner reads none, so there is nothing to do.
                outcome = Rows(["optimize"], []);
                return true;
            case "compile_options":
                outcome = Rows(CompileOptionRows());
                return true;
            case "function_list":
                outcome = Rows(FunctionListRows(db.UserFunctions.List().Select(f => new[]
                {
                    SqlValue.Text(f.Name), SqlValue.Integer(0), SqlValue.Text(f.Type), SqlValue.Text("utf8"),
                    SqlValue.Integer(f.ArgCount), SqlValue.Integer(f.Deterministic ? 0x800 : 0),
                })));
                return true;
            case "table_list":
                outcome = Rows(TableListRows(db, value, allDatabases: pragma.Schema is null));
                return true;
            case "foreign_key_check":
                outcome = Rows(ForeignKeyCheckRows(db, value, sql, pragma));
                return true;
        }
        return false;
    }

    /// <summary>
    /// SQLite's getSafetyLevel plus its PRAGMA synchronous arithmetic: a number as written, else one of on/yes/true
    /// (1), no/off/false (0), extra (3), full (2), else NORMAL (1); stored as (level + 1) mod 8, 0 becoming 1.
    /// </summary>
    private static int SynchronousLevel(string value)
    {
        int level;
        if (value.Length > 0 && char.IsAsciiDigit(value[0])) level = (int)ParseInteger(value);
        else
        {
            level = value.ToLowerInvariant() switch
            {
                "on" or "yes" or "true" => 1,
                "no" or "off" or "false" => 0,
                "extra" => 3,
                "full" => 2,
                _ => 1,
            };
        }
        int stored = (level + 1) & 7;
        return (stored == 0 ? 1 : stored) - 1;
    }

    /// <summary>SQLite's getTempStore: 0–2 as a digit, "file" 1, "memory" 2, anything else 0 (default).</summary>
    private static int TempStore(string value)
    {
        if (value.Length > 0 && char.IsAsciiDigit(value[0]))
        {
            long n = ParseInteger(value);
            return n is >= 0 and <= 2 ? (int)n : 0;
        }
        if (SqlText.EqualsIgnoreCase(value, "file")) return 1;
        if (SqlText.EqualsIgnoreCase(value, "memory")) return 2;
        return 0;
    }

    /// <summary>PRAGMA data_version: 1, plus one for each commit of another connection this one has noticed.</summary>
    private static long DataVersion(SharcDatabase db) => 1 + db.UnderWriteLock(static d => d.ExternalCommits);

    /// <summary>PRAGMA compile_options: the options <see cref="SystemFunctions.CompileOptions"/> lists.</summary>
    internal static (string[] Columns, List<SqlValue[]> Rows) CompileOptionRows()
        => (["compile_options"], SystemFunctions.CompileOptions.Select(o => new[] { SqlValue.Text(o) }).ToList());

    /// <summary>
    /// PRAGMA function_list: one row per built-in function and argument count (-1 for variadic), with SQLite's
    /// columns; type 's' scalar, 'a' aggregate, 'w' window; flags carry SQLITE_DETERMINISTIC (0x800) where it holds.
    /// </summary>
    internal static (string[] Columns, List<SqlValue[]> Rows) FunctionListRows(IEnumerable<SqlValue[]>? extra = null)
    {
        var rows = new List<SqlValue[]>();
        // SQLite's flags column: SQLITE_INNOCUOUS (0x200000) on every built-in, SQLITE_DETERMINISTIC (0x800) where it holds.
        void Add(string name, string type, int narg, bool deterministic)
            => rows.Add([SqlValue.Text(name), SqlValue.Integer(1), SqlValue.Text(type), SqlValue.Text("utf8"), SqlValue.Integer(narg), SqlValue.Integer(deterministic ? 0x200800 : 0x200000)]);
        void AddRange(string name, string type, int min, int max, bool deterministic)
        {
            if (max < 0) Add(name, type, -1, deterministic);
            else for (int n = min; n <= max; n++) Add(name, type, n, deterministic);
        }
        foreach (var f in ScalarFunctions.All) AddRange(f.Name, "s", f.MinArgs, f.MaxArgs, f.IsDeterministic);
        // The functions behind the CURRENT_DATE, CURRENT_TIME and CURRENT_TIMESTAMP keywords.
        foreach (var name in (string[])["current_date", "current_time", "current_timestamp"]) Add(name, "s", 0, false);
        // Built-in aggregates are all window functions too: SQLite lists them as 'w'.
        foreach (var (name, min, max) in Functions.Aggregates.AggregateFunctions.Signatures()) AddRange(name, "w", min, max, false);
        foreach (var (name, (min, max)) in Intent.IntentCompiler.WindowOnly) AddRange(name, "w", min, max, false);
        if (extra is not null) rows.AddRange(extra);
        return (["name", "builtin", "type", "enc", "narg", "flags"], rows);
    }

    /// <summary>
    /// PRAGMA table_list [(name)]: every table and view of a database, then its schema table (sqlite_temp_schema in
    /// temp), with column count, WITHOUT ROWID and STRICT flags, as SQLite lists them; unqualified
    /// (<paramref name="allDatabases"/>), main's, then temp's, then each attached database's.
    /// </summary>
    internal static (string[] Columns, List<SqlValue[]> Rows) TableListRows(SharcDatabase db, string? only, bool allDatabases = false)
    {
        var rows = new List<SqlValue[]>();
        TableListRows(db, only, rows);
        if (allDatabases && ReferenceEquals(db, db.Connection))
            foreach (var other in db.TempViewSet?.Databases ?? []) TableListRows(other.Database, only, rows);
        return (["schema", "name", "type", "ncol", "wr", "strict"], rows);
    }

    private static void TableListRows(SharcDatabase db, string? only, List<SqlValue[]> rows)
    {
        string schema = db.SchemaName;
        void Add(string name, string type, int ncol, bool withoutRowId, bool strict)
        {
            if (only is not null && !SqlNameComparer.Instance.Equals(only, name)) return;
            rows.Add([SqlValue.Text(schema), SqlValue.Text(name), SqlValue.Text(type), SqlValue.Integer(ncol), SqlValue.Integer(withoutRowId ? 1 : 0), SqlValue.Integer(strict ? 1 : 0)]);
        }
        foreach (var t in db.Schema.Tables)
        {
            if (SqlNameComparer.Instance.Equals(t.Name, "sqlite_schema") || SqlNameComparer.Instance.Equals(t.Name, "sqlite_master")) continue;
            Add(t.Name, "table", t.Columns.Count(c => !c.IsHidden), t.IsWithoutRowId, t.IsStrict);
        }
        foreach (var v in db.Schema.Views)
            Add(v.Name, "view", ViewColumnCount(db, v.Name), false, false);
        Add(SqlNameComparer.Instance.Equals(schema, "temp") ? "sqlite_temp_schema" : "sqlite_schema", "table", 5, false, false);
    }

    private static int ViewColumnCount(SharcDatabase db, string view)
    {
        try
        {
            return Planning.QueryPlan.Create(db.Schema, "SELECT * FROM \"" + view.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"", db.TempViewSet).Columns.Length;
        }
        catch (SharcException)
        {
            return 0; // a view whose body no longer compiles: SQLite lists it with the columns it last knew
        }
    }

    /// <summary>
    /// PRAGMA foreign_key_check [(table)]: each child row whose non-NULL key has no parent row, in table then rowid
    /// then key order (fkid numbers a table's keys last-declared first, as foreign_key_list does). A key whose
    /// parent table is missing fails for every row with a non-NULL key; a key that matches no PRIMARY KEY or UNIQUE
    /// index of its parent is SQLite's "foreign key mismatch" error.
    /// </summary>
    internal static (string[] Columns, List<SqlValue[]> Rows) ForeignKeyCheckRows(SharcDatabase db, string? only, string sql, SqlPragmaStatement pragma)
    {
        var tables = new List<SharcTable>();
        if (only is not null)
            tables.Add(db.Schema.FindTable(only) ?? throw new SharcSqlException($"no such table: {only}", sql, pragma.Start));
        else tables.AddRange(db.Schema.Tables.Where(t => t.ForeignKeys.Count > 0));
        var rows = new List<SqlValue[]>();
        foreach (var child in tables)
        {
            int count = child.ForeignKeys.Count;
            var found = new List<(long Order, int FkId, SqlValue RowId, string Parent)>();
            for (int i = 0; i < count; i++)
            {
                var fk = child.ForeignKeys[i];
                int fkid = count - 1 - i;
                string notNull = string.Join(" AND ", fk.Columns.Select(c => $"c.{QuoteName(child.Columns[c].Name)} IS NOT NULL"));
                string query;
                if (db.Schema.FindTable(fk.ParentTable) is null)
                    query = $"SELECT {RowIdOf(child)} FROM {QuoteName(child.Name)} AS c WHERE {notNull}";
                else
                {
                    string match;
                    try
                    {
                        using var plan = ForeignKeyPlan.Resolve(db, child, fk);
                        match = string.Join(" AND ", fk.Columns.Select((c, k) =>
                            $"p.{QuoteName(plan.Parent.Columns[plan.ParentColumns[k]].Name)} = c.{QuoteName(child.Columns[c].Name)}"));
                    }
                    catch (SharcException e) when (e is not SharcSqlException)
                    {
                        throw new SharcSqlException(e.Message, sql, pragma.Start);
                    }
                    query = $"SELECT {RowIdOf(child)} FROM {QuoteName(child.Name)} AS c WHERE {notNull} AND NOT EXISTS (SELECT 1 FROM {QuoteName(fk.ParentTable)} AS p WHERE {match})";
                }
                long order = 0;
                using var r = db.Query(query);
                while (r.Read())
                {
                    var rowId = r.GetColumnType(0) == SharcColumnType.Null ? SqlValue.Null : SqlValue.Integer(r.GetInt64(0));
                    found.Add((child.IsWithoutRowId ? order++ : r.GetInt64(0), fkid, rowId, fk.ParentTable));
                }
            }
            foreach (var f in found.OrderBy(f => f.Order).ThenBy(f => f.FkId))
                rows.Add([SqlValue.Text(child.Name), f.RowId, SqlValue.Text(f.Parent), SqlValue.Integer(f.FkId)]);
        }
        return (["table", "rowid", "parent", "fkid"], rows);
    }

    // A WITHOUT ROWID table has no rowid: SQLite reports NULL there.
    private static string RowIdOf(SharcTable t) => t.IsWithoutRowId ? "NULL" : "c.rowid";

    private static string QuoteName(string name) => "\"" + name.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";

    private static StatementOutcome Rows((string[] Columns, List<SqlValue[]> Rows) listing) => Rows(listing.Columns, listing.Rows);
}
