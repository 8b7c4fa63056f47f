namespace Sharc.Storage.Concurrency;

/// <summary>Waiting on a monitor the caller holds until a condition holds or a timeout passes (pulses wake it).</summary>
internal static class MonitorWait
{
    /// <summary>
    /// Waits on <paramref name="gate"/> (held by the caller) until <paramref name="done"/> is true; false when
    /// <paramref name="timeout"/> passed first. Spurious and unrelated wake-ups only re-check the condition.
    /// </summary>
    public static bool Until<TState>(object gate, TimeSpan timeout, TState state, Func<TState, bool> done)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (!done(state))
        {
            var left = deadline - DateTime.UtcNow;
            if (left <= TimeSpan.Zero) return false;
            Monitor.Wait(gate, left);
        }
        return true;
    }
}
