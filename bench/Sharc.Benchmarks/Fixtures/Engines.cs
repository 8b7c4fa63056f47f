using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Fixtures;

/// <summary>Where both engines read the database from.</summary>
public enum StorageKind
{
    /// <summary>Both engines read the same file on disk (through the OS page cache).</summary>
    File,
    /// <summary>
    /// Both engines read the same image in memory: SQLite a <c>file:…?mode=memory&amp;cache=shared</c> database
    /// filled by the backup API from the file, Sharc <see cref="SharcDatabase.OpenMemory"/> over the file's bytes.
    /// </summary>
    Memory,
}

/// <summary>How a SQLite connection is set up.</summary>
public enum SqliteLocking
{
    /// <summary>What a .NET user gets by default: every statement takes and releases the file's shared lock and re-validates its page cache.</summary>
    Default,
    /// <summary>
    /// Tuned for reads: <c>PRAGMA locking_mode=EXCLUSIVE</c> and one read done in setup, so the shared lock (and the
    /// page cache) is held for the whole run. This matches Sharc, which reads one snapshot and never locks.
    /// </summary>
    Exclusive,
}

/// <summary>Opens both engines the same way in every suite (all of it runs in [GlobalSetup], outside measurement).</summary>
public static class Engines
{
    private static int _memoryCounter;

    /// <summary>Opens Sharc over <paramref name="path"/>, from the file or from its bytes in memory.</summary>
    public static SharcDatabase OpenSharc(string path, StorageKind storage)
        => storage == StorageKind.File ? SharcDatabase.Open(path) : SharcDatabase.OpenMemory(File.ReadAllBytes(path));

    /// <summary>
    /// Opens one SQLite connection over <paramref name="path"/> (read-only, no pooling), or over a private in-memory
    /// copy of it. The caller keeps it open for the whole run.
    /// </summary>
    public static SqliteConnection OpenSqlite(string path, StorageKind storage, SqliteLocking locking = SqliteLocking.Default)
    {
        SqliteConnection conn;
        if (storage == StorageKind.File)
        {
            conn = new SqliteConnection(FileConnectionString(path));
            conn.Open();
        }
        else
        {
            // A named shared-cache memory database lives as long as one connection to it is open: this one.
            string name = $"sharc-bench-{Environment.ProcessId}-{Interlocked.Increment(ref _memoryCounter)}";
            conn = new SqliteConnection($"Data Source=file:{name}?mode=memory&cache=shared;Pooling=False");
            conn.Open();
            using var source = new SqliteConnection(FileConnectionString(path));
            source.Open();
            source.BackupDatabase(conn);
        }
        if (locking == SqliteLocking.Exclusive)
        {
            Scalar(conn, "PRAGMA locking_mode=EXCLUSIVE");
            // The first read takes the shared lock; in exclusive locking mode it is never released.
            Scalar(conn, "SELECT count(*) FROM sqlite_schema");
        }
        return conn;
    }

    /// <summary>The connection string of a real (unpooled, read-only) open of the file.</summary>
    public static string FileConnectionString(string path, bool pooling = false)
        => $"Data Source={path};Mode=ReadOnly;Pooling={(pooling ? "True" : "False")}";

    /// <summary>Creates a command, adds its parameters and prepares it once; the benchmarks reuse it with new values.</summary>
    public static SqliteCommand Prepare(SqliteConnection conn, string sql, params (string Name, SqliteType Type)[] parameters)
    {
        var cmd = conn.CreateCommand();
        cmd.CommandText = sql;
        foreach (var (name, type) in parameters) cmd.Parameters.Add(name, type);
        // Bind a placeholder so Prepare sees every parameter; benchmarks overwrite it.
        foreach (SqliteParameter p in cmd.Parameters) p.Value = p.SqliteType == SqliteType.Text ? "" : 0L;
        cmd.Prepare();
        return cmd;
    }

    /// <summary>Runs a one-value query.</summary>
    public static object? Scalar(SqliteConnection conn, string sql)
    {
        using var cmd = conn.CreateCommand();
        cmd.CommandText = sql;
        return cmd.ExecuteScalar();
    }

    /// <summary>
    /// Throws unless SQLite's plan for <paramref name="sql"/> mentions <paramref name="expected"/> (for example
    /// "USING INDEX users_age"), so a comparison never silently measures the wrong plan.
    /// </summary>
    public static void RequirePlan(SqliteConnection conn, string sql, string expected, params (string Name, object Value)[] parameters)
    {
        using var cmd = conn.CreateCommand();
        cmd.CommandText = "EXPLAIN QUERY PLAN " + sql;
        foreach (var (name, value) in parameters) cmd.Parameters.AddWithValue(name, value);
        using var r = cmd.ExecuteReader();
        var details = new List<string>();
        while (r.Read()) details.Add(r.GetString(3));
        if (!details.Any(d => d.Contains(expected, StringComparison.OrdinalIgnoreCase)))
            throw new InvalidOperationException($"SQLite's plan for \"{sql}\" is [{string.Join("; ", details)}], expected it to contain \"{expected}\"");
    }
}
