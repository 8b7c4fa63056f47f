using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// unistr(X), unistr_quote(X) and subtype(X) of SQLite 3.53. unistr reads the escapes <c>\XXXX</c>, <c>\uXXXX</c>,
/// <c>\UXXXXXXXX</c>, <c>\+XXXXXX</c> (hexadecimal code points) and <c>\\</c>; any other backslash is an error.
/// A code point is written as SQLite writes one (no check for surrogates or the Unicode range; up to four bytes).
/// </summary>
internal static class UnicodeEscapeFunctions
{
    /// <summary>SQLite's subtype for text made by a JSON function ('J').</summary>
    private const int JsonSubtype = 74;

    public static IEnumerable<ScalarFunction> All()
    {
        yield return new ScalarFunction("unistr", 1, 1, Unistr);
        yield return new ScalarFunction("unistr_quote", 1, 1, UnistrQuote);
        yield return new ScalarFunction("subtype", 1, 1, static (a, _) => SqlValue.Integer(a[0].IsJson ? JsonSubtype : 0));
    }

    private static SqlValue Unistr(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull) return SqlValue.Null;
        var text = a[0].ToTextValue();
        var s = text.Bytes;
        var sb = new Utf8Builder(stackalloc byte[128]);
        try
        {
            for (int i = 0; i < s.Length; i++)
            {
                if (s[i] != '\\')
                {
                    sb.Append(s[i]);
                    continue;
                }
                int digits = i + 1 < s.Length ? s[i + 1] switch { (byte)'\\' => 0, (byte)'u' => 4, (byte)'U' => 8, (byte)'+' => 6, _ => -4 } : -1;
                if (digits == 0)
                {
                    sb.Append((byte)'\\');
                    i++;
                    continue;
                }
                int from = digits < 0 ? i + 1 : i + 2;
                if (digits < 0) digits = 4;
                if (!TryHex(s, from, digits, out uint c)) SqlErrors.Throw("invalid Unicode escape");
                AppendCodePoint(ref sb, c);
                i = from + digits - 1;
            }
            return sb.ToText();
        }
        finally
        {
            sb.Dispose();
        }
    }

    private static bool TryHex(ReadOnlySpan<byte> s, int from, int digits, out uint value)
    {
        value = 0;
        if (from + digits > s.Length) return false;
        for (int k = from; k < from + digits; k++)
        {
            int d = s[k] switch
            {
                >= (byte)'0' and <= (byte)'9' => s[k] - '0',
                >= (byte)'a' and <= (byte)'f' => s[k] - 'a' + 10,
                >= (byte)'A' and <= (byte)'F' => s[k] - 'A' + 10,
                _ => -1,
            };
            if (d < 0) return false;
            value = value << 4 | (uint)d;
        }
        return true;
    }

    /// <summary>SQLite's UTF-8 writer: one to four bytes, the top bits of larger values dropped.</summary>
    private static void AppendCodePoint(ref Utf8Builder sb, uint c)
    {
        if (c < 0x80)
        {
            sb.Append((byte)c);
        }
        else if (c < 0x800)
        {
            sb.Append((byte)(0xC0 | (c >> 6 & 0x1F)));
            sb.Append((byte)(0x80 | (c & 0x3F)));
        }
        else if (c < 0x10000)
        {
            sb.Append((byte)(0xE0 | (c >> 12 & 0x0F)));
            sb.Append((byte)(0x80 | (c >> 6 & 0x3F)));
            sb.Append((byte)(0x80 | (c & 0x3F)));
        }
        else
        {
            sb.Append((byte)(0xF0 | (c >> 18 & 0x07)));
            sb.Append((byte)(0x80 | (c >> 12 & 0x3F)));
            sb.Append((byte)(0x80 | (c >> 6 & 0x3F)));
            sb.Append((byte)(0x80 | (c & 0x3F)));
        }
    }

    /// <summary>
    /// unistr_quote(X): quote(X), except that text holding a control character becomes <c>unistr('…')</c> with
    /// each control character as <c>\u00XX</c> and each backslash doubled, so the literal reads back exactly.
    /// </summary>
    private static SqlValue UnistrQuote(ReadOnlySpan<SqlValue> a, FunctionContext ctx)
    {
        if (a[0].Type != SharcColumnType.Text) return EncodingFunctions.Quote(a, ctx);
        var s = SqlUtf8.ToNul(a[0].Bytes);
        bool control = false;
        foreach (byte b in s) control |= b < 0x20;
        if (!control) return EncodingFunctions.Quote(a, ctx);
        var sb = new Utf8Builder(stackalloc byte[128]);
        try
        {
            sb.Append("unistr('"u8);
            foreach (byte b in s)
            {
                if (b < 0x20)
                {
                    sb.Append("\\u00"u8);
                    sb.Append((byte)"0123456789abcdef"[b >> 4]);
                    sb.Append((byte)"0123456789abcdef"[b & 0xF]);
                    continue;
                }
                sb.Append(b);
                if (b is (byte)'\'' or (byte)'\\') sb.Append(b);
            }
            sb.Append("')"u8);
            return sb.ToText();
        }
        finally
        {
            sb.Dispose();
        }
    }
}
