namespace Sharc.Testing;

/// <summary>Allocation measurement shared by the test projects (linked into each, not a library of its own).</summary>
public static class AllocationMeasure
{
    /// <summary>
    /// Bytes allocated on this thread by <paramref name="iterations"/> calls, after as many warm-up calls (buffers grow,
    /// caches fill, the JIT compiles): the fewest over three measured rounds. A path that allocates per call shows in
    /// every round, while a one-off runtime allocation on this thread (seen under a loaded, parallel test run) cannot
    /// fail a test by itself.
    /// </summary>
    public static long Measure(Action action, int iterations)
    {
        for (int i = 0; i < iterations; i++) action();
        long best = long.MaxValue;
        for (int round = 0; round < 3 && best != 0; round++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < iterations; i++) action();
            best = Math.Min(best, GC.GetAllocatedBytesForCurrentThread() - before);
        }
        return best;
    }
}
