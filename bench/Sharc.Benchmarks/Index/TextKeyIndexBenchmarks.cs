using System.Text;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Index;

/// <summary>
/// <c>WHERE name = T</c> through the index <c>users_name(name)</c> (names are unique: one row per query),
/// returning id, name and score; 64 names drawn from the seed per invocation, times per query.
/// SQLite: the prepared query (plan checked to use users_name) on the default and on the tuned
/// (locking_mode=EXCLUSIVE, the baseline) connection, and with <c>NOT INDEXED</c> for reference.
/// Sharc: <see cref="SharcDataReader.SeekIndex"/> with a string key then Read while the name matches; SeekKey with
/// a UTF-8 key on a reader over the index plus a rowid Seek (the allocation-free path); and a full scan comparing
/// the UTF-8 name in C#.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class TextKeyIndexBenchmarks
{
    private const int Queries = 64;
    private const string Sql = "SELECT id, name, score FROM users WHERE name = $name";
    private const string ScanSql = "SELECT id, name, score FROM users NOT INDEXED WHERE name = $name";

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
    private string[] _names = null!;
    private byte[][] _utf8Names = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Indexed);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _exclusiveConn = Engines.OpenSqlite(path, StorageKind.File, SqliteLocking.Exclusive);
        _cmd = Engines.Prepare(_conn, Sql, ("$name", SqliteType.Text));
        _exclusiveCmd = Engines.Prepare(_exclusiveConn, Sql, ("$name", SqliteType.Text));
        _scanCmd = Engines.Prepare(_conn, ScanSql, ("$name", SqliteType.Text));
        Engines.RequirePlan(_conn, Sql, "INDEX users_name", ("$name", "user1"));
        Engines.RequirePlan(_conn, ScanSql, "SCAN users", ("$name", "user1"));

        _db = Engines.OpenSharc(path, StorageKind.File);
        _table = _db.PrepareReader("users", "id", "name", "score");
        _index = _db.PrepareReader("users_name", "name", "rowid");
        _rows = _db.PrepareReader("users", "id", "name", "score");
        _scan = _db.PrepareReader("users", "name", "id", "score");
        _names = Keys.Random(Queries, 1, UsersData.CoreRows).Select(UsersData.Name).ToArray();
        _utf8Names = _names.Select(Encoding.UTF8.GetBytes).ToArray();

        Verify.Same("WHERE name = T", ("SqliteExclusiveIndexed", SqliteExclusiveIndexed()), ("SqliteIndexed", SqliteIndexed()),
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
    [BenchmarkCategory("TextEquals")]
    public long SqliteExclusiveIndexed() => SqliteQueries(_exclusiveCmd);

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("TextEquals")]
    public long SqliteIndexed() => SqliteQueries(_cmd);

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("TextEquals")]
    public long SqliteNotIndexed() => SqliteQueries(_scanCmd);

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("TextEquals")]
    public long SharcSeekIndex()
    {
        long sum = 0;
        var r = _table;
        for (int i = 0; i < _names.Length; i++)
        {
            bool on = r.SeekIndex("users_name", _names[i]);
            while (on && r.GetUtf8Span(1).SequenceEqual(_utf8Names[i]))
            {
                sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
                on = r.Read();
            }
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("TextEquals")]
    public long SharcSeekKey()
    {
        long sum = 0;
        var idx = _index;
        var rows = _rows;
        foreach (byte[] key in _utf8Names)
        {
            bool on = idx.SeekKey(key.AsSpan());
            while (on && idx.GetUtf8Span(0).SequenceEqual(key))
            {
                if (rows.Seek(idx.GetInt64(1)))
                    sum += rows.GetInt64(0) + Mix.Of(rows.GetString(1)) + Mix.Of(rows.GetDouble(2));
                on = idx.Read();
            }
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Queries)]
    [BenchmarkCategory("TextEquals")]
    public long SharcFullScan()
    {
        long sum = 0;
        var r = _scan;
        foreach (byte[] key in _utf8Names)
        {
            r.Reset();
            while (r.Read())
                if (r.GetUtf8Span(0).SequenceEqual(key)) sum += r.GetInt64(1) + Mix.Of(r.GetString(0)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    private long SqliteQueries(SqliteCommand cmd)
    {
        long sum = 0;
        var p = cmd.Parameters[0];
        foreach (string name in _names)
        {
            p.Value = name;
            using var r = cmd.ExecuteReader();
            while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }
}
