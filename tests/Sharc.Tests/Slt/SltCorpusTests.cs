using System.Diagnostics;
using System.Text;
using Sharc.Cli.Slt;
using Sharc.Tests.Infrastructure;
using Xunit.Abstractions;

namespace Sharc.Tests.Slt;

/// <summary>
/// The decisive proof of the runner: with real SQLite as the engine, every statement and query of the sqllogictest
/// corpus in ../shared/conformance passes. A failure here is a bug in the harness (or a genuine difference of the
/// SQLite version we link against from the one the corpus was made with), never in Sharc.
/// </summary>
public sealed class SltCorpusTests(ITestOutputHelper output)
{
    /// <summary>Queries per file, as the corpus README states them.</summary>
    private static readonly Dictionary<string, int> KnownQueryCounts = new(StringComparer.Ordinal)
    {
        ["select1.test"] = 1000,
        ["select2.test"] = 1000,
        ["select3.test"] = 3320,
    };

    private static string Root => Path.Combine(Infrastructure.Conformance.Directory!, "sqllogictest");

    public static IEnumerable<object[]> Files()
    {
        if (Infrastructure.Conformance.Directory is null) return [["(absent)"]];
        var files = new List<string> { "select1.test", "select2.test", "select3.test" };
        foreach (var sub in new[] { "evidence", "index" })
        {
            files.AddRange(Directory.GetFiles(Path.Combine(Root, sub), "*.test", SearchOption.AllDirectories)
                .Select(f => Path.GetRelativePath(Root, f).Replace('\\', '/'))
                .OrderBy(f => f, StringComparer.Ordinal));
        }
        return files.Select(f => new object[] { f });
    }

    [ConformanceTheory]
    [MemberData(nameof(Files))]
    public void Every_record_passes_with_sqlite_as_the_engine(string file)
    {
        var clock = Stopwatch.StartNew();
        var result = new SltRunner(() => new SqliteSltEngine()).RunFile(Path.Combine(Root, file));
        output.WriteLine($"{file}: {result.Passed} passed ({result.QueriesPassed} queries), {result.Failed} failed, {result.Skipped} skipped in {clock.Elapsed.TotalSeconds:F1}s");

        result.Failed.Should().Be(0, Describe(result));
        result.Passed.Should().BeGreaterThan(0);
        if (KnownQueryCounts.TryGetValue(file, out int queries)) result.QueriesPassed.Should().Be(queries);
    }

    /// <summary>SQLite with its rows returned in reverse order, or with every integer off by one.</summary>
    private sealed class DistortedEngine(bool reverse) : ISltEngine
    {
        private readonly SqliteSltEngine _inner = new();

        public string Name => "distorted";

        public void Execute(string sql) => _inner.Execute(sql);

        public IReadOnlyList<object?[]> Query(string sql)
        {
            var rows = _inner.Query(sql).ToList();
            if (reverse) rows.Reverse();
            else rows = rows.Select(r => r.Select(v => v is long l ? l + 1 : v).ToArray()).ToList();
            return rows;
        }

        public void Dispose() => _inner.Dispose();
    }

    [ConformanceFact]
    public void A_wrong_engine_fails_where_the_file_says_it_must()
    {
        // The control experiment: the harness passes SQLite because SQLite is right, not because it passes anything.
        string path = Path.Combine(Root, "select1.test");
        var records = SltParser.Parse(File.ReadAllText(path)).OfType<SltQuery>().ToDictionary(q => q.Line);

        var offByOne = new SltRunner(() => new DistortedEngine(reverse: false)).RunFile(path);
        offByOne.Failed.Should().BeGreaterThan(900);

        var reversed = new SltRunner(() => new DistortedEngine(reverse: true)).RunFile(path);
        reversed.Failed.Should().BeGreaterThan(0);
        reversed.Failures.Should().OnlyContain(f => records[f.Line].Sort == SltSortMode.NoSort,
            "reversing rows can only upset a query whose order is checked");
    }

    private static string Describe(SltFileResult result)
    {
        var sb = new StringBuilder("every record should pass; the first failures:\n");
        foreach (var f in result.Failures.Take(5))
        {
            sb.Append(f.File).Append(':').Append(f.Line).Append(": ").Append(f.Message).Append('\n');
            sb.Append("  ").Append(f.Sql.ReplaceLineEndings(" ")).Append('\n');
            sb.Append("  expected: ").Append(string.Join(" | ", f.Expected)).Append('\n');
            sb.Append("  actual:   ").Append(string.Join(" | ", f.Actual)).Append('\n');
        }
        return sb.ToString();
    }
}
