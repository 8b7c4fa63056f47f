namespace Sharc.Cli.Shell;

/// <summary>Where the shell's input lines come from.</summary>
internal interface ILineReader
{
    /// <summary>
    /// The next line, without its line end, or null at the end of input. <paramref name="prompt"/> is shown first
    /// where a person is typing.
    /// </summary>
    string? ReadLine(string prompt);

    /// <summary>True when the last <see cref="ReadLine"/> ended with Ctrl-C: the statement being typed is abandoned.</summary>
    bool Interrupted { get; }
}

/// <summary>Lines from redirected input (a file, a pipe, a test): no prompt, no editing, as sqlite3 reads a script.</summary>
internal sealed class PlainLineReader(TextReader input) : ILineReader
{
    public bool Interrupted => false;

    public string? ReadLine(string prompt) => input.ReadLine();
}
