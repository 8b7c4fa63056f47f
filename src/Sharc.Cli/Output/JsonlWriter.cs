namespace Sharc.Cli.Output;

/// <summary>
/// JSON Lines: one JSON array per row, each followed by "\n"; no header line. NULL is <c>null</c>; an integer is
/// a JSON integer with all 64 bits exact; a real is written as <see cref="ValueText.Real"/> describes (always with
/// a "." or an exponent, so it never reads as an integer; ±Infinity as 1e999 / -1e999); text is a JSON string
/// (see <see cref="WriteString"/>); a blob is <c>{"blob":"&lt;lowercase hex&gt;"}</c>.
/// </summary>
internal sealed class JsonlWriter(TextWriter output) : IRowWriter
{
    public void Begin(IReadOnlyList<string> columnNames)
    {
    }

    public void WriteRow(IRowValues row)
    {
        output.Write('[');
        for (int i = 0; i < row.FieldCount; i++)
        {
            if (i > 0) output.Write(',');
            WriteValue(output, row, i);
        }
        output.Write("]\n");
    }

    /// <summary>Writes value <paramref name="i"/> of <paramref name="row"/> as a JSON value (see the class summary).</summary>
    public static void WriteValue(TextWriter output, IRowValues row, int i)
    {
        switch (row.GetColumnType(i))
        {
            case SharcColumnType.Null:
                output.Write("null");
                break;
            case SharcColumnType.Text:
                WriteString(output, row.GetText(i));
                break;
            case SharcColumnType.Blob:
                output.Write("{\"blob\":\"");
                output.Write(ValueText.Hex(row.GetBlob(i)));
                output.Write("\"}");
                break;
            default:
                output.Write(ValueText.Plain(row, i));
                break;
        }
    }

    public void Complete() => output.Flush();

    /// <summary>
    /// Writes <paramref name="text"/> as a JSON string: '"' and '\' are backslash-escaped, every control character
    /// U+0000–U+001F is written as \u00xx (lowercase hex), other characters (including non-ASCII) are written as
    /// they are, and an unpaired UTF-16 surrogate (possible only from a malformed UTF-16 database) becomes U+FFFD so
    /// the output is always valid UTF-8.
    /// </summary>
    public static void WriteString(TextWriter output, string text)
    {
        output.Write('"');
        int start = 0;
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            string? replacement;
            if (c < 0x20) replacement = ControlEscape(c);
            else if (c == '"') replacement = "\\\"";
            else if (c == '\\') replacement = "\\\\";
            else if (char.IsSurrogate(c))
            {
                if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
                {
                    i++;
                    continue;
                }
                replacement = "\uFFFD";
            }
            else continue;

            output.Write(text.AsSpan(start, i - start));
            output.Write(replacement);
            start = i + 1;
        }
        output.Write(text.AsSpan(start));
        output.Write('"');
    }

    private static readonly string[] ControlEscapes = BuildControlEscapes();

    private static string ControlEscape(char c) => ControlEscapes[c];

    private static string[] BuildControlEscapes()
    {
        var a = new string[0x20];
        for (int i = 0; i < a.Length; i++) a[i] = "\\u00" + i.ToString("x2", System.Globalization.CultureInfo.InvariantCulture);
        return a;
    }
}
