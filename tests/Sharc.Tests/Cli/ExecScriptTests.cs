using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Cli;

/// <summary><c>sharc exec</c> with its script on standard input or in a file, and where its errors point.</summary>
public sealed class ExecScriptTests : IDisposable
{
    private const string Script =
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);\n" +
        "INSERT INTO t(b) VALUES ('x'), ('y');\n" +
        "SELECT count(*) AS n FROM t;\n";

    private readonly CliFixture _fx = new();

    [Fact]
    public void A_dash_reads_the_script_from_standard_input()
    {
        string path = _fx.PathOf("dash.db");

        var result = CliFixture.RunWithInput(Script, "exec", path, "-", "--format", "csv");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Select(l => l.TrimEnd('\r')).Should().Equal("n", "2");
        CliFixture.Query(path, "SELECT b FROM t ORDER BY a").Should().BeEquivalentTo(new[] { new object[] { "x" }, new object[] { "y" } });
    }

    [Fact]
    public void Without_a_sql_argument_redirected_input_is_the_script()
    {
        string path = _fx.PathOf("redirect.db");

        var result = CliFixture.RunWithInput(Script, "exec", path, "--format", "list");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Should().Equal("n", "2");
    }

    [Fact]
    public void File_reads_the_script_from_a_file()
    {
        string path = _fx.PathOf("file.db");
        string script = _fx.PathOf("script.sql");
        File.WriteAllText(script, Script);

        var result = CliFixture.Run("exec", path, "--file", script, "--format", "jsonl");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[2]\n");
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void Without_a_script_and_without_redirected_input_it_says_where_a_script_can_come_from()
    {
        var result = CliFixture.Run("exec", _fx.PathOf("none.db"));

        result.ExitCode.Should().Be(2);
        result.Stderr.Should().Be("sharc: error: exec: missing <sql> (give the script as an argument, as '-' to read standard input, or with --file <path>)\n");
        File.Exists(_fx.PathOf("none.db")).Should().BeFalse();
    }

    [Fact]
    public void A_script_argument_and_file_together_are_a_usage_error()
    {
        string script = _fx.PathOf("s.sql");
        File.WriteAllText(script, "SELECT 1;");

        var result = CliFixture.Run("exec", _fx.PathOf("both.db"), "SELECT 2", "--file", script);

        result.ExitCode.Should().Be(2);
        result.Stderr.Should().Contain("unexpected argument 'SELECT 2'");
    }

    [Fact]
    public void A_missing_script_file_is_a_data_error_naming_it()
    {
        string missing = _fx.PathOf("missing.sql");

        var result = CliFixture.Run("exec", _fx.PathOf("m.db"), "--file", missing);

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().StartWith($"sharc: error: exec: cannot read the script {missing}: ");
    }

    [Fact]
    public void A_runtime_error_names_the_line_and_column_of_the_failing_statement_and_quotes_it()
    {
        string path = _fx.CreateDb("rt.db", "CREATE TABLE t(a UNIQUE)");
        const string script = "INSERT INTO t VALUES (1);\n\n-- a comment\n  INSERT INTO t\n    VALUES (1);\nINSERT INTO t VALUES (3);\n";

        var result = CliFixture.RunWithInput(script, "exec", path, "-");

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Be("sharc: error: stdin:4:3: UNIQUE constraint failed: t.a (in INSERT INTO t VALUES (1))\n");
        CliFixture.Query(path, "SELECT a FROM t").Should().HaveCount(1, "the statement before the error ran, the one after did not");
    }

    [Fact]
    public void A_syntax_error_names_its_own_line_and_column_in_the_file()
    {
        string path = _fx.PathOf("syn.db");
        string script = _fx.PathOf("syn.sql");
        File.WriteAllText(script, "CREATE TABLE t(a);\nINSERT INTO t VALUES (1);\nSELECT a FROM t WHERE a = = 1;\n");

        var result = CliFixture.Run("exec", path, "--file", script);

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Be($"sharc: error: {script}:3:27: near \"=\": syntax error\n");
        CliFixture.Query(path, "SELECT a FROM t").Should().HaveCount(1);
    }

    [Fact]
    public void A_long_failing_statement_is_quoted_on_one_line_and_cut()
    {
        string path = _fx.CreateDb("long.db", "CREATE TABLE t(a NOT NULL, b, c)");
        string script = "INSERT INTO t (a, b, c)\n  VALUES (NULL, 'a rather long text value', 'and another one to make it longer');";

        var result = CliFixture.Run("exec", path, script);

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Be("sharc: error: sql:1:1: NOT NULL constraint failed: t.a (in INSERT INTO t (a, b, c) VALUES (NULL, 'a rather long text va…)\n");
    }

    public void Dispose() => _fx.Dispose();
}
