using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>Files move both ways between Sharc and real SQLCipher 4.5.5 and read identically on each side.</summary>
public sealed class SqlCipherInteropTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private const string RawKey = "x'2DD29CA851E7B56E4697B0E1F08507293D761A05CE4D1B628663F411A8086D99'";
    private const string RawKeyWithSalt = "x'98483C6EB40B6C31A448C22A66DED3B5E5E8D5119CAC8327B655C8B5C483648101010101010101010101010101010101'";

    public static TheoryData<string, string, bool> Keys => new()
    {
        { "passphrase", "correct horse battery staple", false },
        { "passphrase-wal", "pässwörd ünïcode", true },
        { "raw", RawKey, false },
        { "raw-wal", RawKey, true },
        { "raw-with-salt", RawKeyWithSalt, false },
    };

    [NeedsSqlCipherTheory]
    [MemberData(nameof(Keys))]
    public void SqlCipherFile_ReadsIdenticallyInSharc(string name, string key, bool wal)
    {
        string path = _dir.File(name + ".db");
        string copy = _dir.File(name + "-copy.db");
        List<List<object?[]>> expected;
        using (var c = SqlCipher.Open(path, key, FastPragmas))
        {
            if (wal) c.Exec("PRAGMA journal_mode = WAL");
            c.Exec("PRAGMA wal_autocheckpoint = 0");
            c.Exec("BEGIN");
            foreach (var s in Workload(1, 300)) c.Exec(s);
            c.Exec("COMMIT");
            expected = ReadSqlCipher(c);
            // While SQLCipher has it open, a WAL database's pages are still in its -wal file: copy both.
            CrashHarness.CopyDatabase(path, copy);
        }
        if (wal) File.Exists(copy + "-wal").Should().BeTrue();
        using var k = SharcEncryptionKey.Parse(key);
        using (var db = SharcDatabase.Open(copy, new SharcOpenOptions { Key = k, Cipher = Fast }))
            ShouldMatch(ReadSharc(db), expected, "Sharc read-only");
        using (var db = SharcDatabase.Open(copy, new SharcOpenOptions { Key = k, Cipher = Fast, Writable = true }))
        {
            ShouldMatch(ReadSharc(db), expected, "Sharc writable");
            db.CheckIntegrity().Should().BeEmpty();
        }
    }

    [NeedsSqlCipherFact]
    public void SqlCipher3File_OpensWithSqlCipher3Settings()
    {
        string path = _dir.File("v3.db");
        List<List<object?[]>> expected;
        using (var c = SqlCipher.Open(path, "old secret", "PRAGMA cipher_compatibility = 3"))
        {
            c.Exec("BEGIN");
            foreach (var s in Workload(2, 120)) c.Exec(s);
            c.Exec("COMMIT");
            expected = ReadSqlCipher(c);
        }
        new FileInfo(path).Length.Should().Be(new FileInfo(path).Length / 1024 * 1024);
        using var k = SharcEncryptionKey.FromPassphrase("old secret");
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = SharcCipherSettings.SqlCipher3 });
        db.PageSize.Should().Be(1024);
        ShouldMatch(ReadSharc(db), expected, "SQLCipher 3 file");
    }

    [NeedsSqlCipherFact]
    public void DefaultSettings_MatchSqlCipher4Defaults_BothWays()
    {
        string fromCipher = _dir.File("defaults-cipher.db");
        using (var c = SqlCipher.Open(fromCipher, "defaults"))
        {
            c.Exec("CREATE TABLE a(x)");
            c.Exec("INSERT INTO a VALUES('from sqlcipher')");
        }
        using var k = SharcEncryptionKey.FromPassphrase("defaults");
        using (var db = SharcDatabase.Open(fromCipher, new SharcOpenOptions { Key = k }))
            SharcRows.All(db, "a").Single()[0].Should().Be("from sqlcipher");

        string fromSharc = _dir.File("defaults-sharc.db");
        using (var db = SharcDatabase.Create(fromSharc, new SharcCreateOptions { Key = k }))
        {
            db.Execute("CREATE TABLE a(x)");
            db.Execute("INSERT INTO a VALUES('from sharc')");
        }
        using var c2 = SqlCipher.Open(fromSharc, "defaults");
        c2.Scalar("SELECT x FROM a").Should().Be("from sharc");
        c2.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
    }

    public static TheoryData<string, string, bool, bool> SharcWrites => new()
    {
        { "rollback", "sharc secret", false, false },
        { "wal", "sharc secret", true, false },
        { "raw", RawKey, false, false },
        { "sqlcipher3", "v3 secret", false, true },
    };

    [NeedsSqlCipherTheory]
    [MemberData(nameof(SharcWrites))]
    public void SharcFile_PassesSqlCipherChecks_AndReadsIdentically(string name, string key, bool wal, bool v3)
    {
        string path = _dir.File(name + ".db");
        var settings = v3 ? SharcCipherSettings.SqlCipher3 : Fast;
        using var k = SharcEncryptionKey.Parse(key);
        List<List<object?[]>> written;
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions
               { Key = k, Cipher = settings, JournalMode = wal ? SharcJournalMode.Wal : SharcJournalMode.Delete }))
        {
            Apply(db, Workload(3, 250));
            // Later transactions rewrite pages that are already encrypted (fresh IVs, page 1 again).
            db.Execute("UPDATE t SET name = 'renamed' WHERE id % 7 = 0");
            db.Execute("DELETE FROM t WHERE id > 200");
            db.Execute("INSERT INTO kv VALUES('late', x'00ff')");
            db.CheckIntegrity().Should().BeEmpty();
            written = ReadSharc(db);
        }
        string[] pragmas = v3 ? ["PRAGMA cipher_compatibility = 3"] : FastPragmas;
        using var c = SqlCipher.Open(path, key, pragmas);
        c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        c.Scalar("PRAGMA integrity_check").Should().Be("ok");
        ShouldMatch(ReadSqlCipher(c), written, "SQLCipher reading Sharc's file");
        // SQLCipher goes on writing Sharc's file, and Sharc reads what it wrote.
        c.Exec("INSERT INTO t(name) VALUES('written by sqlcipher')");
        var both = ReadSqlCipher(c);
        c.Dispose();
        using var again = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = settings });
        ShouldMatch(ReadSharc(again), both, "Sharc after SQLCipher wrote");
    }

    [NeedsSqlCipherFact]
    public void PlaintextHeaderFile_RoundTripsWithSalt()
    {
        string path = _dir.File("plainheader.db");
        byte[] salt = Enumerable.Range(1, 16).Select(i => (byte)(i * 9)).ToArray();
        var settings = new SharcCipherSettings { KdfIterations = FastIterations, PlaintextHeaderSize = 32, Salt = salt };
        using var k = SharcEncryptionKey.FromPassphrase("header in clear");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = k, Cipher = settings }))
        {
            db.Execute("CREATE TABLE a(x)");
            db.Execute("INSERT INTO a VALUES(42)");
        }
        File.ReadAllBytes(path).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeTrue("the header stays in clear");
        using var c = SqlCipher.Open(path, "header in clear", [.. FastPragmas,
            "PRAGMA cipher_plaintext_header_size = 32", $"PRAGMA cipher_salt = \"x'{Convert.ToHexString(salt)}'\""]);
        c.Scalar("SELECT x FROM a").Should().Be(42L);
        c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
    }
}
