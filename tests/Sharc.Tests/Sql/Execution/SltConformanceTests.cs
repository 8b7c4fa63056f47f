using System.Diagnostics;
using System.Text;
using Sharc.Cli.Slt;
using Sharc.Tests.Infrastructure;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// The sqllogictest corpus in ../shared/conformance run with Sharc as the engine: every record of every file passes
/// (select1–3, evidence/* with its views, triggers and REINDEX, index/*). Skipped records are those the files mark
/// for other engines.
/// </summary>
public sealed class SltConformanceTests(ITestOutputHelper output)
{
    private static string Root => Path.Combine(Infrastructure.Conformance.Directory!, "sqllogictest");

    private static readonly Dictionary<string, int> QueryCounts = new(StringComparer.Ordinal)
    {
        ["select1.test"] = 1000,
        ["select2.test"] = 1000,
        ["select3.test"] = 3320,
    };

    [ConformanceTheory]
    [InlineData("select1.test")]
    [InlineData("select2.test")]
    [InlineData("select3.test")]
    public void Every_query_of_the_select_files_passes_with_sharc(string file)
    {
        var result = Run(file);
        result.Failed.Should().Be(0, Describe(result));
        result.QueriesPassed.Should().Be(QueryCounts[file]);
    }

    [ConformanceTheory]
    [InlineData("evidence/in1.test")]
    [InlineData("evidence/in2.test")]
    public void Every_record_of_the_in_files_passes_joins_included(string file)
    {
        var result = Run(file);
        result.Failed.Should().Be(0, Describe(result));
    }

    public static IEnumerable<object[]> OtherFiles()
    {
        if (Infrastructure.Conformance.Directory is null) return [["(absent)"]];
        return new[] { "evidence", "index" }
            .SelectMany(sub => Directory.GetFiles(Path.Combine(Root, sub), "*.test", SearchOption.AllDirectories))
            .Select(f => Path.GetRelativePath(Root, f).Replace('\\', '/'))
            .OrderBy(f => f, StringComparer.Ordinal)
            .Select(f => new object[] { f });
    }

    [ConformanceTheory]
    [MemberData(nameof(OtherFiles))]
    public void Every_record_of_the_evidence_and_index_files_passes(string file)
    {
        var result = Run(file);
        result.Passed.Should().BeGreaterThan(0);
        result.Failed.Should().Be(0, Describe(result));
    }

    private SltFileResult Run(string file)
    {
        var clock = Stopwatch.StartNew();
        var result = new SltRunner(SltEngines.Sharc!).RunFile(Path.Combine(Root, file));
        output.WriteLine($"{file}: {result.Passed} passed ({result.QueriesPassed} queries), {result.Failed} failed, {result.Skipped} skipped in {clock.Elapsed.TotalSeconds:F1}s");
        return result;
    }

    private static string Describe(SltFileResult result)
    {
        var sb = new StringBuilder("the first failures:\n");
        foreach (var f in result.Failures.Take(5))
        {
            sb.Append(f.File).Append(':').Append(f.Line).Append(": ").Append(f.Message).Append('\n');
            sb.Append("  ").Append(f.Sql.ReplaceLineEndings(" ")).Append('\n');
        }
        return sb.ToString();
    }
}
