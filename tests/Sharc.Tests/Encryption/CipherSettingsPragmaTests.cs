using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>
/// SQLCipher's cipher_* settings: <see cref="SharcCipherSettings.WithPragma"/> reads them as SQLCipher 4.5.5 does (files
/// it wrote under them open in Sharc), and on an open database they answer what SQLCipher answers on the same file.
/// </summary>
public sealed class CipherSettingsPragmaTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private static (string[] Columns, List<object?[]> Rows) Sharc(SharcDatabase db, string sql) => Answer(db, sql);

    private static void ShouldAnswerAlike(SharcDatabase db, SqlCipher c, string sql)
    {
        var sharc = Sharc(db, sql);
        var theirs = c.Rows(sql);
        sharc.Columns.Should().Equal(c.LastColumns, "the columns of {0}", sql);
        sharc.Rows.ShouldEqual(theirs, $"the rows of {sql}");
    }

    [Theory]
    [InlineData("4", 4096, 256000, SharcCipherHash.Sha512)]
    [InlineData("3", 1024, 64000, SharcCipherHash.Sha1)]
    [InlineData("2", 1024, 4000, SharcCipherHash.Sha1)]
    public void CipherCompatibility_SetsThatReleasesDefaults_KeepingHeaderAndSalt(string release, int pageSize, int iterations, SharcCipherHash hash)
    {
        var salt = Enumerable.Range(1, 16).Select(i => (byte)i).ToArray();
        var start = new SharcCipherSettings { PageSize = 8192, KdfIterations = 5, PlaintextHeaderSize = 32, Salt = salt };
        var s = start.WithPragma("cipher_compatibility", release);
        (s.PageSize, s.KdfIterations, s.HmacHash, s.KdfHash).Should().Be((pageSize, iterations, hash, hash));
        s.PlaintextHeaderSize.Should().Be(32, "SQLCipher's cipher_compatibility leaves the plaintext header alone");
        s.Salt!.Value.ToArray().Should().Equal(salt);
    }

    [Fact]
    public void WithPragma_ReadsEachSetting_AsSqlCipherNamesIt()
    {
        var s = SharcCipherSettings.SqlCipher4
            .WithPragma("cipher_page_size", "2048")
            .WithPragma("KDF_ITER", " 1000 ")
            .WithPragma("cipher_hmac_algorithm", "hmac_sha256")
            .WithPragma("cipher_kdf_algorithm", "PBKDF2_HMAC_SHA1")
            .WithPragma("cipher_plaintext_header_size", "32")
            .WithPragma("cipher_salt", "x'000102030405060708090A0B0C0D0E0F'")
            .WithPragma("cipher_use_hmac", "ON");
        s.ToPragmas().Should().Equal(
            "PRAGMA kdf_iter = 1000;", "PRAGMA cipher_page_size = 2048;", "PRAGMA cipher_use_hmac = 1;",
            "PRAGMA cipher_plaintext_header_size = 32;", "PRAGMA cipher_hmac_algorithm = HMAC_SHA256;",
            "PRAGMA cipher_kdf_algorithm = PBKDF2_HMAC_SHA1;");
        s.Salt!.Value.ToArray().Should().Equal(Enumerable.Range(0, 16).Select(i => (byte)i));
        SharcCipherSettings.SqlCipher4.PageSize.Should().Be(4096, "WithPragma returns a copy");
    }

    [Theory]
    [InlineData("cipher_page_size", "1000", "*power of two*")]
    [InlineData("cipher_page_size", "abc", "*integer*")]
    [InlineData("kdf_iter", "0", "*iteration*")]
    [InlineData("cipher_hmac_algorithm", "MD5", "*HMAC_SHA1, HMAC_SHA256 or HMAC_SHA512*")]
    [InlineData("cipher_kdf_algorithm", "HMAC_SHA1", "*PBKDF2_HMAC_SHA1*")]
    [InlineData("cipher_plaintext_header_size", "7", "*multiple of 16*")]
    [InlineData("cipher_salt", "abc", "*32 hex digits*")]
    [InlineData("cipher_compatibility", "1", "*SQLCipher 1*")]
    [InlineData("cipher_compatibility", "5", "*2 to 4*")]
    [InlineData("cipher_use_hmac", "OFF", "*not supported*")]
    [InlineData("cipher_provider", "x", "*not a cipher setting*")]
    public void WithPragma_RefusesWhatSqlCipherCannotRead(string name, string value, string message)
    {
        var act = () => SharcCipherSettings.SqlCipher4.WithPragma(name, value);
        act.Should().Throw<ArgumentException>().WithMessage(message);
    }

    [NeedsSqlCipherTheory]
    [InlineData("PRAGMA cipher_compatibility = 3")]
    [InlineData("PRAGMA cipher_compatibility = 2")]
    [InlineData("PRAGMA cipher_page_size = 1024")]
    [InlineData("PRAGMA cipher_page_size = 1024;PRAGMA kdf_iter = 64000;PRAGMA cipher_hmac_algorithm = HMAC_SHA1;PRAGMA cipher_kdf_algorithm = PBKDF2_HMAC_SHA1")]
    [InlineData("PRAGMA cipher_hmac_algorithm = HMAC_SHA256;PRAGMA cipher_kdf_algorithm = PBKDF2_HMAC_SHA256;PRAGMA kdf_iter = 2000")]
    public void FilesSqlCipherWritesUnderSettings_ReadIdentically_WithTheSamePragmas(string pragmas)
    {
        string path = _dir.File("settings.db");
        var list = pragmas.Split(';');
        List<List<object?[]>> expected;
        List<object?[]> theirSettings;
        using (var c = SqlCipher.Open(path, "a passphrase", list))
        {
            c.Exec("BEGIN");
            foreach (var s in Workload(3, 80)) c.Exec(s);
            c.Exec("COMMIT");
            expected = ReadSqlCipher(c);
            theirSettings = c.Rows("PRAGMA cipher_settings");
        }
        var settings = list.Select(p => p.Split('=')).Aggregate(SharcCipherSettings.SqlCipher4,
            (s, kv) => s.WithPragma(kv[0].Replace("PRAGMA", "").Trim(), kv[1].Trim()));
        using var key = SharcEncryptionKey.FromPassphrase("a passphrase");
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = key, Cipher = settings, Writable = true }))
        {
            ShouldMatch(ReadSharc(db), expected, pragmas);
            Sharc(db, "PRAGMA cipher_settings").Rows.ShouldEqual(theirSettings, "cipher_settings");
            db.Execute("INSERT INTO t(id, name) VALUES (100000, 'added by Sharc')");
        }
        using var again = SqlCipher.Open(path, "a passphrase", list);
        again.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        again.Scalar("PRAGMA integrity_check").Should().Be("ok");
        again.Scalar("SELECT name FROM t WHERE id = 100000").Should().Be("added by Sharc");
    }

    [NeedsSqlCipherFact]
    public void QueriedOnAnEncryptedDatabase_SettingsAnswerAsSqlCipherOnTheSameFile()
    {
        string path = _dir.File("answers.db");
        string[] pragmas = ["PRAGMA cipher_page_size = 2048", "PRAGMA kdf_iter = 1500", "PRAGMA cipher_hmac_algorithm = HMAC_SHA256"];
        using (var c = SqlCipher.Open(path, "pw", pragmas))
            c.Exec("CREATE TABLE t(x)");
        var settings = SharcCipherSettings.SqlCipher4.WithPragma("cipher_page_size", "2048").WithPragma("kdf_iter", "1500")
            .WithPragma("cipher_hmac_algorithm", "HMAC_SHA256");
        using var key = SharcEncryptionKey.FromPassphrase("pw");
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = key, Cipher = settings, Writable = true });
        using var theirs = SqlCipher.Open(path, "pw", pragmas);
        theirs.Exec("SELECT count(*) FROM t");
        foreach (var sql in new[]
        {
            "PRAGMA cipher_page_size", "PRAGMA kdf_iter", "PRAGMA cipher_hmac_algorithm", "PRAGMA cipher_kdf_algorithm",
            "PRAGMA cipher_plaintext_header_size", "PRAGMA cipher_salt", "PRAGMA cipher_use_hmac", "PRAGMA cipher_settings",
            "PRAGMA cipher_compatibility", "PRAGMA cipher_hmac_pgno", "PRAGMA cipher_hmac_salt_mask", "PRAGMA fast_kdf_iter",
            "PRAGMA cipher_memory_security", "PRAGMA cipher_default_page_size", "PRAGMA cipher_default_kdf_iter",
            "PRAGMA cipher_default_hmac_algorithm", "PRAGMA cipher_default_kdf_algorithm", "PRAGMA cipher_default_use_hmac",
            "PRAGMA cipher_default_plaintext_header_size", "PRAGMA cipher_default_settings", "PRAGMA cipher_default_compatibility",
            // Setting what is already in use answers nothing; deprecated settings answer their notice.
            "PRAGMA cipher_page_size = 2048", "PRAGMA main.kdf_iter = 1500", "PRAGMA cipher_memory_security = OFF",
            "PRAGMA cipher_hmac_pgno = le", "PRAGMA cipher_hmac_salt_mask = \"x'3a'\"", "PRAGMA fast_kdf_iter = 2",
        })
            ShouldAnswerAlike(db, theirs, sql);
        Sharc(db, "PRAGMA cipher_provider").Rows.Single().Should().Equal("dotnet");
        Sharc(db, "PRAGMA cipher_provider_version").Rows.Should().ContainSingle();
    }

    [NeedsSqlCipherFact]
    public void OnAPlaintextDatabase_CipherSettingsAnswerNothing_AsSqlCipher()
    {
        string path = _dir.File("plain.db");
        using (var db = SharcDatabase.Create(path)) db.Execute("CREATE TABLE t(x)");
        using var plain = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        using var theirs = SqlCipher.OpenWithoutKey(path);
        foreach (var sql in new[]
        {
            "PRAGMA cipher_page_size", "PRAGMA kdf_iter", "PRAGMA cipher_salt", "PRAGMA cipher_settings", "PRAGMA cipher_provider",
            "PRAGMA cipher_hmac_pgno", "PRAGMA cipher_page_size = 1024", "PRAGMA cipher_compatibility = 3",
            "PRAGMA cipher_memory_security", "PRAGMA cipher_default_kdf_iter",
        })
            ShouldAnswerAlike(plain, theirs, sql);
    }

    [Fact]
    public void ChangingTheCipher_OfAnOpenDatabase_IsRefused_NamingWhy()
    {
        using var key = SharcEncryptionKey.FromPassphrase("pw");
        using var db = SharcDatabase.Create(_dir.File("fixed.db"), new SharcCreateOptions { Key = key, Cipher = Fast });
        // SQLCipher takes these and then fails to read its own file ("file is not a database"): Sharc refuses them.
        var act = () => db.Execute("PRAGMA cipher_page_size = 1024");
        act.Should().Throw<SharcSqlException>().WithMessage("*cannot change the cipher of an open database*");
        act = () => db.Execute("PRAGMA cipher_compatibility = 3");
        act.Should().Throw<SharcSqlException>().WithMessage("*cannot change the cipher*");
        act = () => db.Execute("PRAGMA kdf_iter = abc");
        act.Should().Throw<SharcSqlException>().WithMessage("kdf_iter takes an integer, not 'abc'*");
        act = () => db.Execute("PRAGMA cipher_use_hmac = OFF");
        act.Should().Throw<SharcSqlException>().WithMessage("*not supported*");
        act = () => db.Execute("PRAGMA cipher_memory_security = ON");
        act.Should().Throw<SharcSqlException>().WithMessage("*not supported*");
        db.Execute($"PRAGMA kdf_iter = {FastIterations}");
        db.Execute("PRAGMA cipher_default_compatibility = 3");
        db.Execute("CREATE TABLE t(x)");
        db.CheckIntegrity().Should().BeEmpty("the refused settings changed nothing");
    }

    [NeedsSqlCipherFact]
    public void RekeyInsideATransaction_IsRefused_BecauseSqlCipherCommitsWhatCameBefore()
    {
        // SQLCipher 4.5.5: BEGIN; INSERT; PRAGMA rekey; ROLLBACK keeps the insert (the rekey committed it).
        string theirs = _dir.File("theirs.db");
        using (var c = SqlCipher.Open(theirs, "old", FastPragmas))
        {
            c.Exec("CREATE TABLE t(x)");
            c.Exec("BEGIN");
            c.Exec("INSERT INTO t VALUES (1)");
            c.Rows("PRAGMA rekey = 'new'").Single().Should().Equal("ok");
            c.Exec("ROLLBACK");
            c.Scalar("SELECT count(*) FROM t").Should().Be(1L, "SQLCipher's rekey committed the insert before the ROLLBACK");
        }

        string path = _dir.File("ours.db");
        using var key = SharcEncryptionKey.FromPassphrase("old");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = key, Cipher = Fast }))
        {
            db.Execute("CREATE TABLE t(x)");
            db.Execute("BEGIN");
            db.Execute("INSERT INTO t VALUES (1)");
            var act = () => db.Execute("PRAGMA rekey = 'new'");
            act.Should().Throw<SharcSqlException>().WithMessage("*cannot run inside a transaction*ROLLBACK would no longer undo*");
            db.Execute("ROLLBACK");
            Sharc(db, "SELECT count(*) FROM t").Rows.Single()[0].Should().Be(0L, "the transaction still rolls back whole");
            db.Execute("PRAGMA rekey = 'new'");
        }
        using var c2 = SqlCipher.Open(path, "new", FastPragmas);
        c2.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        c2.Scalar("SELECT count(*) FROM t").Should().Be(0L);
    }
}
