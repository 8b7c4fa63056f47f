using System.Globalization;
using Sharc.Cli.Commands;
using Sharc.Graph;

namespace Sharc.Cli.GraphVerbs;

/// <summary>One run of a graph verb: the opened graph, the parsed command line, and parsers for what verbs share.</summary>
internal sealed class GraphInvocation(string command, SharcGraph graph, CommandLine line, IReadOnlyList<string> arguments)
{
    /// <summary>"graph &lt;verb&gt;", for error messages.</summary>
    public string Command { get; } = command;

    /// <summary>The graph the verb reads.</summary>
    public SharcGraph Graph { get; } = graph;

    /// <summary>The parsed command line (options included).</summary>
    public CommandLine Line { get; } = line;

    /// <summary>The positional arguments after &lt;db&gt;, in the order the verb names them.</summary>
    public IReadOnlyList<string> Arguments { get; } = arguments;

    /// <summary>True for a text-keyed graph.</summary>
    public bool TextKeys => Graph.KeyType == GraphKeyType.Text;

    /// <summary>
    /// Parses argument <paramref name="i"/> as a node key (the library's <see cref="GraphKey"/>): an integer for an
    /// integer-keyed graph (anything else is a usage error naming the key column), the text as given for a text-keyed one.
    /// </summary>
    public GraphKey Key(int i, string name)
    {
        string text = Arguments[i];
        if (TextKeys) return new GraphKey(text);
        if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long key)) return new GraphKey(key);
        throw CliException.UsageError(
            $"{Command}: <{name}> '{text}' is not an integer, and this graph's node keys ({Graph.Schema.NodeTable}.{Graph.Schema.NodeKey}) are integers");
    }

    /// <summary>The --direction option (default out).</summary>
    public GraphDirection Direction() => Line.Get("direction") switch
    {
        null or "out" => GraphDirection.Out,
        "in" => GraphDirection.In,
        "both" => GraphDirection.Both,
        var other => throw CliException.UsageError($"{Command}: --direction must be out, in or both, not '{other}'"),
    };

    /// <summary>The --kind option, or null.</summary>
    public string? Kind() => Line.Get("kind");

    /// <summary>A non-negative integer option, or <paramref name="absent"/> when not given.</summary>
    public int Count(string option, int absent)
    {
        string? text = Line.Get(option);
        if (text is null) return absent;
        if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out int n)) return n;
        throw CliException.UsageError($"{Command}: --{option} needs a non-negative integer, not '{text}'");
    }

    /// <summary>The shared options of the verbs that follow edges.</summary>
    public static readonly OptionSpec DirectionOption = new("direction", 'd', "out|in|both", "which edges to follow (default out)");

    /// <summary>See <see cref="DirectionOption"/>.</summary>
    public static readonly OptionSpec KindOption = new("kind", 'k', "kind", "follow only edges of this kind (needs an edge kind column)");
}
