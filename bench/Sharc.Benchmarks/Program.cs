using BenchmarkDotNet.Running;

namespace Sharc.Benchmarks;

/// <summary>
/// Entry point: the standard BenchmarkDotNet command line (--filter, --job, --exporters …) over
/// <see cref="BenchConfig"/>. Suites are namespaces: Core, Index, Scaling, Graph, Primitives, Realistic
/// (for example <c>--filter '*Core*'</c>). See docs/BENCHMARKS.md.
/// </summary>
public static class Program
{
    public static void Main(string[] args)
    {
        // The data files (up to the 10M-row Scaling table, about 1.7 GB) are cached beside the results, where a
        // rerun finds them; the benchmark processes BenchmarkDotNet starts inherit the variable.
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable(Fixtures.UsersData.FolderVariable)))
            Environment.SetEnvironmentVariable(Fixtures.UsersData.FolderVariable, Path.GetFullPath(Path.Combine("BenchmarkDotNet.Artifacts", "data")));
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(WithoutCsvExporterFlag(args), BenchConfig.Create());
    }

    /// <summary>
    /// The configuration always writes the CSV report with its own settings; BenchmarkDotNet's <c>--exporters csv</c>
    /// would add a second CSV exporter writing the same file with default settings, so "csv" is dropped from that
    /// option (and the option itself when nothing else is left).
    /// </summary>
    internal static string[] WithoutCsvExporterFlag(string[] args)
    {
        var result = new List<string>(args.Length);
        for (int i = 0; i < args.Length; i++)
        {
            if (!string.Equals(args[i], "--exporters", StringComparison.OrdinalIgnoreCase))
            {
                result.Add(args[i]);
                continue;
            }
            var values = new List<string>();
            while (i + 1 < args.Length && !args[i + 1].StartsWith('-'))
            {
                i++;
                if (!string.Equals(args[i], "csv", StringComparison.OrdinalIgnoreCase)) values.Add(args[i]);
            }
            if (values.Count > 0)
            {
                result.Add("--exporters");
                result.AddRange(values);
            }
        }
        return [.. result];
    }
}
