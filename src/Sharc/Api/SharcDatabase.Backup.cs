namespace Sharc;

/// <summary>
/// The online backup: a page-for-page copy of one read snapshot, in steps with progress and cancellation. It never
/// takes the write lock: writers of this connection go on committing while it runs (the snapshot keeps the pages they
/// replace), and the copy is the state committed when the backup began. It continues from that snapshot rather than
/// restarting as SQLite's backup does when the source changes, so a busy writer cannot starve it.
/// </summary>
public sealed partial class SharcDatabase
{
    /// <summary>
    /// Copies the database, page for page, to the file <paramref name="path"/> (replaced if it exists, with any journal
    /// or log it had): the pages go to a file beside it, which is synced and renamed onto the target at the end, so a
    /// failure or cancellation leaves no partial file. An encrypted database's copy is encrypted under the same key.
    /// In a rollback-journal database the read lock held meanwhile keeps other processes from committing (as any
    /// long reader does); in WAL mode nobody waits.
    /// </summary>
    /// <exception cref="OperationCanceledException">The backup was cancelled; the target is as it was.</exception>
    public void BackupTo(string path, SharcBackupOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(path);
        ThrowIfDisposed();
        options = CheckBackupOptions(options);
        if (Path is not null && string.Equals(System.IO.Path.GetFullPath(Path), System.IO.Path.GetFullPath(path), StringComparison.Ordinal))
            throw new InvalidOperationException("a database cannot be backed up onto its own file");
        var codec = Codec;
        InReadSession((path, codec, options), static (snapshot, s) =>
        {
            CopyPagesToFile(snapshot._source, s.path, s.codec, Stepper(s.options));
            return 0;
        });
    }

    /// <summary>
    /// Copies the database, page for page, into the open, writable <paramref name="destination"/> (SQLite's backup
    /// API into another connection): its content is replaced in one transaction of its own, crash-safe as any commit,
    /// and rolled back if the backup is cancelled. The two must have the same page size and reserved bytes.
    /// </summary>
    /// <exception cref="InvalidOperationException">The destination is this database, has another page layout, or is in a transaction.</exception>
    /// <exception cref="OperationCanceledException">The backup was cancelled; the destination is as it was.</exception>
    public void BackupTo(SharcDatabase destination, SharcBackupOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(destination);
        ThrowIfDisposed();
        options = CheckBackupOptions(options);
        if (ReferenceEquals(destination, this)) throw new InvalidOperationException("a database cannot be backed up onto itself");
        if (destination._pager is not { ReadOnly: false }) throw new SharcReadOnlyException();
        if (destination.InTransaction) throw new InvalidOperationException("the destination has a transaction open");
        if (destination.PageSize != PageSize || destination.Header.UsableSize != Header.UsableSize)
            throw new InvalidOperationException($"the destination has {destination.PageSize}-byte pages with {destination.PageSize - destination.Header.UsableSize} reserved bytes; the source {PageSize} with {PageSize - Header.UsableSize}");
        InReadSession((destination, options), static (snapshot, s) => s.destination.RunWrite((snapshot._source, s.options), static (db, t) =>
        {
            db.WritablePager.OverwriteWith(t._source, KeepIdentity, Stepper(t.options));
            db._mutator = null;
            db.MarkSchemaChanged();
            return 0;
        }));
    }

    /// <summary>
    /// <see cref="BackupTo(string, SharcBackupOptions?)"/> on the thread pool: the caller goes on while the pages are
    /// copied, with progress and cancellation as <paramref name="options"/> says.
    /// </summary>
    public Task BackupToAsync(string path, SharcBackupOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(path);
        return Task.Run(() => BackupTo(path, options), options?.CancellationToken ?? default);
    }

    private static SharcBackupOptions CheckBackupOptions(SharcBackupOptions? options)
    {
        options ??= new SharcBackupOptions();
        if (options.PagesPerStep <= 0)
            throw new ArgumentOutOfRangeException(nameof(options), options.PagesPerStep, "PagesPerStep must be positive.");
        options.CancellationToken.ThrowIfCancellationRequested();
        return options;
    }

    /// <summary>After each page: at the end of every step (and of the copy) progress, then cancellation before the next step.</summary>
    private static Action<uint, uint> Stepper(SharcBackupOptions options) => (page, total) =>
    {
        if (page % (uint)options.PagesPerStep != 0 && page != total) return;
        options.Progress?.Report(new SharcBackupProgress(page, total));
        if (page != total) options.CancellationToken.ThrowIfCancellationRequested();
    };
}
