using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// A WHERE filter over the unindexed users table (times are per query): <c>age &gt; 60</c> (about 28% of rows),
/// returning id and score. SQLite runs the prepared <c>SELECT id, score FROM users WHERE age &gt; $age</c>; Sharc
/// scans and tests the predicate in C# on <see cref="SharcDataReader.GetInt64"/>, reading id and score only for
/// matching rows (SharcWhere), runs the same prepared SELECT (SharcSqlWhere), and the same condition as a fluent
/// <see cref="SharcFilter"/> on a prepared reader (SharcFluentWhere).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class FilterBenchmarks
{
    internal const long Threshold = 60;
    internal const string Sql = "SELECT id, score FROM users WHERE age > $age";

    private SqliteConnection _conn = null!;
    private SqliteCommand _cmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _reader = null!;
    private PreparedQuery _sqlWhere = null!;
    private PreparedReader _fluent = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _cmd = Engines.Prepare(_conn, Sql, ("$age", SqliteType.Integer));
        Engines.RequirePlan(_conn, Sql, "SCAN users", ("$age", Threshold));
        _db = Engines.OpenSharc(path, StorageKind.File);
        _reader = _db.PrepareReader("users", "age", "id", "score");
        _sqlWhere = _db.Prepare(Sql);
        _fluent = _db.PrepareReader("users", Sharc.SharcFilter.Column("age").Gt(Sharc.SharcFilter.Parameter("age")), "id", "score");
        Verify.Same("age > 60", ("SqliteWhere", SqliteWhere()), ("SharcWhere", SharcWhere()), ("SharcSqlWhere", SharcSqlWhere()), ("SharcFluentWhere", SharcFluentWhere()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _reader.Dispose();
        _sqlWhere.Dispose();
        _fluent.Dispose();
        _db.Dispose();
        _cmd.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("AgeOver60")]
    public long SqliteWhere() => SqliteFilter(_cmd, Threshold);

    [Benchmark]
    [BenchmarkCategory("AgeOver60")]
    public long SharcWhere() => SharcFilter(_reader, Threshold);

    /// <summary>The same SELECT prepared in Sharc: the scan tests <c>age &gt; $age</c> on each record's bytes.</summary>
    [Benchmark]
    [BenchmarkCategory("AgeOver60")]
    public long SharcSqlWhere()
    {
        _sqlWhere.Bind(1, Threshold);
        long sum = 0;
        var r = _sqlWhere.Execute();
        while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetDouble(1));
        return sum;
    }

    /// <summary>The fluent filter <c>Column("age").Gt(Parameter("age"))</c> on a prepared reader: the same plan as the SQL.</summary>
    [Benchmark]
    [BenchmarkCategory("AgeOver60")]
    public long SharcFluentWhere()
    {
        _fluent.Bind("age", Threshold);
        _fluent.Reset();
        long sum = 0;
        while (_fluent.Read()) sum += _fluent.GetInt64(0) + Mix.Of(_fluent.GetDouble(1));
        return sum;
    }

    internal static long SqliteFilter(SqliteCommand cmd, long threshold)
    {
        cmd.Parameters[0].Value = threshold;
        long sum = 0;
        using var r = cmd.ExecuteReader();
        while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetDouble(1));
        return sum;
    }

    /// <summary>The reader must read (age, id, score).</summary>
    internal static long SharcFilter(PreparedReader r, long threshold)
    {
        long sum = 0;
        r.Reset();
        while (r.Read())
            if (r.GetInt64(0) > threshold) sum += r.GetInt64(1) + Mix.Of(r.GetDouble(2));
        return sum;
    }
}
