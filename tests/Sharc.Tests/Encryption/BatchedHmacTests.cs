using System.Buffers.Binary;
using System.Security.Cryptography;
using Sharc.Storage.Crypto;
using Sharc.Testing;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>
/// The side-by-side HMAC-SHA512 of up to eight pages equals the platform's HMAC of each (message, then the page
/// number little-endian), and batched page decryption equals page-by-page decryption, failures included.
/// </summary>
public sealed class BatchedHmacTests
{
    [Theory]
    [InlineData(1, 4032, 32)]
    [InlineData(8, 4032, 32)]
    [InlineData(5, 4032, 64)]
    [InlineData(3, 0, 16)]
    [InlineData(8, 105, 32)]
    [InlineData(8, 107, 32)]
    [InlineData(7, 1000, 128)]
    [InlineData(2, 65504, 32)]
    public void EachLane_EqualsThePlatformHmac(int count, int length, int keyLength)
    {
        if (!HmacSha512x8.IsSupported) return;
        var rng = new Random(count * 1000 + length + keyLength);
        var key = new byte[keyLength];
        rng.NextBytes(key);
        var buffers = new byte[8][];
        var numbers = new uint[8];
        for (int i = 0; i < count; i++)
        {
            buffers[i] = new byte[length + 7];
            rng.NextBytes(buffers[i]);
            numbers[i] = (uint)rng.Next();
        }
        var macs = new byte[8 * 64];
        new HmacSha512x8(key).Compute(buffers, count, 7, length, numbers, macs);
        for (int i = 0; i < count; i++)
        {
            var message = new byte[length + 4];
            buffers[i].AsSpan(7, length).CopyTo(message);
            BinaryPrimitives.WriteUInt32LittleEndian(message.AsSpan(length), numbers[i]);
            macs.AsSpan(i * 64, 64).ToArray().Should().Equal(HMACSHA512.HashData(key, message), "lane {0}", i);
        }
    }

    [Fact]
    public void DecryptInPlace_EqualsDecrypt_AndLeavesTamperedPagesUnauthenticated()
    {
        using var key = SharcEncryptionKey.FromRawKey(Enumerable.Range(0, 32).Select(i => (byte)(i * 11 + 3)).ToArray());
        using var codec = PageCodec.Create(key, Fast, default);
        var rng = new Random(5);
        for (int count = 1; count <= 8; count++)
        {
            var pages = Enumerable.Range(0, count).Select(i => (uint)(rng.Next(2, 100000))).ToArray();
            if (count == 3) pages[1] = 1;
            var plains = new byte[count][];
            var buffers = new byte[8][];
            for (int i = 0; i < count; i++)
            {
                plains[i] = new byte[codec.PageSize];
                rng.NextBytes(plains[i]);
                if (pages[i] == 1) "SQLite format 3\0"u8.CopyTo(plains[i]);
                buffers[i] = new byte[codec.PageSize];
                codec.Encrypt(pages[i], plains[i], buffers[i]);
            }
            int tampered = count > 1 ? count - 2 : -1;
            if (tampered >= 0) buffers[tampered][rng.Next(codec.PageSize)] ^= 0x10;
            var ok = new bool[count];
            codec.DecryptInPlace(pages, buffers, ok);
            for (int i = 0; i < count; i++)
            {
                ok[i].Should().Be(i != tampered, "page {0} of a batch of {1}", i, count);
                if (ok[i]) buffers[i].AsSpan(0, codec.PageSize - codec.Reserve).SequenceEqual(plains[i].AsSpan(0, codec.PageSize - codec.Reserve)).Should().BeTrue("page {0} of {1}", i, count);
            }
        }
    }

    [Fact]
    public void DecryptInPlace_AllocatesNothing()
    {
        using var key = SharcEncryptionKey.FromRawKey(Enumerable.Range(0, 32).Select(i => (byte)(i * 13 + 1)).ToArray());
        using var codec = PageCodec.Create(key, Fast, default);
        var pages = Enumerable.Range(2, 8).Select(i => (uint)i).ToArray();
        var stored = pages.Select(p =>
        {
            var raw = new byte[codec.PageSize];
            codec.Encrypt(p, new byte[codec.PageSize], raw);
            return raw;
        }).ToArray();
        var buffers = pages.Select(_ => new byte[codec.PageSize]).ToArray();
        var ok = new bool[8];
        AllocationMeasure.Measure(() =>
        {
            for (int i = 0; i < 8; i++) stored[i].CopyTo(buffers[i], 0);
            codec.DecryptInPlace(pages, buffers, ok);
        }, 50).Should().Be(0);
        ok.Should().OnlyContain(b => b);
    }
}
