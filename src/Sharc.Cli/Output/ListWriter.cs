namespace Sharc.Cli.Output;

/// <summary>
/// The sqlite3 shell's <c>list</c> mode: one line per row, values separated by "|", NULL as nothing; a header line
/// of column names when headers are on. Numbers and text are spelled as in the other formats, blobs as hex.
/// Unlike csv nothing is quoted, so it is for reading and for simple pipelines, not for exact values.
/// </summary>
internal sealed class ListWriter(TextWriter output, bool headers) : IRowWriter
{
    /// <summary>The text between two values.</summary>
    public const string Separator = "|";

    public void Begin(IReadOnlyList<string> columnNames)
    {
        if (!headers) return;
        output.Write(string.Join(Separator, columnNames));
        output.Write('\n');
    }

    public void WriteRow(IRowValues row)
    {
        for (int i = 0; i < row.FieldCount; i++)
        {
            if (i > 0) output.Write(Separator);
            if (row.GetColumnType(i) != SharcColumnType.Null) output.Write(ValueText.Plain(row, i));
        }
        output.Write('\n');
    }

    public void Complete() => output.Flush();
}
