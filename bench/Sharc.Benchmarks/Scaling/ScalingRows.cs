namespace Sharc.Benchmarks.Scaling;

/// <summary>
/// The table sizes every Scaling class runs at: 10K, 100K, 1M and 10M rows. The 10M-row file is about 1.7 GB and
/// takes minutes to build the first time (it is cached, see <see cref="Fixtures.UsersData.Folder"/>); the variable
/// <c>SHARC_SCALING_ROWS</c> (comma-separated counts, for example <c>10000,100000</c>) picks other sizes, so a smoke
/// run need not build it.
/// </summary>
public static class ScalingRows
{
    /// <summary>The variable that overrides the sizes.</summary>
    public const string Variable = "SHARC_SCALING_ROWS";

    private static readonly int[] Default = [10_000, 100_000, 1_000_000, 10_000_000];

    /// <summary>The sizes to run: the override's, or the default four.</summary>
    public static IEnumerable<int> Counts
    {
        get
        {
            var text = Environment.GetEnvironmentVariable(Variable);
            if (string.IsNullOrWhiteSpace(text)) return Default;
            return text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .Select(s => int.Parse(s, System.Globalization.CultureInfo.InvariantCulture)).ToArray();
        }
    }
}
