using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>
/// An encrypted database crashed at every write and sync (the crash tests' <see cref="FaultyStorage"/>) is found before
/// or after the transaction by Sharc, read-only and writable, and by SQLCipher when it is built, with every page
/// authenticating and integrity intact.
/// </summary>
public sealed class EncryptedCrashTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(SharcJournalMode.Delete, false, 2000)]
    [InlineData(SharcJournalMode.Delete, true, 2000)]
    [InlineData(SharcJournalMode.Delete, false, 16)]
    [InlineData(SharcJournalMode.Wal, false, 2000)]
    public void CrashAtEveryWriteAndSync_LeavesBeforeOrAfter(SharcJournalMode mode, bool tear, int spillPages)
    {
        using var key = SharcEncryptionKey.FromPassphrase("crash key");
        string seed = _dir.File($"seed-{mode}-{tear}-{spillPages}.db");
        using (var db = SharcDatabase.Create(seed, new SharcCreateOptions { Key = key, Cipher = Fast, JournalMode = mode }))
            Apply(db, Workload(11, 60));
        var options = new SharcOpenOptions { Key = key, Cipher = Fast, Writable = true, SpillPages = spillPages };
        void Work(SharcDatabase db) => Apply(db,
        [
            "UPDATE t SET name = 'changed ' || id, data = zeroblob(3000) WHERE id % 3 = 0",
            "INSERT INTO t(name, data) SELECT 'copy', data FROM t WHERE id < 40",
            "DELETE FROM kv WHERE v % 2 = 0",
        ]);
        List<List<object?[]>> Read(string path)
        {
            using var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = key, Cipher = Fast });
            return ReadSharc(db);
        }

        var before = Read(seed);
        string clean = _dir.File("clean.db");
        CrashHarness.CopyDatabase(seed, clean);
        var counter = new FaultyStorage();
        using (var db = SharcDatabase.OpenWritable(clean, options, counter)) Work(db);
        int total = counter.Operations;
        var after = Read(clean);
        Same(after, before).Should().BeFalse();

        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string path = _dir.File($"crash{crashAt}.db");
            CrashHarness.CopyDatabase(seed, path);
            var fs = new FaultyStorage { CrashAt = crashAt, Tear = tear };
            try
            {
                using var db = SharcDatabase.OpenWritable(path, options, fs);
                Work(db);
            }
            catch (IOException)
            {
                // the simulated crash
            }
            fs.Crashed.Should().BeTrue();

            if (SqlCipher.LibraryPath is not null)
            {
                string copy = _dir.File($"cipher{crashAt}.db");
                CrashHarness.CopyDatabase(path, copy);
                using var c = SqlCipher.Open(copy, "crash key", FastPragmas);
                c.Scalar("PRAGMA integrity_check").Should().Be("ok", "SQLCipher after a crash at {0}", crashAt);
                c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
                var seen = ReadSqlCipher(c);
                (Same(seen, before) || Same(seen, after)).Should().BeTrue("SQLCipher after a crash at {0} of {1}", crashAt, total);
            }
            var readOnly = Read(path);
            (Same(readOnly, before) || Same(readOnly, after)).Should().BeTrue("Sharc read-only after a crash at {0} of {1}", crashAt, total);
            using (var rw = SharcDatabase.Open(path, new SharcOpenOptions { Key = key, Cipher = Fast, Writable = true }))
            {
                Same(ReadSharc(rw), readOnly).Should().BeTrue("Sharc writable after a crash at {0}", crashAt);
                rw.CheckIntegrity().Should().BeEmpty("after a crash at {0}", crashAt);
            }
        }
        total.Should().BeGreaterThan(3);
    }

    private static bool Same(List<List<object?[]>> a, List<List<object?[]>> b)
        => a.Count == b.Count && a.Zip(b).All(p => p.First.Count == p.Second.Count
            && p.First.Zip(p.Second).All(r => r.First.Length == r.Second.Length
                && r.First.Zip(r.Second).All(v => v.First is byte[] x && v.Second is byte[] y ? x.AsSpan().SequenceEqual(y) : Equals(v.First, v.Second))));
}
