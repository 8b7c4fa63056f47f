namespace Sharc;

/// <summary>
/// An explicit write transaction (<see cref="SharcDatabase.BeginTransaction"/>). Changes stay in memory until
/// <see cref="Commit"/>, which makes them durable with one set of syncs; <see cref="Dispose"/> without a commit
/// rolls them back. A write that fails inside the transaction is undone alone; the transaction stays open.
/// </summary>
public sealed class SharcTransaction : IDisposable
{
    private readonly SharcDatabase _db;
    private bool _done;
    private bool _failed;

    internal void MarkFailed()
    {
        _failed = true;
        _done = true;
    }

    internal SharcTransaction(SharcDatabase db) => _db = db;

    /// <summary>Makes every change durable (journal synced, pages written, file synced, journal deleted).</summary>
    public void Commit()
    {
        if (_failed) throw new SharcException("the transaction was rolled back because a write inside it failed");
        if (_done) throw new InvalidOperationException("the transaction has already ended");
        // Pending deferred foreign key violations refuse the commit; the transaction stays open to fix them.
        if (_db.ForeignKeyState.DeferredViolations > 0) throw Write.ForeignKeys.Failed();
        _done = true;
        _db.CommitTransaction(this);
    }

    /// <summary>Discards every change of the transaction.</summary>
    public void Rollback()
    {
        if (_done) return;
        _done = true;
        _db.RollbackTransaction(this);
    }

    /// <summary>Rolls back unless <see cref="Commit"/> was called.</summary>
    public void Dispose() => Rollback();
}
