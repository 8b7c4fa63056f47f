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
        var wrong = () =>
        {
            using var c = new SharcConnection($"Data Source={path};Password=nope");
            c.Open();
        };
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
        var wrong = () => Scalar(c, "PRAGMA key = 'not the key'");
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
}
