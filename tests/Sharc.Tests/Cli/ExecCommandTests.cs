using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Cli;

/// <summary><c>sharc exec</c>, run in-process through the tool's entry point; the files it writes are read back by SQLite.</summary>
public sealed class ExecCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();

    [Fact]
    public void Exec_creates_a_missing_file_and_runs_every_statement()
    {
        string path = _fx.PathOf("new.db");
        var result = CliFixture.Run("exec", path, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT); INSERT INTO t(b) VALUES ('x'), ('y'); UPDATE t SET b = b || '!' WHERE a = 2");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().BeEmpty();
        CliFixture.Query(path, "SELECT a, b FROM t ORDER BY a").Should().BeEquivalentTo(new[] { new object[] { 1L, "x" }, new object[] { 2L, "y!" } });
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void Exec_prints_rows_of_select_returning_and_pragma_in_the_query_formats()
    {
        string path = _fx.PathOf("rows.db");
        var result = CliFixture.Run("exec", path, "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 'one') RETURNING a, b; SELECT count(*) AS n FROM t; PRAGMA user_version", "--format", "csv");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Select(l => l.TrimEnd('\r')).Should().Equal("a,b", "1,one", "n", "1", "user_version", "0");
    }

    [Fact]
    public void Leading_pragmas_choose_how_a_new_file_is_made()
    {
        string path = _fx.PathOf("made.db");
        var result = CliFixture.Run("exec", path, "PRAGMA page_size = 1024; PRAGMA encoding = 'UTF-16le'; CREATE TABLE t(x)");

        result.ExitCode.Should().Be(0, result.Stderr);
        CliFixture.Query(path, "PRAGMA page_size")[0][0].Should().Be(1024L);
        CliFixture.Query(path, "PRAGMA encoding")[0][0].Should().Be("UTF-16le");
    }

    [Fact]
    public void An_error_stops_the_script_keeps_what_was_committed_and_rolls_back_an_open_transaction()
    {
        string path = _fx.CreateDb("err.db", "CREATE TABLE t(a UNIQUE)");
        var result = CliFixture.Run("exec", path, "INSERT INTO t VALUES (1); BEGIN; INSERT INTO t VALUES (2); INSERT INTO t VALUES (1); INSERT INTO t VALUES (3)");

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Contain("UNIQUE constraint failed: t.a");
        CliFixture.Query(path, "SELECT a FROM t ORDER BY a").Should().BeEquivalentTo(new[] { new object[] { 1L } });
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void A_syntax_error_is_reported_with_sqlites_wording()
    {
        string path = _fx.PathOf("syntax.db");
        var result = CliFixture.Run("exec", path, "CREATE TABLE t(a); INSERT INTO t VALUES (1); SELEC 2");

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Contain("near \"SELEC\": syntax error");
        CliFixture.Query(path, "SELECT a FROM t").Should().HaveCount(1, "statements before the error ran");
    }

    public void Dispose() => _fx.Dispose();
}
