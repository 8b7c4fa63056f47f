using Microsoft.Data.Sqlite;

namespace Sharc.Benchmarks.Fixtures;

/// <summary>Which flavour of the users database a suite reads.</summary>
public enum UsersShape
{
    /// <summary>The users table plus a few empty tables (so the schema benchmarks have something to read); no indexes.</summary>
    Core,
    /// <summary>The users table plus <c>users_age(age)</c> and <c>users_name(name)</c> indexes.</summary>
    Indexed,
    /// <summary>The users table alone (the scaling suite).</summary>
    Plain,
}

/// <summary>
/// The benchmark databases, written by real SQLite (Microsoft.Data.Sqlite) once and cached in
/// <c>{temp}/sharc-bench/</c> under a name keyed by shape, row count and generator version, so repeated runs (and
/// BenchmarkDotNet's one-process-per-benchmark runs) never rebuild them. Building happens inside
/// <c>[GlobalSetup]</c>, never in a measured region.
/// </summary>
/// <remarks>
/// The 9-column <c>users</c> table: <c>id INTEGER PRIMARY KEY</c> 1..N, <c>name</c> "user{id}" (unique),
/// <c>email</c> NULL for every tenth row, <c>age</c> 18–77, <c>score</c> a double in [0,100), <c>active</c> 0/1,
/// <c>city</c> one of six, <c>bio</c> 10–199 ASCII characters, <c>created</c> a Unix time. Values come from
/// <see cref="Seed"/>, so every build of a given row count is identical.
/// </remarks>
public static class UsersData
{
    /// <summary>The row count of the Core and Index suites' table.</summary>
    public const int CoreRows = 5000;
    /// <summary>The generator's random seed.</summary>
    public const int Seed = 42;
    /// <summary>Bump when the generator changes so stale cached files are not reused.</summary>
    private const string GeneratorVersion = "v1";

    /// <summary>The youngest and oldest ages the generator produces.</summary>
    public const int MinAge = 18, MaxAge = 77;

    /// <summary>The columns of users, in declaration order.</summary>
    public static readonly string[] Columns = ["id", "name", "email", "age", "score", "active", "city", "bio", "created"];

    private static readonly string[] Cities = ["Oslo", "Lima", "Pune", "Kyiv", "Rome", "Cairo"];

    /// <summary>The variable naming the cache folder; <see cref="Program"/> points it into the artifacts folder.</summary>
    public const string FolderVariable = "SHARC_BENCH_DATA";

    /// <summary>
    /// The cache folder: <c>SHARC_BENCH_DATA</c> when set (BenchmarkDotNet's child processes inherit it from the host,
    /// which sets it to <c>BenchmarkDotNet.Artifacts/data</c>), else <c>{temp}/sharc-bench</c>.
    /// </summary>
    public static string Folder => Environment.GetEnvironmentVariable(FolderVariable) is { Length: > 0 } folder
        ? folder
        : System.IO.Path.Combine(System.IO.Path.GetTempPath(), "sharc-bench");

    /// <summary>The path of the database with this shape and row count, building it on first use.</summary>
    public static string Path(UsersShape shape, int rows = CoreRows)
    {
        if (rows < 1) throw new ArgumentOutOfRangeException(nameof(rows));
        string path = System.IO.Path.Combine(Folder, $"users-{shape.ToString().ToLowerInvariant()}-{rows}-{GeneratorVersion}.db");
        return CachedFile.GetOrBuild(path, tmp => Build(tmp, shape, rows));
    }

    private static void Build(string path, UsersShape shape, int rows)
    {
        if (File.Exists(path)) File.Delete(path);
        using var c = new SqliteConnection($"Data Source={path};Pooling=False");
        c.Open();
        Exec(c, "PRAGMA journal_mode=DELETE");
        if (shape == UsersShape.Core)
        {
            // A handful of realistic, empty tables so "read the schema" reads more than one CREATE statement.
            Exec(c, "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE, created INT DEFAULT 0)");
            Exec(c, "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INT NOT NULL REFERENCES customers(id), total REAL CHECK (total >= 0), status TEXT DEFAULT 'new', placed INT)");
            Exec(c, "CREATE TABLE products(sku TEXT PRIMARY KEY, title TEXT NOT NULL, price REAL, stock INT DEFAULT 0) WITHOUT ROWID");
            Exec(c, "CREATE TABLE order_items(order_id INT NOT NULL, sku TEXT NOT NULL, qty INT DEFAULT 1, PRIMARY KEY (order_id, sku))");
            Exec(c, "CREATE TABLE events(id INTEGER PRIMARY KEY, kind TEXT COLLATE NOCASE, payload BLOB, at INT)");
        }
        Exec(c, "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, age INT, score REAL, active INT, city TEXT, bio TEXT, created INT)");

        var rng = new Random(Seed);
        using (var tx = c.BeginTransaction())
        using (var ins = c.CreateCommand())
        {
            ins.Transaction = tx;
            ins.CommandText = "INSERT INTO users VALUES($id,$name,$email,$age,$score,$active,$city,$bio,$created)";
            var p = new SqliteParameter[Columns.Length];
            for (int i = 0; i < p.Length; i++) p[i] = ins.Parameters.Add(new SqliteParameter("$" + Columns[i], null));
            ins.Prepare();
            for (int i = 1; i <= rows; i++)
            {
                p[0].Value = i;
                p[1].Value = Name(i);
                p[2].Value = i % 10 == 0 ? DBNull.Value : $"user{i}@example.com";
                p[3].Value = MinAge + rng.Next(MaxAge - MinAge + 1);
                p[4].Value = rng.NextDouble() * 100;
                p[5].Value = rng.Next(2);
                p[6].Value = Cities[rng.Next(Cities.Length)];
                p[7].Value = new string('b', rng.Next(10, 200));
                p[8].Value = 1_700_000_000L + i * 60L;
                ins.ExecuteNonQuery();
            }
            tx.Commit();
        }
        if (shape == UsersShape.Indexed)
        {
            Exec(c, "CREATE INDEX users_age ON users(age)");
            Exec(c, "CREATE INDEX users_name ON users(name)");
        }
    }

    /// <summary>The name stored for row <paramref name="id"/>.</summary>
    public static string Name(long id) => "user" + id.ToString(System.Globalization.CultureInfo.InvariantCulture);

    private static void Exec(SqliteConnection c, string sql)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }
}
