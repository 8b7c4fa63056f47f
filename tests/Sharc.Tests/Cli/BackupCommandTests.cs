using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Cli;

/// <summary><c>sharc backup</c>: the copy SQLite reads back, and the tool's usage errors.</summary>
public sealed class BackupCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    [Fact]
    public void Backup_writes_a_copy_sqlite_reads_and_replaces_an_existing_target()
    {
        string path = _fx.PathOf("src.db"), target = _fx.PathOf("copy.db");
        CliFixture.Run("exec", path, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT); INSERT INTO t(b) VALUES ('x'), ('y')").ExitCode.Should().Be(0);
        File.WriteAllText(target, "old");
        var result = CliFixture.Run("backup", path, target, "--pages", "1");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().BeEmpty();
        Oracle.IntegrityCheck(target).Should().Be("ok");
        CliFixture.Query(target, "SELECT a, b FROM t ORDER BY a").Should().BeEquivalentTo(new[] { new object[] { 1L, "x" }, new object[] { 2L, "y" } });
    }

    [Fact]
    public void Backup_reports_a_missing_database_and_a_bad_step_size()
    {
        CliFixture.Run("backup", _fx.PathOf("missing.db"), _fx.PathOf("copy.db")).ExitCode.Should().Be(1);
        File.Exists(_fx.PathOf("copy.db")).Should().BeFalse();
        var bad = CliFixture.Run("backup", _fx.PathOf("missing.db"), _fx.PathOf("copy.db"), "--pages", "0");
        bad.ExitCode.Should().Be(2);
        bad.Stderr.Should().Contain("--pages needs a whole number of at least 1");
    }
}
