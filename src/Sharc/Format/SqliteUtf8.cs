using System.Text;
using System.Text.Unicode;

namespace Sharc.Format;

/// <summary>
/// Turns stored UTF-8 into a .NET string the way SQLite turns it into UTF-16. SQLite stores whatever bytes it is given
/// and repairs them only when it translates: a lead byte (0xC0 and up) swallows every continuation byte after it,
/// and the result is replaced by U+FFFD when it is below 0x80, a surrogate or U+FFFE/U+FFFF; a stray continuation
/// byte stands for the code point of the same value. .NET's decoder replaces each maximal invalid subsequence
/// instead, so invalid text would read differently from SQLite's (x'C0AF' is one U+FFFD there, two here).
/// Valid text — nearly all text — takes .NET's vectorized path; both rules agree on it, except that SQLite also
/// replaces the valid encodings of U+FFFE and U+FFFF.
/// </summary>
internal static class SqliteUtf8
{
    public static string GetString(ReadOnlySpan<byte> utf8)
        => Utf8.IsValid(utf8) && !HasFffeOrFfff(utf8) ? Encoding.UTF8.GetString(utf8) : Decode(utf8);

    private static bool HasFffeOrFfff(ReadOnlySpan<byte> utf8)
    {
        ReadOnlySpan<byte> prefix = [0xEF, 0xBF];
        int at;
        while ((at = utf8.IndexOf(prefix)) >= 0)
        {
            if (at + 2 < utf8.Length && utf8[at + 2] >= 0xBE) return true;
            utf8 = utf8[(at + 2)..];
        }
        return false;
    }

    private static string Decode(ReadOnlySpan<byte> utf8)
    {
        // Never more UTF-16 units than bytes: one byte gives at most one unit, four bytes at most two.
        char[]? rented = null;
        Span<char> buffer = utf8.Length <= 256 ? stackalloc char[256] : (rented = System.Buffers.ArrayPool<char>.Shared.Rent(utf8.Length));
        int n = 0;
        int i = 0;
        while (i < utf8.Length)
        {
            uint c = utf8[i++];
            if (c >= 0xC0)
            {
                c = LeadBits(c);
                while (i < utf8.Length && (utf8[i] & 0xC0) == 0x80) c = unchecked((c << 6) + (uint)(utf8[i++] & 0x3F));
                if (c < 0x80 || (c & 0xFFFFF800) == 0xD800 || (c & 0xFFFFFFFE) == 0xFFFE) c = 0xFFFD;
            }
            if (c <= 0xFFFF)
            {
                buffer[n++] = (char)c;
            }
            else
            {
                // SQLite's WRITE_UTF16 arithmetic, kept as it is so that values past U+10FFFF (five and more
                // continuation bytes) come out as the same unit pair SQLite writes.
                uint lowByte = ((c >> 10) & 0x3F) + (unchecked((c - 0x10000) >> 10) & 0xC0);
                uint highByte = 0xD8 + (unchecked((c - 0x10000) >> 18) & 0x03);
                buffer[n++] = (char)((highByte << 8) | lowByte);
                buffer[n++] = (char)(((0xDC + ((c >> 8) & 0x03)) << 8) | (c & 0xFF));
            }
        }
        string s = new(buffer[..n]);
        if (rented is not null) System.Buffers.ArrayPool<char>.Shared.Return(rented);
        return s;
    }

    /// <summary>The payload bits of a lead byte (0xC0–0xFF), as SQLite's sqlite3Utf8Trans1 table gives them.</summary>
    private static uint LeadBits(uint lead) => lead switch
    {
        < 0xE0 => lead & 0x1F,
        < 0xF0 => lead & 0x0F,
        < 0xF8 => lead & 0x07,
        < 0xFC => lead & 0x03,
        < 0xFE => lead & 0x01,
        _ => 0,
    };
}
