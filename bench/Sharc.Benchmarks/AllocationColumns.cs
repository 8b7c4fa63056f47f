using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Sharc.Benchmarks;

/// <summary>
/// Exact "Allocated" and "Alloc Ratio" columns. BenchmarkDotNet 0.14 (the suites' first version) did not recognise .NET 10 as a runtime, and
/// for unrecognised runtimes it applies an old .NET Core 1.x workaround: when a measured iteration allocated no more
/// than one allocation quantum (about 8 KB) in total, it reports 0. A slow operation run only a few times per
/// iteration — a 1M-row scan — would then show SQLite's (or Sharc's) few hundred bytes per call as "-". These
/// columns divide the raw, precise byte count (<c>GC.GetTotalAllocatedBytes(precise: true)</c>) by the operation
/// count instead, and replace the built-in pair (see <see cref="ColumnsWithExactAllocation"/>). The raw count
/// includes BenchmarkDotNet's own bookkeeping in the measured iteration (about 0.7 KB per iteration), which only
/// shows in operations run a few times per iteration; docs/BENCHMARKS.md explains how to read those rows.
/// </summary>
internal sealed class ExactAllocationColumn : IColumn
{
    public static readonly ExactAllocationColumn Allocated = new(ratio: false);
    public static readonly ExactAllocationColumn AllocRatio = new(ratio: true);

    private readonly bool _ratio;

    private ExactAllocationColumn(bool ratio) => _ratio = ratio;

    public string Id => _ratio ? "Sharc.ExactAllocRatio" : "Sharc.ExactAllocated";
    public string ColumnName => _ratio ? "Alloc Ratio" : "Allocated";
    public bool AlwaysShow => true;
    public ColumnCategory Category => ColumnCategory.Metric;
    public int PriorityInCategory => _ratio ? 1001 : 1000;
    public bool IsNumeric => true;
    public UnitType UnitType => _ratio ? UnitType.Dimensionless : UnitType.Size;
    public string Legend => _ratio
        ? "Allocated bytes per operation ÷ the baseline's (exact; NA when the baseline allocates nothing)"
        : "Managed memory allocated per operation, exact (1 KB = 1024 B)";

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary)
        => summary.Reports.Any(r => r.GcStats.TotalOperations > 0) && (!_ratio || summary.BenchmarksCases.Any(b => b.Descriptor.Baseline));

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        double? bytes = BytesPerOperation(summary, benchmarkCase);
        if (bytes is null) return "?";
        if (!_ratio) return FormatSize(bytes.Value, style);

        var baseline = summary.GetBaseline(summary.GetLogicalGroupKey(benchmarkCase));
        double? baseBytes = baseline is null ? null : BytesPerOperation(summary, baseline);
        if (baseBytes is null || baseBytes.Value == 0) return "NA";
        return (bytes.Value / baseBytes.Value).ToString("0.00", style.CultureInfo);
    }

    public override string ToString() => ColumnName;

    private static double? BytesPerOperation(Summary summary, BenchmarkCase benchmarkCase)
    {
        var report = summary[benchmarkCase];
        if (report is null) return null;
        var gc = report.GcStats;
        long? total = gc.GetTotalAllocatedBytes(excludeAllocationQuantumSideEffects: false);
        if (total is null || gc.TotalOperations <= 0) return null;
        return (double)total.Value / gc.TotalOperations;
    }

    private static string FormatSize(double bytes, SummaryStyle style)
    {
        CultureInfo culture = style.CultureInfo;
        // As BenchmarkDotNet does, a table for people shows no allocation as "-"; the CSV (no units in cells) shows 0.
        if (Math.Round(bytes) == 0 && style.PrintUnitsInContent) return "-";
        if (style.SizeUnit is { } fixedUnit)
        {
            string number = (bytes / fixedUnit.BaseUnits).ToString(fixedUnit.BaseUnits == 1 ? "0" : "0.##", culture);
            return style.PrintUnitsInContent ? $"{number} {fixedUnit.Abbreviation}" : number;
        }
        if (bytes < 1024) return $"{bytes.ToString("0", culture)} B";
        if (bytes < 1024 * 1024) return $"{(bytes / 1024).ToString("0.##", culture)} KB";
        return $"{(bytes / (1024 * 1024)).ToString("0.##", culture)} MB";
    }
}

/// <summary>
/// Wraps BenchmarkDotNet's default column providers, dropping their Allocated / Alloc Ratio columns (from the
/// metrics and statistics providers) and adding <see cref="ExactAllocationColumn"/>'s pair once, so every report
/// (Markdown, CSV, HTML) has exactly one of each.
/// </summary>
internal sealed class ColumnsWithExactAllocation(IEnumerable<IColumnProvider> inner) : IColumnProvider
{
    private readonly IColumnProvider[] _inner = [.. inner];

    public IEnumerable<IColumn> GetColumns(Summary summary)
    {
        foreach (var provider in _inner)
        {
            foreach (var column in provider.GetColumns(summary))
            {
                if (column.ColumnName is "Allocated" or "Alloc Ratio") continue;
                yield return column;
            }
        }
        yield return ExactAllocationColumn.Allocated;
        yield return ExactAllocationColumn.AllocRatio;
    }
}
