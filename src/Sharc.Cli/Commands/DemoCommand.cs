using Sharc.Cli.Output;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc demo [--out &lt;path&gt;]</c>: writes the sample database embedded in the tool and runs
/// <c>schema</c> and <c>dump</c> on it, so a new user sees the tool work without bringing a database.
/// </summary>
internal sealed class DemoCommand : ICommand
{
    /// <summary>The manifest name of the embedded sample database (see Samples/sample.sql).</summary>
    public const string SampleResource = "Sharc.Cli.Samples.sample.db";

    private static readonly OptionSpec[] Options =
    [
        new("out", 'o', "path", "write the sample database here and keep it (default: a temporary file, deleted afterwards)"),
        new("force", null, null, "with --out, replace an existing file"),
    ];

    public string Name => "demo";

    public string Synopsis => "demo [--out <path>] [--force]";

    public string Summary => "write a built-in sample database and show schema and dump on it";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Writes a small sample SQLite database (authors, books, a WITHOUT ROWID tags table, two indexes, a view\n" +
        "and a trigger) and runs 'sharc schema' and 'sharc dump' on it, printing each command before its output.\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options);

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        line.Expect();
        string? outPath = line.Get("out");
        if (outPath is not null && outPath.Length == 0) throw CliException.UsageError("demo: --out needs a file path");
        if (line.Has("force") && outPath is null) throw CliException.UsageError("demo: --force only applies with --out");

        bool keep = outPath is not null;
        string path = outPath ?? Path.Combine(Path.GetTempPath(), $"sharc-demo-{Guid.NewGuid():N}.db");
        if (keep && File.Exists(path) && !line.Has("force"))
            throw CliException.DataError($"{path} already exists (choose another --out path, or add --force to replace it)");
        if (keep && Directory.Exists(path))
            throw CliException.DataError($"{path} is a directory");

        WriteSample(path);
        try
        {
            stdout.Write($"Wrote the sample database to {path}\n");
            Show(path, stdout, stderr);
            stdout.Write("\n");
            stdout.Write(keep
                ? $"Try next: sharc dump {path} books --format csv\n"
                : "The sample was temporary. Keep a copy with: sharc demo --out sample.db\n");
        }
        finally
        {
            if (!keep) TryDelete(path);
        }
        return Program.ExitOk;
    }

    private static void Show(string path, TextWriter stdout, TextWriter stderr)
    {
        using var db = DatabaseFile.Open(path);

        stdout.Write($"\n$ sharc schema {path}\n");
        SchemaCommand.Describe(db, path, stdout);

        stdout.Write($"\n$ sharc dump {path} authors\n");
        DumpCommand.Dump(db, "authors", RowWriters.Create(OutputFormat.Jsonl, stdout), stdout, stderr, Progress.None);

        stdout.Write($"\n$ sharc dump {path} tags --format table\n");
        DumpCommand.Dump(db, "tags", RowWriters.Create(OutputFormat.Table, stdout), stdout, stderr, Progress.None);
    }

    /// <summary>Writes the embedded sample database to <paramref name="path"/>.</summary>
    internal static void WriteSample(string path)
    {
        using var resource = typeof(DemoCommand).Assembly.GetManifestResourceStream(SampleResource)
            ?? throw new InvalidOperationException($"the sample database resource {SampleResource} is missing from the build");
        try
        {
            using var file = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None);
            resource.CopyTo(file);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.DataError($"cannot write {path}: {e.Message}", e);
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A leftover temporary file is harmless.
        }
    }
}
