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

    /// <summary>Counts rows a trigger program changed: they are in total_changes() but not in changes().</summary>
    public void AddTriggerChanges(int changes) => TotalChanges += changes;

    /// <summary>The rowid of the last row a top-level INSERT of the thread added to a rowid table (sqlite3_last_insert_rowid).</summary>
    public long LastInsertRowId { get; set; }
}
