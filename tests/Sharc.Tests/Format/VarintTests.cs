using Sharc.Format;

namespace Sharc.Tests.Format;

public class VarintTests
{
    [Theory]
    [InlineData(0L, 1)]
    [InlineData(127L, 1)]
    [InlineData(128L, 2)]
    [InlineData(16383L, 2)]
    [InlineData(16384L, 3)]
    [InlineData(0x00FFFFFFFFFFFFFFL, 8)]
    [InlineData(0x0100000000000000L, 9)]
    [InlineData(-1L, 9)]
    [InlineData(long.MinValue, 9)]
    [InlineData(long.MaxValue, 9)]
    public void WriteThenReadRoundTripsWithSqliteLength(long value, int length)
    {
        Span<byte> buf = stackalloc byte[9];
        Varint.Write(buf, value).Should().Be(length);
        Varint.Length(value).Should().Be(length);
        Varint.Read(buf, out long back).Should().Be(length);
        back.Should().Be(value);
    }

    [Fact]
    public void NinthByteContributesAllEightBits()
    {
        byte[] nine = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
        Varint.Read(nine, out long v).Should().Be(9);
        v.Should().Be(-1);
    }

    [Fact]
    public void TruncatedVarintReportsZeroBytes()
    {
        byte[] cut = [0x81, 0x82];
        Varint.Read(cut, out _).Should().Be(0);
        Varint.Read([], out _).Should().Be(0);
    }

    [Fact]
    public void RandomValuesRoundTrip()
    {
        var rng = new Random(1234);
        Span<byte> buf = stackalloc byte[9];
        for (int i = 0; i < 10_000; i++)
        {
            long v = rng.NextInt64(long.MinValue, long.MaxValue) >> rng.Next(64);
            int n = Varint.Write(buf, v);
            Varint.Read(buf[..n], out long back).Should().Be(n);
            back.Should().Be(v);
        }
    }
}
