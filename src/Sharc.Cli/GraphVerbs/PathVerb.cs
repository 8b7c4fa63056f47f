using Sharc.Cli.Commands;

namespace Sharc.Cli.GraphVerbs;

/// <summary><c>sharc graph path &lt;db&gt; &lt;from&gt; &lt;to&gt;</c>: one shortest path, by hops or by weight.</summary>
internal sealed class PathVerb : IGraphVerb
{
    public string Name => "path";

    public IReadOnlyList<string> Arguments { get; } = ["from", "to"];

    public IReadOnlyList<OptionSpec> Options { get; } =
    [
        GraphInvocation.DirectionOption,
        GraphInvocation.KindOption,
        new("weighted", 'w', null, "least total weight (Dijkstra) instead of fewest edges"),
    ];

    public string Synopsis => "path <db> <from> <to> [--direction out|in|both] [--kind K] [--weighted]";

    public string Description =>
        "  one line: {\"length\": L, \"path\": [from, …, to]} where L is the number of edges (an integer) or, with\n" +
        "  --weighted, the total weight (a real); null when <to> cannot be reached. A negative weight is an error.\n";

    public void Run(GraphInvocation call, TextWriter stdout)
    {
        var from = call.Key(0, "from");
        var to = call.Key(1, "to");
        bool weighted = call.Line.Has("weighted");
        using var search = call.Graph.PrepareShortestPath(call.Direction(), call.Kind());
        bool found = (from.Text, to.Text, weighted) switch
        {
            (not null, not null, true) => search.TryFindLeastWeight(from.Text, to.Text),
            (not null, not null, false) => search.TryFindFewestHops(from.Text, to.Text),
            (_, _, true) => search.TryFindLeastWeight(from.Int64, to.Int64),
            _ => search.TryFindFewestHops(from.Int64, to.Int64),
        };
        if (!found)
        {
            stdout.Write("null\n");
            return;
        }
        stdout.Write("{\"length\":");
        if (weighted) GraphJson.Write(stdout, search.TotalWeight);
        else GraphJson.Write(stdout, search.Hops);
        stdout.Write(",\"path\":[");
        for (int i = 0; i < search.NodeCount; i++)
        {
            if (i > 0) stdout.Write(',');
            if (call.TextKeys) GraphJson.Write(stdout, search.GetNodeUtf8(i));
            else GraphJson.Write(stdout, search.GetNodeInt64(i));
        }
        stdout.Write("]}\n");
    }
}
