using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// The shared benchmark fixture: a 9-column <c>users</c> table built by SQLite once per process, outside any
/// measured region. Both engines read this same file.
/// </summary>
public static class UsersDatabase
{
    public const int Rows = 5000;
    private static readonly object Gate = new();
    private static string? _path;

    public static string Path
    {
        get
        {
            lock (Gate)
            {
                return _path ??= Build();
            }
        }
    }

    private static string Build()
    {
        string path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"sharc-bench-users-{Environment.ProcessId}.db");
        if (File.Exists(path)) File.Delete(path);
        using var c = new SqliteConnection($"Data Source={path};Pooling=False");
        c.Open();
        using (var cmd = c.CreateCommand())
        {
            cmd.CommandText = "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, age INT, score REAL, active INT, city TEXT, bio TEXT, created INT)";
            cmd.ExecuteNonQuery();
        }
        var rng = new Random(42);
        using (var tx = c.BeginTransaction())
        using (var ins = c.CreateCommand())
        {
            ins.CommandText = "INSERT INTO users VALUES($id,$name,$email,$age,$score,$active,$city,$bio,$created)";
            string[] names = ["id", "name", "email", "age", "score", "active", "city", "bio", "created"];
            foreach (var n in names) ins.Parameters.Add(new SqliteParameter("$" + n, null));
            ins.Prepare();
            string[] cities = ["Oslo", "Lima", "Pune", "Kyiv", "Rome", "Cairo"];
            for (int i = 1; i <= Rows; i++)
            {
                ins.Parameters["$id"].Value = i;
                ins.Parameters["$name"].Value = "user" + i;
                ins.Parameters["$email"].Value = i % 10 == 0 ? DBNull.Value : $"user{i}@example.com";
                ins.Parameters["$age"].Value = 18 + rng.Next(60);
                ins.Parameters["$score"].Value = rng.NextDouble() * 100;
                ins.Parameters["$active"].Value = rng.Next(2);
                ins.Parameters["$city"].Value = cities[rng.Next(cities.Length)];
                ins.Parameters["$bio"].Value = new string('b', rng.Next(10, 200));
                ins.Parameters["$created"].Value = 1_700_000_000L + i * 60;
                ins.ExecuteNonQuery();
            }
            tx.Commit();
        }
        return path;
    }
}
