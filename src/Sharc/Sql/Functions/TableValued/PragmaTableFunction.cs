using Sharc.Sql.Ast;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.TableValued;

/// <summary>
/// pragma_NAME(arg, schema): the rows of <c>PRAGMA schema.NAME(arg)</c>, for the PRAGMAs SQLite offers as
/// table-valued functions (those that return rows without side effects). The columns are SQLite's, fixed per
/// PRAGMA so a query can be compiled before it runs; the rows come from the PRAGMA itself, so the function answers
/// whatever the statement answers.
/// </summary>
internal sealed class PragmaTableFunction : TableFunction
{
    // SQLite's result columns and hidden argument columns (arg, schema) per PRAGMA.
    private static readonly Dictionary<string, (string[] Columns, string[] Hidden)> Known = new(StringComparer.OrdinalIgnoreCase)
    {
        ["application_id"] = (["application_id"], []),
        ["auto_vacuum"] = (["auto_vacuum"], ["schema"]),
        ["busy_timeout"] = (["timeout"], []),
        ["cache_size"] = (["cache_size"], ["schema"]),
        ["collation_list"] = (["seq", "name"], []),
        ["compile_options"] = (["compile_options"], []),
        ["data_version"] = (["data_version"], []),
        ["database_list"] = (["seq", "name", "file"], []),
        ["encoding"] = (["encoding"], []),
        ["foreign_key_check"] = (["table", "rowid", "parent", "fkid"], ["arg", "schema"]),
        ["foreign_key_list"] = (["id", "seq", "table", "from", "to", "on_update", "on_delete", "match"], ["arg", "schema"]),
        ["foreign_keys"] = (["foreign_keys"], []),
        ["freelist_count"] = (["freelist_count"], []),
        ["function_list"] = (["name", "builtin", "type", "enc", "narg", "flags"], []),
        ["index_info"] = (["seqno", "cid", "name"], ["arg", "schema"]),
        ["index_list"] = (["seq", "name", "unique", "origin", "partial"], ["arg", "schema"]),
        ["index_xinfo"] = (["seqno", "cid", "name", "desc", "coll", "key"], ["arg", "schema"]),
        ["integrity_check"] = (["integrity_check"], ["arg", "schema"]),
        ["journal_mode"] = (["journal_mode"], ["schema"]),
        ["module_list"] = (["name"], []),
        ["page_count"] = (["page_count"], ["schema"]),
        ["page_size"] = (["page_size"], ["schema"]),
        ["pragma_list"] = (["name"], []),
        ["quick_check"] = (["quick_check"], ["arg", "schema"]),
        ["recursive_triggers"] = (["recursive_triggers"], []),
        ["schema_version"] = (["schema_version"], []),
        ["synchronous"] = (["synchronous"], ["schema"]),
        ["table_info"] = (["cid", "name", "type", "notnull", "dflt_value", "pk"], ["arg", "schema"]),
        ["table_list"] = (["schema", "name", "type", "ncol", "wr", "strict"], ["arg"]),
        ["table_xinfo"] = (["cid", "name", "type", "notnull", "dflt_value", "pk", "hidden"], ["arg", "schema"]),
        ["temp_store"] = (["temp_store"], []),
        ["user_version"] = (["user_version"], []),
    };

    private readonly string _pragma;
    private readonly string[] _columns;
    private readonly string[] _hidden;

    private PragmaTableFunction(string pragma, string[] columns, string[] hidden)
    {
        _pragma = pragma;
        _columns = columns;
        _hidden = hidden;
    }

    /// <summary>The function for "pragma_NAME", or null when NAME is not a PRAGMA with a table-valued form.</summary>
    public static PragmaTableFunction? TryCreate(string name)
    {
        if (!name.StartsWith("pragma_", StringComparison.OrdinalIgnoreCase)) return null;
        string pragma = name["pragma_".Length..].ToLowerInvariant();
        return Known.TryGetValue(pragma, out var shape) ? new PragmaTableFunction(pragma, shape.Columns, shape.Hidden) : null;
    }

    /// <summary>True when <paramref name="pragma"/>'s argument names what to read (a table, an index, a limit), not a value to set.</summary>
    public static bool ArgumentIsRead(string pragma) => Known.TryGetValue(pragma, out var shape) && shape.Hidden.Contains("arg");

    /// <summary>The PRAGMA names that have a pragma_ function.</summary>
    public static IEnumerable<string> Pragmas => Known.Keys;

    /// <inheritdoc/>
    public override string Name => "pragma_" + _pragma;

    /// <inheritdoc/>
    public override IReadOnlyList<string> Columns => _columns;

    /// <inheritdoc/>
    public override IReadOnlyList<string> HiddenColumns => _hidden;

    /// <inheritdoc/>
    public override void Rows(ReadOnlySpan<SqlValue> args, SharcDatabase? db, List<SqlValue[]> into)
    {
        if (db is null) return;
        string? arg = null, schema = null;
        for (int i = 0; i < args.Length; i++)
        {
            if (_hidden[i] == "arg") arg = args[i].AsString();
            else schema = args[i].AsString();
        }
        // A PRAGMA that takes an argument answers nothing without one (as SQLite's pragma_table_info(NULL) does).
        if (arg is null && _hidden.Length > 0 && _hidden[0] == "arg" && _pragma is not ("integrity_check" or "quick_check" or "table_list" or "foreign_key_check")) return;
        if (schema is not null && !string.Equals(schema, "main", StringComparison.OrdinalIgnoreCase) && db.Connection.TempViewSet?.FindDatabase(schema) is null)
            SqlErrors.Throw($"unknown database '{schema}'");
        string sql = $"PRAGMA {_pragma}";
        var statement = new SqlPragmaStatement(schema, _pragma, arg, Parenthesized: arg is not null);
        // As PRAGMA itself: on the database the schema names, or the one holding the named table (temp first).
        var outcome = Writes.Pragmas.Run(Writes.DatabaseRouting.Target(db, statement), sql, statement);
        if (outcome.Rows is not { } rows) return;
        try
        {
            int width = _columns.Length + _hidden.Length;
            while (rows.MoveNext())
            {
                var row = new SqlValue[width];
                var current = rows.Current;
                for (int c = 0; c < _columns.Length && c < current.Length; c++) row[c] = current[c].ToOwned();
                for (int i = 0; i < args.Length; i++) row[_columns.Length + i] = args[i].ToOwned();
                into.Add(row);
            }
        }
        finally
        {
            rows.Dispose();
        }
    }
}
