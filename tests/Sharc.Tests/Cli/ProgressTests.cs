using System.Globalization;
using FluentAssertions;
using Sharc.Cli;
using Sharc.Cli.Output;

namespace Sharc.Tests.Cli;

/// <summary>Progress lines on stderr: drawn in place and erased on a terminal, absent anywhere else.</summary>
public sealed class ProgressTests
{
    [Fact]
    public void Progress_is_silent_when_stderr_is_not_a_terminal()
    {
        var stderr = new StringWriter(CultureInfo.InvariantCulture);
        using (CliConsole.Use(CliConsole.Piped(TextReader.Null)))
        using (var progress = Progress.On(stderr, "import", "rows"))
        {
            progress.Should().BeSameAs(Progress.None);
            progress.Report(10);
        }
        stderr.ToString().Should().BeEmpty();
    }

    [Fact]
    public void On_a_terminal_progress_is_chosen_and_redrawn_in_place_then_erased()
    {
        var stderr = new StringWriter(CultureInfo.InvariantCulture);
        using (CliConsole.Use(CliConsole.Detached with { StderrIsTerminal = true }))
            Progress.On(stderr, "dump", "rows").Should().NotBeSameAs(Progress.None);

        using (var progress = Progress.Immediate(stderr, "check", "pages"))
        {
            progress.Report(1234, 5000);
            progress.Report(1235, 5000); // within the redraw interval: not drawn
        }

        stderr.ToString().Should().Be("\rcheck: 1,234 of 5,000 pages (25%)\u001b[K\r\u001b[K");
    }

    [Fact]
    public void A_check_on_a_pipe_writes_no_progress_to_stderr()
    {
        using var fx = new CliFixture();
        string path = fx.CreateDb("p.db", "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");

        var result = CliFixture.RunWithInput("", "check", path);

        result.ExitCode.Should().Be(0);
        result.Stdout.Should().Be("ok\n");
        result.Stderr.Should().BeEmpty();
    }
}
