namespace Sharc.Storage.Concurrency;

/// <summary>
/// The one read session all b-tree readers of a statement (a query execution) share, so that a join, a subquery or
/// a second pass over a table reads the same committed version as the first. Begun by the first reader to
/// position itself, ended when the execution closes.
/// </summary>
internal sealed class StatementSnapshot(SharcDatabase db)
{
    private readonly PageView? _view = db.ReaderSource() as PageView;
    private SharcDatabase.DatabaseState? _state;

    /// <summary>The database whose committed version the statement reads.</summary>
    public SharcDatabase Database => db;

    /// <summary>Begins the statement's session if needed and points <paramref name="readerView"/> at its snapshot.</summary>
    public SharcDatabase.DatabaseState Enter(PageView? readerView)
    {
        var state = _state ??= db.BeginReadSession(_view);
        if (readerView is not null) readerView.CopyFrom(_view!);
        return state;
    }

    /// <summary>
    /// Begins the statement's session if needed and returns the schema of the version it reads (parsed now if no one
    /// has yet, through the session's own pages).
    /// </summary>
    public SharcSchema EnterSchema()
    {
        var state = Enter(null);
        return state.LoadedSchema ?? state.LoadSchema(_view ?? db.Source);
    }

    /// <summary>Ends the statement's session (the execution closed); the next run takes a new snapshot.</summary>
    public void End()
    {
        if (_state is null) return;
        _state = null;
        db.EndReadSession(_view);
    }
}
