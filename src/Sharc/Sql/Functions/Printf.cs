using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// SQLite's printf()/format(): conversions %d %i %u %x %X %o %p %r %c %s %z %q %Q %w %f %e %E %g %G %n %%,
/// flags <c>- + space # ! 0 ,</c>, width and precision (digits or <c>*</c>), and the ignored length modifiers l/ll.
/// Missing arguments read as NULL. An unknown conversion ends the output there; when nothing at all was produced
/// the result is NULL rather than empty text.
/// </summary>
/// <remarks>
/// Differences from C: floating-point digits come from <see cref="FloatDigits"/> (at most 16 significant digits,
/// 20 with '!'); '!' also strips trailing zeros from %f/%e/%g but keeps one digit after the point, and makes widths
/// and precisions of %s/%q count characters rather than bytes; ',' groups thousands in %d and %f; '0' on an integer
/// conversion pads to the width with zeros even when left-justified; -0.0 prints without a sign.
/// </remarks>
internal static class Printf
{
    private struct Spec
    {
        public bool Left, Alt, Alt2, Zero, Comma;
        public byte SignFlag; // '+' or ' ': of the two flags, the last one written wins
        public int Width;
        public int Precision; // -1 when absent
        public byte Conversion;
    }

    private ref struct Args
    {
        private readonly ReadOnlySpan<SqlValue> _values;
        private int _next;

        public Args(ReadOnlySpan<SqlValue> values)
        {
            _values = values;
            _next = 0;
        }

        public SqlValue Next() => _next < _values.Length ? _values[_next++] : SqlValue.Null;
    }

    /// <summary>printf(format, args…) as called from SQL: NULL for no arguments or a NULL format.</summary>
    public static SqlValue Function(ReadOnlySpan<SqlValue> args)
    {
        if (args.Length == 0 || args[0].IsNull) return SqlValue.Null;
        Span<byte> buf = stackalloc byte[SqlValue.NumberTextMax];
        return Format(SqlUtf8.ToNul(args[0].TextBytes(buf)), args[1..]);
    }

    /// <summary>Formats <paramref name="args"/> by a UTF-8 <paramref name="format"/>.</summary>
    public static SqlValue Format(ReadOnlySpan<byte> format, ReadOnlySpan<SqlValue> args)
    {
        var sb = new Utf8Builder(stackalloc byte[256]);
        try
        {
            return Run(format, new Args(args), ref sb) ? sb.ToText() : SqlValue.Null;
        }
        finally
        {
            sb.Dispose();
        }
    }

    /// <summary>Appends one floating-point conversion (used by quote() and round(), which format through printf).</summary>
    public static void AppendDouble(ref Utf8Builder sb, double value, byte conversion, int precision, bool alt2, bool zero)
    {
        var spec = new Spec { Conversion = conversion, Precision = precision, Alt2 = alt2, Zero = zero };
        AppendFloat(ref sb, spec, value);
    }

    private static bool Run(ReadOnlySpan<byte> fmt, Args args, ref Utf8Builder sb)
    {
        bool produced = false;
        int i = 0;
        while (i < fmt.Length)
        {
            int pct = fmt[i..].IndexOf((byte)'%');
            if (pct < 0)
            {
                sb.Append(fmt[i..]);
                return true;
            }
            if (pct > 0)
            {
                sb.Append(fmt.Slice(i, pct));
                produced = true;
            }
            i += pct + 1;
            if (i >= fmt.Length)
            {
                // A '%' ending the format is printed as is.
                sb.Append((byte)'%');
                return true;
            }

            var spec = new Spec { Precision = -1 };
            for (bool more = true; more && i < fmt.Length; )
            {
                switch (fmt[i])
                {
                    case (byte)'-': spec.Left = true; break;
                    case (byte)'+': spec.SignFlag = (byte)'+'; break;
                    case (byte)' ': spec.SignFlag = (byte)' '; break;
                    case (byte)'#': spec.Alt = true; break;
                    case (byte)'!': spec.Alt2 = true; break;
                    case (byte)'0': spec.Zero = true; break;
                    case (byte)',': spec.Comma = true; break;
                    default: more = false; continue;
                }
                i++;
            }
            if (i < fmt.Length && fmt[i] == '*')
            {
                int w = unchecked((int)args.Next().ToInt64());
                if (w < 0)
                {
                    spec.Left = true;
                    w = w >= -int.MaxValue ? -w : 0;
                }
                spec.Width = w;
                i++;
            }
            else
            {
                spec.Width = ReadNumber(fmt, ref i);
            }
            if (i < fmt.Length && fmt[i] == '.')
            {
                i++;
                if (i < fmt.Length && fmt[i] == '*')
                {
                    int p = unchecked((int)args.Next().ToInt64());
                    spec.Precision = p >= 0 ? p : p >= -int.MaxValue ? -p : -1;
                    i++;
                }
                else
                {
                    spec.Precision = ReadNumber(fmt, ref i);
                }
            }
            if (i < fmt.Length && fmt[i] == 'l')
            {
                i++;
                if (i < fmt.Length && fmt[i] == 'l') i++;
            }
            if (i >= fmt.Length) return produced;
            spec.Conversion = fmt[i++];
            if (!Convert(ref sb, spec, ref args)) return produced;
            produced = true;
        }
        return produced;
    }

    /// <summary>SQLite's SQLITE_FP_PRECISION_LIMIT: a longer precision of %f/%e/%g is cut to it.</summary>
    private const int FloatPrecisionLimit = 100_000_000;

    private static int ReadNumber(ReadOnlySpan<byte> fmt, ref int i)
    {
        uint v = 0;
        while (i < fmt.Length && fmt[i] is >= (byte)'0' and <= (byte)'9') v = unchecked(v * 10 + (uint)(fmt[i++] - '0'));
        return (int)(v & 0x7fffffff);
    }

    private static bool Convert(ref Utf8Builder sb, Spec spec, ref Args args)
    {
        // SQLite sizes a conversion from its width before building it; refusing here spares building ~1 GB first.
        if (spec.Conversion is (byte)'d' or (byte)'i' or (byte)'u' or (byte)'x' or (byte)'X' or (byte)'o' or (byte)'p' or (byte)'r' or (byte)'f'
            or (byte)'e' or (byte)'E' or (byte)'g' or (byte)'G' or (byte)'s' or (byte)'z' or (byte)'q' or (byte)'Q' or (byte)'w' or (byte)'c' or (byte)'%'
            && (long)sb.Length + spec.Width >= SqlErrors.MaxLength) SqlErrors.TooBig();
        switch (spec.Conversion)
        {
            case (byte)'d':
            case (byte)'i':
            case (byte)'u':
            case (byte)'x':
            case (byte)'X':
            case (byte)'o':
            case (byte)'p':
            case (byte)'r':
                AppendInteger(ref sb, spec, args.Next().ToInt64());
                return true;
            case (byte)'f':
            case (byte)'e':
            case (byte)'E':
            case (byte)'g':
            case (byte)'G':
                AppendFloat(ref sb, spec, args.Next().ToDouble());
                return true;
            case (byte)'s':
            case (byte)'z':
                AppendString(ref sb, spec, args.Next());
                return true;
            case (byte)'q':
            case (byte)'Q':
            case (byte)'w':
                AppendEscaped(ref sb, spec, args.Next());
                return true;
            case (byte)'c':
                AppendChar(ref sb, spec, args.Next());
                return true;
            case (byte)'%':
                Pad(ref sb, spec.Width, spec.Left, "%"u8, 1);
                return true;
            case (byte)'n':
                return true;
            default:
                return false;
        }
    }

    private static void AppendInteger(ref Utf8Builder sb, Spec spec, long value)
    {
        // SQLite's buffer for a long precision: precision + 10 bytes, a third more with ',' — refused past the limit.
        if ((long)spec.Precision + 10 + (spec.Comma ? spec.Precision / 3 : 0) > SqlErrors.MaxLength) SqlErrors.TooBig();
        byte c = spec.Conversion;
        bool signed = c is (byte)'d' or (byte)'i' or (byte)'r';
        ulong mag;
        byte sign = 0;
        if (signed && value < 0)
        {
            sign = (byte)'-';
            mag = 0UL - (ulong)value;
        }
        else
        {
            mag = (ulong)value;
            if (signed) sign = spec.SignFlag;
        }
        uint radix = c switch { (byte)'x' or (byte)'X' or (byte)'p' => 16u, (byte)'o' => 8u, _ => 10u };
        ReadOnlySpan<byte> set = c is (byte)'X' or (byte)'p' ? "0123456789ABCDEF"u8 : "0123456789abcdef"u8;

        // Digits and any ordinal suffix, right to left; zero padding counts the suffix, as in SQLite.
        Span<byte> tmp = stackalloc byte[32];
        int pos = tmp.Length;
        if (c == 'r')
        {
            ulong m100 = mag % 100, m10 = mag % 10;
            ReadOnlySpan<byte> suf = m100 is >= 11 and <= 13 ? "th"u8 : m10 switch { 1 => "st"u8, 2 => "nd"u8, 3 => "rd"u8, _ => "th"u8 };
            tmp[--pos] = suf[1];
            tmp[--pos] = suf[0];
        }
        int digitsEnd = pos;
        do
        {
            tmp[--pos] = set[(int)(mag % radix)];
            mag /= radix;
        }
        while (mag != 0);

        int precision = spec.Precision;
        if (spec.Zero && precision < spec.Width - (sign != 0 ? 1 : 0)) precision = spec.Width - (sign != 0 ? 1 : 0);
        var body = new Utf8Builder(stackalloc byte[128]);
        try
        {
            if (sign != 0) body.Append(sign);
            if (spec.Alt && value != 0)
            {
                if (c is (byte)'x' or (byte)'p') body.Append("0x"u8);
                else if (c == 'X') body.Append("0X"u8);
                else if (c == 'o') body.Append((byte)'0');
            }
            int digitsStart = body.Length;
            body.Append((byte)'0', precision - (tmp.Length - pos));
            body.Append(tmp[pos..digitsEnd]);
            if (spec.Comma && radix == 10 && c != 'r')
            {
                for (int k = body.Length - 3; k > digitsStart; k -= 3) body.Insert(k, (byte)',', 1);
            }
            body.Append(tmp[digitsEnd..]);
            Pad(ref sb, spec.Width, spec.Left, body.Written, body.Length);
        }
        finally
        {
            body.Dispose();
        }
    }

    /// <summary>Appends <paramref name="text"/> padded with spaces to <paramref name="width"/>, measured as <paramref name="measured"/>.</summary>
    private static void Pad(ref Utf8Builder sb, int width, bool left, scoped ReadOnlySpan<byte> text, int measured)
    {
        int pad = width - measured;
        if (pad > 0 && !left) sb.Append((byte)' ', pad);
        sb.Append(text);
        if (pad > 0 && left) sb.Append((byte)' ', pad);
    }

    private static void AppendFloat(ref Utf8Builder sb, Spec spec, double value)
    {
        byte conv = spec.Conversion;
        int precision = spec.Precision < 0 ? 6 : Math.Min(spec.Precision, FloatPrecisionLimit);
        if ((long)precision + spec.Width + 15 > SqlErrors.MaxLength) SqlErrors.TooBig();
        byte sign = 0;
        if (value < 0)
        {
            sign = (byte)'-';
            value = -value;
        }
        else
        {
            sign = spec.SignFlag;
        }

        Span<byte> digits = stackalloc byte[32];
        int n, dp;
        if (double.IsInfinity(value))
        {
            if (!spec.Zero)
            {
                Span<byte> inf = stackalloc byte[4];
                int k = 0;
                if (sign != 0) inf[k++] = sign;
                "Inf"u8.CopyTo(inf[k..]);
                Pad(ref sb, spec.Width, spec.Left, inf[..(k + 3)], k + 3);
                return;
            }
            // With the '0' flag an infinity prints as 9e+999, which reads back as infinity (quote() relies on it).
            digits[0] = (byte)'9';
            n = 1;
            dp = 1000;
        }
        else if (value == 0)
        {
            n = 0;
            dp = 1;
        }
        else
        {
            bool isGeneric = conv is (byte)'g' or (byte)'G';
            if (isGeneric && precision == 0) precision = 1;
            int round = conv == 'f' ? -precision : isGeneric ? precision : precision + 1;
            n = FloatDigits.Decode(value, round, spec.Alt2 ? 20 : 16, digits, out dp);
            // '#' on %f drops the minus sign of a value that shows as zero (SQLite 3.53).
            if (sign == '-' && spec.Alt && spec.SignFlag == 0 && conv == 'f' && dp <= -precision) sign = 0;
        }

        bool generic = conv is (byte)'g' or (byte)'G';
        if (generic && precision == 0) precision = 1;
        if (n == 0) dp = 1;
        int exp = dp - 1;

        bool expStyle = conv is (byte)'e' or (byte)'E';
        // %g drops trailing zeros unless '#'; %f and %e drop them only with '!'.
        bool removeTrailingZeros = generic ? !spec.Alt : spec.Alt2;
        if (generic)
        {
            if (exp < -4 || exp >= precision)
            {
                expStyle = true;
                precision--;
            }
            else
            {
                precision = precision - 1 - exp;
            }
        }
        bool point = precision > 0 || spec.Alt || spec.Alt2;

        var body = new Utf8Builder(stackalloc byte[128]);
        try
        {
            if (expStyle)
            {
                body.Append(n > 0 ? digits[0] : (byte)'0');
                if (point) body.Append((byte)'.');
                for (int j = 1; j <= precision; j++) body.Append(j < n ? digits[j] : (byte)'0');
            }
            else
            {
                if (exp < 0)
                {
                    body.Append((byte)'0');
                }
                else
                {
                    for (int k = 0; k <= exp; k++)
                    {
                        if (spec.Comma && k > 0 && (exp + 1 - k) % 3 == 0) body.Append((byte)',');
                        body.Append(k < n ? digits[k] : (byte)'0');
                    }
                }
                if (point) body.Append((byte)'.');
                for (int j = 0; j < precision; j++)
                {
                    int idx = dp + j;
                    body.Append(idx >= 0 && idx < n ? digits[idx] : (byte)'0');
                }
            }
            if (removeTrailingZeros && point)
            {
                int len = body.Length;
                while (body[len - 1] == '0') len--;
                bool endsWithPoint = body[len - 1] == '.';
                if (endsWithPoint && !spec.Alt && !spec.Alt2) len--;
                body.Truncate(len);
                if (endsWithPoint && spec.Alt2) body.Append((byte)'0');
            }
            if (expStyle)
            {
                body.Append(conv is (byte)'E' or (byte)'G' ? (byte)'E' : (byte)'e');
                int e = n > 0 ? exp : 0;
                body.Append(e < 0 ? (byte)'-' : (byte)'+');
                e = Math.Abs(e);
                if (e >= 100)
                {
                    body.Append((byte)('0' + e / 100));
                    e %= 100;
                }
                body.Append((byte)('0' + e / 10));
                body.Append((byte)('0' + e % 10));
            }

            int signLen = sign != 0 ? 1 : 0;
            if (spec.Zero && !spec.Left && signLen + body.Length < spec.Width)
                body.Insert(0, (byte)'0', spec.Width - signLen - body.Length);
            int total = signLen + body.Length;
            int pad = spec.Width - total;
            if (pad > 0 && !spec.Left) sb.Append((byte)' ', pad);
            if (sign != 0) sb.Append(sign);
            sb.Append(body.Written);
            if (pad > 0 && spec.Left) sb.Append((byte)' ', pad);
        }
        finally
        {
            body.Dispose();
        }
    }

    private static void AppendString(ref Utf8Builder sb, Spec spec, SqlValue arg)
    {
        Span<byte> buf = stackalloc byte[SqlValue.NumberTextMax];
        var s = SqlUtf8.ToNul(arg.TextBytes(buf));
        if (spec.Precision >= 0) s = s[..Prefix(s, spec.Precision, spec.Alt2)];
        Pad(ref sb, spec.Width, spec.Left, s, spec.Alt2 ? Measure(s) : s.Length);
    }

    private static void AppendEscaped(ref Utf8Builder sb, Spec spec, SqlValue arg)
    {
        byte quote = spec.Conversion == 'w' ? (byte)'"' : (byte)'\'';
        bool isNull = arg.IsNull;
        Span<byte> buf = stackalloc byte[SqlValue.NumberTextMax];
        ReadOnlySpan<byte> s = isNull ? (spec.Conversion == 'Q' ? "NULL"u8 : "(NULL)"u8) : SqlUtf8.ToNul(arg.TextBytes(buf));
        if (spec.Precision >= 0) s = s[..Prefix(s, spec.Precision, spec.Alt2)];
        bool wrap = !isNull && spec.Conversion == 'Q';
        // '#' on %q escapes control characters as \u00XX (and so doubles backslashes); on %Q it does so only when the
        // text holds a control character, and then wraps the literal in unistr(…).
        bool escape = spec.Alt && !isNull && (spec.Conversion == 'q' || (spec.Conversion == 'Q' && HasControl(s)));
        bool unistr = escape && spec.Conversion == 'Q';

        var body = new Utf8Builder(stackalloc byte[128]);
        try
        {
            if (unistr) body.Append("unistr("u8);
            if (wrap) body.Append(quote);
            foreach (byte b in s)
            {
                if (escape && b < 0x20)
                {
                    body.Append("\\u00"u8);
                    body.Append((byte)"0123456789abcdef"[b >> 4]);
                    body.Append((byte)"0123456789abcdef"[b & 15]);
                    continue;
                }
                body.Append(b);
                if (b == quote || (escape && b == '\\')) body.Append(b);
            }
            if (wrap) body.Append(quote);
            if (unistr) body.Append((byte)')');
            Pad(ref sb, spec.Width, spec.Left, body.Written, spec.Alt2 ? Measure(body.Written) : body.Length);
        }
        finally
        {
            body.Dispose();
        }
    }

    private static void AppendChar(ref Utf8Builder sb, Spec spec, SqlValue arg)
    {
        Span<byte> buf = stackalloc byte[SqlValue.NumberTextMax];
        var s = SqlUtf8.ToNul(arg.TextBytes(buf));
        Span<byte> ch = stackalloc byte[4];
        int len = 1;
        if (s.Length == 0)
        {
            ch[0] = 0;
        }
        else
        {
            ch[0] = s[0];
            if (s[0] >= 0xC0)
            {
                while (len < 4 && len < s.Length && (s[len] & 0xC0) == 0x80)
                {
                    ch[len] = s[len];
                    len++;
                }
            }
        }
        if (spec.Precision > 1 && (long)sb.Length + (long)len * spec.Precision >= SqlErrors.MaxLength) SqlErrors.TooBig();
        // SQLite pads for the repeats in characters, then measures the last copy like %!s (bytes less
        // continuation bytes).
        int width = spec.Width;
        if (spec.Precision > 1)
        {
            width -= spec.Precision - 1;
            if (width > 1 && !spec.Left)
            {
                sb.Append((byte)' ', width - 1);
                width = 0;
            }
            for (int k = 1; k < spec.Precision; k++) sb.Append(ch[..len]);
        }
        Pad(ref sb, width, spec.Left, ch[..len], Measure(ch[..len]));
    }

    private static bool HasControl(ReadOnlySpan<byte> s)
    {
        foreach (byte b in s)
        {
            if (b < 0x20) return true;
        }
        return false;
    }

    /// <summary>A width in characters, as SQLite measures it: bytes less continuation bytes.</summary>
    private static int Measure(ReadOnlySpan<byte> s)
    {
        int n = s.Length;
        foreach (byte b in s)
        {
            if ((b & 0xC0) == 0x80) n--;
        }
        return n;
    }

    /// <summary>The byte length of the first <paramref name="count"/> bytes, or characters when <paramref name="chars"/>.</summary>
    private static int Prefix(ReadOnlySpan<byte> s, int count, bool chars)
    {
        if (!chars) return Math.Min(count, s.Length);
        int i = 0;
        while (count-- > 0 && i < s.Length) i = SqlUtf8.Next(s, i);
        return i;
    }
}
