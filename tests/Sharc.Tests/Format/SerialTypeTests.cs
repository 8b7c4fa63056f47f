using Sharc.Format;

namespace Sharc.Tests.Format;

public class SerialTypeTests
{
    [Theory]
    [InlineData(0L, 0L, SharcColumnType.Null)]
    [InlineData(1L, 1L, SharcColumnType.Integer)]
    [InlineData(2L, 2L, SharcColumnType.Integer)]
    [InlineData(3L, 3L, SharcColumnType.Integer)]
    [InlineData(4L, 4L, SharcColumnType.Integer)]
    [InlineData(5L, 6L, SharcColumnType.Integer)]
    [InlineData(6L, 8L, SharcColumnType.Integer)]
    [InlineData(7L, 8L, SharcColumnType.Real)]
    [InlineData(8L, 0L, SharcColumnType.Integer)]
    [InlineData(9L, 0L, SharcColumnType.Integer)]
    [InlineData(12L, 0L, SharcColumnType.Blob)]
    [InlineData(13L, 0L, SharcColumnType.Text)]
    [InlineData(20L, 4L, SharcColumnType.Blob)]
    [InlineData(21L, 4L, SharcColumnType.Text)]
    public void SizesAndClassesFollowTheFileFormat(long type, long size, SharcColumnType cls)
    {
        SerialType.ContentSize(type).Should().Be(size);
        SerialType.StorageClass(type).Should().Be(cls);
    }

    [Theory]
    [InlineData(10L)]
    [InlineData(11L)]
    [InlineData(-5L)]
    public void ReservedTypesHaveNoSize(long type) => SerialType.ContentSize(type).Should().Be(-1);

    [Theory]
    [InlineData(1L, new byte[] { 0xFF }, -1L)]
    [InlineData(2L, new byte[] { 0x80, 0x00 }, -32768L)]
    [InlineData(3L, new byte[] { 0xFF, 0xFF, 0xFE }, -2L)]
    [InlineData(3L, new byte[] { 0x7F, 0xFF, 0xFF }, 8388607L)]
    [InlineData(4L, new byte[] { 0x00, 0x01, 0x00, 0x00 }, 65536L)]
    [InlineData(5L, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF }, -1L)]
    [InlineData(5L, new byte[] { 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF }, 140737488355327L)]
    [InlineData(6L, new byte[] { 0x80, 0, 0, 0, 0, 0, 0, 0 }, long.MinValue)]
    [InlineData(8L, new byte[0], 0L)]
    [InlineData(9L, new byte[0], 1L)]
    public void IntegersDecodeBigEndianSigned(long type, byte[] bytes, long expected)
        => SerialType.ReadInteger(type, bytes).Should().Be(expected);
}
