using System.Globalization;
using Sharc.Cli.Commands;
using Sharc.Graph;

namespace Sharc.Cli.GraphVerbs;

/// <summary><c>sharc graph pagerank &lt;db&gt;</c>: every node's PageRank, from an in-memory snapshot of the graph.</summary>
internal sealed class PageRankVerb : IGraphVerb
{
    public string Name => "pagerank";

    public IReadOnlyList<string> Arguments { get; } = [];

    public IReadOnlyList<OptionSpec> Options { get; } =
    [
        GraphInvocation.KindOption,
        new("damping", null, "d", "the damping factor, 0 to 1 (default 0.85)"),
        new("iterations", null, "n", "stop after this many iterations (default 100)"),
        new("tolerance", null, "t", "stop when the ranks change by less than this in total (L1; default 1e-6)"),
    ];

    public string Synopsis => "pagerank <db> [--damping 0.85] [--iterations N] [--tolerance T] [--kind K]";

    public string Description =>
        "  one line per node: [key, rank], in key order; the ranks sum to 1. Each edge row counts (parallel edges as\n" +
        "  often as stored), a node without outgoing edges spreads its rank over all nodes. Nodes are the node table's\n" +
        "  keys and the edges' ends. Loads the graph into memory first (about 16 bytes a node and 8 an edge).\n";

    public void Run(GraphInvocation call, TextWriter stdout)
    {
        var defaults = new PageRankOptions();
        var options = new PageRankOptions
        {
            Damping = Real(call, "damping", defaults.Damping),
            MaxIterations = call.Count("iterations", defaults.MaxIterations),
            Tolerance = Real(call, "tolerance", defaults.Tolerance),
        };
        var snapshot = call.Graph.LoadSnapshot(call.Kind());
        PageRankResult result;
        try
        {
            result = snapshot.PageRank(options);
        }
        catch (ArgumentOutOfRangeException e)
        {
            // The library names its option properties; say it with the tool's option names.
            string why = e.Message.Split(" (Parameter")[0]
                .Replace("MaxIterations", "--iterations", StringComparison.Ordinal)
                .Replace("Damping", "--damping", StringComparison.Ordinal)
                .Replace("Tolerance", "--tolerance", StringComparison.Ordinal);
            throw CliException.UsageError($"{call.Command}: {why}");
        }
        for (int node = 0; node < snapshot.NodeCount; node++)
        {
            SnapshotVerb.BeginLine(stdout, snapshot, node);
            GraphJson.Write(stdout, result.Ranks[node]);
            stdout.Write("]\n");
        }
    }

    private static double Real(GraphInvocation call, string option, double absent)
    {
        string? text = call.Line.Get(option);
        if (text is null) return absent;
        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) && double.IsFinite(value)) return value;
        throw CliException.UsageError($"{call.Command}: --{option} needs a number, not '{text}'");
    }
}
