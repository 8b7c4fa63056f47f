namespace Sharc.Sql.Functions.Json;

/// <summary>JSON string escapes: checking, decoding and writing them, for each of JSONB's text types.</summary>
internal static class JsonStrings
{
    private static ReadOnlySpan<byte> HexDigits => "0123456789abcdef"u8;

    /// <summary>Appends <paramref name="raw"/> with JSON's escapes; true when it needed any (so TEXTJ, not TEXT).</summary>
    public static bool AppendEscaped(ReadOnlySpan<byte> raw, JsonBuffer dst)
    {
        bool escaped = false;
        int start = 0;
        for (int i = 0; i < raw.Length; i++)
        {
            byte b = raw[i];
            if (b >= 0x20 && b != (byte)'"' && b != (byte)'\\') continue;
            dst.Append(raw[start..i]);
            AppendEscape(b, dst);
            escaped = true;
            start = i + 1;
        }
        dst.Append(raw[start..]);
        return escaped;
    }

    private static void AppendEscape(byte b, JsonBuffer dst)
    {
        dst.Append((byte)'\\');
        switch (b)
        {
            case (byte)'"' or (byte)'\\': dst.Append(b); break;
            case 0x08: dst.Append((byte)'b'); break;
            case 0x0c: dst.Append((byte)'f'); break;
            case 0x0a: dst.Append((byte)'n'); break;
            case 0x0d: dst.Append((byte)'r'); break;
            case 0x09: dst.Append((byte)'t'); break;
            default: AppendU(b, dst); break;
        }
    }

    // Writes "u00XX" (the backslash is already out).
    private static void AppendU(int code, JsonBuffer dst)
    {
        dst.Append((byte)'u');
        dst.Append(HexDigits[code >> 12 & 15]);
        dst.Append(HexDigits[code >> 8 & 15]);
        dst.Append(HexDigits[code >> 4 & 15]);
        dst.Append(HexDigits[code & 15]);
    }

    /// <summary>Appends a string element of JSONB type <paramref name="type"/> as JSON text, quotes included.</summary>
    public static void AppendJson(int type, ReadOnlySpan<byte> p, JsonBuffer dst)
    {
        dst.Append((byte)'"');
        switch (type)
        {
            case Jsonb.Text or Jsonb.TextJ: dst.Append(p); break;
            case Jsonb.TextRaw: AppendEscaped(p, dst); break;
            default: AppendJson5(p, dst); break;
        }
        dst.Append((byte)'"');
    }

    // TEXT5 to standard JSON: JSON5-only escapes rewritten, line continuations dropped, raw controls and quotes escaped.
    private static void AppendJson5(ReadOnlySpan<byte> p, JsonBuffer dst)
    {
        for (int i = 0; i < p.Length; i++)
        {
            byte b = p[i];
            if (b == (byte)'\\' && i + 1 < p.Length)
            {
                byte c = p[++i];
                switch (c)
                {
                    case (byte)'\'': dst.Append(c); break;
                    case (byte)'v': dst.Append((byte)'\\'); AppendU(0x0b, dst); break;
                    case (byte)'0': dst.Append((byte)'\\'); AppendU(0, dst); break;
                    case (byte)'x':
                        dst.Append("\\u00"u8);
                        dst.Append(p.Slice(i + 1, 2));
                        i += 2;
                        break;
                    case (byte)'\r':
                        if (i + 1 < p.Length && p[i + 1] == (byte)'\n') i++;
                        break;
                    case (byte)'\n': break;
                    case 0xe2: i += 2; break; // U+2028 / U+2029 continuation
                    case (byte)'u':
                        dst.Append((byte)'\\');
                        dst.Append(p.Slice(i, 5));
                        i += 4;
                        break;
                    default:
                        dst.Append((byte)'\\');
                        dst.Append(c);
                        break;
                }
            }
            else if (b < 0x20 || b == (byte)'"') AppendEscape(b, dst);
            else dst.Append(b);
        }
    }

    /// <summary>Appends the string's characters (escapes decoded) as UTF-8.</summary>
    public static void AppendDecoded(int type, ReadOnlySpan<byte> p, JsonBuffer dst)
    {
        if (type is Jsonb.Text or Jsonb.TextRaw)
        {
            dst.Append(p);
            return;
        }
        Span<byte> utf8 = stackalloc byte[4];
        for (int i = 0; i < p.Length; i++)
        {
            byte b = p[i];
            if (b != (byte)'\\' || i + 1 >= p.Length)
            {
                dst.Append(b);
                continue;
            }
            byte c = p[++i];
            switch (c)
            {
                case (byte)'b': dst.Append(0x08); break;
                case (byte)'f': dst.Append(0x0c); break;
                case (byte)'n': dst.Append(0x0a); break;
                case (byte)'r': dst.Append(0x0d); break;
                case (byte)'t': dst.Append(0x09); break;
                case (byte)'v': dst.Append(0x0b); break;
                case (byte)'0': dst.Append(0); break;
                case (byte)'x':
                    dst.Append(utf8[..EncodeUtf8(Hex(p.Slice(i + 1, 2)), utf8)]);
                    i += 2;
                    break;
                case (byte)'u':
                {
                    int cp = Hex(p.Slice(i + 1, 4));
                    i += 4;
                    if (cp is >= 0xd800 and < 0xdc00 && i + 6 < p.Length && p[i + 1] == (byte)'\\' && p[i + 2] == (byte)'u')
                    {
                        int lo = Hex(p.Slice(i + 3, 4));
                        if (lo is >= 0xdc00 and < 0xe000)
                        {
                            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                            i += 6;
                        }
                    }
                    dst.Append(utf8[..EncodeUtf8(cp, utf8)]);
                    break;
                }
                case (byte)'\r':
                    if (i + 1 < p.Length && p[i + 1] == (byte)'\n') i++;
                    break;
                case (byte)'\n': break;
                case 0xe2: i += 2; break;
                default: dst.Append(c); break;
            }
        }
    }

    private static int Hex(ReadOnlySpan<byte> digits)
    {
        int v = 0;
        foreach (byte d in digits) v = v << 4 | HexValue(d);
        return v;
    }

    public static int HexValue(byte d) => d switch
    {
        >= (byte)'0' and <= (byte)'9' => d - '0',
        >= (byte)'a' and <= (byte)'f' => d - 'a' + 10,
        >= (byte)'A' and <= (byte)'F' => d - 'A' + 10,
        _ => -1,
    };

    private static int EncodeUtf8(int cp, Span<byte> dst)
    {
        if (cp < 0x80) { dst[0] = (byte)cp; return 1; }
        if (cp < 0x800) { dst[0] = (byte)(0xc0 | cp >> 6); dst[1] = (byte)(0x80 | cp & 0x3f); return 2; }
        if (cp < 0x10000)
        {
            dst[0] = (byte)(0xe0 | cp >> 12);
            dst[1] = (byte)(0x80 | cp >> 6 & 0x3f);
            dst[2] = (byte)(0x80 | cp & 0x3f);
            return 3;
        }
        dst[0] = (byte)(0xf0 | cp >> 18);
        dst[1] = (byte)(0x80 | cp >> 12 & 0x3f);
        dst[2] = (byte)(0x80 | cp >> 6 & 0x3f);
        dst[3] = (byte)(0x80 | cp & 0x3f);
        return 4;
    }

    /// <summary>
    /// The length of the escape sequence starting at <paramref name="p"/>[<paramref name="i"/>] (a backslash),
    /// or 0 when it is not valid; <paramref name="json5"/> is set when it is a JSON5-only escape.
    /// </summary>
    public static int EscapeLength(ReadOnlySpan<byte> p, int i, out bool json5)
    {
        json5 = false;
        if (i + 1 >= p.Length) return 0;
        switch (p[i + 1])
        {
            case (byte)'"' or (byte)'\\' or (byte)'/' or (byte)'b' or (byte)'f' or (byte)'n' or (byte)'r' or (byte)'t':
                return 2;
            case (byte)'u':
                return i + 6 <= p.Length && AllHex(p.Slice(i + 2, 4)) ? 6 : 0;
            case (byte)'\'' or (byte)'v' or (byte)'\n':
                json5 = true;
                return 2;
            case (byte)'0':
                json5 = true;
                return i + 2 < p.Length && p[i + 2] is >= (byte)'0' and <= (byte)'9' ? 0 : 2;
            case (byte)'x':
                json5 = true;
                return i + 4 <= p.Length && AllHex(p.Slice(i + 2, 2)) ? 4 : 0;
            case (byte)'\r':
                json5 = true;
                return i + 2 < p.Length && p[i + 2] == (byte)'\n' ? 3 : 2;
            case 0xe2:
                json5 = true;
                return i + 4 <= p.Length && p[i + 2] == 0x80 && p[i + 3] is 0xa8 or 0xa9 ? 4 : 0;
            default:
                return 0;
        }
    }

    private static bool AllHex(ReadOnlySpan<byte> s)
    {
        foreach (byte b in s)
            if (HexValue(b) < 0) return false;
        return true;
    }

    /// <summary>True when the escapes of a TEXTJ (or, with <paramref name="json5"/>, TEXT5) payload are all valid.</summary>
    public static bool IsValidEscaped(ReadOnlySpan<byte> p, bool json5)
    {
        for (int i = 0; i < p.Length; i++)
        {
            byte b = p[i];
            if (b == (byte)'"' && !json5) return false;
            if (b < 0x20 && !json5) return false;
            if (b != (byte)'\\') continue;
            int n = EscapeLength(p, i, out bool five);
            if (n == 0 || (five && !json5)) return false;
            i += n - 1;
        }
        return true;
    }
}
