namespace Sharc.Storage.Locking;

/// <summary>Waits for a lock with backoff until the busy timeout, then fails with <see cref="SharcBusyException"/>.</summary>
internal static class LockWaiter
{
    public static void Acquire(FileLock fileLock, LockLevel level, TimeSpan timeout, string what)
    {
        var before = fileLock.Level;
        if (fileLock.TryLock(level)) return;
        // A failed attempt at RESERVED may have left the SHARED lock it took on the way. Waiting with it held would
        // deadlock with the writer that holds RESERVED: that writer needs every SHARED lock gone to commit. So, as
        // SQLite does, the attempt's locks are dropped before each wait — and when this connection already held
        // SHARED (a read of its own in progress), waiting cannot end well and the answer is busy at once.
        if (level == LockLevel.Reserved && before == LockLevel.Shared) throw Busy(what, level);
        if (before == LockLevel.None) fileLock.UnlockTo(LockLevel.None);
        var deadline = DateTime.UtcNow + timeout;
        int sleep = 1;
        while (DateTime.UtcNow < deadline)
        {
            Thread.Sleep(sleep);
            sleep = Math.Min(sleep * 2, 50);
            if (fileLock.TryLock(level)) return;
            if (before == LockLevel.None) fileLock.UnlockTo(LockLevel.None);
        }
        throw Busy(what, level);
    }

    private static SharcBusyException Busy(string what, LockLevel level)
        => new($"database is locked: another connection holds the file ({what}; waited for a {level} lock)");
}
