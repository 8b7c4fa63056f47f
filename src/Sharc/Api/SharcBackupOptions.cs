namespace Sharc;

/// <summary>How <see cref="SharcDatabase.BackupTo(string, SharcBackupOptions?)"/> copies: step size, progress and cancellation.</summary>
public sealed class SharcBackupOptions
{
    /// <summary>
    /// Pages copied per step, as <c>sqlite3_backup_step(N)</c>: progress is reported after each step and cancellation
    /// is checked between steps. Default 256; must be positive.
    /// </summary>
    public int PagesPerStep { get; init; } = 256;

    /// <summary>Told after every step (and once at the end) how many pages are copied of how many.</summary>
    public IProgress<SharcBackupProgress>? Progress { get; init; }

    /// <summary>Stops the backup between steps; the target is then left as it was (a new file is not created).</summary>
    public CancellationToken CancellationToken { get; init; }
}

/// <summary>How far a backup has come (SQLite's <c>sqlite3_backup_pagecount</c> and <c>sqlite3_backup_remaining</c>).</summary>
/// <param name="PagesCopied">Pages copied so far.</param>
/// <param name="TotalPages">Pages in the snapshot being copied.</param>
public readonly record struct SharcBackupProgress(long PagesCopied, long TotalPages)
{
    /// <summary>Pages still to copy.</summary>
    public long Remaining => TotalPages - PagesCopied;
}
