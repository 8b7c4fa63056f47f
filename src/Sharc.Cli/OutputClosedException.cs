namespace Sharc.Cli;

/// <summary>
/// The reader of standard output went away (<c>sharc query … | head</c>): the command stops at once and the tool
/// exits quietly, since nobody is left to read a message about it.
/// </summary>
internal sealed class OutputClosedException(IOException inner) : IOException("standard output was closed", inner);
