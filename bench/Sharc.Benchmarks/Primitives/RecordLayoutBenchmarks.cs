using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Sharc.Benchmarks.Fixtures;
using Sharc.Format;

namespace Sharc.Benchmarks.Primitives;

/// <summary>
/// Record column read with <see cref="RecordLayout"/> (Reset, HeaderSize, TryGetField) over 256 users-shaped
/// 9-field records; times per record: the first stored column (name), the last (created: the whole header is
/// decoded), and all nine in order. Integer fields are also decoded with <see cref="SerialType.ReadInteger"/>.
/// Sharc only: the records come from an independent encoder and setup checks every type, offset and value.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class RecordLayoutBenchmarks
{
    private const int Records = 256;
    private const int Fields = 9;
    private byte[][] _records = null!;
    private RecordLayout _layout = null!;

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(UsersData.Seed);
        string[] cities = ["Oslo", "Lima", "Pune", "Kyiv", "Rome", "Cairo"];
        _records = new byte[Records][];
        long first = 0, last = 0, all = 0;
        for (int i = 0; i < Records; i++)
        {
            long id = 1 + i * 19L;
            object?[] values =
            [
                null, // INTEGER PRIMARY KEY: stored as NULL, the rowid holds it
                UsersData.Name(id),
                id % 10 == 0 ? null : $"user{id}@example.com",
                (long)rng.Next(UsersData.MinAge, UsersData.MaxAge + 1),
                rng.NextDouble() * 100,
                (long)rng.Next(2),
                cities[rng.Next(cities.Length)],
                new string('b', rng.Next(10, 200)),
                1_700_000_000L + id * 60,
            ];
            _records[i] = RecordEncoder.EncodeRecord(values, out var fields);
            first += Expected(fields[1], values[1]);
            last += Expected(fields[8], values[8]);
            for (int f = 0; f < Fields; f++) all += Expected(fields[f], values[f]);
        }
        _layout = new RecordLayout(Fields);
        Verify.Same("first column", ("encoder", first), ("FirstColumn", FirstColumn()));
        Verify.Same("last column", ("encoder", last), ("LastColumn", LastColumn()));
        Verify.Same("all columns", ("encoder", all), ("AllColumns", AllColumns()));
    }

    private static long Expected(RecordEncoder.Field f, object? value)
        => f.SerialType + f.Offset * 7L + f.Size * 31L + (value is long l ? l : 0);

    [Benchmark(OperationsPerInvoke = Records)]
    [BenchmarkCategory("FirstColumn")]
    public long FirstColumn()
    {
        long sum = 0;
        foreach (byte[] rec in _records) sum += ReadField(rec, 1, reset: true);
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Records)]
    [BenchmarkCategory("LastColumn")]
    public long LastColumn()
    {
        long sum = 0;
        foreach (byte[] rec in _records) sum += ReadField(rec, Fields - 1, reset: true);
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Records)]
    [BenchmarkCategory("AllColumns")]
    public long AllColumns()
    {
        long sum = 0;
        foreach (byte[] rec in _records)
            for (int f = 0; f < Fields; f++) sum += ReadField(rec, f, reset: f == 0);
        return sum;
    }

    private long ReadField(byte[] record, int field, bool reset)
    {
        var layout = _layout;
        if (reset) layout.Reset(record.Length, 0);
        ReadOnlySpan<byte> payload = record;
        layout.HeaderSize(payload);
        if (!layout.TryGetField(field, payload, out long type, out int offset, out int size)) return 0;
        long value = type is >= 1 and <= 6 or 8 or 9 ? SerialType.ReadInteger(type, payload.Slice(offset, size)) : 0;
        return type + offset * 7L + size * 31L + value;
    }
}
