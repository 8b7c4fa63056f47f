using System.Reflection;
using System.Text;
using Sharc.Cli.Commands;

namespace Sharc.Cli;

/// <summary>
/// The entry point of the <c>sharc</c> command-line tool. <see cref="Run(string[], TextWriter, TextWriter)"/> does all the work against the writers it
/// is given, so the tool can be run in-process (by tests, or by a host) without touching the console.
/// </summary>
public static class Program
{
    /// <summary>Exit code of a successful run.</summary>
    public const int ExitOk = 0;

    /// <summary>Exit code when the data could not be read: missing or unreadable file, not a database, corruption, unknown table.</summary>
    public const int ExitDataError = 1;

    /// <summary>Exit code for a malformed command line: unknown command or option, missing or extra arguments.</summary>
    public const int ExitUsage = 2;

    /// <summary>The commands, in the order the usage text lists them.</summary>
    private static readonly ICommand[] Commands =
    [
        new SchemaCommand(),
        new DumpCommand(),
        new QueryCommand(),
        new ExecCommand(),
        new CheckCommand(),
        new BackupCommand(),
        new ImportCommand(),
        new ShellCommand(),
        new GraphCommand(),
        new DemoCommand(),
        new SltCommand(),
    ];

    /// <summary>
    /// Runs the tool on the process's console: standard output is written as UTF-8 without a byte-order mark,
    /// buffered, and flushed before exit.
    /// </summary>
    /// <param name="args">The command-line arguments.</param>
    /// <returns>The process exit code (see <see cref="ExitOk"/>, <see cref="ExitDataError"/>, <see cref="ExitUsage"/>).</returns>
    public static int Main(string[] args)
    {
        var utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);
        using var stdout = new StreamWriter(GuardedOutputStream.OpenStandardOutput(), utf8, bufferSize: 1 << 16) { AutoFlush = false, NewLine = "\n" };
        using var stderr = new StreamWriter(Console.OpenStandardError(), utf8) { AutoFlush = true, NewLine = "\n" };
        using var stdin = new StreamReader(Console.OpenStandardInput(), utf8);
        int code = Run(args, CliConsole.FromProcess(stdin), stdout, stderr);
        try
        {
            stdout.Flush();
        }
        catch (IOException)
        {
            // The reader of our output went away (for example `sharc dump … | head`): nothing left to tell it.
        }
        return code;
    }

    /// <summary>
    /// Runs the tool with the given arguments, writing results to <paramref name="stdout"/> and diagnostics to
    /// <paramref name="stderr"/>. Lines end with "\n" whatever the platform. Expected failures are reported as one
    /// line, <c>sharc: error: …</c>, on <paramref name="stderr"/>; they never produce a stack trace.
    /// </summary>
    /// <param name="args">The command-line arguments (without the program name).</param>
    /// <param name="stdout">Where results go.</param>
    /// <param name="stderr">Where errors, warnings and usage errors go.</param>
    /// <returns>0 on success, 1 for data errors, 2 for usage errors.</returns>
    public static int Run(string[] args, TextWriter stdout, TextWriter stderr)
        => Run(args, CliConsole.Detached, stdout, stderr);

    /// <summary>
    /// Runs the tool as <see cref="Run(string[], TextWriter, TextWriter)"/> does, with <paramref name="stdin"/> as
    /// redirected standard input (not a terminal): what <c>sharc exec db -</c> reads, or <c>sharc shell</c>'s input.
    /// </summary>
    /// <param name="args">The command-line arguments (without the program name).</param>
    /// <param name="stdin">Standard input.</param>
    /// <param name="stdout">Where results go.</param>
    /// <param name="stderr">Where errors, warnings and usage errors go.</param>
    /// <returns>0 on success, 1 for data errors, 2 for usage errors.</returns>
    public static int Run(string[] args, TextReader stdin, TextWriter stdout, TextWriter stderr)
    {
        ArgumentNullException.ThrowIfNull(stdin);
        return Run(args, CliConsole.Piped(stdin), stdout, stderr);
    }

    private static int Run(string[] args, CliConsole console, TextWriter stdout, TextWriter stderr)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(stdout);
        ArgumentNullException.ThrowIfNull(stderr);
        using var scope = CliConsole.Use(console);
        try
        {
            int code = Dispatch(args, stdout, stderr);
            stdout.Flush();
            return code;
        }
        catch (OutputClosedException)
        {
            // `sharc … | head`: the reader has what it wanted; stopping is the right end, not a failure.
            return ExitOk;
        }
        catch (CliException e)
        {
            return Fail(stdout, stderr, e.Message, e.ExitCode);
        }
        catch (SharcException e)
        {
            return Fail(stdout, stderr, e.Message, ExitDataError);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return Fail(stdout, stderr, e.Message, ExitDataError);
        }
        catch (Exception e)
        {
            // A bug in sharc or Sharc rather than a problem with the input: still one line, but say so.
            string detail = Environment.GetEnvironmentVariable("SHARC_DEBUG") is { Length: > 0 } ? e.ToString() : e.Message;
            return Fail(stdout, stderr, $"internal error ({e.GetType().Name}): {detail}", ExitDataError);
        }
    }

    private static int Dispatch(string[] args, TextWriter stdout, TextWriter stderr)
    {
        if (args.Length == 0)
        {
            stderr.Write(Usage());
            return ExitUsage;
        }

        string first = args[0];
        switch (first)
        {
            case "-h" or "--help" or "help":
                if (first == "help" && args.Length > 1)
                {
                    var target = Find(args[1]) ?? throw CliException.UsageError($"unknown command '{args[1]}' (see 'sharc --help')");
                    stdout.Write(target.Help);
                    return ExitOk;
                }
                stdout.Write(Usage());
                return ExitOk;
            case "--version" or "-V":
                stdout.Write("sharc " + Version + "\n");
                return ExitOk;
        }

        if (first.StartsWith('-'))
            throw CliException.UsageError($"unknown option '{first}' (see 'sharc --help')");
        var command = Find(first) ?? throw CliException.UsageError($"unknown command '{first}' (see 'sharc --help')");
        var rest = DatabaseFile.TakeKeyOption(first, args.AsSpan(1).ToArray(), out string? key);
        if (CommandLine.WantsHelp(rest))
        {
            stdout.Write(command.Help);
            return ExitOk;
        }
        var outer = DatabaseFile.Key;
        DatabaseFile.Key = key;
        try
        {
            return command.Execute(rest, stdout, stderr);
        }
        finally
        {
            DatabaseFile.Key = outer;
        }
    }

    private static ICommand? Find(string name)
    {
        foreach (var c in Commands)
            if (c.Name == name) return c;
        return null;
    }

    private static int Fail(TextWriter stdout, TextWriter stderr, string message, int code)
    {
        // Rows already written stay in front of the error, in order.
        try
        {
            stdout.Flush();
        }
        catch (IOException)
        {
        }
        stderr.Write("sharc: error: " + OneLine(message) + "\n");
        stderr.Flush();
        return code;
    }

    private static string OneLine(string message)
        => message.ReplaceLineEndings(" ").Trim();

    /// <summary>The tool's version, without source-control metadata.</summary>
    internal static string Version
    {
        get
        {
            var asm = typeof(Program).Assembly;
            string? v = asm.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
                ?? asm.GetName().Version?.ToString();
            if (v is null) return "0.0.0";
            int plus = v.IndexOf('+', StringComparison.Ordinal);
            return plus >= 0 ? v[..plus] : v;
        }
    }

    /// <summary>The usage text printed by <c>sharc --help</c>.</summary>
    internal static string Usage()
    {
        var sb = new StringBuilder();
        sb.Append("sharc — read and write SQLite databases with Sharc (pure managed, no native SQLite)\n");
        sb.Append('\n');
        sb.Append("usage:\n");
        foreach (var c in Commands)
            sb.Append("  sharc ").Append(c.Synopsis).Append('\n');
        sb.Append("  sharc <command> --help\n");
        sb.Append("  sharc --help | --version\n");
        sb.Append('\n');
        sb.Append("Every command that opens a database takes --key <passphrase or x'hex'> for a SQLCipher-encrypted one.\n");
        sb.Append('\n');
        sb.Append("commands:\n");
        int width = 0;
        foreach (var c in Commands) width = Math.Max(width, c.Name.Length);
        foreach (var c in Commands)
            sb.Append("  ").Append(c.Name.PadRight(width + 2)).Append(c.Summary).Append('\n');
        sb.Append('\n');
        sb.Append("New here? Run 'sharc demo' to see the tool work on a built-in sample database.\n");
        sb.Append("Exit codes: 0 success, 1 data error (missing file, not a database, corruption, unknown table, a failing statement), 2 usage error.\n");
        return sb.ToString();
    }
}
