using System.Globalization;

namespace Sharc.Cli.Output;

/// <summary>
/// A one-line progress count on standard error ("import: 120,000 rows"), redrawn in place at most every
/// <see cref="RedrawMilliseconds"/> and erased when the work ends. Shown only when standard error is a terminal and
/// the work lasts longer than <see cref="DelayMilliseconds"/>: in a pipe, a log or a test it writes nothing.
/// </summary>
internal sealed class Progress : IDisposable
{
    /// <summary>How long work runs before progress appears.</summary>
    public const int DelayMilliseconds = 500;

    /// <summary>How often the line is redrawn.</summary>
    public const int RedrawMilliseconds = 200;

    /// <summary>Progress that shows nothing.</summary>
    public static readonly Progress None = new(null, "", "");

    private readonly TextWriter? _stderr;
    private readonly string _what;
    private readonly string _unit;
    private long _next;
    private bool _shown;

    private Progress(TextWriter? stderr, string what, string unit, int delayMilliseconds = DelayMilliseconds)
    {
        _stderr = stderr;
        _what = what;
        _unit = unit;
        _next = Environment.TickCount64 + delayMilliseconds;
    }

    /// <summary>Progress shown from the first report (tests, which cannot wait for the delay).</summary>
    internal static Progress Immediate(TextWriter stderr, string what, string unit) => new(stderr, what, unit, 0);

    /// <summary>Progress of <paramref name="what"/> counted in <paramref name="unit"/>, shown only when standard error is a terminal.</summary>
    public static Progress On(TextWriter stderr, string what, string unit)
        => CliConsole.Current.StderrIsTerminal ? new Progress(stderr, what, unit) : None;

    /// <summary>
    /// Reports <paramref name="done"/> units, of <paramref name="total"/> when it is known (greater than 0), counted
    /// in <paramref name="unit"/> when the work has phases counted differently (the default is the one given at start).
    /// </summary>
    public void Report(long done, long total = 0, string? unit = null)
    {
        if (_stderr is null) return;
        long now = Environment.TickCount64;
        if (now < _next) return;
        _next = now + RedrawMilliseconds;
        _shown = true;
        string text = total > 0
            ? string.Create(CultureInfo.InvariantCulture, $"\r{_what}: {done:N0} of {total:N0} {unit ?? _unit} ({100.0 * done / total:F0}%)\u001b[K")
            : string.Create(CultureInfo.InvariantCulture, $"\r{_what}: {done:N0} {unit ?? _unit}\u001b[K");
        _stderr.Write(text);
        _stderr.Flush();
    }

    /// <summary>Erases the progress line, if one was drawn.</summary>
    public void Dispose()
    {
        if (!_shown) return;
        _shown = false;
        _stderr!.Write("\r\u001b[K");
        _stderr.Flush();
    }
}
