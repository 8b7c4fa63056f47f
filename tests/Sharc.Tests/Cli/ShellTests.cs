using FluentAssertions;
using Sharc.Cli.Shell;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Cli;

/// <summary><c>sharc shell</c> fed through redirected input, in-process: as sqlite3 reads a script, without prompts.</summary>
public sealed class ShellTests : IDisposable
{
    private readonly CliFixture _fx = new();

    [Fact]
    public void Statements_spanning_lines_run_when_a_semicolon_ends_them_in_list_mode_without_headers()
    {
        string path = _fx.PathOf("multi.db");

        var result = CliFixture.RunWithInput(
            "CREATE TABLE t(a, b);\nINSERT INTO t VALUES\n  (1, 'one'),\n  (2, 'two;still text');\nSELECT a,\n b\nFROM t; SELECT count(*) FROM t;\n",
            "shell", path);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("1|one\n2|two;still text\n2\n");
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void Tables_and_schema_list_what_sqlite_schema_holds()
    {
        string path = _fx.CreateDb("schema.db",
            "CREATE TABLE b(x)", "CREATE TABLE a(y INTEGER PRIMARY KEY)", "CREATE INDEX bx ON b(x)", "CREATE VIEW v AS SELECT x FROM b");

        var result = CliFixture.RunWithInput(".tables\n.schema b\n.schema\n", "shell", path);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(
            "a  b  v\n" +
            "CREATE TABLE b(x);\nCREATE INDEX bx ON b(x);\n" +
            "CREATE TABLE b(x);\nCREATE TABLE a(y INTEGER PRIMARY KEY);\nCREATE INDEX bx ON b(x);\nCREATE VIEW v AS SELECT x FROM b;\n");
    }

    [Fact]
    public void Mode_and_headers_change_how_rows_are_written()
    {
        string path = _fx.CreateDb("modes.db", "CREATE TABLE t(a, b)", "INSERT INTO t VALUES (1, 'x,y'), (NULL, 2.5)");

        var result = CliFixture.RunWithInput(
            ".mode\n.headers on\nSELECT * FROM t;\n.mode csv\nSELECT * FROM t;\n.headers off\nSELECT * FROM t;\n.mode json\nSELECT * FROM t;\n.mode table\nSELECT * FROM t;\n",
            "shell", path);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(
            "current output mode: list\n" +
            "a|b\n1|x,y\n|2.5\n" +
            "a,b\r\n1,\"x,y\"\r\n,2.5\r\n" +
            "1,\"x,y\"\r\n,2.5\r\n" +
            "[{\"a\":1,\"b\":\"x,y\"},\n{\"a\":null,\"b\":2.5}]\n" +
            "   a | b\n-----+----\n   1 | x,y\nNULL | 2.5\n(2 rows)\n");
    }

    [Fact]
    public void Timer_reports_the_run_time_of_each_statement()
    {
        var result = CliFixture.RunWithInput(".timer on\nSELECT 1;\n.timer off\nSELECT 2;\n", "shell", _fx.PathOf("timer.db"));

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Should().HaveCount(3);
        result.Lines[0].Should().Be("1");
        result.Lines[1].Should().MatchRegex(@"^Run Time: real \d+\.\d{3} user \d+\.\d{6} sys \d+\.\d{6}$");
        result.Lines[2].Should().Be("2");
    }

    [Fact]
    public void An_error_is_reported_with_its_line_and_the_shell_goes_on_but_exits_with_status_1()
    {
        string path = _fx.PathOf("errors.db");

        var result = CliFixture.RunWithInput("CREATE TABLE t(a UNIQUE);\nINSERT INTO t VALUES (1);\n\nINSERT INTO t\n VALUES (1);\nSELEC 1;\n.nope\n.mode xml\nSELECT count(*) FROM t;\n", "shell", path);

        result.ExitCode.Should().Be(1);
        result.Stdout.Should().Be("1\n");
        result.Stderr.Should().Be(
            "sharc: error: stdin:4:1: UNIQUE constraint failed: t.a (in INSERT INTO t VALUES (1))\n" +
            "sharc: error: stdin:6:1: near \"SELEC\": syntax error\n" +
            "sharc: error: unknown command or invalid arguments: \"nope\". Enter \".help\" for help\n" +
            "sharc: error: .mode: unknown format 'xml' (expected table|csv|jsonl|json|list)\n");
    }

    [Fact]
    public void Quit_ends_the_session_and_a_transaction_left_open_is_rolled_back()
    {
        string path = _fx.CreateDb("quit.db", "CREATE TABLE t(a)");

        var result = CliFixture.RunWithInput("INSERT INTO t VALUES (1);\nBEGIN;\nINSERT INTO t VALUES (2);\n.quit\nINSERT INTO t VALUES (3);\n", "shell", path);

        result.ExitCode.Should().Be(0, result.Stderr);
        CliFixture.ShouldMatch(CliFixture.Query(path, "SELECT a FROM t"), [[1L]]);
    }

    [Fact]
    public void A_trigger_body_does_not_end_the_statement_at_its_inner_semicolons()
    {
        string path = _fx.PathOf("trigger.db");

        var result = CliFixture.RunWithInput(
            "CREATE TABLE t(a); CREATE TABLE log(x);\nCREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  INSERT INTO log VALUES (new.a);\n  INSERT INTO log VALUES (new.a * 10);\nEND;\nINSERT INTO t VALUES (4);\nSELECT x FROM log;\n",
            "shell", path);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("4\n40\n");
    }

    [Fact]
    public void A_missing_database_is_created_only_when_a_statement_runs()
    {
        string path = _fx.PathOf("lazy.db");

        CliFixture.RunWithInput(".tables\n.schema\n", "shell", path).ExitCode.Should().Be(0);
        File.Exists(path).Should().BeFalse();

        var result = CliFixture.RunWithInput("PRAGMA page_size = 1024;\nCREATE TABLE t(a);\n", "shell", path);

        result.ExitCode.Should().Be(0, result.Stderr);
        CliFixture.Query(path, "PRAGMA page_size")[0][0].Should().Be(1024L);
    }

    [Fact]
    public void Input_ending_without_a_semicolon_still_runs_the_last_statement()
    {
        var result = CliFixture.RunWithInput("SELECT 1;\nSELECT 2\n", "shell", _fx.PathOf("incomplete.db"));

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("1\n2\n", "a statement without its ';' at the end of input still runs, as in sqlite3");
    }

    [Fact]
    public void Import_and_read_load_a_csv_file_and_run_a_script_file()
    {
        string path = _fx.PathOf("files.db");
        string csv = _fx.PathOf("people.csv");
        File.WriteAllText(csv, "name,age\nann,31\n\"bo, jr\",7\n");
        string script = _fx.PathOf("script.sql");
        File.WriteAllText(script, "SELECT name FROM people ORDER BY name;\nSELECT nope FROM people;\n");

        var result = CliFixture.RunWithInput($".import --csv {csv} people\nSELECT typeof(age), sum(age) FROM people;\n.read {script}\n", "shell", path);

        result.ExitCode.Should().Be(1, "the script's second statement fails");
        result.Stdout.Should().Be("text|38\nann\nbo, jr\n");
        result.Stderr.Should().Be($"sharc: error: {script}:2:8: no such column: nope (in SELECT nope FROM people)\n");
    }

    [Theory]
    [InlineData("SELECT 1;", true)]
    [InlineData("SELECT 1", false)]
    [InlineData("SELECT 1; -- done", true)]
    [InlineData("SELECT 1; /* open", false)]
    [InlineData("SELECT ';'", false)]
    [InlineData("SELECT 'it''s;';", true)]
    [InlineData("SELECT \"a;b\" FROM [x;y];", true)]
    [InlineData("SELECT `a;", false)]
    [InlineData("-- only a comment;", false)]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;", false)]
    [InlineData("CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;", true)]
    [InlineData("create trigger tr after insert on t begin select 1; end ;", true)]
    [InlineData("CREATE TABLE trigger(a);", true)]
    [InlineData("SELECT 1; CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;", false)]
    public void Completeness_follows_sqlite3_complete(string text, bool complete)
        => StatementCompleteness.IsComplete(text).Should().Be(complete);

    public void Dispose() => _fx.Dispose();
}
