namespace Sharc.Schema.Parsing;

/// <summary>
/// Text helpers with SQLite's semantics: identifiers compare case-insensitively for ASCII letters only
/// (so "É" and "é" are different names, unlike <see cref="StringComparer.OrdinalIgnoreCase"/>).
/// </summary>
internal static class SqlText
{
    /// <summary>ASCII case-insensitive equality, as SQLite compares names and keywords.</summary>
    public static bool EqualsIgnoreCase(ReadOnlySpan<char> a, ReadOnlySpan<char> b)
    {
        if (a.Length != b.Length) return false;
        for (int i = 0; i < a.Length; i++)
        {
            if (a[i] != b[i] && FoldAscii(a[i]) != FoldAscii(b[i])) return false;
        }
        return true;
    }

    /// <summary>True when <paramref name="text"/> contains <paramref name="upperNeedle"/> (given in upper case), ignoring ASCII case.</summary>
    public static bool ContainsIgnoreCase(ReadOnlySpan<char> text, ReadOnlySpan<char> upperNeedle)
    {
        for (int i = 0; i + upperNeedle.Length <= text.Length; i++)
        {
            int j = 0;
            while (j < upperNeedle.Length && FoldAscii(text[i + j]) == upperNeedle[j]) j++;
            if (j == upperNeedle.Length) return true;
        }
        return false;
    }

    /// <summary>True when <paramref name="text"/> ends with <paramref name="upperSuffix"/> (given in upper case), ignoring ASCII case.</summary>
    public static bool EndsWithIgnoreCase(ReadOnlySpan<char> text, ReadOnlySpan<char> upperSuffix)
        => text.Length >= upperSuffix.Length && EqualsIgnoreCase(text[^upperSuffix.Length..], upperSuffix);

    /// <summary>Upper-cases ASCII letters only.</summary>
    public static char FoldAscii(char c) => c is >= 'a' and <= 'z' ? (char)(c - 32) : c;

    /// <summary>
    /// SQLite's dequoting: when the text starts with a quote character (' " ` [), the result is what lies
    /// between it and the first unescaped closing quote, with doubled quotes collapsed; anything after that
    /// closing quote is dropped. Text that does not start with a quote is returned as is.
    /// </summary>
    public static string Dequote(ReadOnlySpan<char> text)
    {
        if (text.Length == 0) return string.Empty;
        char open = text[0];
        char close = open switch
        {
            '\'' or '"' or '`' => open,
            '[' => ']',
            _ => '\0',
        };
        if (close == '\0') return text.ToString();

        var sb = new System.Text.StringBuilder(text.Length);
        for (int i = 1; i < text.Length; i++)
        {
            char c = text[i];
            if (c == close)
            {
                // Brackets have no escape; quotes escape themselves by doubling.
                if (close != ']' && i + 1 < text.Length && text[i + 1] == close)
                {
                    sb.Append(close);
                    i++;
                    continue;
                }
                break;
            }
            sb.Append(c);
        }
        return sb.ToString();
    }

    /// <summary>Trims the characters SQLite's isspace() accepts (space, \t, \n, \v, \f, \r).</summary>
    public static ReadOnlySpan<char> TrimSpace(ReadOnlySpan<char> s)
    {
        int a = 0, b = s.Length;
        while (a < b && IsSpace(s[a])) a++;
        while (b > a && IsSpace(s[b - 1])) b--;
        return s[a..b];
    }

    /// <summary>SQLite's isspace(): unlike the tokenizer, it includes \v.</summary>
    public static bool IsSpace(char c) => c is ' ' or '\t' or '\n' or '\v' or '\f' or '\r';
}

/// <summary>Compares names the way SQLite does: ASCII case-insensitively.</summary>
internal sealed class SqlNameComparer : IEqualityComparer<string>
{
    /// <summary>The shared instance.</summary>
    public static readonly SqlNameComparer Instance = new();

    /// <inheritdoc />
    public bool Equals(string? x, string? y)
        => ReferenceEquals(x, y) || (x is not null && y is not null && SqlText.EqualsIgnoreCase(x, y));

    /// <inheritdoc />
    public int GetHashCode(string obj)
    {
        var hash = new HashCode();
        foreach (char c in obj) hash.Add(SqlText.FoldAscii(c));
        return hash.ToHashCode();
    }
}
