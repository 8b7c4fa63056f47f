using Sharc.Cli.Commands;

namespace Sharc.Cli.GraphVerbs;

/// <summary>One verb of <c>sharc graph</c>: its arguments after the database, its own options, and what it prints.</summary>
internal interface IGraphVerb
{
    /// <summary>The word that selects the verb ("bfs").</summary>
    string Name { get; }

    /// <summary>The positional arguments after &lt;db&gt;, by name ("key").</summary>
    IReadOnlyList<string> Arguments { get; }

    /// <summary>The verb's own options (the mapping options are added by <see cref="Commands.GraphCommand"/>).</summary>
    IReadOnlyList<OptionSpec> Options { get; }

    /// <summary>The verb's usage line after "sharc graph ", without the mapping options.</summary>
    string Synopsis { get; }

    /// <summary>What the verb prints, for the help text (one or more lines, each ending with a newline).</summary>
    string Description { get; }

    /// <summary>Runs the verb on an opened graph; throws <see cref="CliException"/> or a SharcException for expected failures.</summary>
    void Run(GraphInvocation call, TextWriter stdout);
}
