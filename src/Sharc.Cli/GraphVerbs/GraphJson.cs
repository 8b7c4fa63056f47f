using System.Text;
using Sharc.Cli.Output;

namespace Sharc.Cli.GraphVerbs;

/// <summary>How graph verbs spell keys and numbers: as the jsonl format spells values (compact, no spaces).</summary>
internal static class GraphJson
{
    /// <summary>An integer key (or count) as a JSON number.</summary>
    public static void Write(TextWriter output, long value) => output.Write(ValueText.Integer(value));

    /// <summary>A UTF-8 text key as a JSON string.</summary>
    public static void Write(TextWriter output, ReadOnlySpan<byte> utf8) => JsonlWriter.WriteString(output, Encoding.UTF8.GetString(utf8));

    /// <summary>A real (a weight, a mean) as a JSON number that always reads back as a real.</summary>
    public static void Write(TextWriter output, double value) => output.Write(ValueText.Real(value));

    /// <summary>Text, or null.</summary>
    public static void Write(TextWriter output, string? text)
    {
        if (text is null) output.Write("null");
        else JsonlWriter.WriteString(output, text);
    }
}
