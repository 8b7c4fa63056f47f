using Sharc.Cli.Output;
using System.Globalization;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc check &lt;db&gt; [--max-errors N]</c>: Sharc's integrity check (like SQLite's PRAGMA integrity_check).
/// Prints <c>ok</c> and exits 0, or one line per problem and exits 1.
/// </summary>
internal sealed class CheckCommand : ICommand
{
    private const int DefaultMaxErrors = 100;

    private static readonly OptionSpec[] Options =
    [
        new("max-errors", 'n', "N", $"stop after N problems (default {DefaultMaxErrors})"),
    ];

    public string Name => "check";

    public string Synopsis => "check <db> [--max-errors N]";

    public string Summary => "check a database for corruption, like PRAGMA integrity_check";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Checks the database file for corruption and prints 'ok', or one line per problem found:\n" +
        "  pages      every page used exactly once (b-tree, overflow chain, freelist, pointer map, lock-byte page)\n" +
        "  b-trees    page headers, cell pointers, cells, freeblocks, fragmented bytes, leaf depth, key order\n" +
        "  overflow   chains with exactly the pages their payloads need\n" +
        "  freelist   trunk and leaf pages adding up to the count in the header\n" +
        "  ptrmap     pointer-map entries of auto_vacuum databases\n" +
        "  indexes    one entry per table row, no duplicates in UNIQUE indexes, NOT NULL columns hold no NULL\n" +
        "Expression and partial indexes are only partly checked, and CHECK constraints not at all: those need a SQL engine.\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options) +
        "\n" +
        "Exit codes: 0 ok, 1 problems found (or a file so damaged it cannot be opened: the reason is printed as the\n" +
        "one problem), or the file is missing or not a database (an error on stderr), 2 usage error.\n";

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        var p = line.Expect("db");
        int maxErrors = DefaultMaxErrors;
        if (line.Get("max-errors") is { } text &&
            (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out maxErrors) || maxErrors < 1))
            throw CliException.UsageError($"{Name}: --max-errors needs a whole number of at least 1, not '{text}'");

        SharcDatabase db;
        try
        {
            db = DatabaseFile.Open(p[0]);
        }
        catch (CliException e) when (e.InnerException is SharcCorruptException corrupt)
        {
            // A database too damaged to open (a malformed header or schema) is a check result, not a usage problem.
            stdout.Write(OneLine(corrupt.Message) + "\n");
            return Program.ExitDataError;
        }
        using (db)
        {
            IReadOnlyList<string> problems;
            using (var progress = Progress.On(stderr, "check", "pages"))
                problems = db.CheckIntegrity(maxErrors, (unit, done, total) => progress.Report(done, total, unit));
            if (problems.Count == 0)
            {
                stdout.Write("ok\n");
                return Program.ExitOk;
            }
            foreach (var problem in problems) stdout.Write(OneLine(problem) + "\n");
            return Program.ExitDataError;
        }
    }

    private static string OneLine(string message) => message.ReplaceLineEndings(" ");
}
