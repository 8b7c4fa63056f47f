using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>Changing the key, encrypting a plaintext database and exporting a plaintext copy: whole, and crash-safe.</summary>
public sealed class RekeyAndExportTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private static SharcOpenOptions With(SharcEncryptionKey key, bool writable = false) => new() { Key = key, Cipher = Fast, Writable = writable };

    private string CreateEncrypted(string name, SharcEncryptionKey key, SharcJournalMode mode = SharcJournalMode.Delete)
    {
        string path = _dir.File(name);
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = key, Cipher = Fast, JournalMode = mode });
        Apply(db, Workload(5, 150));
        return path;
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void Rekey_ChangesTheKey_AndKeepsTheData(SharcJournalMode mode)
    {
        using var oldKey = SharcEncryptionKey.FromPassphrase("old");
        using var newKey = SharcEncryptionKey.FromPassphrase("new");
        string path = CreateEncrypted($"rekey-{mode}.db", oldKey, mode);
        List<List<object?[]>> expected;
        using (var db = SharcDatabase.Open(path, With(oldKey, writable: true)))
        {
            expected = ReadSharc(db);
            db.Rekey(newKey);
            ShouldMatch(ReadSharc(db), expected, "the same connection after rekey");
            db.Execute("INSERT INTO kv VALUES('after rekey', 1)");
            expected = ReadSharc(db);
        }
        var old = () => SharcDatabase.Open(path, With(oldKey)).Dispose();
        old.Should().Throw<SharcCryptoException>();
        using (var db = SharcDatabase.Open(path, With(newKey)))
        {
            ShouldMatch(ReadSharc(db), expected, "reopened with the new key");
            db.CheckIntegrity().Should().BeEmpty();
        }
        if (SqlCipher.LibraryPath is not null)
        {
            using var c = SqlCipher.Open(path, "new", FastPragmas);
            c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
            ShouldMatch(ReadSqlCipher(c), expected, "SQLCipher with the new key");
        }
    }

    [Fact]
    public void Rekey_OfAPlaintextDatabase_IsRefused()
    {
        string path = _dir.File("plain.db");
        using var db = SharcDatabase.Create(path);
        using var k = SharcEncryptionKey.FromPassphrase("k");
        var act = () => db.Rekey(k);
        act.Should().Throw<InvalidOperationException>().WithMessage("*not encrypted*");
    }

    [Fact]
    public void Rekey_CrashAtEveryWriteAndSync_LeavesOldOrNewKey()
    {
        using var oldKey = SharcEncryptionKey.FromPassphrase("old");
        using var newKey = SharcEncryptionKey.FromPassphrase("new");
        string seed = CreateEncrypted("rekey-seed.db", oldKey);
        List<List<object?[]>> expected;
        using (var db = SharcDatabase.Open(seed, With(oldKey))) expected = ReadSharc(db);
        var counter = new FaultyStorage();
        string clean = _dir.File("rekey-clean.db");
        CrashHarness.CopyDatabase(seed, clean);
        using (var db = SharcDatabase.OpenWritable(clean, With(oldKey, true), counter)) db.Rekey(newKey);
        int total = counter.Operations;
        total.Should().BeGreaterThan(3);
        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string path = _dir.File($"rekey-crash{crashAt}.db");
            CrashHarness.CopyDatabase(seed, path);
            var fs = new FaultyStorage { CrashAt = crashAt, Tear = crashAt % 2 == 0 };
            try
            {
                using var db = SharcDatabase.OpenWritable(path, With(oldKey, true), fs);
                db.Rekey(newKey);
            }
            catch (IOException)
            {
                // the simulated crash
            }
            // Whichever key opens it (the old one rolls a hot journal back first), every page authenticates.
            SharcDatabase? opened = null;
            foreach (var k in new[] { oldKey, newKey })
            {
                try
                {
                    opened = SharcDatabase.Open(path, With(k, writable: true));
                    break;
                }
                catch (SharcCryptoException)
                {
                }
            }
            opened.Should().NotBeNull("one of the keys opens the database after a crash at {0}", crashAt);
            using (opened)
            {
                ShouldMatch(ReadSharc(opened!), expected, $"after a crash at {crashAt}");
                opened!.CheckIntegrity().Should().BeEmpty();
            }
        }
    }

    [Fact]
    public void ExportPlaintext_WritesACopySqliteReads()
    {
        using var key = SharcEncryptionKey.FromPassphrase("export");
        string path = CreateEncrypted("export.db", key);
        string plain = _dir.File("export-plain.db");
        List<List<object?[]>> expected;
        using (var db = SharcDatabase.Open(path, With(key)))
        {
            db.Execute("PRAGMA user_version");
            expected = ReadSharc(db);
            db.ExportPlaintext(plain);
        }
        Oracle.IntegrityCheck(plain).Should().Be("ok");
        var fromSqlite = Queries.Select(q => Oracle.Rows(plain, q)).ToList();
        ShouldMatch(fromSqlite, expected, "SQLite reading the plaintext export");
        File.Exists(plain + ".sharc-export").Should().BeFalse();
    }

    [Fact]
    public void Encrypt_InPlace_ThenSqlCipherAndSharcReadIt()
    {
        string path = _dir.File("to-encrypt.db");
        Oracle.Exec(path, [.. Workload(9, 120), "CREATE TABLE seq(id INTEGER PRIMARY KEY AUTOINCREMENT, v)", "INSERT INTO seq(v) VALUES(1),(2)",
            "CREATE VIEW named AS SELECT name FROM t WHERE name IS NOT NULL", "PRAGMA user_version = 7"]);
        var expected = Queries.Select(q => Oracle.Rows(path, q)).ToList();
        using var key = SharcEncryptionKey.FromPassphrase("now secret");
        SharcDatabase.Encrypt(path, key, Fast);
        File.ReadAllBytes(path).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeFalse();
        using (var db = SharcDatabase.Open(path, With(key)))
        {
            db.IsEncrypted.Should().BeTrue();
            ShouldMatch(ReadSharc(db), expected, "Sharc after encrypting");
            db.Header.UserVersion.Should().Be(7);
            SharcRows.All(db, "seq").Should().HaveCount(2);
        }
        if (SqlCipher.LibraryPath is not null)
        {
            using var c = SqlCipher.Open(path, "now secret", FastPragmas);
            c.Scalar("PRAGMA integrity_check").Should().Be("ok");
            c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
            ShouldMatch(ReadSqlCipher(c), expected, "SQLCipher after encrypting");
            c.Scalar("SELECT count(*) FROM named").Should().Be(expected[1].Count > 0 ? (long)expected[1].Count : 0L);
            c.Exec("INSERT INTO seq(v) VALUES(3)");
            c.Scalar("SELECT max(id) FROM seq").Should().Be(3L);
        }
    }

    [Fact]
    public void Encrypt_OfAnEncryptedDatabase_IsRefused()
    {
        using var key = SharcEncryptionKey.FromPassphrase("k");
        string path = CreateEncrypted("twice.db", key);
        // Opened without a key it is not a database: the refusal is a format error.
        var act = () => SharcDatabase.Encrypt(path, key, Fast);
        act.Should().Throw<SharcFormatException>();
    }
}
