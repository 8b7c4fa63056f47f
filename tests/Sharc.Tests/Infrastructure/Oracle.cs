using Microsoft.Data.Sqlite;

namespace Sharc.Tests.Infrastructure;

/// <summary>Real SQLite (Microsoft.Data.Sqlite): builds fixtures and answers queries Sharc's results are compared with.</summary>
public static class Oracle
{
    public static SqliteConnection Open(string path, bool readOnly = false)
    {
        var cs = new SqliteConnectionStringBuilder
        {
            DataSource = path,
            Pooling = false,
            Mode = readOnly ? SqliteOpenMode.ReadOnly : SqliteOpenMode.ReadWriteCreate,
        };
        var c = new SqliteConnection(cs.ToString());
        c.Open();
        return c;
    }

    public static void Exec(SqliteConnection c, string sql, params (string, object?)[] ps)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        foreach (var (n, v) in ps) cmd.Parameters.AddWithValue(n, v ?? DBNull.Value);
        cmd.ExecuteNonQuery();
    }

    public static void Exec(string path, params string[] statements)
    {
        using var c = Open(path);
        foreach (var s in statements) Exec(c, s);
    }

    public static object? Scalar(SqliteConnection c, string sql)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        var v = cmd.ExecuteScalar();
        return v is DBNull ? null : v;
    }

    /// <summary>Every row of a query, values as long/double/string/byte[]/null.</summary>
    public static List<object?[]> Rows(SqliteConnection c, string sql)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        using var r = cmd.ExecuteReader();
        var rows = new List<object?[]>();
        while (r.Read())
        {
            var row = new object?[r.FieldCount];
            for (int i = 0; i < row.Length; i++) row[i] = r.IsDBNull(i) ? null : r.GetValue(i);
            rows.Add(row);
        }
        return rows;
    }

    public static List<object?[]> Rows(string path, string sql)
    {
        using var c = Open(path, readOnly: true);
        return Rows(c, sql);
    }

    public static string IntegrityCheck(string path)
    {
        using var c = Open(path, readOnly: true);
        return string.Join("\n", Rows(c, "PRAGMA integrity_check").Select(r => r[0]));
    }
}
