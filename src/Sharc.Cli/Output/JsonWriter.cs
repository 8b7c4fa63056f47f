namespace Sharc.Cli.Output;

/// <summary>
/// The sqlite3 shell's <c>json</c> mode: the rows as one JSON array of objects keyed by column name, one object per
/// line (<c>[{"a":1,"b":"x"},</c> newline <c>{"a":2,"b":null}]</c>). Values are spelled as <see cref="JsonlWriter"/>
/// spells them. No rows at all is <c>[]</c>, so the output is always one JSON document.
/// </summary>
internal sealed class JsonWriter(TextWriter output) : IRowWriter
{
    private IReadOnlyList<string> _names = [];
    private bool _any;

    public void Begin(IReadOnlyList<string> columnNames) => _names = columnNames;

    public void WriteRow(IRowValues row)
    {
        output.Write(_any ? ",\n{" : "[{");
        _any = true;
        for (int i = 0; i < row.FieldCount; i++)
        {
            if (i > 0) output.Write(',');
            JsonlWriter.WriteString(output, _names[i]);
            output.Write(':');
            JsonlWriter.WriteValue(output, row, i);
        }
        output.Write('}');
    }

    public void Complete()
    {
        output.Write(_any ? "]\n" : "[]\n");
        output.Flush();
    }
}
