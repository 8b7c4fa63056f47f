using Sharc.Storage.Crypto;
using Sharc.Testing;
using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>
/// Pages decrypted ahead of a sequential reader: what the reader takes is always the page as stored in its epoch,
/// a page that fails authentication is left for the reader to report, and taking pages allocates nothing.
/// </summary>
public sealed class DecryptAheadTests : IDisposable
{
    private const int Pages = 64;
    private readonly TempDir _dir = new();
    private readonly SharcEncryptionKey _key = SharcEncryptionKey.FromRawKey(Enumerable.Range(0, 32).Select(i => (byte)(i * 5 + 1)).ToArray());

    public void Dispose()
    {
        _key.Dispose();
        _dir.Dispose();
    }

    [Fact]
    public void SequentialReader_GetsEveryPageAsStored()
    {
        using var codec = PageCodec.Create(_key, Fast, default);
        var source = new Source(codec, Pages, version: 1);
        var ahead = new DecryptAhead(source, codec);
        for (int round = 0; round < 3; round++)
            for (uint p = 2; p <= Pages; p++)
                Take(ahead, codec, source, p).Should().Equal(source.Plain(p), "page {0}", p);
        ahead.Dispose();
    }

    [Fact]
    public void PagesReadInAnEndedEpoch_AreNotUsed()
    {
        using var codec = PageCodec.Create(_key, Fast, default);
        var source = new Source(codec, Pages, version: 1);
        var ahead = new DecryptAhead(source, codec);
        Take(ahead, codec, source, 2);
        Take(ahead, codec, source, 3);
        SpinWait.SpinUntil(() => ahead.IsIdle, TimeSpan.FromSeconds(30)).Should().BeTrue();
        // Another connection commits between two read sessions: every page changes.
        source.Rewrite(version: 2);
        source.Epoch++;
        for (uint p = 4; p <= Pages; p++)
            Take(ahead, codec, source, p).Should().Equal(source.Plain(p), "page {0} after the commit", p);
        ahead.Dispose();
    }

    [Fact]
    public void TamperedPage_IsLeftForTheReader()
    {
        using var codec = PageCodec.Create(_key, Fast, default);
        var source = new Source(codec, Pages, version: 1);
        source.Stored[9][100] ^= 1;
        var ahead = new DecryptAhead(source, codec);
        Take(ahead, codec, source, 7);
        Take(ahead, codec, source, 8);
        SpinWait.SpinUntil(() => ahead.IsIdle, TimeSpan.FromSeconds(30)).Should().BeTrue();
        var buffer = new byte[codec.PageSize];
        ahead.TryTake(9, buffer).Should().BeFalse("the helper could not authenticate page 9");
        var act = () => codec.Decrypt(9, source.Stored[9], buffer);
        act.Should().Throw<SharcCryptoException>().Which.Page.Should().Be(9u);
        ahead.Dispose();
    }

    [Fact]
    public void TakingPages_AllocatesNothing()
    {
        using var codec = PageCodec.Create(_key, Fast, default);
        var source = new Source(codec, Pages, version: 1);
        var ahead = new DecryptAhead(source, codec);
        var buffer = new byte[codec.PageSize];
        var raw = new byte[codec.PageSize];
        uint next = 2;
        AllocationMeasure.Measure(() =>
        {
            if (!ahead.TryTake(next, buffer))
            {
                source.ReadStored(next, raw);
                codec.Decrypt(next, raw, buffer);
            }
            next = next == Pages ? 2 : next + 1;
        }, Pages * 4).Should().Be(0);
        ahead.Dispose();
    }

    [Fact]
    public void Dispose_WaitsForTheHelper_ThenTakesNothing()
    {
        using var codec = PageCodec.Create(_key, Fast, default);
        var source = new Source(codec, Pages, version: 1);
        var ahead = new DecryptAhead(source, codec);
        Take(ahead, codec, source, 2);
        Take(ahead, codec, source, 3);
        ahead.Dispose();
        ahead.IsIdle.Should().BeTrue();
        ahead.TryTake(4, new byte[codec.PageSize]).Should().BeFalse();
    }

    [Fact]
    public void ReadOnlyConnection_ScanningEncryptedPages_SeesEachCommitOfAWriter()
    {
        string path = _dir.File("ahead.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = _key, Cipher = Fast }))
        {
            db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER, pad TEXT)");
            using var tx = db.BeginTransaction();
            for (int i = 1; i <= 3000; i++) db.Execute("INSERT INTO t VALUES(?, 0, ?)", [i, new string('x', 200)]);
            tx.Commit();
        }
        using var reader = SharcDatabase.Open(path, new SharcOpenOptions { Key = _key, Cipher = Fast, CachePages = 8 });
        using var writer = SharcDatabase.Open(path, new SharcOpenOptions { Key = _key, Cipher = Fast, Writable = true });
        for (int round = 1; round <= 4; round++)
        {
            writer.Execute($"UPDATE t SET v = {round}");
            using var q = reader.Query("SELECT count(*), min(v), max(v) FROM t");
            SharcRows.All(q).Single().Should().Equal(new object?[] { 3000L, (long)round, (long)round }, "round {0}", round);
        }
    }

    [Fact]
    public void ConcurrentReaders_OfOneEncryptedConnection_ReadTheSameRows()
    {
        string path = _dir.File("threads.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = _key, Cipher = Fast }))
            Apply(db, Workload(31, 150));
        List<List<object?[]>> expected;
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = _key, Cipher = Fast })) expected = ReadSharc(db);
        using var shared = SharcDatabase.Open(path, new SharcOpenOptions { Key = _key, Cipher = Fast, CachePages = 8 });
        Parallel.For(0, 4, _ =>
        {
            for (int i = 0; i < 3; i++) ShouldMatch(ReadSharc(shared), expected, "a reader on one of four threads");
        });
    }

    /// <summary>The page's content (up to its reserved tail), from the helper or decrypted here as the pager would.</summary>
    private static byte[] Take(DecryptAhead ahead, PageCodec codec, Source source, uint page)
    {
        var buffer = new byte[codec.PageSize];
        if (!ahead.TryTake(page, buffer))
        {
            var raw = new byte[codec.PageSize];
            source.ReadStored(page, raw);
            codec.Decrypt(page, raw, buffer);
        }
        return buffer[..(codec.PageSize - codec.Reserve)];
    }

    /// <summary>Pages held encrypted in memory, each filled with bytes that name the page and the version.</summary>
    private sealed class Source : IReadAheadSource
    {
        private readonly PageCodec _codec;
        private int _version;

        public Source(PageCodec codec, uint pages, int version)
        {
            _codec = codec;
            PageCount = pages;
            Stored = new byte[pages + 1][];
            Rewrite(version);
        }

        public byte[][] Stored { get; }
        public uint PageCount { get; }
        public long Epoch;
        long IReadAheadSource.ReadEpoch => Interlocked.Read(ref Epoch);

        public byte[] Plain(uint page)
        {
            var p = new byte[_codec.PageSize - _codec.Reserve];
            new Random((int)page * 31 + _version).NextBytes(p);
            return p;
        }

        public void Rewrite(int version)
        {
            _version = version;
            for (uint p = 2; p <= PageCount; p++)
            {
                var raw = new byte[_codec.PageSize];
                var page = new byte[_codec.PageSize];
                Plain(p).CopyTo(page, 0);
                _codec.Encrypt(p, page, raw);
                Stored[p] = raw;
            }
        }

        public void ReadStored(uint page, byte[] target) => Stored[page].CopyTo(target, 0);
    }
}
