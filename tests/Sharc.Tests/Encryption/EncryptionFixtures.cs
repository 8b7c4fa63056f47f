using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Encryption;

/// <summary>Shared workloads of the encryption tests: the same schema and rows written by SQLCipher or by Sharc.</summary>
public static class EncryptionFixtures
{
    /// <summary>Few PBKDF2 iterations keep tests fast; one test checks SQLCipher 4's real defaults.</summary>
    public const int FastIterations = 1000;

    public static SharcCipherSettings Fast { get; } = new() { KdfIterations = FastIterations };

    public static string[] FastPragmas => [$"PRAGMA kdf_iter = {FastIterations}"];

    /// <summary>DDL and rows with every storage class, an index, and rows that overflow several pages.</summary>
    public static IEnumerable<string> Workload(int seed, int rows)
    {
        var rng = new Random(seed);
        yield return "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, n INTEGER)";
        yield return "CREATE INDEX t_name ON t(name)";
        yield return "CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID";
        for (int i = 1; i <= rows; i++)
        {
            int len = i % 17 == 0 ? 9000 + rng.Next(6000) : rng.Next(200);
            string blob = Convert.ToHexString(Bytes(rng, len));
            string name = i % 5 == 0 ? "NULL" : $"'name {rng.Next(1000)} {new string('x', rng.Next(40))}'";
            yield return $"INSERT INTO t VALUES({i}, {name}, {rng.NextDouble() * 1000:R}, x'{blob}', {rng.NextInt64(-1L << 40, 1L << 40)})";
            if (i % 3 == 0) yield return $"INSERT INTO kv VALUES('key{i}', {i * 7})";
        }
        yield return "UPDATE t SET n = n + 1 WHERE id % 4 = 0";
        yield return "DELETE FROM t WHERE id % 11 = 0";
    }

    private static byte[] Bytes(Random rng, int n)
    {
        var b = new byte[n];
        rng.NextBytes(b);
        return b;
    }

    public static readonly string[] Queries =
    [
        "SELECT id, name, score, data, n FROM t ORDER BY id",
        "SELECT name, id FROM t WHERE name IS NOT NULL ORDER BY name, id",
        "SELECT k, v FROM kv ORDER BY k",
    ];

    public static List<List<object?[]>> ReadSharc(SharcDatabase db)
    {
        var all = new List<List<object?[]>>();
        foreach (var q in Queries)
        {
            using var r = db.Query(q);
            all.Add(SharcRows.All(r));
        }
        return all;
    }

    public static List<List<object?[]>> ReadSqlCipher(SqlCipher c) => Queries.Select(c.Rows).ToList();

    public static void ShouldMatch(List<List<object?[]>> actual, List<List<object?[]>> expected, string because)
    {
        actual.Count.Should().Be(expected.Count);
        for (int i = 0; i < expected.Count; i++) actual[i].ShouldEqual(expected[i], $"{because}: {Queries[i]}");
    }

    /// <summary>The column names and rows a statement answers in Sharc, to set beside SQLCipher's.</summary>
    public static (string[] Columns, List<object?[]> Rows) Answer(SharcDatabase db, string sql)
    {
        using var r = db.Query(sql);
        var columns = Enumerable.Range(0, r.FieldCount).Select(r.GetName).ToArray();
        return (columns, SharcRows.All(r));
    }

    public static void Apply(SharcDatabase db, IEnumerable<string> statements)
    {
        using var tx = db.BeginTransaction();
        foreach (var s in statements) db.Execute(s);
        tx.Commit();
    }
}
