namespace Sharc.Cli;

/// <summary>
/// An expected failure of a command, reported as one line on standard error with <see cref="ExitCode"/>.
/// </summary>
internal sealed class CliException : Exception
{
    private CliException(string message, int exitCode, Exception? inner = null) : base(message, inner)
    {
        ExitCode = exitCode;
    }

    /// <summary>The process exit code this failure maps to.</summary>
    public int ExitCode { get; }

    /// <summary>The command line is malformed (exit code 2).</summary>
    public static CliException UsageError(string message) => new(message, Program.ExitUsage);

    /// <summary>The data could not be read or written (exit code 1).</summary>
    public static CliException DataError(string message, Exception? inner = null) => new(message, Program.ExitDataError, inner);
}
