using System.Globalization;
using Sharc.Cli.Output;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc backup &lt;db&gt; &lt;target&gt; [--pages N]</c>: an online backup (SharcDatabase.BackupTo), page for page,
/// with progress on stderr; the target appears only once it is whole.
/// </summary>
internal sealed class BackupCommand : ICommand
{
    private const int DefaultPages = 1024;

    private static readonly OptionSpec[] Options =
    [
        new("pages", 'p', "N", $"pages copied per step (default {DefaultPages})"),
    ];

    public string Name => "backup";

    public string Synopsis => "backup <db> <target> [--pages N]";

    public string Summary => "copy a database page for page to a new file, like sqlite3's .backup";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Copies the database to <target> (replacing it), page for page, from one snapshot: writers are not blocked\n" +
        "and the copy is the state committed when the backup began. The copy is written beside <target> and renamed\n" +
        "onto it when complete, so an interrupted backup leaves no partial file. An encrypted database (--key) gives\n" +
        "a copy encrypted under the same key. For a compacted copy use: sharc exec <db> \"VACUUM INTO '<target>'\".\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options) +
        "\n" +
        "Exit codes: 0 copied, 1 the database is missing, unreadable or not a database, 2 usage error.\n";

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        var p = line.Expect("db", "target");
        int pages = DefaultPages;
        if (line.Get("pages") is { } text &&
            (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out pages) || pages < 1))
            throw CliException.UsageError($"{Name}: --pages needs a whole number of at least 1, not '{text}'");
        using var db = DatabaseFile.Open(p[0]);
        using var progress = Progress.On(stderr, "backup", "pages");
        try
        {
            db.BackupTo(p[1], new SharcBackupOptions
            {
                PagesPerStep = pages,
                Progress = new Reporter(progress),
            });
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.DataError($"{p[1]}: cannot write: {e.Message}", e);
        }
        return Program.ExitOk;
    }

    /// <summary>Hands each step's count to the progress line on the copying thread.</summary>
    private sealed class Reporter(Progress progress) : IProgress<SharcBackupProgress>
    {
        public void Report(SharcBackupProgress value) => progress.Report(value.PagesCopied, value.TotalPages);
    }
}
