using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Fixtures;

/// <summary>
/// The Realistic suite's database: the Core users file plus what an application keeps beside it — each user's
/// purchases (<c>purchases(id INTEGER PRIMARY KEY, user_id, item, total, placed)</c>, 0–8 per user, indexed on
/// <c>user_id</c>), a <c>settings(key TEXT PRIMARY KEY, value)</c> table of 200 keys, and <c>user_version</c> 7.
/// Written by real SQLite once and cached like <see cref="UsersData"/>.
/// </summary>
public static class RealisticData
{
    /// <summary>The user_version the file carries (what a migration check compares with).</summary>
    public const int UserVersion = 7;
    /// <summary>The number of settings rows (keys "setting.000" …).</summary>
    public const int Settings = 200;
    private const string GeneratorVersion = "v1";

    /// <summary>The settings key number <paramref name="i"/>.</summary>
    public static string SettingKey(int i) => "setting." + i.ToString("D3", System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The path of the database, building it on first use.</summary>
    public static string Path()
    {
        string path = System.IO.Path.Combine(UsersData.Folder, $"realistic-{UsersData.CoreRows}-{GeneratorVersion}.db");
        return CachedFile.GetOrBuild(path, Build);
    }

    private static void Build(string path)
    {
        File.Copy(UsersData.Path(UsersShape.Core), path, overwrite: true);
        using var c = new SqliteConnection($"Data Source={path};Pooling=False");
        c.Open();
        Engines.Scalar(c, "CREATE TABLE purchases(id INTEGER PRIMARY KEY, user_id INT NOT NULL REFERENCES users(id), item TEXT, total REAL, placed INT)");
        Engines.Scalar(c, "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT)");
        var rng = new Random(UsersData.Seed);
        using (var tx = c.BeginTransaction())
        using (var ins = c.CreateCommand())
        {
            ins.Transaction = tx;
            ins.CommandText = "INSERT INTO purchases(user_id, item, total, placed) VALUES ($u, $i, $t, $p)";
            var u = ins.Parameters.Add("$u", SqliteType.Integer);
            var item = ins.Parameters.Add("$i", SqliteType.Text);
            var total = ins.Parameters.Add("$t", SqliteType.Real);
            var placed = ins.Parameters.Add("$p", SqliteType.Integer);
            // Purchases arrive in time order, users interleaved, as an application writes them.
            for (int n = 0; n < UsersData.CoreRows * 4; n++)
            {
                u.Value = 1 + rng.Next(UsersData.CoreRows);
                item.Value = "item" + rng.Next(1000);
                total.Value = Math.Round(rng.NextDouble() * 500, 2);
                placed.Value = 1_700_000_000L + n * 30L;
                ins.ExecuteNonQuery();
            }
            ins.Parameters.Clear();
            ins.CommandText = "INSERT INTO settings VALUES ($k, $v)";
            var k = ins.Parameters.Add("$k", SqliteType.Text);
            var v = ins.Parameters.Add("$v", SqliteType.Text);
            for (int i = 0; i < Settings; i++)
            {
                k.Value = SettingKey(i);
                v.Value = "value-" + rng.Next();
                ins.ExecuteNonQuery();
            }
            tx.Commit();
        }
        Engines.Scalar(c, "CREATE INDEX purchases_user ON purchases(user_id)");
        Engines.Scalar(c, $"PRAGMA user_version = {UserVersion}");
    }
}
