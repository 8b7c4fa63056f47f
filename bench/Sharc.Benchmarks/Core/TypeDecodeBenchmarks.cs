using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// Type decode over a full scan of users (5,000 rows; times are per scan): three integer columns (age, active,
/// created) with GetInt64, one double column (score) with GetDouble, two text columns (name, city) as .NET strings
/// on both sides, and for Sharc also as UTF-8 spans (<see cref="SharcDataReader.GetUtf8Span"/>, no allocation).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class TypeDecodeBenchmarks
{
    private SqliteConnection _conn = null!;
    private SqliteCommand _ints = null!;
    private SqliteCommand _doubles = null!;
    private SqliteCommand _strings = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _intReader = null!;
    private PreparedReader _doubleReader = null!;
    private PreparedReader _stringReader = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _conn = Engines.OpenSqlite(path, StorageKind.File);
        _ints = Engines.Prepare(_conn, "SELECT age, active, created FROM users");
        _doubles = Engines.Prepare(_conn, "SELECT score FROM users");
        _strings = Engines.Prepare(_conn, "SELECT name, city FROM users");
        _db = Engines.OpenSharc(path, StorageKind.File);
        _intReader = _db.PrepareReader("users", "age", "active", "created");
        _doubleReader = _db.PrepareReader("users", "score");
        _stringReader = _db.PrepareReader("users", "name", "city");
        Verify.Same("integers", ("SqliteIntegers", SqliteIntegers()), ("SharcIntegers", SharcIntegers()));
        Verify.Same("doubles", ("SqliteDoubles", SqliteDoubles()), ("SharcDoubles", SharcDoubles()));
        Verify.Same("strings", ("SqliteStrings", SqliteStrings()), ("SharcStrings", SharcStrings()), ("SharcStringsUtf8", SharcStringsUtf8()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _intReader.Dispose();
        _doubleReader.Dispose();
        _stringReader.Dispose();
        _db.Dispose();
        _ints.Dispose();
        _doubles.Dispose();
        _strings.Dispose();
        _conn.Dispose();
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Integers")]
    public long SqliteIntegers()
    {
        long sum = 0;
        using var r = _ints.ExecuteReader();
        while (r.Read()) sum += r.GetInt64(0) + r.GetInt64(1) + r.GetInt64(2);
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Integers")]
    public long SharcIntegers()
    {
        long sum = 0;
        var r = _intReader;
        r.Reset();
        while (r.Read()) sum += r.GetInt64(0) + r.GetInt64(1) + r.GetInt64(2);
        return sum;
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Doubles")]
    public long SqliteDoubles()
    {
        long sum = 0;
        using var r = _doubles.ExecuteReader();
        while (r.Read()) sum += Mix.Of(r.GetDouble(0));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Doubles")]
    public long SharcDoubles()
    {
        long sum = 0;
        var r = _doubleReader;
        r.Reset();
        while (r.Read()) sum += Mix.Of(r.GetDouble(0));
        return sum;
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Strings")]
    public long SqliteStrings()
    {
        long sum = 0;
        using var r = _strings.ExecuteReader();
        while (r.Read()) sum += Mix.Of(r.GetString(0)) + Mix.Of(r.GetString(1));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Strings")]
    public long SharcStrings()
    {
        long sum = 0;
        var r = _stringReader;
        r.Reset();
        while (r.Read()) sum += Mix.Of(r.GetString(0)) + Mix.Of(r.GetString(1));
        return sum;
    }

    [Benchmark]
    [BenchmarkCategory("Strings")]
    public long SharcStringsUtf8()
    {
        long sum = 0;
        var r = _stringReader;
        r.Reset();
        while (r.Read()) sum += Mix.Of(r.GetUtf8Span(0)) + Mix.Of(r.GetUtf8Span(1));
        return sum;
    }
}
