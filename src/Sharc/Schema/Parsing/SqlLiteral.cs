using System.Globalization;

namespace Sharc.Schema.Parsing;

/// <summary>Values of literal tokens.</summary>
internal static class SqlLiteral
{
    /// <summary>A numeric token's text without its '_' digit separators.</summary>
    public static string NumberText(ReadOnlySpan<char> token)
    {
        if (token.IndexOf('_') < 0) return token.ToString();
        var sb = new System.Text.StringBuilder(token.Length);
        foreach (char c in token)
        {
            if (c != '_') sb.Append(c);
        }
        return sb.ToString();
    }

    /// <summary>
    /// The value of an integer token when it fits in 64 bits. Hex literals are two's complement
    /// (0xFFFFFFFFFFFFFFFF is -1); SQLite keeps a decimal or hex literal that does not fit as text.
    /// </summary>
    public static bool TryIntegerValue(ReadOnlySpan<char> token, out long value)
    {
        string text = NumberText(token);
        if (text.Length > 2 && text[0] == '0' && text[1] is 'x' or 'X')
        {
            var hex = text.AsSpan(2).TrimStart('0');
            if (hex.Length > 16)
            {
                value = 0;
                return false;
            }
            value = hex.Length == 0 ? 0 : unchecked((long)ulong.Parse(hex, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
            return true;
        }
        return SqlNumeric.ParseInteger(text, out value) == SqlNumeric.IntegerParse.Exact;
    }

    /// <summary>The bytes of an x'…' token.</summary>
    public static byte[] BlobValue(ReadOnlySpan<char> token) => Convert.FromHexString(token[2..^1]);

    /// <summary>The text of a '…' token.</summary>
    public static string StringValue(ReadOnlySpan<char> token) => SqlText.Dequote(token);
}
