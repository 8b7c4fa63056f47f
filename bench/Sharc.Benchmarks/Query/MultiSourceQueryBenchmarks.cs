using BenchmarkDotNet.Attributes;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Query;

/// <summary>
/// Statements over more than one source — joins, compound selects and CTEs — on the 5,000-row users file (times are
/// per statement). One case per <see cref="Case"/> value; in each, SQLite's prepared command is the baseline and
/// Sharc runs the same SQL through <see cref="SharcDatabase.Query"/> (plan cached by text, new execution per call)
/// and through a <see cref="PreparedQuery"/> kept for the run. Every row and column is read with typed getters on
/// both sides, and setup checks that all three return the same checksum.
/// </summary>
/// <remarks>
/// The joins are self-joins of users: by rowid (SQLite and Sharc both seek the inner table per outer row), over the
/// first 1,000 rows and over all 5,000; and on the unindexed <c>name</c> (SQLite builds an automatic index per
/// statement, Sharc a hash table per execution).
/// </remarks>
[MemoryDiagnoser]
[CategoriesColumn]
public class MultiSourceQueryBenchmarks
{
    /// <summary>The statements, with the storage class read from each result column (i, r or t).</summary>
    private static readonly Dictionary<string, (string Sql, string Kinds)> Cases = new()
    {
        ["Join1K"] = ("SELECT u.id, v.score FROM users u JOIN users v ON v.id = u.id + 1 WHERE u.id <= 1000", "ir"),
        ["Join5K"] = ("SELECT u.id, v.score FROM users u JOIN users v ON v.id = u.id + 1", "ir"),
        ["HashJoin5K"] = ("SELECT u.id, v.age FROM users u JOIN users v ON v.name = u.name", "ii"),
        ["UnionAll"] = ("SELECT id, name FROM users WHERE age < 30 UNION ALL SELECT id, name FROM users WHERE age > 60", "it"),
        ["Union"] = ("SELECT city, age FROM users WHERE age < 40 UNION SELECT city, age FROM users WHERE score > 50", "ti"),
        ["Intersect"] = ("SELECT city, age FROM users WHERE age < 40 INTERSECT SELECT city, age FROM users WHERE score > 50", "ti"),
        ["Except"] = ("SELECT city, age FROM users WHERE age < 40 EXCEPT SELECT city, age FROM users WHERE score > 50", "ti"),
        ["Cte"] = ("WITH a AS (SELECT age, avg(score) AS s, count(*) AS n FROM users GROUP BY age) SELECT x.age, x.s, y.n FROM a x JOIN a y ON y.age = x.age + 1", "iri"),
        ["RecursiveCte"] = ("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5000) SELECT n FROM c", "i"),
    };

    /// <summary>The statement measured.</summary>
    [ParamsSource(nameof(CaseNames))]
    public string Case { get; set; } = "Join1K";

    /// <summary>The names of <see cref="Cases"/>, in a fixed order.</summary>
    public static IEnumerable<string> CaseNames => Cases.Keys;

    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SharcDatabase _db = null!;
    private PreparedQuery _prepared = null!;
    private string _sql = "";
    private string _kinds = "";

    [GlobalSetup]
    public void Setup()
    {
        (_sql, _kinds) = Cases[Case];
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _cmd = Engines.Prepare(_conn, _sql);
        _db = Engines.OpenSharc(path, StorageKind.File);
        _prepared = _db.Prepare(_sql);
        Verify.Same(Case, ("Sqlite", Sqlite()), ("SharcQuery", SharcQuery()), ("SharcPrepared", SharcPrepared()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _prepared.Dispose();
        _db.Dispose();
        _cmd.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true)]
    public long Sqlite()
    {
        using var r = _cmd.ExecuteReader();
        long sum = 0;
        while (r.Read())
        {
            for (int i = 0; i < _kinds.Length; i++)
            {
                sum += _kinds[i] switch
                {
                    'i' => r.GetInt64(i),
                    'r' => Mix.Of(r.GetDouble(i)),
                    _ => Mix.Of(r.IsDBNull(i) ? null : r.GetString(i)),
                };
            }
        }
        return sum;
    }

    [Benchmark]
    public long SharcQuery()
    {
        using var r = _db.Query(_sql);
        return Sum(r);
    }

    [Benchmark]
    public long SharcPrepared()
    {
        using var r = _prepared.Execute();
        return Sum(r);
    }

    private long Sum(SharcDataReader r)
    {
        long sum = 0;
        while (r.Read())
        {
            for (int i = 0; i < _kinds.Length; i++)
            {
                sum += _kinds[i] switch
                {
                    'i' => r.GetInt64(i),
                    'r' => Mix.Of(r.GetDouble(i)),
                    _ => Mix.Of(r.IsNull(i) ? null : r.GetString(i)),
                };
            }
        }
        return sum;
    }
}
