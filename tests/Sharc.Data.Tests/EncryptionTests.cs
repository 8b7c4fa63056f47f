using Sharc.Data;

namespace Sharc.Data.Tests;

/// <summary>The connection string's Password opens and creates SQLCipher-encrypted databases.</summary>
public sealed class EncryptionTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("sharc-data-enc").FullName;

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    [Fact]
    public void Password_CreatesThenOpensAnEncryptedDatabase()
    {
        string path = Path.Combine(_dir, "p.db");
        using (var c = new SharcConnection($"Data Source={path};Password=data secret"))
        {
            c.Open();
            using var cmd = c.CreateCommand();
            cmd.CommandText = "CREATE TABLE a(x); INSERT INTO a VALUES('kept')";
            cmd.ExecuteNonQuery();
        }
        File.ReadAllBytes(path).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeFalse();
        using (var c = new SharcConnection($"Data Source={path};Password=data secret;Mode=ReadOnly"))
        {
            c.Open();
            using var cmd = c.CreateCommand();
            cmd.CommandText = "SELECT x FROM a";
            cmd.ExecuteScalar().Should().Be("kept");
        }
        // As SQLCipher under Microsoft.Data.Sqlite: Open takes the key, the first statement that reads finds it wrong
        // (cipher settings may come in between).
        using var w = new SharcConnection($"Data Source={path};Password=nope");
        w.Open();
        using var wrongCommand = w.CreateCommand();
        wrongCommand.CommandText = "SELECT x FROM a";
        var wrong = () => wrongCommand.ExecuteScalar();
        wrong.Should().Throw<SharcCryptoException>().WithMessage("*wrong key*");
    }
}

/// <summary>
/// A connection opened without a Password takes SQLCipher's <c>PRAGMA key</c> as its first statement, on files
/// SQLCipher wrote and on new files SQLCipher then reads.
/// </summary>
public sealed class PragmaKeyTests : IDisposable
{
    private const string RawKey = "x'2DD29CA851E7B56E4697B0E1F08507293D761A05CE4D1B628663F411A8086D99'";
    private readonly string _dir = Directory.CreateTempSubdirectory("sharc-data-key").FullName;

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    private static object? Scalar(SharcConnection c, string sql)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        return cmd.ExecuteScalar();
    }

    [Sharc.Tests.Infrastructure.NeedsSqlCipherFact]
    public void PragmaKeyFirst_OpensAFileSqlCipherWrote()
    {
        string path = Path.Combine(_dir, "theirs.db");
        using (var s = Sharc.Tests.Infrastructure.SqlCipher.OpenWithoutKey(path))
        {
            s.Rows($"PRAGMA key = \"{RawKey}\"").Single().Should().Equal("ok");
            s.Exec("CREATE TABLE t(x TEXT)");
            s.Exec("INSERT INTO t VALUES ('written by SQLCipher')");
        }
        using var c = new SharcConnection($"Data Source={path}");
        c.Open();
        Scalar(c, $"PRAGMA key = \"{RawKey}\"").Should().Be("ok", "SQLCipher answers PRAGMA key with one row 'ok'");
        Scalar(c, "SELECT x FROM t").Should().Be("written by SQLCipher");
    }

    [Sharc.Tests.Infrastructure.NeedsSqlCipherFact]
    public void PragmaKeyFirst_OnANewFile_CreatesOneSqlCipherReads()
    {
        string path = Path.Combine(_dir, "ours.db");
        using (var c = new SharcConnection($"Data Source={path}"))
        {
            c.Open();
            using var cmd = c.CreateCommand();
            // The key and the first writes in one command text, as scripts do.
            cmd.CommandText = "PRAGMA key = 'a passphrase'; CREATE TABLE t(x TEXT); INSERT INTO t VALUES ('written by Sharc')";
            cmd.ExecuteNonQuery();
        }
        File.ReadAllBytes(path).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeFalse("the new file is encrypted");
        using var s = Sharc.Tests.Infrastructure.SqlCipher.Open(path, "a passphrase");
        s.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        s.Scalar("PRAGMA integrity_check").Should().Be("ok");
        s.Scalar("SELECT x FROM t").Should().Be("written by Sharc");
    }

    [Fact]
    public void WithoutPragmaKey_AnEncryptedFile_FailsAtTheFirstCommand()
    {
        string path = Path.Combine(_dir, "locked.db");
        using (var k = SharcEncryptionKey.Parse(RawKey))
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = k }))
            db.Execute("CREATE TABLE t(x)");
        using var c = new SharcConnection($"Data Source={path}");
        c.Open();
        var read = () => Scalar(c, "SELECT count(*) FROM t");
        read.Should().Throw<SharcException>().WithMessage("*encrypted*");
        Scalar(c, "PRAGMA key = 'not the key'").Should().Be("ok", "SQLCipher answers ok and finds the key wrong at the first read");
        var wrong = () => Scalar(c, "SELECT count(*) FROM t");
        wrong.Should().Throw<SharcCryptoException>().WithMessage("*wrong key*");
    }

    [Fact]
    public void PlaintextFiles_OpenAtOnce_AndRefuseALateKey()
    {
        string path = Path.Combine(_dir, "plain.db");
        using (var db = SharcDatabase.Create(path)) db.Execute("CREATE TABLE t(x)");
        using var c = new SharcConnection($"Data Source={path}");
        c.Open();
        c.SharcDatabase.IsEncrypted.Should().BeFalse();
        var late = () => Scalar(c, "PRAGMA key = 'late'");
        late.Should().Throw<SharcSqlException>().WithMessage("*opened without a key*");
    }

    private static void Execute(SharcConnection c, string sql)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }

    private string WrittenBySqlCipher(string name, params string[] pragmas)
    {
        string path = Path.Combine(_dir, name);
        using var s = Sharc.Tests.Infrastructure.SqlCipher.Open(path, "pw", pragmas);
        s.Exec("CREATE TABLE t(x TEXT)");
        s.Exec("INSERT INTO t VALUES ('written by SQLCipher')");
        return path;
    }

    [Sharc.Tests.Infrastructure.NeedsSqlCipherFact]
    public void CipherCompatibility3_AfterPragmaKey_OpensASqlCipher3File_InSeparateCommands()
    {
        string path = WrittenBySqlCipher("v3.db", "PRAGMA cipher_compatibility = 3");
        using var c = new SharcConnection($"Data Source={path}");
        c.Open();
        Scalar(c, "PRAGMA key = 'pw'").Should().Be("ok");
        Execute(c, "PRAGMA cipher_compatibility = 3");
        Scalar(c, "SELECT x FROM t").Should().Be("written by SQLCipher");
        Scalar(c, "PRAGMA cipher_page_size").Should().Be("1024");
    }

    [Sharc.Tests.Infrastructure.NeedsSqlCipherFact]
    public void CipherDefaultCompatibility_BeforeTheKey_InOneCommand_OpensASqlCipher3File()
    {
        string path = WrittenBySqlCipher("v3-defaults.db", "PRAGMA cipher_compatibility = 3");
        using var c = new SharcConnection($"Data Source={path}");
        c.Open();
        // The command's first row is the key's "ok" (as with SQLCipher); the file opened with the settings before it.
        Scalar(c, "PRAGMA cipher_default_compatibility = 3; PRAGMA key = 'pw'; SELECT x FROM t").Should().Be("ok");
        Scalar(c, "SELECT x FROM t").Should().Be("written by SQLCipher");
    }

    [Sharc.Tests.Infrastructure.NeedsSqlCipherFact]
    public void CipherPageSize_AfterAPassword_OpensA1024PageFile()
    {
        string path = WrittenBySqlCipher("1k.db", "PRAGMA cipher_page_size = 1024", "PRAGMA kdf_iter = 1000");
        using var c = new SharcConnection($"Data Source={path};Password=pw");
        c.Open();
        Execute(c, "PRAGMA cipher_page_size = 1024");
        Execute(c, "PRAGMA kdf_iter = 1000");
        Scalar(c, "SELECT x FROM t").Should().Be("written by SQLCipher");
        Scalar(c, "PRAGMA page_size").Should().Be(1024L);
    }

    [Sharc.Tests.Infrastructure.NeedsSqlCipherFact]
    public void PlaintextHeaderAndSalt_ThroughPragmas_OpenWhatSqlCipherWroteSo()
    {
        string[] pragmas = ["PRAGMA cipher_plaintext_header_size = 32", "PRAGMA cipher_salt = \"x'00112233445566778899aabbccddeeff'\"", "PRAGMA kdf_iter = 1000"];
        string path = WrittenBySqlCipher("header.db", pragmas);
        File.ReadAllBytes(path).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeTrue("the header stays in clear");
        using var c = new SharcConnection($"Data Source={path}");
        c.Open();
        Scalar(c, "PRAGMA key = 'pw'").Should().Be("ok");
        foreach (var p in pragmas) Execute(c, p);
        Scalar(c, "SELECT x FROM t").Should().Be("written by SQLCipher");
    }

    [Sharc.Tests.Infrastructure.NeedsSqlCipherFact]
    public void CipherSettings_BeforeTheFirstWrite_CreateAFileSqlCipherReadsUnderThem()
    {
        string path = Path.Combine(_dir, "settings.db");
        string[] pragmas =
        [
            "PRAGMA cipher_page_size = 1024", "PRAGMA kdf_iter = 1000", "PRAGMA cipher_hmac_algorithm = HMAC_SHA256",
            "PRAGMA cipher_kdf_algorithm = PBKDF2_HMAC_SHA256",
        ];
        using (var c = new SharcConnection($"Data Source={path}"))
        {
            c.Open();
            Scalar(c, "PRAGMA key = 'pw'").Should().Be("ok");
            foreach (var p in pragmas) Execute(c, p);
            File.Exists(path).Should().BeFalse("the file is created at the first statement that needs it");
            Execute(c, "CREATE TABLE t(x TEXT); INSERT INTO t VALUES ('written by Sharc')");
        }
        using var s = Sharc.Tests.Infrastructure.SqlCipher.Open(path, "pw", pragmas);
        s.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        s.Scalar("PRAGMA integrity_check").Should().Be("ok");
        s.Scalar("PRAGMA page_size").Should().Be(1024L);
        s.Scalar("SELECT x FROM t").Should().Be("written by Sharc");
    }

    [Fact]
    public void ACipherSetting_SQLCipherWouldNotTake_IsRefusedBeforeTheFileOpens()
    {
        using var c = new SharcConnection($"Data Source={Path.Combine(_dir, "never.db")}");
        c.Open();
        var act = () => Execute(c, "PRAGMA key = 'pw'; PRAGMA cipher_page_size = 1000");
        act.Should().Throw<SharcSqlException>().WithMessage("*power of two*");
        File.Exists(Path.Combine(_dir, "never.db")).Should().BeFalse();
    }
}
