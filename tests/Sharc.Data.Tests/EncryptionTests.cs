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
