using Sharc.Cli.Commands;
using Sharc.Cli.Output;
using Sharc.Graph;

namespace Sharc.Cli.GraphVerbs;

/// <summary><c>sharc graph neighbors &lt;db&gt; &lt;key&gt;</c>: the edges around one node, through the edge indexes.</summary>
internal sealed class NeighborsVerb : IGraphVerb
{
    public string Name => "neighbors";

    public IReadOnlyList<string> Arguments { get; } = ["key"];

    public IReadOnlyList<OptionSpec> Options { get; } = [GraphInvocation.DirectionOption, GraphInvocation.KindOption];

    public string Synopsis => "neighbors <db> <key> [--direction out|in|both] [--kind K]";

    public string Description =>
        "  one line per edge of <key>: [neighbour, kind, weight], in index order (by kind, then neighbour);\n" +
        "  with --direction both the outgoing edges come first, then the incoming ones (a self-loop is in each).\n" +
        "  The neighbour and kind are printed as stored; the weight is the one traversals use (1.0 when NULL or unmapped).\n";

    public void Run(GraphInvocation call, TextWriter stdout)
    {
        var key = call.Key(0, "key");
        var graph = call.Graph;
        var schema = graph.Schema;
        using var edges = graph.PrepareEdges(call.Direction(), call.Kind());
        // The cursor gives the neighbour as the graph's key type; the edge row gives it as stored, whatever its type.
        string[] columns = schema.EdgeKind is null ? [schema.EdgeSource, schema.EdgeTarget] : [schema.EdgeSource, schema.EdgeTarget, schema.EdgeKind];
        using var rows = graph.Database.PrepareReader(schema.EdgeTable, columns);
        var row = new ReaderRow(rows);
        if (key.Text is not null) edges.Reset(key.Text);
        else edges.Reset(key.Int64);
        while (edges.MoveNext())
        {
            if (!rows.Seek(edges.EdgeRowId))
                throw CliException.DataError($"{schema.EdgeTable}: an index holds edge rowid {edges.EdgeRowId}, which the table lacks (run 'sharc check')");
            stdout.Write('[');
            JsonlWriter.WriteValue(stdout, row, edges.EdgeDirection == GraphDirection.Out ? 1 : 0);
            stdout.Write(',');
            if (schema.EdgeKind is null) stdout.Write("null");
            else JsonlWriter.WriteValue(stdout, row, 2);
            stdout.Write(',');
            GraphJson.Write(stdout, edges.Weight);
            stdout.Write("]\n");
        }
    }
}
