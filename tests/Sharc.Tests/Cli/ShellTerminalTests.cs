using System.Diagnostics;
using FluentAssertions;

namespace Sharc.Tests.Cli;

/// <summary>A fact skipped, with the reason, where tmux (a real terminal for the shell) is not installed.</summary>
public sealed class NeedsTmuxFactAttribute : FactAttribute
{
    public static string? TmuxPath { get; } = new[] { "/usr/bin/tmux", "/usr/local/bin/tmux" }.FirstOrDefault(File.Exists);

    public NeedsTmuxFactAttribute()
    {
        if (TmuxPath is null) Skip = "tmux is not installed (apt-get install tmux): the shell's line editing needs a real terminal";
    }
}

/// <summary><c>sharc shell</c> in a real terminal (a tmux pane): prompts, line editing, history, multi-line statements.</summary>
public sealed class ShellTerminalTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    private readonly CliFixture _fx = new();
    private readonly string _socket = "sharc-test-" + Guid.NewGuid().ToString("N")[..12];

    [NeedsTmuxFact]
    public void The_shell_edits_lines_recalls_history_and_continues_statements_in_a_terminal()
    {
        string db = _fx.CreateDb("term.db", "CREATE TABLE t(a)");
        string home = _fx.PathOf("home");
        Directory.CreateDirectory(home);
        Tmux("new-session", "-d", "-s", "main", "-x", "100", "-y", "40",
            $"HOME='{home}' dotnet '{CliFixture.ToolDll}' shell '{db}'; echo SHELL-ENDED; sleep 600");

        // capture-pane drops the blanks at the end of a line, so the prompts are matched without their last space.
        WaitFor(screen => screen.Contains("sharc>"), "the prompt");

        Keys("SELECT 40 +", "Enter");
        WaitFor(screen => screen.Contains("   ...>"), "the continuation prompt");
        Keys("2 AS answer;", "Enter");
        WaitFor(screen => Count(screen, "42") == 1, "the answer");

        Keys("SELECT 6 * 7;", "Enter");
        WaitFor(screen => Count(screen, "42") == 2, "the second answer");

        // Up recalls the last line; Backspace, Left, typing in the middle and End edit it before it runs again.
        Keys("Up", "BSpace", "Left", "Left", "Left", "Left", "0", "End", " + 1;", "Enter");
        WaitFor(screen => Count(screen, "421") == 1, "the edited statement's result");

        // A line longer than the terminal is wide wraps; editing in its middle redraws every row it spans, once.
        string longSum = "SELECT " + string.Join(" + ", Enumerable.Range(1, 30)) + " AS total;";
        Keys(longSum);
        Keys(Enumerable.Repeat("Left", 102).ToArray()); // to just before "12"
        Keys("1000 + ", "Enter");
        string editedSum = longSum.Insert(longSum.Length - 102, "1000 + ");
        WaitFor(screen => Count(screen, "1465") == 1, "the sum of the edited long line");
        Capture().Split('\n').Count(l => l.StartsWith("sharc> SELECT 1 + 2 + 3", StringComparison.Ordinal)).Should().Be(1, "the long line was redrawn in place");

        // Ctrl-C while a statement runs stops it (the shell stays); the endless count can end no other way.
        Keys("SELECT count(*) FROM (WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k) SELECT i FROM k);", "Enter");
        Thread.Sleep(1000); // let the statement start: a Ctrl-C typed before it would abandon the next line instead
        Keys("C-c");
        WaitFor(screen => screen.Contains("interrupted"), "the interrupted statement's error");

        Keys(".tables", "Enter");
        Keys(".quit", "Enter");
        WaitFor(screen => screen.Contains("SHELL-ENDED"), "the shell to end");

        string screenText = Capture();
        screenText.Should().Contain("sharc> SELECT 60 * 7 + 1;", "the recalled line was edited in place");
        screenText.Split('\n').Should().Contain(l => l.Trim() == "t", ".tables lists the table");
        File.ReadAllLines(Path.Combine(home, ".sharc_history")).Should()
            .Equal("SELECT 40 +", "2 AS answer;", "SELECT 6 * 7;", "SELECT 60 * 7 + 1;",
                editedSum, "SELECT count(*) FROM (WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k) SELECT i FROM k);", ".tables", ".quit");
    }

    private static int Count(string text, string what)
    {
        int n = 0;
        foreach (var line in text.Split('\n'))
            if (line.Trim() == what) n++;
        return n;
    }

    private void Keys(params string[] keys)
    {
        foreach (var k in keys)
        {
            // Key names (Enter, Up, BSpace…) are sent as keys; anything else as literal text.
            bool named = k is "Enter" or "Up" or "Down" or "Left" or "Right" or "BSpace" or "End" or "Home" or "C-c";
            if (named) Tmux("send-keys", "-t", "main", k);
            // tmux reads a ';' ending an argument as the end of its command: "\;" is the ';' itself.
            else Tmux("send-keys", "-t", "main", "-l", k.EndsWith(';') ? k[..^1] + "\\;" : k);
        }
    }

    private string Capture() => Tmux("capture-pane", "-p", "-t", "main");

    private void WaitFor(Func<string, bool> condition, string what)
    {
        var deadline = DateTime.UtcNow + Patience;
        string screen = "";
        while (DateTime.UtcNow < deadline)
        {
            screen = Capture();
            if (condition(screen)) return;
            Thread.Sleep(100);
        }
        throw new Xunit.Sdk.XunitException($"waited for {what}; the screen shows:\n{screen}");
    }

    private string Tmux(params string[] args)
    {
        var psi = new ProcessStartInfo(NeedsTmuxFactAttribute.TmuxPath!) { RedirectStandardOutput = true, RedirectStandardError = true };
        psi.ArgumentList.Add("-L");
        psi.ArgumentList.Add(_socket);
        foreach (var a in args) psi.ArgumentList.Add(a);
        using var p = Process.Start(psi)!;
        string stdout = p.StandardOutput.ReadToEnd();
        string stderr = p.StandardError.ReadToEnd();
        p.WaitForExit();
        if (p.ExitCode != 0) throw new InvalidOperationException($"tmux {string.Join(' ', args)}: {stderr}");
        return stdout;
    }

    public void Dispose()
    {
        try
        {
            if (NeedsTmuxFactAttribute.TmuxPath is not null) Tmux("kill-server");
        }
        catch (InvalidOperationException)
        {
            // No server was started (the test was skipped or failed before).
        }
        _fx.Dispose();
    }
}
