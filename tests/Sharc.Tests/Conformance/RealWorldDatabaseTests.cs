using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Conformance;

/// <summary>Every table and index of every real-world database in ../shared/conformance/databases matches SQLite.</summary>
public class RealWorldDatabaseTests
{
    public static IEnumerable<object[]> Files()
    {
        var dir = Infrastructure.Conformance.Directory;
        if (dir is null) return [["(absent)"]];
        return Directory.GetFiles(Path.Combine(dir, "databases"))
            .Where(f => !f.EndsWith("-wal") && !f.EndsWith("-shm") && !f.EndsWith("-journal"))
            .OrderBy(f => f, StringComparer.Ordinal).Select(f => new object[] { Path.GetFileName(f) });
    }

    [ConformanceTheory]
    [MemberData(nameof(Files))]
    public void EveryTableAndIndexMatchesSqlite(string file)
    {
        string src = Path.Combine(Infrastructure.Conformance.Directory!, "databases", file);
        using var tmp = new TempDir();
        // Work on a copy (with any -wal beside it): the shared folder is read-only and SQLite may want to write a -shm.
        string copy = tmp.File(file);
        File.Copy(src, copy);
        if (File.Exists(src + "-wal")) File.Copy(src + "-wal", copy + "-wal");

        using var db = SharcDatabase.Open(copy);
        int compared = OracleComparison.CompareAll(copy, db);
        compared.Should().BeGreaterThan(0);
    }

    [ConformanceFact]
    public void ChinookHasItsElevenTablesAndAllRows()
    {
        string src = Path.Combine(Infrastructure.Conformance.Directory!, "databases", "chinook.sqlite");
        using var db = SharcDatabase.Open(src);
        var user = db.Schema.Tables.Where(t => !t.Name.StartsWith("sqlite_")).ToList();
        user.Should().HaveCount(11);
        long rows = 0;
        foreach (var t in user)
        {
            using var r = db.CreateReader(t.Name);
            while (r.Read()) rows++;
        }
        rows.Should().Be(15607);
    }
}
