using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Sharc.Benchmarks.Fixtures;
using Sharc.Format;

namespace Sharc.Benchmarks.Primitives;

/// <summary>
/// Serial-type classification over 4,096 serial types in a users-like mix (NULLs, small and large integers, the
/// 0/1 constants, reals, short and long text, blobs); times per serial type: <see cref="SerialType.StorageClass"/>
/// and <see cref="SerialType.ContentSize"/>. Sharc only: setup checks both against the specification's table.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class SerialTypeBenchmarks
{
    private const int Count = 4096;
    private long[] _types = null!;

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(Keys.Seed);
        long[] choices = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        _types = new long[Count];
        for (int i = 0; i < Count; i++)
        {
            int pick = rng.Next(14);
            _types[i] = pick switch
            {
                < 10 => choices[pick],
                10 or 11 => 13 + 2L * rng.Next(0, 40),     // short text
                12 => 13 + 2L * rng.Next(40, 400),         // longer text
                _ => 12 + 2L * rng.Next(0, 100),           // blob
            };
        }
        long expectedClasses = 0, expectedSizes = 0;
        foreach (long t in _types)
        {
            expectedClasses += RecordEncoder.ClassOf(t) + 1;
            expectedSizes += RecordEncoder.SizeOf(t) + 1;
        }
        Verify.Same("storage classes", ("specification", expectedClasses), ("StorageClass", StorageClass()));
        Verify.Same("content sizes", ("specification", expectedSizes), ("ContentSize", ContentSize()));
    }

    [Benchmark(OperationsPerInvoke = Count)]
    [BenchmarkCategory("StorageClass")]
    public long StorageClass()
    {
        long sum = 0;
        foreach (long t in _types)
        {
            sum += SerialType.StorageClass(t) switch
            {
                SharcColumnType.Null => 1,
                SharcColumnType.Integer => 2,
                SharcColumnType.Real => 3,
                SharcColumnType.Text => 4,
                _ => 5,
            };
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Count)]
    [BenchmarkCategory("ContentSize")]
    public long ContentSize()
    {
        long sum = 0;
        foreach (long t in _types) sum += SerialType.ContentSize(t) + 1;
        return sum;
    }
}
