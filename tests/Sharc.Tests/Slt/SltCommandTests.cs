using System.Globalization;
using Sharc.Cli;
using Sharc.Cli.Commands;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Slt;

/// <summary><c>sharc slt</c>: the tool as shipped (no engine yet), and the same command run against real SQLite.</summary>
public sealed class SltCommandTests : IDisposable
{
    private const string Passing =
        "statement ok\nCREATE TABLE t(a INTEGER)\n\nstatement ok\nINSERT INTO t VALUES(1),(2)\n\n" +
        "query I rowsort\nSELECT a FROM t\n----\n1\n2\n\nskipif sqlite\nquery I nosort\nSELECT 1\n----\n2\n";

    private const string Failing =
        "statement ok\nCREATE TABLE t(a INTEGER)\n\nquery I nosort\nSELECT 5\n----\n6\n\nstatement error\nSELECT 1\n";

    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private static (int Code, string Stdout, string Stderr) Run(params string[] args)
    {
        var stdout = new StringWriter(CultureInfo.InvariantCulture);
        var stderr = new StringWriter(CultureInfo.InvariantCulture);
        int code;
        try
        {
            code = new SltCommand(() => new SqliteSltEngine()).Execute(args, stdout, stderr);
        }
        catch (CliException e)
        {
            return (e.ExitCode, stdout.ToString(), e.Message);
        }
        return (code, stdout.ToString(), stderr.ToString());
    }

    private string Write(string relative, string text)
    {
        string path = _dir.File(relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
        return path;
    }

    [Fact]
    public void The_shipped_tool_runs_a_file_against_sharc()
    {
        string file = Write("a.test", Passing);
        var stdout = new StringWriter();
        var stderr = new StringWriter();

        int code = Program.Run(["slt", file], stdout, stderr);

        code.Should().Be(0, stderr.ToString());
        stdout.ToString().Should().EndWith(" passed, 0 failed\n");
        stderr.ToString().Should().BeEmpty();
    }

    [Fact]
    public void The_usage_lists_the_command()
    {
        Program.Usage().Should().Contain("  sharc slt <file-or-dir>... [--verbose] [--max-failures <n>]\n");
        var stdout = new StringWriter();
        Program.Run(["slt", "--help"], stdout, new StringWriter()).Should().Be(0);
        stdout.ToString().Should().StartWith("usage: sharc slt <file-or-dir>...");
    }

    [Fact]
    public void A_passing_file_prints_its_counts_and_the_totals_and_succeeds()
    {
        string file = Write("a.test", Passing);

        var (code, stdout, stderr) = Run(file);

        code.Should().Be(0);
        stderr.Should().BeEmpty();
        stdout.Should().Be($"{file}: 3 passed, 0 failed, 1 skipped\n3 passed, 0 failed\n");
    }

    [Fact]
    public void A_directory_stands_for_its_test_files_in_order_and_failures_make_exit_code_1()
    {
        string b = Write("sub/b.test", Failing);
        string a = Write("a.test", Passing);
        Write("notes.txt", "not a test");

        var (code, stdout, _) = Run(_dir.Path);

        code.Should().Be(1);
        stdout.Should().Be(
            $"{a}: 3 passed, 0 failed, 1 skipped\n" +
            $"{b}: 1 passed, 2 failed, 0 skipped\n" +
            "4 passed, 2 failed\n");
    }

    [Fact]
    public void Verbose_prints_each_failure_with_its_sql_and_results()
    {
        string file = Write("b.test", Failing);

        var (code, stdout, _) = Run(file, "--verbose");

        code.Should().Be(1);
        stdout.Should().Be(
            $"{file}:4: query result differs\n" +
            "    SELECT 5\n" +
            "  expected:\n" +
            "    6\n" +
            "  actual:\n" +
            "    5\n" +
            $"{file}:9: statement succeeded, but the file expects an error\n" +
            "    SELECT 1\n" +
            $"{file}: 1 passed, 2 failed, 0 skipped\n" +
            "1 passed, 2 failed\n");
    }

    [Fact]
    public void Max_failures_stops_the_run()
    {
        string b = Write("b.test", Failing);
        string c = Write("c.test", Failing);

        var (code, stdout, stderr) = Run(b, c, "--max-failures", "1");

        code.Should().Be(1);
        stdout.Should().Be($"{b}: 1 passed, 1 failed, 0 skipped (stopped)\n1 passed, 1 failed\n");
        stderr.Should().Be("sharc: slt: stopped after 1 failures (--max-failures)\n");
    }

    [Theory]
    [InlineData(new string[0], 2, "slt: missing <file-or-dir>")]
    [InlineData(new[] { "x.test", "--max-failures", "0" }, 2, "slt: --max-failures needs a positive whole number, not '0'")]
    [InlineData(new[] { "x.test", "--max-failures", "many" }, 2, "slt: --max-failures needs a positive whole number, not 'many'")]
    [InlineData(new[] { "x.test", "--colour" }, 2, "slt: unknown option '--colour'")]
    [InlineData(new[] { "/nonexistent/x.test" }, 1, "slt: no such file or directory: '/nonexistent/x.test'")]
    public void Bad_arguments_are_reported(string[] args, int exitCode, string message)
    {
        var (code, _, stderr) = Run(args);

        code.Should().Be(exitCode);
        stderr.Should().StartWith(message);
    }

    [Fact]
    public void A_directory_without_test_files_is_an_error()
    {
        Write("notes.txt", "x");

        var (code, _, stderr) = Run(_dir.Path);

        code.Should().Be(1);
        stderr.Should().Contain("no .test files under");
    }
}
