namespace Sharc.Storage.Locking;

/// <summary>Waits for a lock with backoff until the busy timeout, then fails with <see cref="SharcBusyException"/>.</summary>
internal static class LockWaiter
{
    public static void Acquire(FileLock fileLock, LockLevel level, TimeSpan timeout, string what)
    {
        var before = fileLock.Level;
        // The uncontended path allocates nothing (readers take SHARED per scan on the zero-allocation hot path).
        if (fileLock.TryLock(level)) return;
        // A failed attempt at RESERVED may have left the SHARED lock it took on the way. Waiting with it held would
        // deadlock with the writer that holds RESERVED: that writer needs every SHARED lock gone to commit. So, as
        // SQLite does, the attempt's locks are dropped before each wait — and when this connection already held
        // SHARED (a read of its own in progress), waiting cannot end well and the answer is busy at once.
        if (level == LockLevel.Reserved && before == LockLevel.Shared) throw Busy($"{what}; waited for a {level} lock");
        Wait(fileLock, level, before, timeout, what);
    }

    private static void Wait(FileLock fileLock, LockLevel level, LockLevel before, TimeSpan timeout, string what)
    {
        try
        {
            Acquire((fileLock, level, before), static s =>
            {
                if (s.before == LockLevel.None) s.fileLock.UnlockTo(LockLevel.None);
                return s.fileLock.TryLock(s.level);
            }, timeout, (what, level), static w => $"{w.what}; waited for a {w.level} lock");
        }
        catch (SharcBusyException)
        {
            // Giving up must not leave behind the SHARED lock the last attempt took: it would block other writers' commits.
            if (before == LockLevel.None) fileLock.UnlockTo(LockLevel.None);
            throw;
        }
    }

    /// <summary>Retries <paramref name="tryLock"/> with backoff until it succeeds or the timeout passes.</summary>
    public static void Acquire(Func<bool> tryLock, TimeSpan timeout, string what) =>
        Acquire(tryLock, static t => t(), timeout, what, static w => w);

    /// <summary>
    /// Retries <paramref name="tryLock"/> on <paramref name="state"/> with backoff until it succeeds or the timeout
    /// passes. Callers on per-read paths pass static lambdas: no closure is allocated, and the message
    /// (<paramref name="describe"/> of <paramref name="what"/>) is built only when the wait fails.
    /// </summary>
    public static void Acquire<TState, TWhat>(TState state, Func<TState, bool> tryLock, TimeSpan timeout, TWhat what, Func<TWhat, string> describe)
    {
        if (tryLock(state)) return;
        var deadline = DateTime.UtcNow + timeout;
        int sleep = 1;
        while (DateTime.UtcNow < deadline)
        {
            Thread.Sleep(sleep);
            sleep = Math.Min(sleep * 2, 50);
            if (tryLock(state)) return;
        }
        throw Busy(describe(what));
    }

    private static SharcBusyException Busy(string what) => new($"database is locked: another connection holds the file ({what})");
}
