namespace Sharc.Cli.Output;

/// <summary>
/// CSV as RFC 4180 defines it: a header row of column names (left out when headers are off, as after the shell's
/// <c>.headers off</c>), then one record per row, fields separated by ","
/// and records ended by CRLF. A field is enclosed in double quotes (with inner quotes doubled) when it contains
/// a comma, a quote, CR or LF, and also when it is empty text, so that NULL (an empty, unquoted field) and ''
/// (<c>""</c>) stay distinguishable. Integers are decimal, reals are spelled as in jsonl
/// (<see cref="ValueText.Real"/>), blobs are lowercase hex without prefix.
/// </summary>
internal sealed class CsvWriter(TextWriter output, bool headers = true) : IRowWriter
{
    private const string RecordEnd = "\r\n";

    public void Begin(IReadOnlyList<string> columnNames)
    {
        if (!headers) return;
        for (int i = 0; i < columnNames.Count; i++)
        {
            if (i > 0) output.Write(',');
            WriteField(output, columnNames[i]);
        }
        output.Write(RecordEnd);
    }

    public void WriteRow(IRowValues row)
    {
        for (int i = 0; i < row.FieldCount; i++)
        {
            if (i > 0) output.Write(',');
            switch (row.GetColumnType(i))
            {
                case SharcColumnType.Null:
                    break;
                case SharcColumnType.Text:
                    WriteField(output, row.GetText(i));
                    break;
                default:
                    output.Write(ValueText.Plain(row, i));
                    break;
            }
        }
        output.Write(RecordEnd);
    }

    public void Complete() => output.Flush();

    /// <summary>Writes one text field, quoted when RFC 4180 requires it or when it is empty.</summary>
    public static void WriteField(TextWriter output, string text)
    {
        if (text.Length > 0 && text.AsSpan().IndexOfAny(",\"\r\n") < 0)
        {
            output.Write(text);
            return;
        }
        output.Write('"');
        output.Write(text.Replace("\"", "\"\"", StringComparison.Ordinal));
        output.Write('"');
    }
}
