namespace Sharc.Cli.Output;

/// <summary>
/// The values of the current row, as a row writer reads them. Implemented over a <see cref="SharcDataReader"/> by
/// <see cref="ReaderRow"/>; other producers of rows (a query engine, a test) can implement it too.
/// </summary>
internal interface IRowValues
{
    /// <summary>The number of values in the row.</summary>
    int FieldCount { get; }

    /// <summary>The storage class of value <paramref name="ordinal"/>; the other getters are only called for the matching class.</summary>
    SharcColumnType GetColumnType(int ordinal);

    /// <summary>An <see cref="SharcColumnType.Integer"/> value.</summary>
    long GetInt64(int ordinal);

    /// <summary>A <see cref="SharcColumnType.Real"/> value.</summary>
    double GetDouble(int ordinal);

    /// <summary>A <see cref="SharcColumnType.Text"/> value, decoded.</summary>
    string GetText(int ordinal);

    /// <summary>A <see cref="SharcColumnType.Blob"/> value's bytes (valid until the row changes).</summary>
    ReadOnlySpan<byte> GetBlob(int ordinal);
}

/// <summary>
/// Writes rows in one output format. Call <see cref="Begin"/> once with the column names, <see cref="WriteRow"/>
/// for each row in order, then <see cref="Complete"/>. Writers stream: each row is written (to the underlying
/// <see cref="TextWriter"/>) before the next is read, except where a format documents otherwise.
/// </summary>
internal interface IRowWriter
{
    /// <summary>Starts the output with the names of the columns every row has.</summary>
    void Begin(IReadOnlyList<string> columnNames);

    /// <summary>Writes one row; it has as many values as there are column names.</summary>
    void WriteRow(IRowValues row);

    /// <summary>Finishes the output (writes anything buffered, and any footer).</summary>
    void Complete();
}

/// <summary>The row output formats.</summary>
internal enum OutputFormat
{
    /// <summary>One JSON array per line (see <see cref="JsonlWriter"/>).</summary>
    Jsonl,
    /// <summary>RFC 4180 CSV with a header (see <see cref="CsvWriter"/>).</summary>
    Csv,
    /// <summary>Aligned columns for people (see <see cref="TableWriter"/>).</summary>
    Table,
    /// <summary>Values separated by "|", as the sqlite3 shell's list mode (see <see cref="ListWriter"/>).</summary>
    List,
    /// <summary>One JSON array of objects, as the sqlite3 shell's json mode (see <see cref="JsonWriter"/>).</summary>
    Json,
}

/// <summary>Creates row writers by format name.</summary>
internal static class RowWriters
{
    /// <summary>The format names, as accepted by --format.</summary>
    public const string Names = "table|csv|jsonl|json|list";

    /// <summary>Parses a --format value (case-insensitive); throws a usage error for an unknown name.</summary>
    public static OutputFormat ParseFormat(string name, string command) => name.ToLowerInvariant() switch
    {
        "jsonl" or "ndjson" => OutputFormat.Jsonl,
        "json" => OutputFormat.Json,
        "csv" => OutputFormat.Csv,
        "table" => OutputFormat.Table,
        "list" => OutputFormat.List,
        _ => throw CliException.UsageError($"{command}: unknown format '{name}' (expected {Names})"),
    };

    /// <summary>
    /// A writer for <paramref name="format"/> that writes to <paramref name="output"/>. <paramref name="headers"/>
    /// says whether csv and list start with the column names (table always shows them, the JSON formats never need
    /// to); a table fits the width of the terminal standard output is, if it is one.
    /// </summary>
    public static IRowWriter Create(OutputFormat format, TextWriter output, bool headers = true) => format switch
    {
        OutputFormat.Jsonl => new JsonlWriter(output),
        OutputFormat.Csv => new CsvWriter(output, headers),
        OutputFormat.Table => new TableWriter(output) { MaxLineWidth = CliConsole.Current.StdoutIsTerminal ? CliConsole.Current.Width : 0 },
        OutputFormat.List => new ListWriter(output, headers),
        OutputFormat.Json => new JsonWriter(output),
        _ => throw new ArgumentOutOfRangeException(nameof(format), format, null),
    };

    /// <summary>Writes every row of <paramref name="reader"/> (with its column names) in <paramref name="format"/>.</summary>
    public static long WriteAll(OutputFormat format, TextWriter output, SharcDataReader reader, bool headers = true)
        => WriteAll(Create(format, output, headers), output, reader, Progress.None);

    /// <summary>
    /// Writes every row of <paramref name="reader"/> with <paramref name="writer"/>, as they are produced, flushing
    /// <paramref name="output"/> as <see cref="OutputPacer"/> decides. Returns the number of rows.
    /// </summary>
    public static long WriteAll(IRowWriter writer, TextWriter output, SharcDataReader reader, Progress progress)
    {
        var names = new string[reader.FieldCount];
        for (int i = 0; i < names.Length; i++) names[i] = reader.GetName(i);
        writer.Begin(names);
        var row = new ReaderRow(reader);
        var pacer = OutputPacer.Start();
        long count = 0;
        while (reader.Read())
        {
            writer.WriteRow(row);
            count++;
            progress.Report(count);
            if (pacer.Due()) output.Flush();
        }
        writer.Complete();
        return count;
    }
}

/// <summary>The current row of a <see cref="SharcDataReader"/>, as <see cref="IRowValues"/>.</summary>
internal sealed class ReaderRow(SharcDataReader reader) : IRowValues
{
    public int FieldCount => reader.FieldCount;
    public SharcColumnType GetColumnType(int ordinal) => reader.GetColumnType(ordinal);
    public long GetInt64(int ordinal) => reader.GetInt64(ordinal);
    public double GetDouble(int ordinal) => reader.GetDouble(ordinal);
    public string GetText(int ordinal) => reader.GetString(ordinal) ?? "";
    public ReadOnlySpan<byte> GetBlob(int ordinal) => reader.GetBlobSpan(ordinal);
}

/// <summary>A row of strings (null for NULL), for commands that print text they computed.</summary>
internal sealed class StringRow(IReadOnlyList<string?> values) : IRowValues
{
    public int FieldCount => values.Count;
    public SharcColumnType GetColumnType(int ordinal) => values[ordinal] is null ? SharcColumnType.Null : SharcColumnType.Text;
    public long GetInt64(int ordinal) => throw new InvalidOperationException("a StringRow holds text only");
    public double GetDouble(int ordinal) => throw new InvalidOperationException("a StringRow holds text only");
    public string GetText(int ordinal) => values[ordinal] ?? "";
    public ReadOnlySpan<byte> GetBlob(int ordinal) => throw new InvalidOperationException("a StringRow holds text only");
}
