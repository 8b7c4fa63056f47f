using System.Globalization;
using Sharc.Cli.Slt;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc slt &lt;files or directories…&gt;</c>: runs sqllogictest files against Sharc's SQL engine, each file on a
/// fresh in-memory database, and reports how many statements and queries passed.
/// </summary>
internal sealed class SltCommand : ICommand
{
    private static readonly OptionSpec[] Options =
    [
        new("verbose", 'v', null, "print each failure: file:line, the SQL, expected and actual results"),
        new("max-failures", null, "n", "stop after n failures in all"),
    ];

    private readonly Func<ISltEngine>? _engineFactory;

    /// <summary>The command as the tool runs it: against <see cref="SltEngines.Sharc"/>.</summary>
    public SltCommand()
        : this(SltEngines.Sharc)
    {
    }

    /// <summary>The command against another engine (tests run it against real SQLite); null: no engine yet.</summary>
    internal SltCommand(Func<ISltEngine>? engineFactory)
    {
        _engineFactory = engineFactory;
    }

    public string Name => "slt";

    public string Synopsis => "slt <file-or-dir>... [--verbose] [--max-failures <n>]";

    public string Summary => "run sqllogictest files against Sharc's SQL engine";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Runs sqllogictest (.test) files, each on a fresh in-memory database, and prints for each file\n" +
        "  <path>: N passed, M failed, K skipped\n" +
        "then the totals, 'N passed, M failed'. A directory stands for all the .test files under it.\n" +
        "Records marked 'skipif sqlite' or 'onlyif <other engine>' are skipped: Sharc aims to behave as SQLite.\n" +
        "Exit code 0 when nothing failed, 1 otherwise.\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options);

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        if (line.Positionals.Count == 0)
            throw CliException.UsageError($"{Name}: missing <file-or-dir> (usage: sharc {Synopsis})");
        bool verbose = line.Has("verbose");
        int maxFailures = int.MaxValue;
        if (line.Get("max-failures") is { } max
            && (!int.TryParse(max, NumberStyles.None, CultureInfo.InvariantCulture, out maxFailures) || maxFailures < 1))
            throw CliException.UsageError($"{Name}: --max-failures needs a positive whole number, not '{max}'");

        var factory = _engineFactory ?? throw CliException.DataError($"{Name}: {SltEngines.NotAvailableMessage}");
        var files = ExpandPaths(line.Positionals);
        var runner = new SltRunner(factory);

        long passed = 0, failed = 0;
        foreach (var file in files)
        {
            int budget = (int)Math.Min(int.MaxValue, maxFailures - failed);
            var result = runner.RunFile(file, budget);
            if (verbose)
                foreach (var f in result.Failures) WriteFailure(stdout, f);
            stdout.Write(string.Create(CultureInfo.InvariantCulture,
                $"{file}: {result.Passed} passed, {result.Failed} failed, {result.Skipped} skipped{(result.Stopped ? " (stopped)" : "")}\n"));
            stdout.Flush();
            passed += result.Passed;
            failed += result.Failed;
            if (failed >= maxFailures)
            {
                stderr.Write(string.Create(CultureInfo.InvariantCulture, $"sharc: slt: stopped after {failed} failures (--max-failures)\n"));
                break;
            }
        }
        stdout.Write(string.Create(CultureInfo.InvariantCulture, $"{passed} passed, {failed} failed\n"));
        return failed == 0 ? Program.ExitOk : Program.ExitDataError;
    }

    /// <summary>Files as given; directories replaced by their .test files (recursively, in ordinal order).</summary>
    private List<string> ExpandPaths(IEnumerable<string> paths)
    {
        var files = new List<string>();
        foreach (var p in paths)
        {
            if (File.Exists(p))
            {
                files.Add(p);
            }
            else if (Directory.Exists(p))
            {
                var found = Directory.GetFiles(p, "*.test", SearchOption.AllDirectories);
                if (found.Length == 0) throw CliException.DataError($"{Name}: no .test files under '{p}'");
                Array.Sort(found, StringComparer.Ordinal);
                files.AddRange(found);
            }
            else
            {
                throw CliException.DataError($"{Name}: no such file or directory: '{p}'");
            }
        }
        return files;
    }

    private static void WriteFailure(TextWriter output, SltFailure f)
    {
        output.Write(string.Create(CultureInfo.InvariantCulture, $"{f.File}:{f.Line}: {f.Message}\n"));
        foreach (var l in f.Sql.Split('\n')) output.Write("    " + l + "\n");
        if (f.Expected.Count == 0 && f.Actual.Count == 0) return;
        output.Write("  expected:\n");
        foreach (var l in f.Expected) output.Write("    " + l + "\n");
        output.Write("  actual:\n");
        foreach (var l in f.Actual) output.Write("    " + l + "\n");
    }
}
