using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Integrity;

/// <summary>
/// Random damage (a few bytes overwritten, often in page headers and cell pointers) to fixture databases: the check
/// never throws or hangs, and agrees with SQLite's integrity_check on every file, except in two known cases:
/// <list type="bullet">
/// <item>SQLite's only complaints are about expression indexes: their entries are computed by expressions, which
/// Sharc cannot evaluate without a SQL engine;</item>
/// <item>Sharc's only complaints are pointer-map entries of root pages (expected type 1, parent 0): SQLite 3.50 skips
/// that check when the schema holds a view (as the fixtures do), and checks it otherwise.</item>
/// </list>
/// </summary>
public class FuzzedIntegrityTests
{
    [Theory]
    [InlineData(512, 0, "UTF-8", 11)]
    [InlineData(1024, 1, "UTF-16le", 12)]
    [InlineData(4096, 2, "UTF-16be", 13)]
    public void AgreesWithSqliteOnRandomDamage(int pageSize, int autoVacuum, string encoding, int seed)
    {
        using var dir = new TempDir();
        string src = dir.File("src.db");
        FixtureBuilder.Build(src, new FixtureSpec(pageSize, encoding, autoVacuum, Rows: 120, Seed: seed));
        byte[] original = File.ReadAllBytes(src);
        List<string> expressionIndexes;
        using (var db = SharcDatabase.Open(src))
            expressionIndexes = db.Schema.Indexes.Where(i => i.HasExpressions).Select(i => i.Name).ToList();

        var rng = new Random(seed);
        var disagreements = new List<string>();
        int pages = original.Length / pageSize;
        for (int iteration = 0; iteration < 60; iteration++)
        {
            var image = (byte[])original.Clone();
            for (int f = 1 + rng.Next(4); f > 0; f--)
            {
                int page = rng.Next(pages);
                int header = page == 0 ? 100 : 0;
                // Half the damage lands in b-tree page headers and cell pointer arrays, where structure lives.
                int offset = rng.Next(2) == 0 ? header + rng.Next(32) : Math.Max(header, rng.Next(pageSize));
                image[page * pageSize + offset] = (byte)(rng.Next(4) == 0 ? 0 : rng.Next(256));
            }
            string path = dir.File($"f{iteration}.db");
            File.WriteAllBytes(path, image);

            var sharc = Check(path, iteration);
            var (sqliteProblems, sqliteLines) = Sqlite(path);
            if (sharc.Problems == sqliteProblems) continue;
            bool onlyExpressionIndexes = !sharc.Problems && sqliteLines.All(l => expressionIndexes.Any(l.Contains));
            bool onlyRootPointerMaps = sharc.Problems && sharc.Lines.All(l => l.Contains("Bad ptr map entry") && l.Contains("expected=(1,0)"));
            if (!onlyExpressionIndexes && !onlyRootPointerMaps)
                disagreements.Add($"iteration {iteration}: Sharc {sharc.Detail}; SQLite {string.Join(" | ", sqliteLines)}");
        }
        disagreements.Should().BeEmpty();
    }

    private static (bool Problems, string Detail, IReadOnlyList<string> Lines) Check(string path, int iteration)
    {
        (bool, string, IReadOnlyList<string>)? result = null;
        Exception? escaped = null;
        var t = new Thread(() =>
        {
            try
            {
                try
                {
                    using var db = SharcDatabase.Open(path);
                    var problems = db.CheckIntegrity();
                    result = (problems.Count > 0, problems.Count == 0 ? "ok" : string.Join(" | ", problems.Take(3)), problems);
                }
                catch (SharcException e)
                {
                    result = (true, "cannot open: " + e.Message, [e.Message]);
                }
            }
            catch (Exception e)
            {
                escaped = e;
            }
        }) { IsBackground = true };
        t.Start();
        t.Join(TimeSpan.FromSeconds(20)).Should().BeTrue($"iteration {iteration} must finish");
        escaped.Should().BeNull($"iteration {iteration} must not throw");
        return result!.Value;
    }

    private static (bool Problems, List<string> Lines) Sqlite(string path)
    {
        string copy = path + ".copy";
        File.Copy(path, copy);
        try
        {
            var lines = Oracle.IntegrityCheck(copy).Split('\n').Where(l => l != "*** in database main ***").ToList();
            return (!(lines.Count == 1 && lines[0] == "ok"), lines);
        }
        catch (SqliteException e)
        {
            return (true, [e.Message]);
        }
        finally
        {
            SqliteConnection.ClearAllPools();
        }
    }
}
