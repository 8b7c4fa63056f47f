namespace Sharc;

/// <summary>
/// A reader prepared once and used many times: <see cref="Reset"/> rewinds it for another scan, and seeks may be
/// issued at any time. Its cursor stack, record layout and conversion buffers are reused, so after the first use
/// scans, seeks and the typed and span getters allocate nothing. Not thread-safe: one thread at a time.
/// </summary>
public sealed partial class PreparedReader : SharcDataReader
{
    internal PreparedReader(SharcDatabase db, ReaderPlan plan) : base(db, plan) { }

    /// <summary>
    /// Rewinds to before the first row; the next <see cref="SharcDataReader.Read"/> starts a new scan. A filtered reader
    /// starts a new run of its filter with the parameter values bound now.
    /// </summary>
    /// <exception cref="SharcException">A filtered reader's table or view was dropped, or lost a column it reads, since it was prepared.</exception>
    public void Reset()
    {
        if (_filterRun is not null) RestartFiltered();
        else Rewind();
    }
}
