using System.Buffers.Binary;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;
using Sharc.Testing;
using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>Wrong keys and altered pages are typed errors; rewritten pages get fresh IVs; pages cost no allocation.</summary>
public sealed class EncryptedPageTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private string CreateEncrypted(string name, string passphrase = "secret", int rows = 120)
    {
        string path = _dir.File(name);
        using var k = SharcEncryptionKey.FromPassphrase(passphrase);
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = k, Cipher = Fast });
        Apply(db, Workload(7, rows));
        return path;
    }

    private static SharcDatabase OpenWith(string path, string passphrase, bool writable = false)
    {
        var k = SharcEncryptionKey.FromPassphrase(passphrase);
        return SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = Fast, Writable = writable });
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void WrongKey_SaysWrongKeyOrNotEncrypted(bool writable)
    {
        string path = CreateEncrypted("wrong.db");
        var act = () => OpenWith(path, "not the secret", writable).Dispose();
        act.Should().Throw<SharcCryptoException>().WithMessage("*wrong key or not an encrypted database*")
            .Which.Page.Should().Be(1u);
    }

    [Fact]
    public void PlaintextDatabase_OpenedWithKey_SaysWrongKeyOrNotEncrypted()
    {
        string path = _dir.File("plain.db");
        using (var db = SharcDatabase.Create(path))
            db.Execute("CREATE TABLE a(x)");
        var act = () => OpenWith(path, "secret").Dispose();
        act.Should().Throw<SharcCryptoException>().WithMessage("*wrong key or not an encrypted database*");
    }

    [Fact]
    public void EncryptedDatabase_OpenedWithoutKey_IsAFormatError()
    {
        string path = CreateEncrypted("nokey.db");
        var act = () => SharcDatabase.Open(path).Dispose();
        act.Should().Throw<SharcFormatException>().WithMessage("*encrypted*");
    }

    [Fact]
    public void WrongCipherSettings_AreTypedErrors()
    {
        string path = CreateEncrypted("settings.db");
        using var k = SharcEncryptionKey.FromPassphrase("secret");
        var act = () => SharcDatabase.Open(path, new SharcOpenOptions { Key = k }).Dispose(); // 256,000 iterations, not 1000
        act.Should().Throw<SharcCryptoException>();
        var v3 = () => SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = SharcCipherSettings.SqlCipher3 }).Dispose();
        v3.Should().Throw<SharcCryptoException>();
    }

    /// <summary>Regions of a page as stored: ciphertext (start, middle, end), IV, HMAC; page 1's salt too.</summary>
    public static TheoryData<string, uint, int> Regions => new()
    {
        { "ciphertext start", 2, 0 },
        { "ciphertext middle", 3, 2000 },
        { "ciphertext last byte", 2, 4015 },
        { "iv", 2, 4016 },
        { "iv last byte", 4, 4031 },
        { "hmac", 2, 4032 },
        { "hmac last byte", 3, 4095 },
        { "page 1 ciphertext", 1, 100 },
        { "page 1 hmac", 1, 4090 },
    };

    [Theory]
    [MemberData(nameof(Regions))]
    public void BitFlip_InAnyRegion_IsATypedErrorNamingThePage(string region, uint page, int offset)
    {
        string path = CreateEncrypted($"flip{page}-{offset}.db");
        using (var f = File.Open(path, FileMode.Open, FileAccess.ReadWrite))
        {
            f.Position = (page - 1) * 4096L + offset;
            int b = f.ReadByte();
            f.Position--;
            f.WriteByte((byte)(b ^ 0x10));
        }
        var act = () =>
        {
            using var db = OpenWith(path, "secret");
            ReadSharc(db);
            db.CheckIntegrity();
        };
        act.Should().Throw<SharcCryptoException>(region).Which.Page.Should().Be(page, region);
    }

    [Fact]
    public void SaltChanged_FailsOnPage1()
    {
        string path = CreateEncrypted("salt.db");
        var bytes = File.ReadAllBytes(path);
        bytes[5] ^= 1;
        File.WriteAllBytes(path, bytes);
        var act = () => OpenWith(path, "secret").Dispose();
        act.Should().Throw<SharcCryptoException>().Which.Page.Should().Be(1u);
    }

    [Fact]
    public void PagesSwapped_FailAuthentication()
    {
        // The page number is in the HMAC: a valid page moved elsewhere does not pass.
        string path = CreateEncrypted("swap.db");
        var bytes = File.ReadAllBytes(path);
        bytes.AsSpan(4096, 4096).CopyTo(bytes.AsSpan(2 * 4096));
        File.WriteAllBytes(path, bytes);
        var act = () =>
        {
            using var db = OpenWith(path, "secret");
            db.CheckIntegrity();
        };
        act.Should().Throw<SharcCryptoException>().Which.Page.Should().Be(3u);
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void RewrittenPages_GetFreshIvs(SharcJournalMode mode)
    {
        string path = _dir.File($"iv-{mode}.db");
        using var k = SharcEncryptionKey.FromPassphrase("secret");
        var seen = new HashSet<string>();
        var previous = new Dictionary<int, byte[]>();
        int rewrites = 0;
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = k, Cipher = Fast, JournalMode = mode }))
        {
            db.Execute("CREATE TABLE a(x)");
            db.Execute("INSERT INTO a VALUES(1)");
            for (int i = 0; i < 20; i++)
            {
                // The same content written again: a rewritten page differs only through its IV, which is never reused.
                db.Execute("UPDATE a SET x = 1");
                if (mode == SharcJournalMode.Wal) db.Checkpoint();
                var file = File.ReadAllBytes(path);
                for (int p = 0; p < file.Length / 4096; p++)
                {
                    var page = file.AsSpan(p * 4096, 4096).ToArray();
                    if (previous.TryGetValue(p, out var old) && old.AsSpan().SequenceEqual(page)) continue;
                    previous[p] = page;
                    seen.Add(Convert.ToHexString(page, 4016, 16)).Should().BeTrue("a rewritten page has a new IV (page {0}, write {1})", p + 1, i);
                    rewrites++;
                }
            }
        }
        rewrites.Should().BeGreaterThanOrEqualTo(20, "the table's page is rewritten by every update");
    }

    [Fact]
    public void Journal_HoldsPagesEncrypted()
    {
        string path = CreateEncrypted("journal.db");
        var original = File.ReadAllBytes(path);
        using (var db = OpenWith(path, "secret", writable: true))
        {
            using var tx = db.BeginTransaction();
            db.Execute("UPDATE t SET name = 'journaled' WHERE id < 30");
            var journal = File.ReadAllBytes(path + "-journal");
            System.Text.Encoding.ASCII.GetString(journal).Should().NotContain("name ").And.NotContain("SQLite format 3");
        }
        File.ReadAllBytes(path).Should().Equal(original, "the rolled back transaction left the file as it was");
    }

    [Fact]
    public void DecryptAndEncrypt_AllocateNothingPerPage()
    {
        using var k = SharcEncryptionKey.FromPassphrase("secret");
        using var codec = PageCodec.Create(k, Fast, default);
        var plain = new byte[4096];
        new Random(1).NextBytes(plain);
        var raw = new byte[4096];
        var back = new byte[4096];
        uint page = 2;
        AllocationMeasure.Measure(() => codec.Encrypt(page, plain, raw), 200).Should().Be(0);
        AllocationMeasure.Measure(() => codec.Decrypt(page, raw, back), 200).Should().Be(0);
        back.AsSpan(0, 4016).SequenceEqual(plain.AsSpan(0, 4016)).Should().BeTrue();
    }

    [Fact]
    public void CacheMisses_DecryptWithoutAllocating()
    {
        string path = CreateEncrypted("misses.db", rows: 400);
        using var k = SharcEncryptionKey.FromPassphrase("secret");
        using var codec = PageCodec.Create(k, Fast, File.ReadAllBytes(path).AsSpan(0, 16));
        using var file = new EncryptedFile(OsStorage.Instance.OpenReadOnly(path), codec);
        int pages = (int)(file.Length / 4096);
        pages.Should().BeGreaterThan(20);
        var buffer = new byte[4096];
        int next = 0;
        long bytes = AllocationMeasure.Measure(() =>
        {
            file.Read(buffer, (long)next * 4096);
            next = (next + 1) % pages;
        }, pages * 2);
        bytes.Should().Be(0);
    }

    [Fact]
    public void CommitEncryption_AllocatesNothingPerPage()
    {
        string path = CreateEncrypted("commit.db", rows: 10);
        using var k = SharcEncryptionKey.FromPassphrase("secret");
        using var codec = PageCodec.Create(k, Fast, File.ReadAllBytes(path).AsSpan(0, 16));
        // Writes go nowhere: what is measured is the encryption, not the OS's gathered write.
        using var file = new EncryptedFile(new NullFile(), codec);
        var pages = Enumerable.Range(0, 100).Select(_ => (ReadOnlyMemory<byte>)new byte[4096]).ToList();
        long bytes = AllocationMeasure.Measure(() => file.Write(pages, 100 * 4096L), 20);
        bytes.Should().Be(0);
    }

    [Fact]
    public void HeaderReadOfUnchangedPage1_ReadsOnlyItsReservedTail_AndARewriteIsDecryptedAgain()
    {
        using var k = SharcEncryptionKey.FromRawKey(Enumerable.Range(0, 32).Select(i => (byte)(i * 3 + 2)).ToArray());
        using var codec = PageCodec.Create(k, Fast, default);
        var image = new ImageFile(4096);
        // Two connections to one file: one writes page 1, the other reads its header at each read session.
        var writer = new EncryptedFile(image, codec);
        var reader = new EncryptedFile(image, codec);
        var page1 = new byte[4096];
        "SQLite format 3\0"u8.CopyTo(page1);
        BinaryPrimitives.WriteUInt32BigEndian(page1.AsSpan(24), 1);
        writer.Write(page1, 0);
        var header = new byte[100];

        reader.Read(header, 0).Should().Be(100);
        BinaryPrimitives.ReadUInt32BigEndian(header.AsSpan(24)).Should().Be(1u);
        image.BytesRead = 0;
        reader.Read(header, 0).Should().Be(100);
        image.BytesRead.Should().Be(codec.Reserve, "page 1 is unchanged, which its IV and HMAC show");
        BinaryPrimitives.ReadUInt32BigEndian(header.AsSpan(24)).Should().Be(1u);

        BinaryPrimitives.WriteUInt32BigEndian(page1.AsSpan(24), 2);
        writer.Write(page1, 0);
        reader.Read(header, 0).Should().Be(100);
        BinaryPrimitives.ReadUInt32BigEndian(header.AsSpan(24)).Should().Be(2u, "the rewrite has a fresh IV, so it is read and decrypted again");

        // A tail forged onto other content fails authentication rather than being served from the last decryption.
        image.Bytes[200] ^= 1;
        image.Bytes[4095] ^= 1;
        var act = () => reader.Read(header, 0);
        act.Should().Throw<SharcCryptoException>();
    }

    /// <summary>A file in memory that counts the bytes read from it; never closed (the tests share it).</summary>
    private sealed class ImageFile(int length) : IStorageFile
    {
        public byte[] Bytes { get; } = new byte[length];
        public long BytesRead { get; set; }
        public long Length => Bytes.Length;
        public Microsoft.Win32.SafeHandles.SafeFileHandle? Handle => null;

        public int Read(Span<byte> buffer, long offset)
        {
            int n = (int)Math.Max(0, Math.Min(buffer.Length, Bytes.Length - offset));
            Bytes.AsSpan((int)offset, n).CopyTo(buffer);
            BytesRead += n;
            return n;
        }

        public void Write(ReadOnlySpan<byte> data, long offset) => data.CopyTo(Bytes.AsSpan((int)offset));
        public void SetLength(long length) { }
        public void Sync() { }
        public void Dispose() { }
    }

    private sealed class NullFile : IStorageFile
    {
        public long Length => 0;
        public Microsoft.Win32.SafeHandles.SafeFileHandle? Handle => null;
        public int Read(Span<byte> buffer, long offset) => 0;
        public void Write(ReadOnlySpan<byte> data, long offset) { }
        public void Write(IReadOnlyList<ReadOnlyMemory<byte>> data, long offset) { }
        public void SetLength(long length) { }
        public void Sync() { }
        public void Dispose() { }
    }

    [Fact]
    public void KeyObject_IsZeroedOnDispose()
    {
        var k = SharcEncryptionKey.Parse("x'" + new string('A', 64) + "'");
        k.IsRaw.Should().BeTrue();
        k.Material.ToArray().Should().OnlyContain(b => b == 0xAA);
        k.Dispose();
        var act = () => k.Material.ToArray();
        act.Should().Throw<ObjectDisposedException>();
    }

    [Fact]
    public void HeaderPageCount_IsReadThroughTheCipher()
    {
        string path = CreateEncrypted("count.db");
        using var db = OpenWith(path, "secret");
        db.PageCount.Should().Be((uint)(new FileInfo(path).Length / 4096));
        BinaryPrimitives.ReadUInt32BigEndian(File.ReadAllBytes(path).AsSpan(28)).Should().NotBe(db.PageCount, "the header is encrypted in the file");
    }
}
