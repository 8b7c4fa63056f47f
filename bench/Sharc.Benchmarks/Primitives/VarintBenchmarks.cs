using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Sharc.Benchmarks.Fixtures;
using Sharc.Format;

namespace Sharc.Benchmarks.Primitives;

/// <summary>
/// <see cref="Varint.Read"/> over a buffer of 4,096 back-to-back varints (times per varint): all one byte (the
/// common record-header case), lengths 1–9 mixed uniformly (rowids, sizes), and all nine bytes (the longest
/// path). Sharc only: the values were written by an independent encoder and setup checks they decode exactly.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class VarintBenchmarks
{
    private const int Count = 4096;
    private byte[] _oneByte = null!;
    private byte[] _mixed = null!;
    private byte[] _nineByte = null!;

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(Keys.Seed);
        _oneByte = Build(rng, _ => 1, out long oneSum);
        _mixed = Build(rng, r => r.Next(1, 10), out long mixedSum);
        _nineByte = Build(rng, _ => 9, out long nineSum);
        Verify.Same("one-byte varints", ("encoder", oneSum), ("ReadOneByte", ReadOneByte()));
        Verify.Same("mixed varints", ("encoder", mixedSum), ("ReadMixed", ReadMixed()));
        Verify.Same("nine-byte varints", ("encoder", nineSum), ("ReadNineByte", ReadNineByte()));
    }

    private static byte[] Build(Random rng, Func<Random, int> length, out long checksum)
    {
        var bytes = new List<byte>();
        checksum = Count; // each value also counts 1, so a decoder that stops early cannot match
        for (int i = 0; i < Count; i++)
        {
            int len = length(rng);
            long v = len == 9
                ? rng.NextInt64() | (1L << 57) | (rng.Next(2) == 0 ? long.MinValue : 0)
                : rng.NextInt64(RecordEncoder.MinForLength(len), RecordEncoder.MaxForLength(len) + 1);
            int written = RecordEncoder.WriteVarint(bytes, v);
            if (written != len) throw new InvalidOperationException($"encoder wrote {written} bytes for a {len}-byte value {v}");
            checksum += v;
        }
        return bytes.ToArray();
    }

    [Benchmark(OperationsPerInvoke = Count)]
    [BenchmarkCategory("OneByte")]
    public long ReadOneByte() => ReadAll(_oneByte);

    [Benchmark(OperationsPerInvoke = Count)]
    [BenchmarkCategory("Mixed")]
    public long ReadMixed() => ReadAll(_mixed);

    [Benchmark(OperationsPerInvoke = Count)]
    [BenchmarkCategory("NineByte")]
    public long ReadNineByte() => ReadAll(_nineByte);

    private static long ReadAll(byte[] buffer)
    {
        long sum = 0;
        ReadOnlySpan<byte> span = buffer;
        int pos = 0;
        while (pos < span.Length)
        {
            int n = Varint.Read(span[pos..], out long v);
            if (n == 0) break;
            pos += n;
            sum += v + 1;
        }
        return sum;
    }
}
