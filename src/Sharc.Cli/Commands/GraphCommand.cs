using System.Text;
using Sharc.Cli.GraphVerbs;
using Sharc.Graph;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc graph &lt;verb&gt; &lt;db&gt; …</c>: graph traversals over a database through Sharc.Graph, one JSON value
/// per line. A verb is an <see cref="IGraphVerb"/>; adding one is a class and a line in <see cref="Verbs"/>.
/// </summary>
internal sealed class GraphCommand : ICommand
{
    private static readonly IGraphVerb[] Verbs =
    [
        new NeighborsVerb(),
        new BfsVerb(),
        new PathVerb(),
        new StatsVerb(),
        new PageRankVerb(),
        new ComponentsVerb(),
    ];

    /// <summary>The options that map the graph onto tables; every verb takes them.</summary>
    private static readonly OptionSpec[] MappingOptions =
    [
        new("nodes", null, "table", "the node table"),
        new("node-key", null, "col", "its key column (INTEGER or TEXT)"),
        new("edges", null, "table", "the edge table"),
        new("edge-source", null, "col", "its column holding the source node's key"),
        new("edge-target", null, "col", "its column holding the target node's key"),
        new("edge-kind", null, "col", "its kind column (optional)"),
        new("edge-weight", null, "col", "its weight column (optional)"),
    ];

    private static readonly string[] RequiredMapping = ["nodes", "node-key", "edges", "edge-source", "edge-target"];

    public string Name => "graph";

    public string Synopsis => "graph <verb> <db> ... [mapping options]";

    public string Summary => "walk a graph kept in tables: " + string.Join(", ", Verbs.Select(v => v.Name));

    public string Help
    {
        get
        {
            var sb = new StringBuilder();
            sb.Append("usage:\n");
            foreach (var v in Verbs) sb.Append("  sharc graph ").Append(v.Synopsis).Append('\n');
            sb.Append('\n');
            sb.Append("Reads a graph whose nodes and edges are rows of two tables, following edges through indexes only\n");
            sb.Append("(a missing index is an error that names the CREATE INDEX to run). Prints one JSON value per line.\n");
            sb.Append("Keys are printed as stored (numbers or strings); a key argument is read as the graph's key type.\n");
            sb.Append('\n');
            sb.Append("verbs:\n");
            foreach (var v in Verbs)
            {
                sb.Append("  ").Append(v.Name).Append('\n');
                sb.Append(Indent(v.Description, "  "));
                if (v.Options.Count > 0) sb.Append(Indent(CommandLine.DescribeOptions(v.Options, withHelp: false), "    "));
            }
            sb.Append('\n');
            sb.Append("mapping options (all verbs; without them, the default layout _concepts/_relations):\n");
            sb.Append(CommandLine.DescribeOptions(MappingOptions));
            sb.Append("  With any of them, --nodes, --node-key, --edges, --edge-source and --edge-target are all needed.\n");
            sb.Append('\n');
            sb.Append("Exit codes: 0 success, 1 data error (missing table, column or index, bad file), 2 usage error\n");
            sb.Append("(unknown verb or option, a key that is not of the graph's key type).\n");
            return sb.ToString();
        }
    }

    private static string Indent(string lines, string pad)
        => string.Concat(lines.Split('\n').Select(l => l.Length == 0 ? "" : pad + l + "\n"));

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        string names = string.Join(", ", Verbs.Select(v => v.Name));
        if (args.Length == 0 || args[0].StartsWith('-'))
            throw CliException.UsageError($"graph: missing <verb> (one of {names}; see 'sharc graph --help')");
        var verb = Array.Find(Verbs, v => v.Name == args[0])
            ?? throw CliException.UsageError($"graph: unknown verb '{args[0]}' (one of {names}; see 'sharc graph --help')");
        string command = "graph " + verb.Name;
        var line = CommandLine.Parse(command, args[1..], [.. verb.Options, .. MappingOptions]);
        var p = line.Expect(["db", .. verb.Arguments]);
        var schema = Mapping(command, line);
        using var db = DatabaseFile.Open(p[0]);
        var graph = new SharcGraph(db, schema);
        verb.Run(new GraphInvocation(command, graph, line, p[1..]), stdout);
        return Program.ExitOk;
    }

    /// <summary>The mapping the options give, or the default layout when none is given.</summary>
    private static GraphSchema Mapping(string command, CommandLine line)
    {
        if (!MappingOptions.Any(o => line.Has(o.Name))) return GraphSchema.Default;
        var missing = RequiredMapping.Where(o => !line.Has(o)).ToList();
        if (missing.Count > 0)
            throw CliException.UsageError($"{command}: a mapping also needs {string.Join(", ", missing.Select(o => "--" + o))}");
        return new GraphSchema(line.Get("nodes")!, line.Get("node-key")!, line.Get("edges")!, line.Get("edge-source")!, line.Get("edge-target")!)
        {
            EdgeKind = line.Get("edge-kind"),
            EdgeWeight = line.Get("edge-weight"),
        };
    }
}
