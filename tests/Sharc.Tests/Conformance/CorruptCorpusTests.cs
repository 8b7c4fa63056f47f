using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Conformance;

/// <summary>
/// Every malformed database from SQLite's own test scripts (../shared/conformance/corrupt) is either read or
/// rejected with a SharcException, within bounded time and memory; never a hang or another exception type.
/// </summary>
public class CorruptCorpusTests
{
    public static IEnumerable<object[]> Files()
    {
        var dir = Infrastructure.Conformance.Directory;
        if (dir is null) return [["(absent)"]];
        return Directory.GetFiles(Path.Combine(dir, "corrupt"), "*.db").OrderBy(f => f, StringComparer.Ordinal).Select(f => new object[] { Path.GetFileName(f) });
    }

    [ConformanceTheory]
    [MemberData(nameof(Files))]
    public void CorruptFileIsReadOrRejectedWithSharcException(string file)
    {
        string path = Path.Combine(Infrastructure.Conformance.Directory!, "corrupt", file);
        var outcome = Hostile.Run(() => Hostile.ReadEverything(() => SharcDatabase.Open(path)));
        outcome.Should().NotBeNull();
        outcome!.Unexpected.Should().BeNull($"{file} must end in a SharcException or be read; got {outcome.Unexpected}");
    }

    [ConformanceFact]
    public void FileSqliteReadsCleanlyIsReadIdentically()
    {
        string dir = Path.Combine(Infrastructure.Conformance.Directory!, "corrupt");
        var okFiles = File.ReadAllLines(Path.Combine(dir, "MANIFEST.tsv")).Skip(1)
            .Select(l => l.Split('\t')).Where(f => f.Length >= 5 && f[4] == "ok").Select(f => f[0]).ToList();
        okFiles.Should().NotBeEmpty();
        foreach (var f in okFiles)
        {
            using var tmp = new TempDir();
            string copy = tmp.File(f);
            File.Copy(Path.Combine(dir, f), copy);
            using var db = SharcDatabase.Open(copy);
            OracleComparison.CompareAll(copy, db);
        }
    }
}
