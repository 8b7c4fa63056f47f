namespace Sharc.Sql.Values;

/// <summary>
/// UTF-8 the way SQLite walks it, which tolerates invalid input rather than rejecting it: a character is one byte,
/// plus — when that byte is 0xC0 or above — every continuation byte (10xxxxxx) that follows. Functions that count
/// or slice characters (length, substr, instr, LIKE, …) must agree on that so they agree with SQLite on bad input.
/// </summary>
internal static class SqlUtf8
{
    /// <summary>
    /// Decodes the character at <paramref name="i"/> and moves past it. A lone continuation byte is returned as
    /// its own value (0x80–0xBF); an overlong form, a surrogate, U+FFFE or U+FFFF decodes to U+FFFD.
    /// </summary>
    public static int Read(ReadOnlySpan<byte> s, ref int i)
    {
        uint c = s[i++];
        if (c < 0xC0) return (int)c;
        c = c switch
        {
            < 0xE0 => c & 0x1F,
            < 0xF0 => c & 0x0F,
            < 0xF8 => c & 0x07,
            < 0xFC => c & 0x03,
            < 0xFE => c & 0x01,
            _ => 0,
        };
        while (i < s.Length && (s[i] & 0xC0) == 0x80) c = unchecked((c << 6) + (uint)(s[i++] & 0x3F));
        if (c < 0x80 || (c & 0xFFFFF800) == 0xD800 || (c & 0xFFFFFFFE) == 0xFFFE) c = 0xFFFD;
        return unchecked((int)c);
    }

    /// <summary>The index just past the character starting at <paramref name="i"/>.</summary>
    public static int Next(ReadOnlySpan<byte> s, int i)
    {
        if (s[i++] >= 0xC0)
        {
            while (i < s.Length && (s[i] & 0xC0) == 0x80) i++;
        }
        return i;
    }

    /// <summary>The number of characters in <paramref name="s"/>.</summary>
    public static int CharCount(ReadOnlySpan<byte> s)
    {
        int n = 0;
        for (int i = 0; i < s.Length; i = Next(s, i)) n++;
        return n;
    }

    /// <summary>
    /// The bytes before the first NUL. SQLite hands many functions their text as a C string, so they see nothing
    /// past an embedded NUL (length(), substr(), LIKE, printf's %s …); others use the full byte count.
    /// </summary>
    public static ReadOnlySpan<byte> ToNul(ReadOnlySpan<byte> s)
    {
        int z = s.IndexOf((byte)0);
        return z < 0 ? s : s[..z];
    }

    /// <summary>Writes a code point as SQLite does (surrogates included, up to 4 bytes); returns the byte count.</summary>
    public static int Write(int codePoint, Span<byte> dst)
    {
        uint c = (uint)codePoint;
        if (c < 0x80)
        {
            dst[0] = (byte)c;
            return 1;
        }
        if (c < 0x800)
        {
            dst[0] = (byte)(0xC0 | (c >> 6));
            dst[1] = (byte)(0x80 | (c & 0x3F));
            return 2;
        }
        if (c < 0x10000)
        {
            dst[0] = (byte)(0xE0 | (c >> 12));
            dst[1] = (byte)(0x80 | ((c >> 6) & 0x3F));
            dst[2] = (byte)(0x80 | (c & 0x3F));
            return 3;
        }
        dst[0] = (byte)(0xF0 | ((c >> 18) & 0x07));
        dst[1] = (byte)(0x80 | ((c >> 12) & 0x3F));
        dst[2] = (byte)(0x80 | ((c >> 6) & 0x3F));
        dst[3] = (byte)(0x80 | (c & 0x3F));
        return 4;
    }

    /// <summary>ASCII-only lower case, as SQLite without ICU folds.</summary>
    public static int FoldAscii(int c) => c is >= 'A' and <= 'Z' ? c + 32 : c;
}
