using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// The functions that describe the engine: sqlite_version(), sqlite_source_id(), sqlite_compileoption_used/get(),
/// sqlite_log(), and load_extension(), which Sharc refuses. Sharc answers as the SQLite release whose behaviour it
/// implements (3.53.3), so applications that branch on the version take the branch that matches what they get.
/// </summary>
internal static class SystemFunctions
{
    /// <summary>The SQLite release Sharc's SQL follows and reports as its version.</summary>
    public const string SqliteVersion = "3.53.3";

    /// <summary>That release's source id, as sqlite_source_id() returns it there.</summary>
    public const string SqliteSourceId = "2026-06-26 20:14:12 d4c0e51e4aeb96955b99185ab9cde75c339e2c29c3f3f12428d364a10d782c62";

    /// <summary>
    /// The compile-time options in SQLite's spelling whose behaviour Sharc has, sorted as SQLite lists them:
    /// only settings that hold for Sharc (its defaults, limits and threading), not the C build flags of any SQLite.
    /// </summary>
    public static readonly string[] CompileOptions =
    [
        "DEFAULT_CACHE_SIZE=-2000",
        "DEFAULT_FILE_FORMAT=4",
        "DEFAULT_PAGE_SIZE=4096",
        "DEFAULT_SYNCHRONOUS=2",
        "DEFAULT_WAL_AUTOCHECKPOINT=1000",
        "DEFAULT_WAL_SYNCHRONOUS=2",
        "ENABLE_MATH_FUNCTIONS",
        "MAX_LENGTH=1000000000",
        "MAX_LIKE_PATTERN_LENGTH=50000",
        "MAX_PAGE_SIZE=65536",
        "THREADSAFE=1",
    ];

    /// <summary>
    /// The functions, none deterministic (SQLite registers them without SQLITE_DETERMINISTIC: they describe the build,
    /// not their arguments).
    /// </summary>
    public static IEnumerable<ScalarFunction> All()
    {
        yield return new ScalarFunction("sqlite_version", 0, 0, static (_, _) => SqlValue.Text(SqliteVersion), deterministic: false);
        yield return new ScalarFunction("sqlite_source_id", 0, 0, static (_, _) => SqlValue.Text(SqliteSourceId), deterministic: false);
        yield return new ScalarFunction("sqlite_compileoption_used", 1, 1, CompileOptionUsed, deterministic: false);
        yield return new ScalarFunction("sqlite_compileoption_get", 1, 1, CompileOptionGet, deterministic: false);
        // SQLite writes to its error log, which Sharc does not keep: the call is accepted and returns NULL, as there.
        yield return new ScalarFunction("sqlite_log", 2, 2, static (_, _) => SqlValue.Null, deterministic: false);
        yield return new ScalarFunction("load_extension", 1, 2, LoadExtension, deterministic: false);
    }

    /// <summary>
    /// 1 when an option of that name is listed: an optional "SQLITE_" prefix is dropped, and a name matches an
    /// option that starts with it where the next character cannot continue a name (so THREADSAFE matches
    /// THREADSAFE=1), as sqlite3_compileoption_used() matches. NULL for a NULL argument.
    /// </summary>
    private static SqlValue CompileOptionUsed(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull) return SqlValue.Null;
        string name = a[0].ToTextValue().AsString() ?? "";
        if (name.StartsWith("SQLITE_", StringComparison.OrdinalIgnoreCase)) name = name[7..];
        foreach (var option in CompileOptions)
        {
            if (option.Length >= name.Length && option.AsSpan(0, name.Length).Equals(name, StringComparison.OrdinalIgnoreCase)
                && (option.Length == name.Length || !IsIdChar(option[name.Length])))
                return SqlValue.Integer(1);
        }
        return SqlValue.Integer(0);
    }

    private static bool IsIdChar(char c) => char.IsAsciiLetterOrDigit(c) || c == '_' || c > 0x7f;

    /// <summary>The option at index N (as sqlite3_value_int reads the argument), or NULL past the end.</summary>
    private static SqlValue CompileOptionGet(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        long n = (int)a[0].ToInt64();
        return n >= 0 && n < CompileOptions.Length ? SqlValue.Text(CompileOptions[n]) : SqlValue.Null;
    }

    private static SqlValue LoadExtension(ReadOnlySpan<SqlValue> a, FunctionContext _)
        => SqlErrors.Throw<SqlValue>("load_extension() is not supported: Sharc is managed code and loads no native extensions; register .NET functions with SharcDatabase.CreateFunction");
}
