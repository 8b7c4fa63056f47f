using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// Every page size × text encoding × auto_vacuum mode: a database built by real SQLite (overflow payloads,
/// ALTER-added columns, WITHOUT ROWID, several index kinds, freelist pages) reads back exactly as SQLite reads it.
/// </summary>
public class FixtureMatrixTests
{
    public static IEnumerable<object[]> Matrix()
    {
        int seed = 1;
        foreach (int page in new[] { 512, 1024, 4096, 16384, 65536 })
            foreach (string enc in new[] { "UTF-8", "UTF-16le", "UTF-16be" })
                foreach (int av in new[] { 0, 1, 2 })
                    yield return [page, enc, av, seed++];
    }

    [Theory]
    [MemberData(nameof(Matrix))]
    public void EveryTableAndIndexMatchesSqlite(int pageSize, string encoding, int autoVacuum, int seed)
    {
        using var dir = new TempDir();
        string path = dir.File("m.db");
        var spec = new FixtureSpec(pageSize, encoding, autoVacuum, Rows: pageSize >= 16384 ? 120 : 200, Seed: seed);
        FixtureBuilder.Build(path, spec);
        Oracle.IntegrityCheck(path).Should().Be("ok");

        using var db = SharcDatabase.Open(path);
        db.PageSize.Should().Be(pageSize);
        db.Header.AutoVacuumMode.Should().Be(autoVacuum);
        db.TextEncoding.Should().Be(encoding switch { "UTF-8" => SharcTextEncoding.Utf8, "UTF-16le" => SharcTextEncoding.Utf16LE, _ => SharcTextEncoding.Utf16BE });
        OracleComparison.CompareAll(path, db).Should().BeGreaterThan(8);
    }

    [Theory]
    [InlineData(8)]
    [InlineData(32)]
    [InlineData(200)]
    public void ReservedBytesPerPageAreNotPayload(int reserved)
    {
        using var dir = new TempDir();
        string path = dir.File("r.db");
        FixtureBuilder.Build(path, new FixtureSpec(1024, ReservedBytes: reserved, Seed: reserved));
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var db = SharcDatabase.Open(path);
        db.Header.ReservedBytes.Should().Be((byte)reserved);
        OracleComparison.CompareAll(path, db).Should().BeGreaterThan(8);
    }

    [Fact]
    public void MemoryImageReadsLikeTheFile()
    {
        using var dir = new TempDir();
        string path = dir.File("mem.db");
        FixtureBuilder.Build(path, new FixtureSpec(4096, Seed: 99));
        using var db = SharcDatabase.OpenMemory(File.ReadAllBytes(path));
        OracleComparison.CompareAll(path, db).Should().BeGreaterThan(8);
    }
}
