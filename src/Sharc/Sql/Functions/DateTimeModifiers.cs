using Sharc.Format;

namespace Sharc.Sql.Functions;

/// <summary>The modifiers of the date and time functions, applied in order to a <see cref="DateTimeValue"/>.</summary>
internal static class DateTimeModifiers
{
    private readonly record struct Unit(int Length, string Name, double Limit, double Seconds);

    // SQLite keeps these limits in single precision; comparing with the float values keeps its exact boundaries.
    private static readonly Unit[] Units =
    [
        new(6, "second", (float)4.6427e+14, 1.0),
        new(6, "minute", (float)7.7379e+12, 60.0),
        new(4, "hour", (float)1.2897e+11, 3600.0),
        new(3, "day", (float)5373485.0, 86400.0),
        new(5, "month", (float)176546.0, 30.0 * 86400.0),
        new(4, "year", (float)14713.0, 365.0 * 86400.0),
    ];

    private static bool IsNumber(ReadOnlySpan<byte> z, out double r) => SqlRealParser.Parse(z, out r) > 0;

    /// <summary>
    /// Applies the modifier <paramref name="z"/> (NUL-terminated); <paramref name="index"/> is its argument position
    /// (1 for the first modifier), since 'auto', 'julianday' and 'unixepoch' only reinterpret a number right after it.
    /// False when the modifier is not valid here, which makes the whole call NULL.
    /// </summary>
    public static bool Apply(ReadOnlySpan<byte> z, ref DateTimeValue p, int index, FunctionContext ctx, string name)
    {
        switch (z[0] is >= (byte)'A' and <= (byte)'Z' ? (char)(z[0] + 32) : (char)z[0])
        {
            case 'a':
                if (!DateTimeValue.Is(z, 0, "auto")) return false;
                if (index > 1) return false;
                if (!p.RawS || p.ValidJd)
                {
                    p.RawS = false;
                    return true;
                }
                // Outside the julian day range, 'auto' reads the number as unix seconds if it is a plausible one.
                if (p.S >= -210866760000L && p.S <= 253402300799L)
                {
                    double r = p.S * 1000.0 + DateTimeValue.UnixEpochJd;
                    p.ClearYmdHmsTz();
                    p.Jd = (long)(r + 0.5);
                    p.ValidJd = true;
                    p.RawS = false;
                    return true;
                }
                return false;
            case 'c':
                if (!DateTimeValue.Is(z, 0, "ceiling")) return false;
                // Rolling an overflowing day into the next month is what computing the julian day does anyway.
                p.ComputeJd();
                p.ClearYmdHmsTz();
                p.NFloor = 0;
                return true;
            case 'f':
                if (!DateTimeValue.Is(z, 0, "floor")) return false;
                p.ComputeJd();
                p.Jd -= p.NFloor * 86400000L;
                p.ClearYmdHmsTz();
                return true;
            case 'j':
                if (!DateTimeValue.Is(z, 0, "julianday")) return false;
                if (index > 1) return false;
                if (p.ValidJd && p.RawS)
                {
                    p.RawS = false;
                    return true;
                }
                return false;
            case 'l':
                if (!DateTimeValue.Is(z, 0, "localtime")) return false;
                DateTimeFunctions.NotPure(ctx, name);
                if (!p.IsLocal) ToLocalTime(ref p);
                p.IsUtc = false;
                p.IsLocal = true;
                return true;
            case 'u':
                if (DateTimeValue.Is(z, 0, "unixepoch") && p.RawS)
                {
                    if (index > 1) return false;
                    double r = p.S * 1000.0 + DateTimeValue.UnixEpochJd;
                    if (r >= 0.0 && r < 464269060800000.0)
                    {
                        p.ClearYmdHmsTz();
                        p.Jd = (long)(r + 0.5);
                        p.ValidJd = true;
                        p.RawS = false;
                        return true;
                    }
                    return false;
                }
                if (DateTimeValue.Is(z, 0, "utc"))
                {
                    DateTimeFunctions.NotPure(ctx, name);
                    if (!p.IsUtc) ToUtc(ref p);
                    return true;
                }
                return false;
            case 'w':
                return Weekday(z, ref p);
            case 's':
                if (!DateTimeValue.StartsWith(z, 0, "start of "))
                {
                    if (DateTimeValue.Is(z, 0, "subsec") || DateTimeValue.Is(z, 0, "subsecond"))
                    {
                        p.UseSubsec = true;
                        return true;
                    }
                    return false;
                }
                if (!p.ValidJd && !p.ValidYmd && !p.ValidHms) return false;
                p.ComputeYmd();
                p.ValidHms = true;
                p.H = p.Mi = 0;
                p.S = 0.0;
                p.RawS = false;
                p.Tz = 0;
                p.ValidJd = false;
                if (DateTimeValue.Is(z, 9, "month"))
                {
                    p.D = 1;
                    return true;
                }
                if (DateTimeValue.Is(z, 9, "year"))
                {
                    p.M = 1;
                    p.D = 1;
                    return true;
                }
                return DateTimeValue.Is(z, 9, "day");
            case '+' or '-' or (>= '0' and <= '9'):
                return Shift(z, ref p);
            default:
                return false;
        }
    }

    private static bool Weekday(ReadOnlySpan<byte> z, ref DateTimeValue p)
    {
        if (!DateTimeValue.StartsWith(z, 0, "weekday ")) return false;
        var rest = z[8..];
        if (!IsNumber(rest[..DateTimeValue.Length(rest)], out double r) || !(r >= 0.0 && r < 7.0)) return false;
        int n = (int)r;
        if (n != r) return false;
        p.ComputeYmdHms();
        p.Tz = 0;
        p.ValidJd = false;
        p.ComputeJd();
        long day = (p.Jd + 129600000) / 86400000 % 7;
        if (day > n) day -= 7;
        p.Jd += (n - day) * 86400000;
        p.ClearYmdHmsTz();
        return true;
    }

    /// <summary>NNN units, ±HH:MM[:SS[.FFF]], and ±YYYY-MM-DD[ HH:MM[:SS[.FFF]]].</summary>
    private static bool Shift(ReadOnlySpan<byte> z, ref DateTimeValue p)
    {
        Span<int> v = stackalloc int[3];
        byte sign = z[0];
        int n;
        for (n = 1; z[n] != 0; n++)
        {
            if (z[n] == ':' || DateTimeValue.IsSpace(z[n])) break;
            if (z[n] == '-')
            {
                // A '-' after a 4- or 5-digit signed year starts a date offset rather than ending the number.
                if (n == 5 && DateTimeValue.GetDigits(z, 1, "40f", v) == 1) break;
                if (n == 6 && DateTimeValue.GetDigits(z, 1, "50f", v) == 1) break;
            }
        }
        if (!IsNumber(z[..n], out double r)) return false;
        var time = z;
        int timeAt = 0;
        if (z[n] == '-')
        {
            if (sign is not ((byte)'+' or (byte)'-')) return false;
            int shift = 0;
            if (n == 5)
            {
                if (DateTimeValue.GetDigits(z, 1, "40f-20a-20d", v) != 3) return false;
            }
            else
            {
                if (DateTimeValue.GetDigits(z, 1, "50f-20a-20d", v) != 3) return false;
                shift = 1;
            }
            int y = v[0], m = v[1], d = v[2];
            if (m >= 12 || d >= 31) return false;
            p.ComputeYmdHms();
            p.ValidJd = false;
            if (sign == '-')
            {
                p.Y -= y;
                p.M -= m;
                d = -d;
            }
            else
            {
                p.Y += y;
                p.M += m;
            }
            NormalizeMonth(ref p);
            p.ComputeFloor();
            p.ComputeJd();
            p.ValidHms = false;
            p.ValidYmd = false;
            p.Jd += d * 86400000L;
            int end = 11 + shift;
            if (z[end] == 0) return true;
            if (!DateTimeValue.IsSpace(z[end]) || DateTimeValue.GetDigits(z, end + 1, "20c:20e", v) != 2) return false;
            timeAt = end + 1;
            n = 2;
        }
        if (time[timeAt + n] == ':')
        {
            int at = timeAt;
            if (!DateTimeValue.IsDigit(z[at])) at++;
            var tx = default(DateTimeValue);
            if (tx.ParseHhMmSs(z, at)) return false;
            // The clock reading as a duration: its offset from the start of its (arbitrary) day.
            tx.ComputeJd();
            tx.Jd -= 43200000;
            long day = tx.Jd / 86400000;
            tx.Jd -= day * 86400000;
            if (sign == '-') tx.Jd = -tx.Jd;
            p.ComputeJd();
            p.ClearYmdHmsTz();
            p.Jd += tx.Jd;
            return true;
        }

        int u = n;
        while (DateTimeValue.IsSpace(z[u])) u++;
        int len = DateTimeValue.Length(z[u..]);
        if (len < 3 || len > 10) return false;
        if ((z[u + len - 1] | 0x20) == 's') len--;
        p.ComputeJd();
        double rounder = r < 0 ? -0.5 : 0.5;
        p.NFloor = 0;
        bool ok = false;
        for (int i = 0; i < Units.Length; i++)
        {
            var unit = Units[i];
            if (unit.Length != len || !DateTimeValue.StartsWith(z, u, unit.Name) || !(r > -unit.Limit && r < unit.Limit)) continue;
            if (i == 4)
            {
                p.ComputeYmdHms();
                p.M += (int)r;
                NormalizeMonth(ref p);
                p.ComputeFloor();
                p.ValidJd = false;
                r -= (int)r;
            }
            else if (i == 5)
            {
                p.ComputeYmdHms();
                p.Y += (int)r;
                p.ComputeFloor();
                p.ValidJd = false;
                r -= (int)r;
            }
            p.ComputeJd();
            p.Jd += (long)(r * 1000.0 * unit.Seconds + rounder);
            ok = true;
            break;
        }
        p.ClearYmdHmsTz();
        return ok;
    }

    private static void NormalizeMonth(ref DateTimeValue p)
    {
        int x = p.M > 0 ? (p.M - 1) / 12 : (p.M - 12) / 12;
        p.Y += x;
        p.M -= x * 12;
    }

    /// <summary>
    /// Reads the moment (taken as UTC) on the machine's clock. Years the OS time zone rules may not cover are mapped
    /// to a year with the same leap-year position near 2000, converted, and mapped back, as SQLite does around
    /// localtime_r().
    /// </summary>
    private static void ToLocalTime(ref DateTimeValue p)
    {
        p.ComputeJd();
        int yearDiff;
        long t;
        if (p.Jd < 2108667600L * 100000 || p.Jd > 2130141456L * 100000)
        {
            var x = p;
            x.ComputeYmdHms();
            yearDiff = 2000 + x.Y % 4 - x.Y;
            x.Y += yearDiff;
            x.ValidJd = false;
            x.ComputeJd();
            t = x.Jd / 1000 - 21086676L * 10000;
        }
        else
        {
            yearDiff = 0;
            t = p.Jd / 1000 - 21086676L * 10000;
        }
        var local = TimeZoneInfo.ConvertTimeFromUtc(DateTime.UnixEpoch.AddSeconds(t), TimeZoneInfo.Local);
        long ms = p.Jd % 1000;
        p.Y = local.Year - yearDiff;
        p.M = local.Month;
        p.D = local.Day;
        p.H = local.Hour;
        p.Mi = local.Minute;
        p.S = local.Second + ms * 0.001;
        p.ValidYmd = true;
        p.ValidHms = true;
        p.ValidJd = false;
        p.RawS = false;
        p.Tz = 0;
        p.IsError = false;
    }

    /// <summary>Inverts <see cref="ToLocalTime"/> by guessing the UTC moment and correcting by the error, a few times.</summary>
    private static void ToUtc(ref DateTimeValue p)
    {
        p.ComputeJd();
        long orig = p.Jd, guess = orig, err = 0;
        int count = 0;
        do
        {
            var probe = default(DateTimeValue);
            guess -= err;
            probe.Jd = guess;
            probe.ValidJd = true;
            ToLocalTime(ref probe);
            probe.ComputeJd();
            err = probe.Jd - orig;
        }
        while (err != 0 && count++ < 3);
        p = default;
        p.Jd = guess;
        p.ValidJd = true;
        p.IsUtc = true;
        p.IsLocal = false;
    }
}
