using Sharc.Cli.Shell;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc shell &lt;db&gt;</c>: an interactive SQL prompt in the manner of the sqlite3 shell: statements may span
/// lines and run when a ';' completes them, dot-commands (<c>.tables</c>, <c>.schema</c>, <c>.mode</c>,
/// <c>.headers</c>, <c>.timer</c>, <c>.help</c>, <c>.quit</c>) control it. On a terminal lines are edited with the
/// arrow keys and a history; from redirected input lines are read as a script, without prompts.
/// </summary>
internal sealed class ShellCommand : ICommand
{
    private static readonly OptionSpec[] Options = [];

    public string Name => "shell";

    public string Synopsis => "shell <db>";

    public string Summary => "interactive SQL prompt, like the sqlite3 shell (reads and writes)";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Opens the database (created at the first statement when it does not exist) and reads SQL statements and\n" +
        "dot-commands. A statement runs when a ';' ends it, and may span lines. On a terminal: arrow keys and\n" +
        "Home/End edit the line, Up/Down walk the history (kept in ~/.sharc_history), Ctrl-C abandons the statement\n" +
        "being typed or stops the one running, Ctrl-D on an empty line leaves. From redirected input (sharc shell app.db < script.sql) lines\n" +
        "are read without prompts and the mode is list without headers, as in sqlite3; the exit status is 1 if any\n" +
        "statement failed. Errors are reported and the shell goes on. A transaction left open is rolled back.\n" +
        "\n" +
        "dot-commands:\n" +
        string.Concat(ShellSession.HelpText.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => "  " + l + "\n")) +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options);

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        string path = line.Expect("db")[0];
        DatabaseFile.RefuseDirectory(path);

        var console = CliConsole.Current;
        bool interactive = console.StdinIsTerminal && console.StdoutIsTerminal;
        using var session = new ShellSession(path, stdout, stderr, interactive);
        if (!interactive)
        {
            session.Run(new PlainLineReader(console.Stdin));
            return session.HadError ? Program.ExitDataError : Program.ExitOk;
        }

        stdout.Write($"sharc {Program.Version} shell on {path}\nEnter \".help\" for usage hints, \".quit\" to leave.\n");
        var history = History.Load();
        try
        {
            session.Run(new LineEditor(stdout, history));
        }
        finally
        {
            history.Save();
        }
        return Program.ExitOk;
    }
}
