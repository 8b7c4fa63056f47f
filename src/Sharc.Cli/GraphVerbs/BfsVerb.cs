using Sharc.Cli.Commands;
using Sharc.Graph;

namespace Sharc.Cli.GraphVerbs;

/// <summary><c>sharc graph bfs &lt;db&gt; &lt;key&gt;</c>: every node reached breadth-first, with its depth.</summary>
internal sealed class BfsVerb : IGraphVerb
{
    public string Name => "bfs";

    public IReadOnlyList<string> Arguments { get; } = ["key"];

    public IReadOnlyList<OptionSpec> Options { get; } =
    [
        GraphInvocation.DirectionOption,
        GraphInvocation.KindOption,
        new("min-depth", null, "n", "print only nodes at least this deep (default 0: the start too)"),
        new("max-depth", null, "n", "go no deeper than this (default: unlimited)"),
    ];

    public string Synopsis => "bfs <db> <key> [--direction out|in|both] [--kind K] [--min-depth N] [--max-depth N]";

    public string Description =>
        "  one line per node reached from <key>: [key, depth], in breadth-first order (the start at depth 0).\n";

    public void Run(GraphInvocation call, TextWriter stdout)
    {
        var key = call.Key(0, "key");
        var options = new BfsOptions
        {
            Direction = call.Direction(),
            Kind = call.Kind(),
            MinDepth = call.Count("min-depth", 0),
            MaxDepth = call.Count("max-depth", int.MaxValue),
        };
        using var bfs = call.Graph.PrepareBfs(options);
        if (key.Text is not null) bfs.Execute(key.Text);
        else bfs.Execute(key.Int64);
        for (int v = bfs.FirstResult; v < bfs.VisitedCount; v++)
        {
            stdout.Write('[');
            if (call.TextKeys) GraphJson.Write(stdout, bfs.GetKeyUtf8(v));
            else GraphJson.Write(stdout, bfs.GetKeyInt64(v));
            stdout.Write(',');
            GraphJson.Write(stdout, bfs.GetDepth(v));
            stdout.Write("]\n");
        }
    }
}
