using Sharc.Cli.Commands;
using Sharc.Graph;

namespace Sharc.Cli.GraphVerbs;

/// <summary><c>sharc graph stats &lt;db&gt;</c>: node and edge counts and the spread of degrees, from one pass over each table.</summary>
internal sealed class StatsVerb : IGraphVerb
{
    public string Name => "stats";

    public IReadOnlyList<string> Arguments { get; } = [];

    public IReadOnlyList<OptionSpec> Options { get; } = [];

    public string Synopsis => "stats <db>";

    public string Description =>
        "  one line: {\"nodes\":N,\"edges\":M,\"out_degree\":{\"min\":…,\"max\":…,\"mean\":…},\"in_degree\":{…}}.\n" +
        "  Nodes are the distinct keys of the node table and of the edges' ends (the graph is its edges); edges are\n" +
        "  the edge table's rows. An edge end that is NULL or of another type than the keys adds to no degree.\n" +
        "  Without nodes, min, max and mean are null. Reads both tables whole.\n";

    public void Run(GraphInvocation call, TextWriter stdout)
    {
        var degrees = call.TextKeys ? Count(call.Graph, new Degrees<string>(), r => r.GetString(0)!, SharcColumnType.Text)
                                    : Count(call.Graph, new Degrees<long>(), r => r.GetInt64(0), SharcColumnType.Integer);
        stdout.Write("{\"nodes\":");
        GraphJson.Write(stdout, degrees.Nodes);
        stdout.Write(",\"edges\":");
        GraphJson.Write(stdout, degrees.Edges);
        stdout.Write(",\"out_degree\":");
        WriteSpread(stdout, degrees.Out, degrees.Nodes);
        stdout.Write(",\"in_degree\":");
        WriteSpread(stdout, degrees.In, degrees.Nodes);
        stdout.Write("}\n");
    }

    private static IDegrees Count<TKey>(SharcGraph graph, Degrees<TKey> degrees, Func<SharcDataReader, TKey> key, SharcColumnType keyType)
        where TKey : notnull
    {
        var schema = graph.Schema;
        var db = graph.Database;
        using (var nodes = db.CreateReader(schema.NodeTable, schema.NodeKey))
            while (nodes.Read())
                if (nodes.GetColumnType(0) == keyType) degrees.Id(key(nodes));
        // Each end is read on its own (ordinal 0) so one key reader serves both.
        using var sources = db.CreateReader(schema.EdgeTable, schema.EdgeSource);
        while (sources.Read())
        {
            degrees.Edges++;
            if (sources.GetColumnType(0) == keyType) degrees.Out[degrees.Id(key(sources))]++;
        }
        using var targets = db.CreateReader(schema.EdgeTable, schema.EdgeTarget);
        while (targets.Read())
            if (targets.GetColumnType(0) == keyType) degrees.In[degrees.Id(key(targets))]++;
        return degrees;
    }

    private static void WriteSpread(TextWriter stdout, List<int> degree, int nodes)
    {
        if (nodes == 0)
        {
            stdout.Write("{\"min\":null,\"max\":null,\"mean\":null}");
            return;
        }
        int min = int.MaxValue, max = 0;
        long sum = 0;
        foreach (int d in degree)
        {
            min = Math.Min(min, d);
            max = Math.Max(max, d);
            sum += d;
        }
        stdout.Write("{\"min\":");
        GraphJson.Write(stdout, min);
        stdout.Write(",\"max\":");
        GraphJson.Write(stdout, max);
        stdout.Write(",\"mean\":");
        GraphJson.Write(stdout, (double)sum / nodes);
        stdout.Write('}');
    }

    private interface IDegrees
    {
        int Nodes { get; }
        long Edges { get; }
        List<int> Out { get; }
        List<int> In { get; }
    }

    /// <summary>Out- and in-degree per distinct key, keys numbered in order of first sight.</summary>
    private sealed class Degrees<TKey> : IDegrees where TKey : notnull
    {
        private readonly Dictionary<TKey, int> _ids = [];

        public int Nodes => _ids.Count;
        public long Edges { get; set; }
        public List<int> Out { get; } = [];
        public List<int> In { get; } = [];

        public int Id(TKey key)
        {
            if (_ids.TryGetValue(key, out int id)) return id;
            _ids.Add(key, id = _ids.Count);
            Out.Add(0);
            In.Add(0);
            return id;
        }
    }
}
