using Sharc.Cli;

namespace Sharc.Tests.Cli;

public sealed class UsageTests
{
    [Theory]
    [InlineData("--help")]
    [InlineData("-h")]
    [InlineData("help")]
    public void Help_prints_the_usage_to_stdout_and_succeeds(string flag)
    {
        var result = CliFixture.Run(flag);

        result.ExitCode.Should().Be(0);
        result.Stderr.Should().BeEmpty();
        result.Stdout.Should().StartWith("sharc — read and write SQLite databases with Sharc");
        result.Stdout.Should().Contain("  sharc schema <db>\n");
        result.Stdout.Should().Contain("  sharc dump <db> <table-or-index> [--format <fmt>]\n");
        result.Stdout.Should().Contain("  sharc exec <db> [<sql> | - | --file <path>] [--format <fmt>]\n");
        result.Stdout.Should().Contain("  sharc import <db> <table> <file.csv | -> [--no-header]\n");
        result.Stdout.Should().Contain("  sharc shell <db>\n");
        result.Stdout.Should().Contain("  sharc demo [--out <path>] [--force]\n");
        result.Stdout.Should().Contain("  sharc --help | --version\n");
    }

    [Fact]
    public void No_arguments_print_the_usage_to_stderr_as_a_usage_error()
    {
        var result = CliFixture.Run();

        result.ExitCode.Should().Be(2);
        result.Stdout.Should().BeEmpty();
        result.Stderr.Should().Be(Program.Usage());
    }

    [Fact]
    public void Version_prints_the_tool_name_and_a_dotted_version()
    {
        var result = CliFixture.Run("--version");

        result.ExitCode.Should().Be(0);
        result.Stdout.Should().MatchRegex(@"^sharc \d+\.\d+\.\d+\S*\n$");
        result.Stdout.Should().NotContain("+", "source-control metadata is left out");
    }

    [Theory]
    [InlineData("schema", "usage: sharc schema <db>\n")]
    [InlineData("dump", "usage: sharc dump <db> <table-or-index> [--format <fmt>]\n")]
    [InlineData("demo", "usage: sharc demo [--out <path>] [--force]\n")]
    [InlineData("exec", "usage: sharc exec <db> [<sql> | - | --file <path>] [--format <fmt>]\n")]
    [InlineData("import", "usage: sharc import <db> <table> <file.csv | -> [--no-header]\n")]
    [InlineData("shell", "usage: sharc shell <db>\n")]
    public void Each_command_has_its_own_help(string command, string firstLine)
    {
        var viaFlag = CliFixture.Run(command, "--help");
        var viaHelp = CliFixture.Run("help", command);

        viaFlag.ExitCode.Should().Be(0);
        viaFlag.Stdout.Should().StartWith(firstLine);
        viaFlag.Stdout.Should().Contain("-h, --help");
        viaHelp.Stdout.Should().Be(viaFlag.Stdout);
    }

    [Fact]
    public void Dump_help_documents_the_number_format()
    {
        var result = CliFixture.Run("dump", "-h");

        result.Stdout.Should().Contain("1e999").And.Contain("{\"blob\":\"<hex>\"}").And.Contain("RFC 4180");
    }

    [Fact]
    public void Help_for_an_unknown_command_is_a_usage_error()
    {
        var result = CliFixture.Run("help", "nope");

        result.ExitCode.Should().Be(2);
        result.Stderr.Should().Be("sharc: error: unknown command 'nope' (see 'sharc --help')\n");
    }

    [Fact]
    public void A_double_dash_lets_a_table_name_start_with_a_dash()
    {
        using var fx = new CliFixture();
        string db = fx.CreateDb("dash.db", "CREATE TABLE \"-odd\"(x)", "INSERT INTO \"-odd\" VALUES ('ok')");

        var result = CliFixture.Run("dump", "--format", "csv", "--", db, "-odd");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("x\r\nok\r\n");
    }
}
