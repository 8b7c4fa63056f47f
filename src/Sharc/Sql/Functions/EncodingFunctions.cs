using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// Functions that turn values into their encodings and back: hex, unhex, quote, char and unicode.
/// </summary>
internal static class EncodingFunctions
{
    private const int Num = SqlValue.NumberTextMax;

    /// <summary>hex(X): upper-case hex of the value's text or blob bytes; NULL gives empty text.</summary>
    public static SqlValue Hex(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        Span<byte> buf = stackalloc byte[Num];
        var s = a[0].TextBytes(buf);
        SqlErrors.CheckLength(2L * s.Length);
        if (s.Length == 0) return SqlValue.EmptyText;
        var r = new byte[2 * s.Length];
        ReadOnlySpan<byte> digits = "0123456789ABCDEF"u8;
        for (int i = 0; i < s.Length; i++)
        {
            r[2 * i] = digits[s[i] >> 4];
            r[2 * i + 1] = digits[s[i] & 15];
        }
        return SqlValue.OwnedText(r);
    }

    /// <summary>
    /// unhex(X [, Y]): the blob whose hex is X; characters of Y may appear between (never inside) hex pairs. NULL for
    /// anything else, or when X or Y is NULL.
    /// </summary>
    public static SqlValue Unhex(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull || (a.Length > 1 && a[1].IsNull)) return SqlValue.Null;
        Span<byte> b0 = stackalloc byte[Num];
        Span<byte> b1 = stackalloc byte[Num];
        var s = SqlUtf8.ToNul(a[0].TextBytes(b0));
        var pass = a.Length > 1 ? SqlUtf8.ToNul(a[1].TextBytes(b1)) : default;
        var sb = new Utf8Builder(stackalloc byte[128]);
        try
        {
            int i = 0;
            while (i < s.Length)
            {
                int c = SqlUtf8.Read(s, ref i);
                if (HexValue(c) < 0)
                {
                    if (!Contains(pass, c)) return SqlValue.Null;
                    continue;
                }
                if (i >= s.Length) return SqlValue.Null;
                int d = SqlUtf8.Read(s, ref i);
                if (HexValue(d) < 0) return SqlValue.Null;
                sb.Append((byte)(HexValue(c) << 4 | HexValue(d)));
            }
            return sb.ToBlob();
        }
        finally
        {
            sb.Dispose();
        }
    }

    private static bool Contains(ReadOnlySpan<byte> set, int c)
    {
        for (int i = 0; i < set.Length; )
        {
            if (SqlUtf8.Read(set, ref i) == c) return true;
        }
        return false;
    }

    private static int HexValue(int c) => c switch
    {
        >= '0' and <= '9' => c - '0',
        >= 'a' and <= 'f' => c - 'a' + 10,
        >= 'A' and <= 'F' => c - 'A' + 10,
        _ => -1,
    };

    /// <summary>
    /// quote(X): X as an SQL literal — NULL, an integer, a real as its text (<c>%!.17g</c>, which reads back
    /// exactly; infinity as 9.0e+999), a quoted string (up to any NUL), or X'…' for a blob.
    /// </summary>
    public static SqlValue Quote(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        var x = a[0];
        switch (x.Type)
        {
            case SharcColumnType.Null:
                return SqlValue.Text("NULL");
            case SharcColumnType.Integer:
                return x.ToTextValue();
            case SharcColumnType.Real:
            {
                var sb = new Utf8Builder(stackalloc byte[64]);
                try
                {
                    // SQLite 3.53 writes %!0.17g: the REAL-to-TEXT digits, which read back exactly.
                    Printf.AppendDouble(ref sb, x.RealValue, (byte)'g', 17, alt2: true, zero: true);
                    return sb.ToText();
                }
                finally
                {
                    sb.Dispose();
                }
            }
            case SharcColumnType.Text:
            {
                var s = SqlUtf8.ToNul(x.Bytes);
                var sb = new Utf8Builder(stackalloc byte[128]);
                try
                {
                    sb.Append((byte)'\'');
                    foreach (byte b in s)
                    {
                        sb.Append(b);
                        if (b == '\'') sb.Append(b);
                    }
                    sb.Append((byte)'\'');
                    return sb.ToText();
                }
                finally
                {
                    sb.Dispose();
                }
            }
            default:
            {
                var s = x.Bytes;
                SqlErrors.CheckLength(2L * s.Length + 3);
                var r = new byte[2 * s.Length + 3];
                r[0] = (byte)'X';
                r[1] = (byte)'\'';
                ReadOnlySpan<byte> digits = "0123456789ABCDEF"u8;
                for (int i = 0; i < s.Length; i++)
                {
                    r[2 + 2 * i] = digits[s[i] >> 4];
                    r[3 + 2 * i] = digits[s[i] & 15];
                }
                r[^1] = (byte)'\'';
                return SqlValue.OwnedText(r);
            }
        }
    }

    /// <summary>char(X1, …): the text of those code points; NULL counts as 0, and values outside 0…0x10FFFF give U+FFFD.</summary>
    public static SqlValue Char(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        var sb = new Utf8Builder(stackalloc byte[128]);
        try
        {
            Span<byte> ch = stackalloc byte[4];
            foreach (ref readonly var v in a)
            {
                long c = v.ToInt64();
                if (c is < 0 or > 0x10FFFF) c = 0xFFFD;
                sb.Append(ch[..SqlUtf8.Write((int)c, ch)]);
            }
            return sb.ToText();
        }
        finally
        {
            sb.Dispose();
        }
    }

    /// <summary>unicode(X): the code point of X's first character; NULL for NULL or empty text.</summary>
    public static SqlValue Unicode(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        Span<byte> buf = stackalloc byte[Num];
        var s = SqlUtf8.ToNul(a[0].TextBytes(buf));
        if (s.Length == 0) return SqlValue.Null;
        int i = 0;
        return SqlValue.Integer(SqlUtf8.Read(s, ref i));
    }
}
