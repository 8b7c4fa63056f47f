namespace Sharc.Tests.Infrastructure;

/// <summary>
/// Tests that measure the process's managed memory (GC.GetTotalMemory) run alone: other test classes running in
/// parallel would count their own live objects into the measurement.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MemoryMeasurement
{
    public const string Name = "Measures process memory";
}
