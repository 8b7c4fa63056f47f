namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>The connection settings PRAGMAs set and report (cache_size, synchronous, temp_store, …).</summary>
    internal Sql.Writes.ConnectionSettings Settings { get; } = new();

    /// <summary>How many commits of other connections this database has noticed (PRAGMA data_version counts from 1).</summary>
    internal long ExternalCommits => _pager?.ExternalCommits ?? 0;

    /// <summary>The busy timeout of lock waits, as PRAGMA busy_timeout reports and sets it.</summary>
    internal TimeSpan BusyTimeoutSetting
    {
        get => _pager?.BusyTimeout ?? Settings.ReadOnlyBusyTimeout;
        set
        {
            if (_pager is { } pager) pager.BusyTimeout = value;
            else Settings.ReadOnlyBusyTimeout = value;
        }
    }
}
