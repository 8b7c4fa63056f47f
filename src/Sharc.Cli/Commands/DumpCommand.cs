using Sharc.Cli.Output;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc dump &lt;db&gt; &lt;table-or-index&gt; [--format &lt;fmt&gt;]</c>: every row of a table, or every
/// entry of an index, in storage order, streamed as it is read.
/// </summary>
internal sealed class DumpCommand : ICommand
{
    private static readonly OptionSpec[] Options =
    [
        new("format", 'f', "fmt", $"output format: {RowWriters.Names} (default jsonl)"),
    ];

    public string Name => "dump";

    public string Synopsis => "dump <db> <table-or-index> [--format <fmt>]";

    public string Summary => "print every row of a table or entry of an index, in storage order";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Prints every row of a table, or every entry of an index, in the order it is stored:\n" +
        "  a rowid table       in rowid order; all declared columns, an INTEGER PRIMARY KEY reads as the rowid\n" +
        "  a WITHOUT ROWID one in primary-key order\n" +
        "  an index            in index order; its key columns, then the rowid (or the table's primary key)\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options) +
        "\n" +
        "formats:\n" +
        "  jsonl  one JSON array per row. NULL is null, integers are exact, reals are the shortest text that\n" +
        "         reads back as the same double and always have a '.' or an exponent (1.0, 0.1, 1e+20, -2.5e-10;\n" +
        "         infinities are 1e999 and -1e999), text is a JSON string, a blob is {\"blob\":\"<hex>\"}.\n" +
        "  csv    RFC 4180 (CRLF line ends) with a header row; NULL is an empty field, '' is \"\", blobs are hex.\n" +
        "  table  aligned columns for reading, sized from the first 100 rows; later cells too wide are cut (numbers\n" +
        "         never are), and on a terminal the widest text columns narrow until a line fits its width.\n" +
        "  json   one JSON array of objects keyed by column name, values as in jsonl (the sqlite3 shell's json).\n" +
        "  list   values separated by '|', NULL empty, no quoting (the sqlite3 shell's list mode).\n" +
        "\n" +
        "VIRTUAL generated columns are left out (computing them needs a SQL engine); a note on stderr says so.\n";

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        var p = line.Expect("db", "table-or-index");
        var format = RowWriters.ParseFormat(line.Get("format") ?? "jsonl", Name);

        using var db = DatabaseFile.Open(p[0]);
        using var progress = Progress.On(stderr, "dump", "rows");
        Dump(db, p[1], RowWriters.Create(format, stdout), stdout, stderr, progress);
        return Program.ExitOk;
    }

    /// <summary>Writes every row of <paramref name="name"/> (a table or an index of <paramref name="db"/>) with <paramref name="writer"/>, which writes to <paramref name="stdout"/>.</summary>
    public static long Dump(SharcDatabase db, string name, IRowWriter writer, TextWriter stdout, TextWriter stderr, Progress progress)
    {
        string[] columns = [];
        var table = db.Schema.FindTable(name);
        if (table is not null && table.Columns.Any(c => c.Generated == SharcGeneratedKind.Virtual))
        {
            var skipped = table.Columns.Where(c => c.Generated == SharcGeneratedKind.Virtual).Select(c => c.Name);
            stderr.Write($"sharc: note: {table.Name}: leaving out VIRTUAL generated column(s) {string.Join(", ", skipped)}: computing them needs a SQL engine\n");
            columns = [.. table.Columns.Where(c => c.Generated != SharcGeneratedKind.Virtual).Select(c => c.Name)];
        }

        using var reader = db.CreateReader(name, columns);
        return RowWriters.WriteAll(writer, stdout, reader, progress);
    }
}
