using Sharc.Storage.Concurrency;

namespace Sharc;

/// <summary>
/// One committed version of a database that several readers read together: every reader joined to the snapshot
/// (<see cref="SharcDataReader.UseSnapshot"/>) sees the same commit, whatever other threads or connections commit
/// meanwhile — what a SQL statement gives the tables it reads, for code that combines readers itself (a graph
/// traversal, a report over several tables, an index seek followed by table lookups).
/// </summary>
/// <remarks>
/// The version is taken by the first read through the snapshot and held until <see cref="Release"/> (or
/// <see cref="Dispose"/>); the next read after a release takes the latest commit again, so one snapshot object can
/// serve every run of a prepared operation without allocating. While a version is held, the pages it needs are kept
/// (and in WAL mode a checkpoint cannot copy past it): release it when the work is done. Inside the calling flow's
/// own write transaction the readers see the transaction's changes, as every reader does. A snapshot is used by one
/// thread at a time, as a reader is.
/// </remarks>
public sealed class SharcSnapshot : IDisposable
{
    internal SharcSnapshot(SharcDatabase database)
    {
        Database = database;
        Statement = new StatementSnapshot(database);
    }

    /// <summary>The database this snapshot reads.</summary>
    public SharcDatabase Database { get; }

    internal StatementSnapshot Statement { get; }

    /// <summary>Ends the version being read: readers keep their places in this object, and the next read takes the latest commit.</summary>
    public void Release() => Statement.End();

    /// <summary>Releases the version being read (the snapshot stays usable; see <see cref="Release"/>).</summary>
    public void Dispose() => Release();
}
