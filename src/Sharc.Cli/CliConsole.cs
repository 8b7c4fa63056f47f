namespace Sharc.Cli;

/// <summary>
/// What the tool knows about the console it runs on: standard input, and which streams are terminals (progress is
/// shown only on a terminal, the shell edits lines only on one, and table output fits a terminal's width).
/// Commands read it through <see cref="Current"/>, so <see cref="Commands.ICommand"/> keeps its signature.
/// </summary>
internal sealed record CliConsole(TextReader Stdin, bool StdinIsRedirected, bool StdinIsTerminal, bool StdoutIsTerminal, bool StderrIsTerminal, int Width)
{
    private static readonly AsyncLocal<CliConsole?> CurrentConsole = new();

    /// <summary>No standard input and no terminal: what an in-process host that passes only writers gets.</summary>
    public static CliConsole Detached { get; } = new(TextReader.Null, false, false, false, false, 0);

    /// <summary>The console of the run in progress on this flow (<see cref="Detached"/> outside a run).</summary>
    public static CliConsole Current => CurrentConsole.Value ?? Detached;

    /// <summary>Standard input redirected from <paramref name="stdin"/>, no terminal: how tests feed scripts and shell input.</summary>
    public static CliConsole Piped(TextReader stdin) => new(stdin, true, false, false, false, 0);

    /// <summary>The process's console, as <see cref="System.Console"/> reports it.</summary>
    public static CliConsole FromProcess(TextReader stdin)
    {
        bool outTerminal = !Console.IsOutputRedirected;
        int width = 0;
        if (outTerminal)
        {
            try
            {
                width = Console.WindowWidth;
            }
            catch (IOException)
            {
                // No size to be had (a terminal without one): leave tables unbounded.
            }
        }
        return new(stdin, Console.IsInputRedirected, !Console.IsInputRedirected, outTerminal, !Console.IsErrorRedirected, width);
    }

    /// <summary>Makes <paramref name="console"/> current until the returned scope is disposed.</summary>
    public static Scope Use(CliConsole console)
    {
        var previous = CurrentConsole.Value;
        CurrentConsole.Value = console;
        return new Scope(previous);
    }

    /// <summary>Restores the console that was current before <see cref="Use"/>.</summary>
    public readonly struct Scope(CliConsole? previous) : IDisposable
    {
        /// <summary>Restores the previous console.</summary>
        public void Dispose() => CurrentConsole.Value = previous;
    }
}
