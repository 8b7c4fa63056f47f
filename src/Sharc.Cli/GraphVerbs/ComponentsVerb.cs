using Sharc.Cli.Commands;

namespace Sharc.Cli.GraphVerbs;

/// <summary><c>sharc graph components &lt;db&gt;</c>: the weakly connected component of every node.</summary>
internal sealed class ComponentsVerb : IGraphVerb
{
    public string Name => "components";

    public IReadOnlyList<string> Arguments { get; } = [];

    public IReadOnlyList<OptionSpec> Options { get; } = [GraphInvocation.KindOption];

    public string Synopsis => "components <db> [--kind K]";

    public string Description =>
        "  one line per node: [key, component], in key order. Components are weakly connected (edges followed either\n" +
        "  way), numbered from 0 in order of their smallest key. Loads the graph into memory first.\n";

    public void Run(GraphInvocation call, TextWriter stdout)
    {
        var snapshot = call.Graph.LoadSnapshot(call.Kind());
        var components = snapshot.ConnectedComponents();
        for (int node = 0; node < snapshot.NodeCount; node++)
        {
            SnapshotVerb.BeginLine(stdout, snapshot, node);
            GraphJson.Write(stdout, components.ComponentOf[node]);
            stdout.Write("]\n");
        }
    }
}
