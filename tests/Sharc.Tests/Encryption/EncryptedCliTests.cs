using Sharc.Tests.Cli;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Encryption;

/// <summary>The tool's shared --key option opens encrypted databases for every command, and creates them encrypted.</summary>
public sealed class EncryptedCliTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Key_OpensAndCreatesEncryptedDatabases()
    {
        string path = _dir.File("cli.db");
        var created = CliFixture.Run("exec", "--key", "cli secret", path, "CREATE TABLE a(x); INSERT INTO a VALUES('hidden');");
        created.ExitCode.Should().Be(0, created.Stderr);
        File.ReadAllBytes(path).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeFalse("the file is encrypted");

        var query = CliFixture.Run("query", path, "SELECT x FROM a", "--key=cli secret");
        query.ExitCode.Should().Be(0, query.Stderr);
        query.Stdout.Should().Contain("hidden");
        CliFixture.Run("schema", "--key", "cli secret", path).ExitCode.Should().Be(0);
        CliFixture.Run("check", "--key", "cli secret", path).ExitCode.Should().Be(0);
        CliFixture.Run("dump", "--key", "cli secret", path, "a").Stdout.Should().Contain("hidden");

        var wrong = CliFixture.Run("query", "--key", "wrong", path, "SELECT x FROM a");
        wrong.ExitCode.Should().Be(1);
        wrong.Stderr.Should().Contain("wrong key or not an encrypted database");
        var none = CliFixture.Run("query", path, "SELECT x FROM a");
        none.ExitCode.Should().Be(1);
    }

    [Fact]
    public void Key_WithoutValue_IsAUsageError()
    {
        var r = CliFixture.Run("query", "x.db", "SELECT 1", "--key");
        r.ExitCode.Should().Be(2);
        r.Stderr.Should().Contain("--key");
    }
}
