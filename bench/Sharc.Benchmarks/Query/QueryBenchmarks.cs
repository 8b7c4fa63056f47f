using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Query;

/// <summary>
/// SQL statements run by both engines over the 5,000-row users file (times are per statement). SQLite runs each
/// as a command prepared once in setup and reused; Sharc runs it twice: through <see cref="SharcDatabase.Query"/>
/// (the plan is cached by SQL text, but every call builds a new execution and reader) and through a
/// <see cref="PreparedQuery"/> kept for the run (execution and reader reused). Every row and column the statement
/// returns is read with typed getters on both sides, and every reader is disposed after use.
/// </summary>
/// <remarks>
/// Both engines lock per statement here: a SQLite command takes and releases the file's SHARED lock on each
/// execution (default connection), and so does each Sharc execution (default <see cref="SharcOpenOptions.ReadLocking"/>).
/// That is the baseline pairing. Where locking dominates (the parameterized lookup), a second category,
/// <c>ParamLookupNoLock</c>, pairs SQLite with <c>locking_mode=EXCLUSIVE</c> (lock held for the run) with Sharc opened
/// with <c>ReadLocking = false</c> (the snapshot read without locks): neither pays a lock per statement.
/// </remarks>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class QueryBenchmarks
{
    internal const string SelectAllSql = "SELECT * FROM users";
    internal const string WhereSql = "SELECT id, score FROM users WHERE age > 60";
    internal const string TopNSql = "SELECT id, name, score FROM users WHERE age > 30 ORDER BY score DESC LIMIT 10";
    internal const string GroupBySql = "SELECT age, COUNT(*), AVG(score) FROM users GROUP BY age";
    internal const string ParamLookupSql = "SELECT name, age, score FROM users WHERE id = $id";
    internal const string ParamFilterSql = "SELECT id, score FROM users WHERE age = $age";

    private const int Lookups = 1000;
    private const int Filters = 8;

    private SqliteConnection _conn = null!;
    private SqliteConnection _exclusiveConn = null!;
    private SqliteCommand _exclusiveLookup = null!;
    private SharcDatabase _unlockedDb = null!;
    private PreparedQuery _unlockedLookup = null!;
    private SqliteCommand _selectAll = null!, _where = null!, _topN = null!, _groupBy = null!, _paramLookup = null!, _paramFilter = null!;
    private SharcDatabase _db = null!;
    private PreparedQuery _pSelectAll = null!, _pWhere = null!, _pTopN = null!, _pGroupBy = null!, _pParamLookup = null!, _pParamFilter = null!;
    private long[] _ids = null!;
    private long[] _ages = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _exclusiveConn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _exclusiveLookup = Engines.Prepare(_exclusiveConn, ParamLookupSql, ("$id", SqliteType.Integer));
        _selectAll = Engines.Prepare(_conn, SelectAllSql);
        _where = Engines.Prepare(_conn, WhereSql);
        _topN = Engines.Prepare(_conn, TopNSql);
        _groupBy = Engines.Prepare(_conn, GroupBySql);
        _paramLookup = Engines.Prepare(_conn, ParamLookupSql, ("$id", SqliteType.Integer));
        _paramFilter = Engines.Prepare(_conn, ParamFilterSql, ("$age", SqliteType.Integer));
        Engines.RequirePlan(_conn, WhereSql, "SCAN users");
        Engines.RequirePlan(_conn, ParamLookupSql, "USING INTEGER PRIMARY KEY", ("$id", 1L));

        _db = Engines.OpenSharc(path, StorageKind.File);
        _pSelectAll = _db.Prepare(SelectAllSql);
        _pWhere = _db.Prepare(WhereSql);
        _pTopN = _db.Prepare(TopNSql);
        _pGroupBy = _db.Prepare(GroupBySql);
        _pParamLookup = _db.Prepare(ParamLookupSql);
        _pParamFilter = _db.Prepare(ParamFilterSql);
        _unlockedDb = SharcDatabase.Open(path, new SharcOpenOptions { ReadLocking = false });
        _unlockedLookup = _unlockedDb.Prepare(ParamLookupSql);

        _ids = Keys.Random(Lookups, 1, UsersData.CoreRows);
        _ages = Keys.Random(Filters, 18, 77);

        Verify.Same(SelectAllSql, ("SqliteSelectAll", SqliteSelectAll()), ("SharcQuerySelectAll", SharcQuerySelectAll()), ("SharcPreparedSelectAll", SharcPreparedSelectAll()));
        Verify.Same(WhereSql, ("SqliteWhere", SqliteWhere()), ("SharcQueryWhere", SharcQueryWhere()), ("SharcPreparedWhere", SharcPreparedWhere()));
        Verify.Same(TopNSql, ("SqliteTopN", SqliteTopN()), ("SharcQueryTopN", SharcQueryTopN()), ("SharcPreparedTopN", SharcPreparedTopN()));
        Verify.Same(GroupBySql, ("SqliteGroupBy", SqliteGroupBy()), ("SharcQueryGroupBy", SharcQueryGroupBy()), ("SharcPreparedGroupBy", SharcPreparedGroupBy()));
        Verify.Same(ParamLookupSql, ("SqliteParamLookup", SqliteParamLookup()), ("SharcQueryParamLookup", SharcQueryParamLookup()), ("SharcPreparedParamLookup", SharcPreparedParamLookup()));
        Verify.Same(ParamLookupSql + " (no per-statement lock)", ("SqliteExclusiveParamLookup", SqliteExclusiveParamLookup()), ("SharcUnlockedParamLookup", SharcUnlockedParamLookup()));
        Verify.Same(ParamFilterSql, ("SqliteParamFilter", SqliteParamFilter()), ("SharcQueryParamFilter", SharcQueryParamFilter()), ("SharcPreparedParamFilter", SharcPreparedParamFilter()));
        // ORDER BY must be honoured, not just the set of rows: the first row is the highest score.
        Verify.That(FirstTopNScoreSqlite() == FirstTopNScoreSharc(), "ORDER BY score DESC: engines return different first rows");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        foreach (var q in new[] { _pSelectAll, _pWhere, _pTopN, _pGroupBy, _pParamLookup, _pParamFilter }) q.Dispose();
        _unlockedLookup.Dispose();
        _db.Dispose();
        _unlockedDb.Dispose();
        foreach (var c in new[] { _selectAll, _where, _topN, _groupBy, _paramLookup, _paramFilter, _exclusiveLookup }) c.Dispose();
        _conn.Dispose();
        _exclusiveConn.Dispose();
    }

    // ---- SELECT * (all 9 columns, 5,000 rows) ----

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("SelectAll")]
    public long SqliteSelectAll()
    {
        using var r = _selectAll.ExecuteReader();
        long sum = 0;
        while (r.Read()) sum += AllColumns(r.GetInt64(0), r.GetString(1), r.IsDBNull(2) ? null : r.GetString(2), r.GetInt64(3), r.GetDouble(4), r.GetInt64(5), r.GetString(6), r.GetString(7), r.GetInt64(8));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("SelectAll")]
    public long SharcQuerySelectAll()
    {
        using var r = _db.Query(SelectAllSql);
        return SelectAllSum(r);
    }

    [Benchmark]
    [BenchmarkCategory("SelectAll")]
    public long SharcPreparedSelectAll()
    {
        using var r = _pSelectAll.Execute();
        return SelectAllSum(r);
    }

    private static long SelectAllSum(SharcDataReader r)
    {
        long sum = 0;
        while (r.Read()) sum += AllColumns(r.GetInt64(0), r.GetString(1), r.GetString(2), r.GetInt64(3), r.GetDouble(4), r.GetInt64(5), r.GetString(6), r.GetString(7), r.GetInt64(8));
        return sum;
    }

    private static long AllColumns(long id, string? name, string? email, long age, double score, long active, string? city, string? bio, long created)
        => id + Mix.Of(name) + Mix.Of(email) + age + Mix.Of(score) + active + Mix.Of(city) + Mix.Of(bio) + created;

    // ---- WHERE (unindexed, ~28% of rows) ----

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Where")]
    public long SqliteWhere()
    {
        using var r = _where.ExecuteReader();
        long sum = 0;
        while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetDouble(1));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Where")]
    public long SharcQueryWhere()
    {
        using var r = _db.Query(WhereSql);
        return IdScoreSum(r);
    }

    [Benchmark]
    [BenchmarkCategory("Where")]
    public long SharcPreparedWhere()
    {
        using var r = _pWhere.Execute();
        return IdScoreSum(r);
    }

    private static long IdScoreSum(SharcDataReader r)
    {
        long sum = 0;
        while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetDouble(1));
        return sum;
    }

    // ---- WHERE + ORDER BY + LIMIT (top 10 of ~80% of rows) ----

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("TopN")]
    public long SqliteTopN()
    {
        using var r = _topN.ExecuteReader();
        long sum = 0;
        while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("TopN")]
    public long SharcQueryTopN()
    {
        using var r = _db.Query(TopNSql);
        return TopNSum(r);
    }

    [Benchmark]
    [BenchmarkCategory("TopN")]
    public long SharcPreparedTopN()
    {
        using var r = _pTopN.Execute();
        return TopNSum(r);
    }

    private static long TopNSum(SharcDataReader r)
    {
        long sum = 0;
        while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    private double FirstTopNScoreSqlite()
    {
        using var r = _topN.ExecuteReader();
        return r.Read() ? r.GetDouble(2) : double.NaN;
    }

    private double FirstTopNScoreSharc()
    {
        using var r = _db.Query(TopNSql);
        return r.Read() ? r.GetDouble(2) : double.NaN;
    }

    // ---- GROUP BY + COUNT + AVG (60 groups) ----

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("GroupBy")]
    public long SqliteGroupBy()
    {
        using var r = _groupBy.ExecuteReader();
        long sum = 0;
        while (r.Read()) sum += r.GetInt64(0) * 1_000_003 + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("GroupBy")]
    public long SharcQueryGroupBy()
    {
        using var r = _db.Query(GroupBySql);
        return GroupSum(r);
    }

    [Benchmark]
    [BenchmarkCategory("GroupBy")]
    public long SharcPreparedGroupBy()
    {
        using var r = _pGroupBy.Execute();
        return GroupSum(r);
    }

    private static long GroupSum(SharcDataReader r)
    {
        long sum = 0;
        while (r.Read()) sum += r.GetInt64(0) * 1_000_003 + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }

    // ---- Parameterized WHERE: rowid lookup (per lookup) and unindexed equality filter (per query) ----

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("ParamLookup")]
    public long SqliteParamLookup()
    {
        long sum = 0;
        var id = _paramLookup.Parameters[0];
        foreach (long k in _ids)
        {
            id.Value = k;
            using var r = _paramLookup.ExecuteReader();
            if (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("ParamLookup")]
    public long SharcQueryParamLookup()
    {
        long sum = 0;
        foreach (long k in _ids)
        {
            using var r = _db.Query(ParamLookupSql, k);
            if (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("ParamLookup")]
    public long SharcPreparedParamLookup() => PreparedLookups(_pParamLookup, _ids);

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("ParamLookupNoLock")]
    public long SqliteExclusiveParamLookup()
    {
        long sum = 0;
        var id = _exclusiveLookup.Parameters[0];
        foreach (long k in _ids)
        {
            id.Value = k;
            using var r = _exclusiveLookup.ExecuteReader();
            if (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Lookups)]
    [BenchmarkCategory("ParamLookupNoLock")]
    public long SharcUnlockedParamLookup() => PreparedLookups(_unlockedLookup, _ids);

    private static long PreparedLookups(PreparedQuery q, long[] ids)
    {
        long sum = 0;
        foreach (long k in ids)
        {
            q.Bind(1, k);
            using var r = q.Execute();
            if (r.Read()) sum += Mix.Of(r.GetString(0)) + r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Filters)]
    [BenchmarkCategory("ParamFilter")]
    public long SqliteParamFilter()
    {
        long sum = 0;
        var age = _paramFilter.Parameters[0];
        foreach (long a in _ages)
        {
            age.Value = a;
            using var r = _paramFilter.ExecuteReader();
            while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetDouble(1));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Filters)]
    [BenchmarkCategory("ParamFilter")]
    public long SharcQueryParamFilter()
    {
        long sum = 0;
        foreach (long a in _ages)
        {
            using var r = _db.Query(ParamFilterSql, a);
            sum += IdScoreSum(r);
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Filters)]
    [BenchmarkCategory("ParamFilter")]
    public long SharcPreparedParamFilter()
    {
        long sum = 0;
        var q = _pParamFilter;
        foreach (long a in _ages)
        {
            q.Bind(1, a);
            using var r = q.Execute();
            sum += IdScoreSum(r);
        }
        return sum;
    }

    // ---- Reserved: UNION / INTERSECT / EXCEPT, WITH (CTE) and JOIN comparisons go here once Sharc runs them ----
}
