using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// Text functions. Arguments that are numbers are used as the text SQLite renders for them, blobs as their bytes.
/// Characters are counted the way SQLite walks UTF-8 (<see cref="SqlUtf8"/>); case mapping is ASCII-only, as in
/// SQLite built without ICU. Results that are a part of an argument share its bytes instead of copying them.
/// </summary>
internal static class StringFunctions
{
    private const int Num = SqlValue.NumberTextMax;

    /// <summary>length(X): characters of text (before any NUL), bytes of a blob, characters of a number's text.</summary>
    public static SqlValue Length(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        var x = a[0];
        switch (x.Type)
        {
            case SharcColumnType.Null: return SqlValue.Null;
            case SharcColumnType.Blob: return SqlValue.Integer(x.ByteLength);
            case SharcColumnType.Text: return SqlValue.Integer(SqlUtf8.CharCount(SqlUtf8.ToNul(x.Bytes)));
            default:
                Span<byte> buf = stackalloc byte[Num];
                return SqlValue.Integer(x.TextBytes(buf).Length);
        }
    }

    /// <summary>octet_length(X): bytes of the value's text or blob.</summary>
    public static SqlValue OctetLength(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull) return SqlValue.Null;
        Span<byte> buf = stackalloc byte[Num];
        return SqlValue.Integer(a[0].TextBytes(buf).Length);
    }

    /// <summary>lower(X): ASCII letters to lower case.</summary>
    public static SqlValue Lower(ReadOnlySpan<SqlValue> a, FunctionContext _) => MapCase(a[0], upper: false);

    /// <summary>upper(X): ASCII letters to upper case.</summary>
    public static SqlValue Upper(ReadOnlySpan<SqlValue> a, FunctionContext _) => MapCase(a[0], upper: true);

    private static SqlValue MapCase(in SqlValue x, bool upper)
    {
        if (x.IsNull) return SqlValue.Null;
        Span<byte> buf = stackalloc byte[Num];
        var s = x.TextBytes(buf);
        if (s.Length == 0) return SqlValue.EmptyText;
        var r = new byte[s.Length];
        for (int i = 0; i < s.Length; i++)
        {
            byte b = s[i];
            if (upper ? b is >= (byte)'a' and <= (byte)'z' : b is >= (byte)'A' and <= (byte)'Z') b ^= 0x20;
            r[i] = b;
        }
        return SqlValue.OwnedText(r);
    }

    /// <summary>
    /// substr(X, Y [, Z]) and substring(): Z characters (bytes for a blob) from the Y-th, 1-based. A negative Y counts
    /// from the end; Y = 0 is one place before the first character (so it takes one fewer); a negative Z takes the
    /// |Z| characters before position Y. Text is seen only up to a NUL.
    /// </summary>
    public static SqlValue Substr(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        var x = a[0];
        if (x.IsNull || a[1].IsNull || (a.Length > 2 && a[2].IsNull)) return SqlValue.Null;
        if (x.IsNumber) x = x.ToTextValue();
        bool blob = x.Type == SharcColumnType.Blob;
        // SQLite reads an empty blob as a null pointer and gives up.
        if (blob && x.ByteLength == 0) return SqlValue.Null;
        var s = blob ? x.Bytes : SqlUtf8.ToNul(x.Bytes);

        long start = a[1].ToInt64();
        long count;
        bool takeBefore = false;
        if (a.Length > 2)
        {
            count = a[2].ToInt64();
            if (count < 0)
            {
                // -long.MinValue wraps to itself, as SQLite's 64-bit arithmetic does.
                count = unchecked(-count);
                takeBefore = true;
            }
        }
        else
        {
            count = SqlErrors.MaxLength;
        }

        unchecked
        {
            if (start < 0)
            {
                long len = blob ? s.Length : SqlUtf8.CharCount(s);
                start += len;
                if (start < 0)
                {
                    count = count < 0 ? 0 : count + start;
                    start = 0;
                }
            }
            else if (start > 0)
            {
                start--;
            }
            else if (count > 0)
            {
                count--;
            }
            if (takeBefore)
            {
                start -= count;
                if (start < 0)
                {
                    count += start;
                    start = 0;
                }
            }
        }
        if (count <= 0) return blob ? SqlValue.EmptyBlob : SqlValue.EmptyText;

        int from, to;
        if (blob)
        {
            if (start >= s.Length) return SqlValue.EmptyBlob;
            from = (int)start;
            to = (int)Math.Min(s.Length, start + Math.Min(count, s.Length));
        }
        else
        {
            from = 0;
            for (long k = 0; k < start && from < s.Length; k++) from = SqlUtf8.Next(s, from);
            to = from;
            for (long k = 0; k < count && to < s.Length; k++) to = SqlUtf8.Next(s, to);
        }
        return x.Slice(from, to - from);
    }

    /// <summary>trim(X [, Y]): removes characters of Y (default a space) from both ends of X.</summary>
    public static SqlValue Trim(ReadOnlySpan<SqlValue> a, FunctionContext _) => TrimCore(a, left: true, right: true);

    /// <summary>ltrim(X [, Y]).</summary>
    public static SqlValue LTrim(ReadOnlySpan<SqlValue> a, FunctionContext _) => TrimCore(a, left: true, right: false);

    /// <summary>rtrim(X [, Y]).</summary>
    public static SqlValue RTrim(ReadOnlySpan<SqlValue> a, FunctionContext _) => TrimCore(a, left: false, right: true);

    private static SqlValue TrimCore(ReadOnlySpan<SqlValue> a, bool left, bool right)
    {
        var x = a[0];
        if (x.IsNull || (a.Length > 1 && a[1].IsNull)) return SqlValue.Null;
        x = x.ToTextValue();
        Span<byte> buf = stackalloc byte[Num];
        ReadOnlySpan<byte> set = a.Length > 1 ? SqlUtf8.ToNul(a[1].TextBytes(buf)) : " "u8;
        var s = x.Bytes;
        int from = 0, to = s.Length;
        if (set.Length > 0)
        {
            if (left)
            {
                while (from < to && MatchAny(set, s[from..to], atEnd: false, out int n)) from += n;
            }
            if (right)
            {
                while (to > from && MatchAny(set, s[from..to], atEnd: true, out int n)) to -= n;
            }
        }
        return x.Slice(from, to - from);
    }

    /// <summary>True when <paramref name="s"/> starts (or ends) with one of the characters of <paramref name="set"/>.</summary>
    private static bool MatchAny(ReadOnlySpan<byte> set, ReadOnlySpan<byte> s, bool atEnd, out int length)
    {
        for (int i = 0; i < set.Length; )
        {
            int next = SqlUtf8.Next(set, i);
            var ch = set[i..next];
            if (atEnd ? s.EndsWith(ch) : s.StartsWith(ch))
            {
                length = ch.Length;
                return true;
            }
            i = next;
        }
        length = 0;
        return false;
    }

    /// <summary>replace(X, Y, Z): every Y in X replaced by Z, scanning left to right; an empty Y leaves X unchanged.</summary>
    public static SqlValue Replace(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull || a[1].IsNull) return SqlValue.Null;
        Span<byte> b0 = stackalloc byte[Num];
        Span<byte> b1 = stackalloc byte[Num];
        Span<byte> b2 = stackalloc byte[Num];
        var pattern = a[1].TextBytes(b1);
        // SQLite tests the pattern as a C string here: one starting with NUL counts as empty.
        if (pattern.Length == 0 || pattern[0] == 0) return a[0].ToTextValue();
        if (a[2].IsNull) return SqlValue.Null;
        var s = a[0].TextBytes(b0);
        var rep = a[2].TextBytes(b2);
        int first = s.IndexOf(pattern);
        if (first < 0) return a[0].ToTextValue();
        var sb = new Utf8Builder(stackalloc byte[256]);
        try
        {
            int i = 0;
            while (true)
            {
                int k = first >= 0 ? first : s[i..].IndexOf(pattern);
                first = -1;
                if (k < 0) break;
                sb.Append(s.Slice(i, k));
                sb.Append(rep);
                i += k + pattern.Length;
            }
            sb.Append(s[i..]);
            return sb.ToText();
        }
        finally
        {
            sb.Dispose();
        }
    }

    /// <summary>
    /// instr(X, Y): the 1-based position of the first Y in X — in bytes when both are blobs, otherwise in
    /// characters — or 0; NULL when either is NULL.
    /// </summary>
    public static SqlValue Instr(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull || a[1].IsNull) return SqlValue.Null;
        Span<byte> b0 = stackalloc byte[Num];
        Span<byte> b1 = stackalloc byte[Num];
        var hay = a[0].TextBytes(b0);
        var needle = a[1].TextBytes(b1);
        bool bytes = a[0].Type == SharcColumnType.Blob && a[1].Type == SharcColumnType.Blob;
        if (bytes)
        {
            int at = hay.IndexOf(needle);
            return SqlValue.Integer(at + 1);
        }
        // SQLite steps through text one byte and then any continuation bytes at a time, counting the steps, so a
        // match that starts on a continuation byte is never seen.
        long n = 1;
        int i = 0;
        while (true)
        {
            int k = hay[i..].IndexOf(needle);
            if (k < 0) return SqlValue.Integer(0);
            int target = i + k;
            while (i < target)
            {
                i++;
                while (i < hay.Length && (hay[i] & 0xC0) == 0x80) i++;
                n++;
            }
            if (i == target) return SqlValue.Integer(n);
        }
    }

    /// <summary>concat(X, …): the text of the non-NULL arguments, joined; never NULL.</summary>
    public static SqlValue Concat(ReadOnlySpan<SqlValue> a, FunctionContext _) => Join(default, a);

    /// <summary>
    /// concat_ws(SEP, X, …): the non-NULL arguments joined by SEP (empty ones included, as SQLite 3.53 does);
    /// NULL when SEP is NULL.
    /// </summary>
    public static SqlValue ConcatWs(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull) return SqlValue.Null;
        Span<byte> buf = stackalloc byte[Num];
        return Join(a[0].TextBytes(buf), a[1..]);
    }

    private static SqlValue Join(ReadOnlySpan<byte> separator, ReadOnlySpan<SqlValue> a)
    {
        var sb = new Utf8Builder(stackalloc byte[256]);
        try
        {
            Span<byte> buf = stackalloc byte[Num];
            bool first = true;
            foreach (ref readonly var v in a)
            {
                if (v.IsNull) continue;
                if (!first) sb.Append(separator);
                first = false;
                sb.Append(v.TextBytes(buf));
            }
            return sb.ToText();
        }
        finally
        {
            sb.Dispose();
        }
    }
}
