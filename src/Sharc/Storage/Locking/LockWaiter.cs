namespace Sharc.Storage.Locking;

/// <summary>Waits for a lock with backoff until the busy timeout, then fails with <see cref="SharcBusyException"/>.</summary>
internal static class LockWaiter
{
    public static void Acquire(FileLock fileLock, LockLevel level, TimeSpan timeout, string what)
    {
        // The uncontended path allocates nothing (readers take SHARED per scan on the zero-allocation hot path).
        if (fileLock.TryLock(level)) return;
        Wait(fileLock, level, timeout, what);
    }

    // Separate so the closure (allocated on entry to the method that captures) stays off the uncontended path.
    private static void Wait(FileLock fileLock, LockLevel level, TimeSpan timeout, string what)
        => Acquire(() => fileLock.TryLock(level), timeout, $"{what}; waited for a {level} lock");

    /// <summary>Retries <paramref name="tryLock"/> with backoff until it succeeds or the timeout passes.</summary>
    public static void Acquire(Func<bool> tryLock, TimeSpan timeout, string what)
    {
        if (tryLock()) return;
        var deadline = DateTime.UtcNow + timeout;
        int sleep = 1;
        while (DateTime.UtcNow < deadline)
        {
            Thread.Sleep(sleep);
            sleep = Math.Min(sleep * 2, 50);
            if (tryLock()) return;
        }
        throw new SharcBusyException($"database is locked: another connection holds the file ({what})");
    }
}
