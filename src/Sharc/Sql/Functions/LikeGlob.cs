using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// LIKE and GLOB. LIKE: <c>%</c> matches any run of characters, <c>_</c> one character, an optional ESCAPE character
/// makes the next pattern character literal, and ASCII letters match either case (case_sensitive_like off, no
/// ICU). GLOB: <c>*</c>, <c>?</c>, and sets <c>[abc]</c>, <c>[a-z]</c>, <c>[^…]</c>, case-sensitive. Both work on
/// characters, see the text only up to a NUL (SQLite passes C strings), and do not allocate.
/// </summary>
internal static class LikeGlob
{
    /// <summary>
    /// SQLite built with SQLITE_LIKE_DOESNT_MATCH_BLOBS (as the e_sqlite3 library and most distributions are)
    /// answers 0 whenever the string or the pattern is a BLOB — before looking at NULLs or the escape.
    /// </summary>
    public const bool BlobsNeverMatch = true;

    /// <summary><c>str LIKE pattern [ESCAPE esc]</c>: 1, 0, or NULL when any operand is NULL.</summary>
    public static SqlValue Like(in SqlValue str, in SqlValue pattern, in SqlValue escape = default, bool hasEscape = false)
    {
        if (BlobsNeverMatch && (str.Type == SharcColumnType.Blob || pattern.Type == SharcColumnType.Blob)) return SqlValue.False;
        Span<byte> pb = stackalloc byte[SqlValue.NumberTextMax];
        Span<byte> sb = stackalloc byte[SqlValue.NumberTextMax];
        var p = pattern.TextBytes(pb);
        CheckPatternLength(p.Length);
        int esc = -1;
        if (hasEscape)
        {
            // SQLite looks at the escape before it looks for NULL operands.
            if (escape.IsNull) return SqlValue.Null;
            Span<byte> eb = stackalloc byte[SqlValue.NumberTextMax];
            var e = SqlUtf8.ToNul(escape.TextBytes(eb));
            if (e.Length == 0 || SqlUtf8.Next(e, 0) != e.Length)
                SqlErrors.Throw("ESCAPE expression must be a single character");
            int i = 0;
            esc = SqlUtf8.Read(e, ref i);
        }
        if (str.IsNull || pattern.IsNull) return SqlValue.Null;
        return SqlValue.Boolean(MatchLike(SqlUtf8.ToNul(p), SqlUtf8.ToNul(str.TextBytes(sb)), esc));
    }

    /// <summary><c>str GLOB pattern</c>: 1, 0, or NULL when either operand is NULL.</summary>
    public static SqlValue Glob(in SqlValue str, in SqlValue pattern)
    {
        if (BlobsNeverMatch && (str.Type == SharcColumnType.Blob || pattern.Type == SharcColumnType.Blob)) return SqlValue.False;
        if (str.IsNull || pattern.IsNull) return SqlValue.Null;
        Span<byte> pb = stackalloc byte[SqlValue.NumberTextMax];
        Span<byte> sb = stackalloc byte[SqlValue.NumberTextMax];
        var p = pattern.TextBytes(pb);
        CheckPatternLength(p.Length);
        return SqlValue.Boolean(MatchGlob(SqlUtf8.ToNul(p), SqlUtf8.ToNul(str.TextBytes(sb))));
    }

    private static void CheckPatternLength(int length)
    {
        if (length > SqlErrors.MaxLikePatternLength) SqlErrors.Throw("LIKE or GLOB pattern too complex");
    }

    /// <summary>
    /// LIKE on UTF-8 spans (already cut at NUL); <paramref name="escape"/> is a code point or -1. When the escape
    /// character is <c>%</c> or <c>_</c>, that character is only the escape, never a wildcard.
    /// </summary>
    public static bool MatchLike(ReadOnlySpan<byte> pattern, ReadOnlySpan<byte> str, int escape)
    {
        // Greedy matching with one backtrack point (the latest %) is exact here: every other token matches
        // exactly one character.
        int p = 0, s = 0, starP = -1, starS = 0;
        while (true)
        {
            if (p < pattern.Length)
            {
                int q = p;
                int pc = SqlUtf8.Read(pattern, ref q);
                if (pc == '%' && pc != escape)
                {
                    p = q;
                    starP = p;
                    starS = s;
                    continue;
                }
                if (s < str.Length)
                {
                    bool literal = false;
                    if (pc == escape)
                    {
                        if (q >= pattern.Length) return false;
                        pc = SqlUtf8.Read(pattern, ref q);
                        literal = true;
                    }
                    int t = s;
                    int sc = SqlUtf8.Read(str, ref t);
                    if ((!literal && pc == '_') || sc == pc || (pc < 0x80 && sc < 0x80 && SqlUtf8.FoldAscii(pc) == SqlUtf8.FoldAscii(sc)))
                    {
                        p = q;
                        s = t;
                        continue;
                    }
                }
            }
            else if (s == str.Length)
            {
                return true;
            }
            if (starP < 0 || starS >= str.Length) return false;
            starS = SqlUtf8.Next(str, starS);
            s = starS;
            p = starP;
        }
    }

    /// <summary>GLOB on UTF-8 spans (already cut at NUL).</summary>
    public static bool MatchGlob(ReadOnlySpan<byte> pattern, ReadOnlySpan<byte> str)
    {
        int p = 0, s = 0, starP = -1, starS = 0;
        while (true)
        {
            if (p < pattern.Length)
            {
                int q = p;
                int pc = SqlUtf8.Read(pattern, ref q);
                if (pc == '*')
                {
                    p = q;
                    starP = p;
                    starS = s;
                    continue;
                }
                if (s < str.Length)
                {
                    int t = s;
                    int sc = SqlUtf8.Read(str, ref t);
                    bool ok;
                    if (pc == '?') ok = true;
                    else if (pc == '[') ok = MatchSet(pattern, ref q, sc);
                    else ok = pc == sc;
                    if (ok)
                    {
                        p = q;
                        s = t;
                        continue;
                    }
                }
            }
            else if (s == str.Length)
            {
                return true;
            }
            if (starP < 0 || starS >= str.Length) return false;
            starS = SqlUtf8.Next(str, starS);
            s = starS;
            p = starP;
        }
    }

    /// <summary>
    /// Tests <paramref name="c"/> against the set whose '[' was just read, leaving <paramref name="p"/> after its ']'.
    /// A ']' first in the set (after an optional '^') is literal; '-' makes a range only between two characters, and
    /// a range's end cannot start another range. An unterminated set matches nothing.
    /// </summary>
    private static bool MatchSet(ReadOnlySpan<byte> pattern, ref int p, int c)
    {
        bool invert = false, seen = false;
        if (p < pattern.Length && pattern[p] == '^')
        {
            invert = true;
            p++;
        }
        if (p < pattern.Length && pattern[p] == ']')
        {
            seen = c == ']';
            p++;
        }
        int prior = 0;
        while (true)
        {
            if (p >= pattern.Length) return false;
            int d = SqlUtf8.Read(pattern, ref p);
            if (d == ']') break;
            if (d == '-' && prior > 0 && p < pattern.Length && pattern[p] != ']')
            {
                int hi = SqlUtf8.Read(pattern, ref p);
                if (c >= prior && c <= hi) seen = true;
                prior = 0;
            }
            else
            {
                if (c == d) seen = true;
                prior = d;
            }
        }
        return seen != invert;
    }
}
