namespace Sharc.Cli.Commands;

/// <summary>One <c>sharc</c> subcommand.</summary>
internal interface ICommand
{
    /// <summary>The word that selects the command ("dump").</summary>
    string Name { get; }

    /// <summary>The command's arguments in usage form ("dump &lt;db&gt; &lt;table-or-index&gt; [--format …]").</summary>
    string Synopsis { get; }

    /// <summary>One line saying what the command does.</summary>
    string Summary { get; }

    /// <summary>The full help text printed by <c>sharc &lt;command&gt; --help</c>, ending with a newline.</summary>
    string Help { get; }

    /// <summary>
    /// Runs the command on its arguments (the ones after the command name). Returns the exit code; throws
    /// <see cref="CliException"/> (or a <see cref="SharcException"/>) for expected failures.
    /// </summary>
    int Execute(string[] args, TextWriter stdout, TextWriter stderr);
}
