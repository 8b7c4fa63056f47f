using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Index;

/// <summary>
/// <c>WHERE age = N</c> through the index <c>users_age(age)</c> (about 83 of 5,000 rows match each age), returning
/// id, name and score for every match; 16 ages drawn from the seed per invocation, times per query.
/// SQLite: the prepared query (its plan is checked to use users_age) on the default and on the tuned
/// (locking_mode=EXCLUSIVE, the baseline) connection, and with <c>NOT INDEXED</c> for reference.
/// Sharc: <see cref="SharcDataReader.SeekIndex"/> on a table reader then Read while age matches; SeekKey on a
/// reader over the index itself plus a rowid Seek on a table reader (the allocation-free path); and a full scan
/// testing age in C#.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class IntKeyIndexBenchmarks
{
    private const int Queries = 16;
    private const string Sql = "SELECT id, name, score FROM users WHERE age = $age";
    private const string ScanSql = "SELECT id, name, score FROM users NOT INDEXED WHERE age = $age";

    private SqliteConnection _conn = null!;
    private SqliteConnection _exclusiveConn = null!;
    private SqliteCommand _cmd = null!;
    private SqliteCommand _exclusiveCmd = null!;
    private SqliteCommand _scanCmd = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _table = null!;
    private PreparedReader _index = null!;
    private PreparedReader _rows = null!;
    private PreparedReader _scan = null!;
    private long[] _ages = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Indexed);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _exclusiveConn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _cmd = Engines.Prepare(_conn, Sql, ("$age", SqliteType.Integer));
        _exclusiveCmd = Engines.Prepare(_exclusiveConn, Sql, ("$age", SqliteType.Integer));
        _scanCmd = Engines.Prepare(_conn, ScanSql, ("$age", SqliteType.Integer));
        Engines.RequirePlan(_conn, Sql, "INDEX users_age", ("$age", 30L));
        Engines.RequirePlan(_conn, ScanSql, "SCAN users", ("$age", 30L));

        _db = Engines.OpenSharc(path, StorageKind.File);
        _table = _db.PrepareReader("users", "id", "name", "score", "age");
        _index = _db.PrepareReader("users_age", "age", "rowid");
        _rows = _db.PrepareReader("users", "id", "name", "score");
        _scan = _db.PrepareReader("users", "age", "id", "name", "score");
        _ages = Keys.Random(Queries, UsersData.MinAge, UsersData.MaxAge);

        Verify.Same("WHERE age = N", ("SqliteExclusiveIndexed", SqliteExclusiveIndexed()), ("SqliteIndexed", SqliteIndexed()),
            ("SqliteNotIndexed", SqliteNotIndexed()), ("SharcSeekIndex", SharcSeekIndex()), ("SharcSeekKey", SharcSeekKey()),
            ("SharcFullScan", SharcFullScan()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _table.Dispose();
        _index.Dispose();
        _rows.Dispose();
        _scan.Dispose();
        _db.Dispose();
        _cmd.Dispose();
        _exclusiveCmd.Dispose();
        _scanCmd.Dispose();
        _conn.Dispose();
        _exclusiveConn.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Queries)]
    [BenchmarkCategory("IntEquals")]
    public long SqliteExclusiveIndexed() => SqliteQueries(_exclusiveCmd);

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("IntEquals")]
    public long SqliteIndexed() => SqliteQueries(_cmd);

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("IntEquals")]
    public long SqliteNotIndexed() => SqliteQueries(_scanCmd);

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("IntEquals")]
    public long SharcSeekIndex()
    {
        long sum = 0;
        var r = _table;
        foreach (long age in _ages)
        {
            bool on = r.SeekIndex("users_age", age);
            while (on && r.GetInt64(3) == age)
            {
                sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
                on = r.Read();
            }
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("IntEquals")]
    public long SharcSeekKey()
    {
        long sum = 0;
        var idx = _index;
        var rows = _rows;
        foreach (long age in _ages)
        {
            bool on = idx.SeekKey(age);
            while (on && idx.GetInt64(0) == age)
            {
                if (rows.Seek(idx.GetInt64(1)))
                    sum += rows.GetInt64(0) + Mix.Of(rows.GetString(1)) + Mix.Of(rows.GetDouble(2));
                on = idx.Read();
            }
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("IntEquals")]
    public long SharcFullScan()
    {
        long sum = 0;
        var r = _scan;
        foreach (long age in _ages)
        {
            r.Reset();
            while (r.Read())
                if (r.GetInt64(0) == age) sum += r.GetInt64(1) + Mix.Of(r.GetString(2)) + Mix.Of(r.GetDouble(3));
        }
        return sum;
    }

    private long SqliteQueries(SqliteCommand cmd)
    {
        long sum = 0;
        var p = cmd.Parameters[0];
        foreach (long age in _ages)
        {
            p.Value = age;
            using var r = cmd.ExecuteReader();
            while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }
}
