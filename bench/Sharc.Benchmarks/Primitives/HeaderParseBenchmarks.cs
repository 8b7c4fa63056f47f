using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Primitives;

/// <summary>
/// <see cref="DatabaseHeader.Parse"/> on the Core database's first 100 bytes (validation of every field plus the
/// <see cref="DatabaseHeader"/> object); times per parse. Sharc only: setup checks the parsed fields against the
/// same file's PRAGMAs in SQLite.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class HeaderParseBenchmarks
{
    private const int Parses = 1000;
    private byte[] _header = null!;

    [GlobalSetup]
    public void Setup()
    {
        string path = UsersData.Path(UsersShape.Core);
        _header = File.ReadAllBytes(path).AsSpan(0, DatabaseHeader.Size).ToArray();
        var h = DatabaseHeader.Parse(_header);
        using var conn = Engines.OpenSqlite(path, StorageKind.File);
        Verify.Same("page_size", ("SQLite", (long)Engines.Scalar(conn, "PRAGMA page_size")!), ("Sharc", (long)h.PageSize));
        Verify.Same("page_count", ("SQLite", (long)Engines.Scalar(conn, "PRAGMA page_count")!), ("Sharc", (long)h.HeaderPageCount));
        Verify.Same("schema_version", ("SQLite", (long)Engines.Scalar(conn, "PRAGMA schema_version")!), ("Sharc", (long)h.SchemaCookie));
        Verify.Same("encoding", ("SQLite", (string)Engines.Scalar(conn, "PRAGMA encoding")!), ("Sharc", h.TextEncoding == SharcTextEncoding.Utf8 ? "UTF-8" : "UTF-16"));
        Verify.That((long)Engines.Scalar(conn, "PRAGMA user_version")! == h.UserVersion, "user_version differs");
        Verify.Same("parse loop", ("expected", (long)h.PageSize * Parses), ("ParseHeader", ParseHeader()));
    }

    [Benchmark(OperationsPerInvoke = Parses)]
    [BenchmarkCategory("HeaderParse")]
    public long ParseHeader()
    {
        long sum = 0;
        byte[] header = _header;
        for (int i = 0; i < Parses; i++) sum += DatabaseHeader.Parse(header).PageSize;
        return sum;
    }
}
