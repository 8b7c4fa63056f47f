namespace Sharc.Sql.Writes;

/// <summary>
/// What SQLite keeps per connection about the statements it ran — changes(), total_changes(), last_insert_rowid().
/// Sharc keeps one per thread and database: a database shared by threads is many "connections" in SQLite's sense,
/// and each thread asks about its own statements.
/// </summary>
internal sealed class SqlSession
{
    private int _changes;

    /// <summary>Rows changed by the thread's most recent INSERT, UPDATE or DELETE (sqlite3_changes).</summary>
    public int Changes
    {
        get => _changes;
        set
        {
            _changes = value;
            TotalChanges += value;
        }
    }

    /// <summary>Rows changed by every INSERT, UPDATE and DELETE the thread ran (sqlite3_total_changes).</summary>
    public long TotalChanges { get; private set; }

    /// <summary>
    /// A statement of a trigger program finished: its rows count in total_changes(), and changes() reports them to
    /// the program's later statements — until the program ends (<see cref="Restore"/>).
    /// </summary>
    public void TriggerStatementDone(int changes)
    {
        _changes = changes;
        TotalChanges += changes;
    }

    /// <summary>
    /// The rowid of the last row an INSERT of the thread added to a rowid table (sqlite3_last_insert_rowid); inside
    /// a trigger program, the program's own inserts, until it ends.
    /// </summary>
    public long LastInsertRowId { get; set; }

    /// <summary>What a trigger program started with, to be put back when it ends, as SQLite puts it back.</summary>
    public (int Changes, long LastInsertRowId) Save() => (_changes, LastInsertRowId);

    /// <summary>Ends a trigger program: changes() and last_insert_rowid() read as they did before it fired.</summary>
    public void Restore((int Changes, long LastInsertRowId) saved)
    {
        _changes = saved.Changes;
        LastInsertRowId = saved.LastInsertRowId;
    }
}
