using System.Buffers;
using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// date(), time(), datetime(), julianday(), unixepoch(), strftime() and timediff(), with SQLite's parsing,
/// arithmetic and formatting (https://sqlite.org/lang_datefunc.html). Any argument that does not parse makes the
/// result NULL. 'now' reads <see cref="FunctionContext.NowJulianMs"/>, fixed for one execution of a statement.
/// </summary>
internal static class DateTimeFunctions
{
    public static IEnumerable<ScalarFunction> All()
    {
        // Not deterministic: 'now', 'localtime' and 'utc' depend on the clock and the machine, and the engine has
        // no per-argument notion of determinism to tell date('now') from date(col).
        yield return new ScalarFunction("date", 0, -1, (a, c) => Date(a, c, "date"), deterministic: false);
        yield return new ScalarFunction("time", 0, -1, (a, c) => Time(a, c, "time"), deterministic: false);
        yield return new ScalarFunction("datetime", 0, -1, (a, c) => DateTime(a, c, "datetime"), deterministic: false);
        yield return new ScalarFunction("julianday", 0, -1, JulianDay, deterministic: false);
        yield return new ScalarFunction("unixepoch", 0, -1, UnixEpoch, deterministic: false);
        yield return new ScalarFunction("strftime", 0, -1, Strftime, deterministic: false);
        yield return new ScalarFunction("timediff", 2, 2, TimeDiff, deterministic: false);
    }

    /// <summary>Parses the time value and applies the modifiers; false when any of them is invalid (result NULL).</summary>
    public static bool TryRead(ReadOnlySpan<SqlValue> args, FunctionContext ctx, string name, out DateTimeValue p)
    {
        p = default;
        if (args.Length == 0)
        {
            NotPure(ctx, name);
            p.SetNow(ctx.NowJulianMs);
            return p.ValidJd;
        }
        Span<byte> buffer = stackalloc byte[128];
        var first = args[0];
        if (first.Type is SharcColumnType.Integer or SharcColumnType.Real) p.SetRawNumber(first.ToDouble());
        else
        {
            if (first.IsNull) return false;
            bool bad = p.ParseTimeValue(CString(first, buffer, out var rented), ctx, name);
            Return(rented);
            if (bad) return false;
        }
        for (int i = 1; i < args.Length; i++)
        {
            if (args[i].IsNull) return false;
            bool ok = DateTimeModifiers.Apply(CString(args[i], buffer, out var r), ref p, i, ctx, name);
            Return(r);
            if (!ok) return false;
        }
        p.ComputeJd();
        if (p.IsError || !DateTimeValue.ValidJulianDay(p.Jd)) return false;
        // A lone YYYY-MM-DD past its month's end (2023-02-31) is shown normalized, so recompute the fields.
        if (args.Length == 1 && p.ValidYmd && p.D > 28) p.ValidYmd = false;
        return true;
    }

    /// <summary>Refuses a reading of the clock or the time zone where the expression must be deterministic.</summary>
    internal static void NotPure(FunctionContext ctx, string name)
    {
        if (ctx.PureContext is { } where) SqlErrors.Throw("non-deterministic use of " + name + "() in " + where);
    }

    /// <summary>The argument's text as SQLite's C string would read it: up to the first NUL, then a NUL.</summary>
    private static ReadOnlySpan<byte> CString(in SqlValue v, Span<byte> buffer, out byte[]? rented)
    {
        rented = null;
        Span<byte> number = stackalloc byte[SqlValue.NumberTextMax];
        var text = v.TextBytes(number);
        int n = text.IndexOf((byte)0);
        if (n >= 0) text = text[..n];
        if (text.Length >= buffer.Length)
        {
            rented = ArrayPool<byte>.Shared.Rent(text.Length + 1);
            buffer = rented;
        }
        text.CopyTo(buffer);
        buffer[text.Length] = 0;
        return buffer[..(text.Length + 1)];
    }

    private static void Return(byte[]? rented)
    {
        if (rented is not null) ArrayPool<byte>.Shared.Return(rented);
    }

    public static SqlValue Date(ReadOnlySpan<SqlValue> args, FunctionContext ctx, string name)
    {
        if (!TryRead(args, ctx, name, out var p)) return SqlValue.Null;
        p.ComputeYmd();
        Span<byte> b = stackalloc byte[16];
        return SqlValue.CopyText(b[..WriteDate(b, p)]);
    }

    public static SqlValue Time(ReadOnlySpan<SqlValue> args, FunctionContext ctx, string name)
    {
        if (!TryRead(args, ctx, name, out var p)) return SqlValue.Null;
        p.ComputeHms();
        Span<byte> b = stackalloc byte[16];
        return SqlValue.CopyText(b[..WriteTime(b, p)]);
    }

    public static SqlValue DateTime(ReadOnlySpan<SqlValue> args, FunctionContext ctx, string name)
    {
        if (!TryRead(args, ctx, name, out var p)) return SqlValue.Null;
        p.ComputeYmdHms();
        Span<byte> b = stackalloc byte[32];
        int n = WriteDate(b, p);
        b[n++] = (byte)' ';
        n += WriteTime(b[n..], p);
        return SqlValue.CopyText(b[..n]);
    }

    /// <summary>YYYY-MM-DD; a negative year gets a '-' before its four digits.</summary>
    private static int WriteDate(Span<byte> b, in DateTimeValue p)
    {
        int n = 0;
        int y = p.Y;
        if (y < 0)
        {
            b[n++] = (byte)'-';
            y = -y;
        }
        Digits(b, ref n, y, 4);
        b[n++] = (byte)'-';
        Digits(b, ref n, p.M, 2);
        b[n++] = (byte)'-';
        Digits(b, ref n, p.D, 2);
        return n;
    }

    /// <summary>HH:MM:SS, or HH:MM:SS.SSS with 'subsec'.</summary>
    private static int WriteTime(Span<byte> b, in DateTimeValue p)
    {
        int n = 0;
        Digits(b, ref n, p.H, 2);
        b[n++] = (byte)':';
        Digits(b, ref n, p.Mi, 2);
        b[n++] = (byte)':';
        if (p.UseSubsec)
        {
            int ms = (int)(1000.0 * p.S + 0.5);
            Digits(b, ref n, ms / 1000, 2);
            b[n++] = (byte)'.';
            Digits(b, ref n, ms, 3);
        }
        else Digits(b, ref n, (int)p.S, 2);
        return n;
    }

    /// <summary>The low <paramref name="width"/> decimal digits of a non-negative value.</summary>
    private static void Digits(Span<byte> b, ref int n, int value, int width)
    {
        for (int i = width - 1; i >= 0; i--)
        {
            b[n + i] = (byte)('0' + value % 10);
            value /= 10;
        }
        n += width;
    }

    public static SqlValue JulianDay(ReadOnlySpan<SqlValue> args, FunctionContext ctx)
        => TryRead(args, ctx, "julianday", out var p) ? SqlValue.Real(p.Jd / 86400000.0) : SqlValue.Null;

    public static SqlValue UnixEpoch(ReadOnlySpan<SqlValue> args, FunctionContext ctx)
    {
        if (!TryRead(args, ctx, "unixepoch", out var p)) return SqlValue.Null;
        return p.UseSubsec
            ? SqlValue.Real((p.Jd - DateTimeValue.UnixEpochJd) / 1000.0)
            : SqlValue.Integer(p.Jd / 1000 - DateTimeValue.UnixEpochJd / 1000);
    }

    public static SqlValue Strftime(ReadOnlySpan<SqlValue> args, FunctionContext ctx)
    {
        if (args.Length == 0 || args[0].IsNull) return SqlValue.Null;
        if (!TryRead(args[1..], ctx, "strftime", out var x)) return SqlValue.Null;
        x.ComputeJd();
        x.ComputeYmdHms();
        Span<byte> numberBuffer = stackalloc byte[SqlValue.NumberTextMax];
        var format = args[0].TextBytes(numberBuffer);
        int nul = format.IndexOf((byte)0);
        if (nul >= 0) format = format[..nul];
        var sb = new Utf8Builder(stackalloc byte[128]);
        try
        {
            int start = 0;
            for (int i = 0; i < format.Length; i++)
            {
                if (format[i] != '%') continue;
                sb.Append(format[start..i]);
                i++;
                start = i + 1;
                byte c = i < format.Length ? format[i] : (byte)0;
                switch (c)
                {
                    case (byte)'d': Int(ref sb, x.D, 2, '0'); break;
                    case (byte)'e': Int(ref sb, x.D, 2, ' '); break;
                    case (byte)'f': Seconds(ref sb, x.S > 59.999 ? 59.999 : x.S); break;
                    case (byte)'F':
                        Int(ref sb, x.Y, 4, '0');
                        sb.Append((byte)'-');
                        Int(ref sb, x.M, 2, '0');
                        sb.Append((byte)'-');
                        Int(ref sb, x.D, 2, '0');
                        break;
                    case (byte)'G': Int(ref sb, x.ThursdayOfWeek().Y, 4, '0'); break;
                    case (byte)'g': Int(ref sb, x.ThursdayOfWeek().Y % 100, 2, '0'); break;
                    case (byte)'H': Int(ref sb, x.H, 2, '0'); break;
                    case (byte)'k': Int(ref sb, x.H, 2, ' '); break;
                    case (byte)'I': Int(ref sb, Hour12(x.H), 2, '0'); break;
                    case (byte)'l': Int(ref sb, Hour12(x.H), 2, ' '); break;
                    case (byte)'j': Int(ref sb, x.DaysAfterJan01() + 1, 3, '0'); break;
                    case (byte)'J': Printf.AppendDouble(ref sb, x.Jd / 86400000.0, (byte)'g', 16, false, false); break;
                    case (byte)'m': Int(ref sb, x.M, 2, '0'); break;
                    case (byte)'M': Int(ref sb, x.Mi, 2, '0'); break;
                    case (byte)'p': sb.Append(x.H >= 12 ? "PM"u8 : "AM"u8); break;
                    case (byte)'P': sb.Append(x.H >= 12 ? "pm"u8 : "am"u8); break;
                    case (byte)'R':
                        Int(ref sb, x.H, 2, '0');
                        sb.Append((byte)':');
                        Int(ref sb, x.Mi, 2, '0');
                        break;
                    case (byte)'s':
                        if (x.UseSubsec) Printf.AppendDouble(ref sb, (x.Jd - DateTimeValue.UnixEpochJd) / 1000.0, (byte)'f', 3, false, false);
                        else Int(ref sb, x.Jd / 1000 - DateTimeValue.UnixEpochJd / 1000, 0, '0');
                        break;
                    case (byte)'S': Int(ref sb, (int)x.S, 2, '0'); break;
                    case (byte)'T':
                        Int(ref sb, x.H, 2, '0');
                        sb.Append((byte)':');
                        Int(ref sb, x.Mi, 2, '0');
                        sb.Append((byte)':');
                        Int(ref sb, (int)x.S, 2, '0');
                        break;
                    case (byte)'u':
                        {
                            int w = x.DaysAfterSunday();
                            sb.Append((byte)('0' + (w == 0 ? 7 : w)));
                            break;
                        }
                    case (byte)'w': sb.Append((byte)('0' + x.DaysAfterSunday())); break;
                    case (byte)'U': Int(ref sb, (x.DaysAfterJan01() - x.DaysAfterSunday() + 7) / 7, 2, '0'); break;
                    case (byte)'V': Int(ref sb, x.ThursdayOfWeek().DaysAfterJan01() / 7 + 1, 2, '0'); break;
                    case (byte)'W': Int(ref sb, (x.DaysAfterJan01() - x.DaysAfterMonday() + 7) / 7, 2, '0'); break;
                    case (byte)'Y': Int(ref sb, x.Y, 4, '0'); break;
                    case (byte)'%': sb.Append((byte)'%'); break;
                    default: return SqlValue.Null; // an unknown conversion (or a trailing '%') voids the whole result
                }
            }
            if (start < format.Length) sb.Append(format[start..]);
            return sb.ToText();
        }
        finally
        {
            sb.Dispose();
        }
    }

    private static int Hour12(int h) => h > 12 ? h - 12 : h == 0 ? 12 : h;

    /// <summary>printf's %0Nd / %Nd: at least <paramref name="width"/> characters, a minus sign counting toward them.</summary>
    private static void Int(ref Utf8Builder sb, long value, int width, char pad)
    {
        Span<byte> digits = stackalloc byte[24];
        int n = SqlValue.FormatInteger(value, digits);
        int fill = width - n;
        if (fill > 0)
        {
            if (pad == '0' && value < 0)
            {
                sb.Append((byte)'-');
                sb.Append((byte)'0', fill);
                sb.Append(digits[1..n]);
                return;
            }
            sb.Append((byte)pad, fill);
        }
        sb.Append(digits[..n]);
    }

    /// <summary>printf's %06.3f for seconds in [0, 60).</summary>
    private static void Seconds(ref Utf8Builder sb, double s)
    {
        int before = sb.Length;
        Printf.AppendDouble(ref sb, s, (byte)'f', 3, false, false);
        if (sb.Length - before < 6) sb.Insert(before, (byte)'0', 6 - (sb.Length - before));
    }

    public static SqlValue TimeDiff(ReadOnlySpan<SqlValue> args, FunctionContext ctx)
    {
        if (!TryRead(args[..1], ctx, "timediff", out var d1) || !TryRead(args[1..2], ctx, "timediff", out var d2)) return SqlValue.Null;
        d1.ComputeYmdHms();
        d2.ComputeYmdHms();
        byte sign;
        int y, m;
        // Whole years and months are counted on the calendar (stepping d2 toward d1), the remainder in days and time.
        if (d1.Jd >= d2.Jd)
        {
            sign = (byte)'+';
            y = d1.Y - d2.Y;
            if (y != 0)
            {
                d2.Y = d1.Y;
                d2.ValidJd = false;
                d2.ComputeJd();
            }
            m = d1.M - d2.M;
            if (m < 0)
            {
                y--;
                m += 12;
            }
            if (m != 0)
            {
                d2.M = d1.M;
                d2.ValidJd = false;
                d2.ComputeJd();
            }
            while (d1.Jd < d2.Jd)
            {
                m--;
                if (m < 0)
                {
                    m = 11;
                    y--;
                }
                d2.M--;
                if (d2.M < 1)
                {
                    d2.M = 12;
                    d2.Y--;
                }
                d2.ValidJd = false;
                d2.ComputeJd();
            }
            d1.Jd -= d2.Jd;
        }
        else
        {
            sign = (byte)'-';
            y = d2.Y - d1.Y;
            if (y != 0)
            {
                d2.Y = d1.Y;
                d2.ValidJd = false;
                d2.ComputeJd();
            }
            m = d2.M - d1.M;
            if (m < 0)
            {
                y--;
                m += 12;
            }
            if (m != 0)
            {
                d2.M = d1.M;
                d2.ValidJd = false;
                d2.ComputeJd();
            }
            while (d1.Jd > d2.Jd)
            {
                m--;
                if (m < 0)
                {
                    m = 11;
                    y--;
                }
                d2.M++;
                if (d2.M > 12)
                {
                    d2.M = 1;
                    d2.Y++;
                }
                d2.ValidJd = false;
                d2.ComputeJd();
            }
            d1.Jd = d2.Jd - d1.Jd;
        }
        // The remainder, placed at 0000-01-01 00:00, reads as days (plus one) and a time of day.
        d1.Jd += 148699540800000L;
        d1.ClearYmdHmsTz();
        d1.ComputeYmdHms();
        var sb = new Utf8Builder(stackalloc byte[64]);
        try
        {
            sb.Append(sign);
            Int(ref sb, y, 4, '0');
            sb.Append((byte)'-');
            Int(ref sb, m, 2, '0');
            sb.Append((byte)'-');
            Int(ref sb, d1.D - 1, 2, '0');
            sb.Append((byte)' ');
            Int(ref sb, d1.H, 2, '0');
            sb.Append((byte)':');
            Int(ref sb, d1.Mi, 2, '0');
            sb.Append((byte)':');
            Seconds(ref sb, d1.S);
            return sb.ToText();
        }
        finally
        {
            sb.Dispose();
        }
    }
}
