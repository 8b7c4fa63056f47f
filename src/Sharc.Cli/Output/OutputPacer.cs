using System.Diagnostics;

namespace Sharc.Cli.Output;

/// <summary>
/// Decides when buffered output is flushed while rows stream. On a terminal every row is flushed as it is written
/// (a person is waiting for it, as stdio line-buffers a terminal). Into a pipe or a file output is buffered for
/// speed, and flushed when the buffer fills or when a row is written <see cref="Interval"/> or more after the last
/// flush, so slow queries still show their rows as they come. Checking the clock costs a few nanoseconds a row.
/// </summary>
internal struct OutputPacer
{
    /// <summary>The longest a written row waits in the buffer while more rows are produced.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(100);

    private static readonly long IntervalTicks = (long)(Interval.TotalSeconds * Stopwatch.Frequency);

    private long _last;
    private bool _everyRow;

    /// <summary>Starts pacing now, for standard output as <see cref="CliConsole.Current"/> describes it.</summary>
    public static OutputPacer Start() => new() { _last = Stopwatch.GetTimestamp(), _everyRow = CliConsole.Current.StdoutIsTerminal };

    /// <summary>True (and the clock restarts) when the output should be flushed now.</summary>
    public bool Due()
    {
        if (_everyRow) return true;
        long now = Stopwatch.GetTimestamp();
        if (now - _last < IntervalTicks) return false;
        _last = now;
        return true;
    }
}
