using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// The hot paths allocate nothing after warm-up: measured with GC.GetAllocatedBytesForCurrentThread around the
/// loop (no timing involved). Covers file-backed (page cache) and memory-backed databases, UTF-8 and UTF-16.
/// </summary>
public class ZeroAllocationTests
{

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void SeekAndTypedGettersAllocateNothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 5000));
        using var reader = db.PrepareReader("users", "id", "name", "score", "age");
        var rng = new Random(3);
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            long key = rng.Next(1, 5001);
            if (!reader.Seek(key)) throw new InvalidOperationException("missing key");
            sum += reader.GetInt64(0) + reader.GetInt32(3) + (long)reader.GetDouble(2) + reader.GetUtf8Span(1).Length;
        }, 2000);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void FullScanAllocatesNothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 5000));
        using var reader = db.PrepareReader("users", "id", "name", "score", "bio");
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            reader.Reset();
            while (reader.Read())
            {
                rows += reader.GetInt64(0) > 0 ? 1 : 0;
                _ = reader.GetDouble(2);
                _ = reader.GetUtf8Span(1);
                _ = reader.GetUtf8Span(3); // every 50th row spills to overflow pages
                _ = reader.IsNull(3);
            }
        }, 5);
        allocated.Should().Be(0);
        (rows % 5000).Should().Be(0, "every scan sees all 5,000 rows");
        rows.Should().BeGreaterThan(0);
    }

    [Fact]
    public void KeySeekOnWithoutRowIdTableAllocatesNothing()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(AllocationFixture.Build(dir, "UTF-8", 5000));
        using var reader = db.PrepareReader("kv");
        byte[][] keys = Enumerable.Range(1, 100).Select(i => System.Text.Encoding.UTF8.GetBytes("key" + (i * 37))).ToArray();
        int n = 0;
        long hits = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            if (reader.SeekKey(keys[n++ % keys.Length])) hits += reader.GetInt64(1);
        }, 1000);
        allocated.Should().Be(0);
        hits.Should().BeGreaterThan(0);
    }

    [Fact]
    public void SeekThroughAnIndexAllocatesNothing()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(AllocationFixture.Build(dir, "UTF-8", 5000));
        using var reader = db.PrepareReader("users", "id", "age");
        long hits = 0;
        int n = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            if (reader.SeekIndex("users_age", (long)(n++ % 90))) hits += reader.GetInt64(1) + 1;
        }, 500);
        allocated.Should().Be(0);
        hits.Should().BeGreaterThan(0);
    }

    [Fact]
    public void CacheSmallerThanTheTableStillAllocatesNothingWhileScanning()
    {
        using var dir = new TempDir();
        string path = AllocationFixture.Build(dir, "UTF-8", 5000);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { CachePages = 16 });
        using var reader = db.PrepareReader("users", "id", "bio");
        long allocated = AllocationFixture.Measure(() =>
        {
            reader.Reset();
            while (reader.Read()) _ = reader.GetUtf8Span(1);
        }, 3);
        allocated.Should().Be(0);
    }
}
