using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;
using BenchmarkDotNet.Reports;

namespace Sharc.Benchmarks;

/// <summary>
/// The configuration every run uses (on top of the command line). The summary table, and so the CSV report, always
/// carries the Categories column and, in every class with a baseline, the Ratio column (Sharc ÷ its SQLite twin in
/// the same category) and exact Allocated / Alloc Ratio columns (<see cref="ExactAllocationColumn"/>). Markdown,
/// HTML and CSV reports are always written; <c>--exporters json</c> adds the JSON report (<c>--exporters csv</c> is
/// accepted and changes nothing, see <see cref="Program"/>). The CSV uses invariant-culture numbers without digit
/// grouping, a comma separator, and units in the header (ns, B), wherever the run happens.
/// </summary>
public static class BenchConfig
{
    /// <summary>The CSV exporter: invariant culture, comma separated, units in the header so cells are plain numbers.</summary>
    public static readonly CsvExporter Csv = new(
        CsvSeparator.Comma,
        new SummaryStyle(PlainNumbers(), printUnitsInHeader: true, Perfolizer.Metrology.SizeUnit.B, Perfolizer.Horology.TimeUnit.Nanosecond,
            printUnitsInContent: false, printZeroValuesInContent: true, ratioStyle: RatioStyle.Value));

    /// <summary>Invariant culture without digit grouping, so CSV cells parse as plain numbers.</summary>
    private static CultureInfo PlainNumbers()
    {
        var culture = (CultureInfo)CultureInfo.InvariantCulture.Clone();
        culture.NumberFormat.NumberGroupSeparator = "";
        return culture;
    }

    /// <summary>Builds the configuration.</summary>
    public static IConfig Create()
    {
        var baseConfig = DefaultConfig.Instance;
        var config = ManualConfig.CreateEmpty()
            .AddLogger(baseConfig.GetLoggers().ToArray())
            .AddColumnProvider(new ColumnsWithExactAllocation(baseConfig.GetColumnProviders()))
            .AddColumn(CategoriesColumn.Default)
            .AddAnalyser(baseConfig.GetAnalysers().ToArray())
            .AddValidator(baseConfig.GetValidators().ToArray())
            .AddExporter(MarkdownExporter.GitHub, HtmlExporter.Default, Csv)
            .WithSummaryStyle(SummaryStyle.Default.WithRatioStyle(RatioStyle.Value).WithCultureInfo(CultureInfo.InvariantCulture))
            .WithArtifactsPath(baseConfig.ArtifactsPath);
        return config;
    }
}
