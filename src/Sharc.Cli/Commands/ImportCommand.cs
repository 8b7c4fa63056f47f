using System.Text;
using Sharc.Write;
using Sharc.Cli.Import;
using Sharc.Cli.Output;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc import &lt;db&gt; &lt;table&gt; &lt;file.csv&gt;</c>: loads a CSV file into a table in one transaction, as the
/// sqlite3 shell's <c>.import --csv</c> does. The header row names the columns: a missing table is created with them
/// (every column TEXT, as sqlite3 creates it); an existing table receives the values in the columns the header names.
/// </summary>
internal sealed class ImportCommand : ICommand
{
    private static readonly OptionSpec[] Options =
    [
        new("no-header", null, null, "the first row is data: values go to an existing table's columns in order"),
    ];

    public string Name => "import";

    public string Synopsis => "import <db> <table> <file.csv | -> [--no-header]";

    public string Summary => "load a CSV file into a table (created when missing), in one transaction";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Reads RFC 4180 CSV (quoted fields may hold commas, quotes doubled, and line breaks; '-' reads standard\n" +
        "input) and inserts one row per record, all in one transaction: on an error nothing is imported.\n" +
        "The database file is created when it does not exist.\n" +
        "\n" +
        "  a missing table  is created from the header row, every column TEXT (as sqlite3's .import creates it),\n" +
        "                   so values are kept exactly as written\n" +
        "  an existing one  gets each value in the column its header names (names not in the table are an error);\n" +
        "                   the columns' affinity applies, so '42' becomes the integer 42 in an INTEGER column\n" +
        "\n" +
        "Values are text, an empty field is '' (not NULL). A record with fewer fields than columns gets NULL in\n" +
        "the rest, one with more has the extras ignored; each such record is reported on stderr with its line.\n" +
        "Progress is shown on stderr when it is a terminal.\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options);

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        var p = line.Expect("db", "table", "file.csv");
        string path = p[0], table = p[1], file = p[2];

        using var db = ExecCommand.OpenOrCreate(path, "");
        long rows = Import(db, table, file, header: !line.Has("no-header"), stderr);
        // Silence is success in a script; a person at a terminal is told what happened.
        if (CliConsole.Current.StderrIsTerminal) stderr.Write($"sharc: imported {rows} row{(rows == 1 ? "" : "s")} into {table}\n");
        return Program.ExitOk;
    }

    /// <summary>
    /// Imports the CSV <paramref name="file"/> ("-" for standard input) into <paramref name="table"/> of
    /// <paramref name="db"/> in one transaction, as the help describes; returns the number of rows. Used by this
    /// command and by the shell's <c>.import</c>.
    /// </summary>
    public static long Import(SharcDatabase db, string table, string file, bool header, TextWriter stderr)
    {
        var input = OpenInput(file);
        using var owned = ReferenceEquals(input, CliConsole.Current.Stdin) ? null : input;
        var csv = new CsvReader(input);
        var fields = new List<string>();
        string source = file == "-" ? "stdin" : file;

        var existing = db.Schema.FindTable(table);
        if (!header && existing is null)
            throw CliException.UsageError($"import: --no-header needs an existing table, and {table} does not exist (the header row names the columns of a new table)");
        if (header && !csv.ReadRecord(fields))
            throw CliException.DataError($"{source}: empty file: no header row to name the columns");

        string[] columns = header ? [.. fields] : [.. existing!.Columns.Where(c => c.Generated == SharcGeneratedKind.None).Select(c => c.Name)];
        if (existing is not null && header) CheckColumns(existing, columns, source);

        long rows = 0;
        using var progress = Progress.On(stderr, "import", "rows");
        using var tx = db.BeginTransaction();
        if (existing is null) db.Execute(CreateTable(table, columns));
        using (var insert = db.Prepare(InsertInto(table, columns)))
        {
            while (csv.ReadRecord(fields))
            {
                InsertRecord(insert, fields, columns.Length, csv.RecordLine, source, stderr);
                rows++;
                progress.Report(rows);
            }
        }
        tx.Commit();
        return rows;
    }

    private static void InsertRecord(PreparedQuery insert, List<string> fields, int columns, long line, string source, TextWriter stderr)
    {
        // sqlite3's words, so scripts that check its warnings keep working.
        if (fields.Count < columns)
            stderr.Write($"{source}:{line}: expected {columns} columns but found {fields.Count} - filling the rest with NULL\n");
        else if (fields.Count > columns)
            stderr.Write($"{source}:{line}: expected {columns} columns but found {fields.Count} - extras ignored\n");
        for (int i = 0; i < columns; i++)
        {
            if (i < fields.Count) insert.Bind(i + 1, fields[i]);
            else insert.BindNull(i + 1);
        }
        try
        {
            using var _ = insert.Execute();
        }
        catch (SharcException e)
        {
            throw CliException.DataError($"{source}:{line}: {e.Message} (nothing was imported)", e);
        }
    }

    private static void CheckColumns(SharcTable table, string[] header, string source)
    {
        var unknown = header.Where(h => !table.Columns.Any(c => string.Equals(c.Name, h, StringComparison.OrdinalIgnoreCase))).ToList();
        if (unknown.Count > 0)
            throw CliException.DataError(
                $"{source}: the header names {string.Join(", ", unknown.Select(u => $"'{u}'"))}, not a column of {table.Name} " +
                $"(rename it in the file, or import the values by position with --no-header)");
    }

    private static TextReader OpenInput(string file)
    {
        if (file == "-") return CliConsole.Current.Stdin;
        if (Directory.Exists(file)) throw CliException.DataError($"{file}: is a directory, not a CSV file");
        try
        {
            return new StreamReader(file, new UTF8Encoding(false), detectEncodingFromByteOrderMarks: true);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            throw CliException.DataError($"{file}: no such file", e);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.DataError($"{file}: cannot read: {e.Message}", e);
        }
    }

    private static string CreateTable(string table, string[] columns)
        => $"CREATE TABLE {RenameRewriter.QuoteTable(table)}({string.Join(", ", columns.Select(c => RenameRewriter.QuoteTable(c) + " TEXT"))})";

    private static string InsertInto(string table, string[] columns)
        => $"INSERT INTO {RenameRewriter.QuoteTable(table)}({string.Join(", ", columns.Select(RenameRewriter.QuoteTable))}) " +
           $"VALUES ({string.Join(", ", columns.Select(_ => "?"))})";
}
