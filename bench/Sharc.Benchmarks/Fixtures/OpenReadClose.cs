using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Fixtures;

/// <summary>
/// "Open the file, read one row by key, close it": what a short-lived command or request does. Shared by the Core
/// suite's OpenReadClose rows and the Realistic suite, so both measure exactly the same work.
/// </summary>
public static class OpenReadClose
{
    /// <summary>The SQL both engines answer: one users row by rowid.</summary>
    public const string Sql = "SELECT name, age FROM users WHERE id = $id";

    /// <summary>SQLite: a connection (pooled or not, per the connection string), one command, one row, closed again.</summary>
    public static long Sqlite(string connectionString, long id)
    {
        using var conn = new SqliteConnection(connectionString);
        conn.Open();
        // A command cannot outlive its connection, so it is created per open (unavoidable here).
        using var cmd = conn.CreateCommand();
        cmd.CommandText = Sql;
        cmd.Parameters.AddWithValue("$id", id);
        using var r = cmd.ExecuteReader();
        return r.Read() ? Mix.Of(r.GetString(0)) + r.GetInt64(1) : 0;
    }

    /// <summary>Sharc: open, a reader seeking the rowid, closed again.</summary>
    public static long Sharc(string path, long id)
    {
        using var db = SharcDatabase.Open(path);
        using var r = db.CreateReader("users", "name", "age");
        return r.Seek(id) ? Mix.Of(r.GetString(0)) + r.GetInt64(1) : 0;
    }
}
