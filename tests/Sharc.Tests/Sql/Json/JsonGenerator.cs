using System.Globalization;
using System.Text;

namespace Sharc.Tests.Sql.Json;

/// <summary>
/// Seeded random JSON: documents (strict JSON and, at times, JSON5 spellings, odd white space, escapes, big and
/// odd numbers), paths that mostly exist in them, values to write, and damaged copies for the error functions.
/// </summary>
internal sealed class JsonGenerator(int seed)
{
    private readonly Random _r = new(seed);

    public bool Json5 { get; set; }

    public string Document(int depth = 0)
    {
        var sb = new StringBuilder();
        Value(sb, depth);
        return Space() + sb + Space();
    }

    private string Space()
    {
        int k = _r.Next(10);
        if (k < 6) return "";
        if (k < 8) return " ";
        if (!Json5) return "\n\t ";
        return _r.Next(3) switch { 0 => "/* c */", 1 => "\u00a0", _ => "\v" };
    }

    private void Value(StringBuilder sb, int depth)
    {
        int k = _r.Next(depth > 3 ? 7 : 10);
        switch (k)
        {
            case 0: sb.Append("null"); break;
            case 1: sb.Append(_r.Next(2) == 0 ? "true" : "false"); break;
            case 2 or 3: sb.Append(Number()); break;
            case 4 or 5 or 6: sb.Append(StringLiteral()); break;
            case 7 or 8:
            {
                sb.Append('[');
                int n = _r.Next(5);
                for (int i = 0; i < n; i++)
                {
                    if (i > 0) sb.Append(',');
                    sb.Append(Space());
                    Value(sb, depth + 1);
                }
                if (Json5 && n > 0 && _r.Next(4) == 0) sb.Append(',');
                sb.Append(Space()).Append(']');
                break;
            }
            default:
            {
                sb.Append('{');
                int n = _r.Next(5);
                for (int i = 0; i < n; i++)
                {
                    if (i > 0) sb.Append(',');
                    sb.Append(Space());
                    sb.Append(Json5 && _r.Next(3) == 0 ? Identifier() : StringLiteral(label: true));
                    sb.Append(Space()).Append(':').Append(Space());
                    Value(sb, depth + 1);
                }
                if (Json5 && n > 0 && _r.Next(4) == 0) sb.Append(',');
                sb.Append(Space()).Append('}');
                break;
            }
        }
    }

    public string Label() => _r.Next(6) switch
    {
        0 => "a",
        1 => "b",
        2 => "key",
        3 => "x y",
        4 => "é",
        _ => ((char)('a' + _r.Next(6))).ToString(),
    };

    private string Identifier() => _r.Next(3) switch { 0 => "a", 1 => "$b", _ => "_c" + _r.Next(3) };

    private string StringLiteral(bool label = false)
    {
        if (label) return "\"" + Label() + "\"";
        var sb = new StringBuilder();
        char quote = Json5 && _r.Next(5) == 0 ? '\'' : '"';
        sb.Append(quote);
        int n = _r.Next(6);
        for (int i = 0; i < n; i++)
        {
            int k = _r.Next(14);
            sb.Append(k switch
            {
                0 => "\\n",
                1 => "\\\"",
                2 => "\\u00e9",
                3 => "\\ud83d\\ude00",
                4 => "é",
                5 => "\\/",
                6 => "\\\\",
                7 => Json5 ? "\\x41" : "\\t",
                8 => Json5 ? "\\'" : "\\b",
                9 => quote == '\'' ? "\"" : "'",
                _ => ((char)('a' + _r.Next(26))).ToString(),
            });
        }
        sb.Append(quote);
        return sb.ToString();
    }

    private string Number()
    {
        int k = _r.Next(Json5 ? 16 : 11);
        return k switch
        {
            0 => "0",
            1 => "-" + _r.Next(1000),
            2 => _r.Next(1_000_000).ToString(CultureInfo.InvariantCulture),
            3 => "9223372036854775807",
            4 => "-9223372036854775808",
            5 => "18446744073709551616",
            6 => (_r.NextDouble() * 1000).ToString("R", CultureInfo.InvariantCulture),
            7 => "1e" + _r.Next(-5, 5),
            8 => "-2.50E+3",
            9 => "0.1",
            10 => "1.5e400",
            11 => "0x" + _r.Next(1 << 20).ToString("X", CultureInfo.InvariantCulture),
            12 => ".5",
            13 => "+7",
            14 => "Infinity",
            _ => "5.",
        };
    }

    /// <summary>A path into <paramref name="json"/>-like documents: labels and indexes that often exist.</summary>
    public string Path()
    {
        var sb = new StringBuilder("$");
        int n = _r.Next(4);
        for (int i = 0; i < n; i++)
        {
            int k = _r.Next(10);
            if (k < 4)
            {
                string l = Label();
                sb.Append(l.Contains(' ') || l == "é" || _r.Next(4) == 0 ? ".\"" + l + "\"" : "." + l);
            }
            else if (k < 8) sb.Append('[').Append(_r.Next(4)).Append(']');
            else if (k == 8) sb.Append("[#-").Append(_r.Next(1, 3)).Append(']');
            else sb.Append("[#]");
        }
        if (_r.Next(40) == 0) sb.Append(_r.Next(2) == 0 ? "[" : ".");
        return sb.ToString();
    }

    /// <summary>A SQL expression for a value to write: numbers, text, NULL, or JSON made by a function.</summary>
    public string SqlValue() => _r.Next(8) switch
    {
        0 => "NULL",
        1 => _r.Next(-100, 100).ToString(CultureInfo.InvariantCulture),
        2 => "2.5",
        3 => "'text \"q\"'",
        4 => "json('[1,{\"z\":2}]')",
        5 => "json_object('n', 1)",
        6 => "'[1]'",
        _ => "jsonb('{\"j\":true}')",
    };

    /// <summary><paramref name="doc"/> with one character removed, replaced or inserted.</summary>
    public string Damage(string doc)
    {
        if (doc.Length == 0) return "x";
        int at = _r.Next(doc.Length);
        const string junk = "{}[],:\"'x0.-e ";
        return _r.Next(3) switch
        {
            0 => doc.Remove(at, 1),
            1 => doc[..at] + junk[_r.Next(junk.Length)] + doc[(at + 1)..],
            _ => doc.Insert(at, junk[_r.Next(junk.Length)].ToString()),
        };
    }

    public int Next(int n) => _r.Next(n);

    public static string Sql(string s) => "'" + s.Replace("'", "''", StringComparison.Ordinal) + "'";
}
