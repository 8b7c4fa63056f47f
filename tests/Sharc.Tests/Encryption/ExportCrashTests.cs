using Sharc.Storage.IO;
using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>
/// Encrypt, ExportPlaintext and ExportEncrypted crashed at every write, sync and rename (the crash tests'
/// <see cref="FaultyStorage"/>, torn writes too): the target path then holds the old database whole (readable as
/// before, with the old key or none) or the whole new one, never a half-written file, and a second attempt succeeds.
/// </summary>
public sealed class ExportCrashTests : IDisposable
{
    private const string NewPassphrase = "the new key";
    private const string OldPassphrase = "the old key";

    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private enum Found { Old, New }

    /// <summary>
    /// Only the directory sync follows the rename, so a crash at any step, the rename included, leaves the old file,
    /// and a crash at the directory sync (after the rename) the new one.
    /// </summary>
    private static readonly Found[] RenameThenDirectorySync = [Found.Old, Found.New];
    private const string RenameIsLast = "only the directory sync follows the rename, and a crashed rename never happened";

    [Theory]
    [InlineData(SharcJournalMode.Delete, false)]
    [InlineData(SharcJournalMode.Delete, true)]
    [InlineData(SharcJournalMode.Wal, false)]
    public void Encrypt_CrashedAnywhere_LeavesThePlaintextOrTheEncryptedDatabase(SharcJournalMode mode, bool tear)
    {
        using var key = SharcEncryptionKey.FromPassphrase(NewPassphrase);
        string seed = _dir.File($"encrypt-seed-{mode}-{tear}.db");
        using (var db = SharcDatabase.Create(seed, new SharcCreateOptions { JournalMode = mode }))
            Apply(db, Workload(21, 40));
        var content = ReadPlain(seed);

        Found Classify(string path)
        {
            if (File.ReadAllBytes(path).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8))
            {
                Oracle.IntegrityCheck(path).Should().Be("ok");
                ShouldMatch(ReadPlain(path), content, "what the target holds");
                return Found.Old;
            }
            ShouldMatch(ReadEncrypted(path, key), content, "what the target holds");
            CheckWithSqlCipher(path, NewPassphrase, content);
            return Found.New;
        }

        var seen = EveryCrashPoint(seed, tear, fs => SharcDatabase.EncryptThrough(PathOf(fs), key, Fast, fs), Classify);
        seen.Should().Equal(RenameThenDirectorySync, RenameIsLast);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ExportPlaintext_CrashedAnywhere_LeavesTheOldDestinationOrTheWholeCopy(bool tear)
    {
        using var key = SharcEncryptionKey.FromPassphrase(OldPassphrase);
        string source = _dir.File($"export-source-{tear}.db");
        using (var db = SharcDatabase.Create(source, new SharcCreateOptions { Key = key, Cipher = Fast }))
            Apply(db, Workload(22, 40));
        var content = ReadEncrypted(source, key);
        string seed = _dir.File($"plain-destination-{tear}.db");
        using (var db = SharcDatabase.Create(seed))
            Apply(db, Workload(23, 8));
        var old = ReadPlain(seed);

        Found Classify(string path)
        {
            Oracle.IntegrityCheck(path).Should().Be("ok");
            var found = ReadPlain(path);
            if (Same(found, old)) return Found.Old;
            ShouldMatch(found, content, "the destination is the old database or the whole copy");
            return Found.New;
        }

        using var from = SharcDatabase.Open(source, new SharcOpenOptions { Key = key, Cipher = Fast });
        var seen = EveryCrashPoint(seed, tear, fs => from.ExportTo(PathOf(fs), null, null, fs), Classify);
        seen.Should().Equal(RenameThenDirectorySync, RenameIsLast);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ExportEncrypted_CrashedAnywhere_LeavesTheOldDestinationOrTheWholeCopy(bool tear)
    {
        using var oldKey = SharcEncryptionKey.FromPassphrase(OldPassphrase);
        using var newKey = SharcEncryptionKey.FromPassphrase(NewPassphrase);
        string source = _dir.File($"export-plain-source-{tear}.db");
        using (var db = SharcDatabase.Create(source))
            Apply(db, Workload(24, 40));
        var content = ReadPlain(source);
        string seed = _dir.File($"encrypted-destination-{tear}.db");
        using (var db = SharcDatabase.Create(seed, new SharcCreateOptions { Key = oldKey, Cipher = Fast }))
            Apply(db, Workload(25, 8));
        var old = ReadEncrypted(seed, oldKey);

        Found Classify(string path)
        {
            try
            {
                ShouldMatch(ReadEncrypted(path, oldKey), old, "the old key opens only the old database");
                CheckWithSqlCipher(path, OldPassphrase, old);
                return Found.Old;
            }
            catch (SharcCryptoException)
            {
                // Not the old file: it must be the whole copy under the new key.
            }
            ShouldMatch(ReadEncrypted(path, newKey), content, "what the target holds");
            CheckWithSqlCipher(path, NewPassphrase, content);
            return Found.New;
        }

        using var from = SharcDatabase.Open(source);
        var seen = EveryCrashPoint(seed, tear, fs => from.ExportTo(PathOf(fs), newKey, Fast, fs), Classify);
        seen.Should().Equal(RenameThenDirectorySync, RenameIsLast);
    }

    [Fact]
    public void Export_OverADatabaseWithAHotJournal_IsRefusedBeforeAnythingIsWritten()
    {
        string source = _dir.File("refuse-source.db");
        using (var db = SharcDatabase.Create(source)) Apply(db, Workload(26, 5));
        string target = _dir.File("refuse-target.db");
        using (var db = SharcDatabase.Create(target)) Apply(db, Workload(27, 5));
        // A crash late in a commit leaves a hot journal: it still belongs to the target's data.
        var options = new SharcOpenOptions { Writable = true };
        string pristine = _dir.File("refuse-pristine.db");
        CrashHarness.CopyDatabase(target, pristine);
        var counter = new FaultyStorage();
        using (var db = SharcDatabase.OpenWritable(pristine, options, counter)) db.Execute("DELETE FROM t");
        CrashHarness.CopyDatabase(target, pristine);
        for (int crashAt = counter.Operations; !Sharc.Storage.Journal.HotJournal.IsHot(OsStorageForTests, target + "-journal"); crashAt--)
        {
            crashAt.Should().BeGreaterThan(0, "some crash leaves a hot journal");
            CrashHarness.CopyDatabase(pristine, target);
            if (File.Exists(target + "-journal")) File.Delete(target + "-journal");
            CrashHarness.CrashAt(target, options, db => db.Execute("DELETE FROM t"), crashAt, tear: false);
        }
        long length = new FileInfo(target).Length;

        using var from = SharcDatabase.Open(source);
        var act = () => from.ExportPlaintext(target);
        act.Should().Throw<InvalidOperationException>().WithMessage("*hot journal*");
        File.Exists(target + ".sharc-export").Should().BeFalse();
        new FileInfo(target).Length.Should().Be(length);
    }

    /// <summary>
    /// Runs the operation once to count its writes, syncs and renames, then once per operation on a fresh copy of the
    /// seed with a crash there; classifies what the target path holds, then retries without a crash and classifies
    /// again (the retry must finish the job: leftovers of the crashed attempt are no obstacle).
    /// </summary>
    private List<Found> EveryCrashPoint(string seed, bool tear, Action<IStorageSystem> work, Func<string, Found> classify)
    {
        string clean = _dir.File("clean.db");
        CrashHarness.CopyDatabase(seed, clean);
        var counter = new TargetedStorage(clean, new FaultyStorage());
        work(counter);
        classify(clean).Should().Be(Found.New);
        int total = counter.Faults.Operations;
        total.Should().BeGreaterThan(3);
        counter.Faults.Trace.ToString().Should().EndWith("rD", "the rename is made durable by a sync of its directory");

        // What a crash at each step leaves, distinct outcomes in the order first met.
        var seen = new List<Found>();
        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string path = _dir.File($"crash{crashAt}.db");
            CrashHarness.CopyDatabase(seed, path);
            var fs = new TargetedStorage(path, new FaultyStorage { CrashAt = crashAt, Tear = tear });
            try
            {
                work(fs);
            }
            catch (IOException)
            {
                // the simulated crash
            }
            fs.Faults.Crashed.Should().BeTrue("operation {0} of {1} happens", crashAt, total);
            var found = classify(path);
            if (!seen.Contains(found)) seen.Add(found);
            if (crashAt == total) found.Should().Be(Found.New, "a crash at the directory sync comes after the rename");
            if (found == Found.Old)
            {
                work(new TargetedStorage(path, OsStorageForTests));
                classify(path).Should().Be(Found.New, "a retry after a crash at operation {0} completes", crashAt);
            }
            foreach (var f in Directory.GetFiles(Path.GetDirectoryName(path)!, Path.GetFileName(path) + "*"))
                File.Delete(f);
        }
        return seen;
    }

    private static readonly IStorageSystem OsStorageForTests = OsStorage.Instance;

    private static string PathOf(IStorageSystem fs) => ((TargetedStorage)fs).Path;

    /// <summary>A file system that also carries the path the operation under test targets.</summary>
    private sealed class TargetedStorage(string path, IStorageSystem inner) : IStorageSystem
    {
        public string Path { get; } = path;
        public FaultyStorage Faults => (FaultyStorage)inner;
        public IStorageFile Open(string p, bool create) => inner.Open(p, create);
        public IStorageFile OpenReadOnly(string p) => inner.OpenReadOnly(p);
        public bool Exists(string p) => inner.Exists(p);
        public long LengthOf(string p) => inner.LengthOf(p);
        public void Delete(string p) => inner.Delete(p);
        public void Replace(string source, string destination) => inner.Replace(source, destination);
        public void SyncDirectory(string p) => inner.SyncDirectory(p);
    }

    private static List<List<object?[]>> ReadPlain(string path)
    {
        using var db = SharcDatabase.Open(path);
        return ReadSharc(db);
    }

    private static List<List<object?[]>> ReadEncrypted(string path, SharcEncryptionKey key)
    {
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = key, Cipher = Fast, Writable = true });
        db.CheckIntegrity().Should().BeEmpty();
        return ReadSharc(db);
    }

    private void CheckWithSqlCipher(string path, string passphrase, List<List<object?[]>> expected)
    {
        if (SqlCipher.LibraryPath is null) return;
        string copy = _dir.File("sqlcipher-view.db");
        CrashHarness.CopyDatabase(path, copy);
        using (var c = SqlCipher.Open(copy, passphrase, FastPragmas))
        {
            c.Scalar("PRAGMA integrity_check").Should().Be("ok");
            c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
            ShouldMatch(ReadSqlCipher(c), expected, "SQLCipher");
        }
        File.Delete(copy);
    }

    private static bool Same(List<List<object?[]>> a, List<List<object?[]>> b)
        => a.Count == b.Count && a.Zip(b).All(p => p.First.Count == p.Second.Count
            && p.First.Zip(p.Second).All(r => r.First.Length == r.Second.Length
                && r.First.Zip(r.Second).All(v => v.First is byte[] x && v.Second is byte[] y ? x.AsSpan().SequenceEqual(y) : Equals(v.First, v.Second))));
}
