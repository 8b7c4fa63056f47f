using Sharc.Format;

namespace Sharc.Sql.Functions;

/// <summary>
/// A moment as the date and time functions carry it between the time value and the modifiers: a julian day in
/// milliseconds and/or its broken-down calendar and clock fields, each side computed from the other only when needed.
/// Keeping both sides lazily (rather than one canonical form) is what reproduces SQLite's observable quirks: a date
/// like 2023-02-30 survives 'start of day' unnormalized, 'floor' knows how far the day overflowed its month, and a
/// raw number stays uninterpreted until a modifier ('unixepoch', 'julianday', 'auto') says what it is.
/// </summary>
internal struct DateTimeValue
{
    /// <summary>Julian day 0 at noon is what ms-based julian days count from; this is 1970-01-01 00:00 in them.</summary>
    public const long UnixEpochJd = 210866760000000;

    /// <summary>9999-12-31 23:59:59.999, the last moment the functions represent.</summary>
    private const long MaxJd = 464269060799999;

    public long Jd;          // julian day × 86 400 000
    public int Y, M, D;      // calendar date
    public int H, Mi;        // clock hours and minutes
    public double S;         // seconds with fraction
    public int Tz;           // timezone offset in minutes, until applied
    public int NFloor;       // days the day-of-month overflowed its month ('floor' takes them back)
    public bool ValidJd, ValidYmd, ValidHms;
    public bool RawS;        // S holds a bare number whose meaning a modifier may still decide
    public bool IsError, UseSubsec, IsUtc, IsLocal;

    public static bool ValidJulianDay(long jd) => jd >= 0 && jd <= MaxJd;

    private void Error()
    {
        this = default;
        IsError = true;
    }

    public void ClearYmdHmsTz()
    {
        ValidYmd = false;
        ValidHms = false;
        Tz = 0;
    }

    public void ComputeJd()
    {
        if (ValidJd) return;
        int y, m, d;
        if (ValidYmd)
        {
            y = Y; m = M; d = D;
        }
        else
        {
            // A bare time of day is taken to be on 2000-01-01.
            y = 2000; m = 1; d = 1;
        }
        if (y < -4713 || y > 9999 || RawS)
        {
            Error();
            return;
        }
        if (m <= 2)
        {
            y--;
            m += 12;
        }
        int a = (y + 4800) / 100;
        int b = 38 - a + a / 4;
        int x1 = 36525 * (y + 4716) / 100;
        int x2 = 306001 * (m + 1) / 10000;
        Jd = (long)((x1 + x2 + d + b - 1524.5) * 86400000);
        ValidJd = true;
        if (ValidHms)
        {
            Jd += H * 3600000L + Mi * 60000L + (long)(S * 1000 + 0.5);
            if (Tz != 0)
            {
                // Applying the offset moves the moment to UTC; the old fields describe the local reading, so drop them.
                Jd -= Tz * 60000L;
                ValidYmd = false;
                ValidHms = false;
                Tz = 0;
                IsUtc = true;
                IsLocal = false;
            }
        }
    }

    public void ComputeYmd()
    {
        if (ValidYmd) return;
        if (!ValidJd)
        {
            Y = 2000; M = 1; D = 1;
        }
        else if (!ValidJulianDay(Jd))
        {
            Error();
            return;
        }
        else
        {
            int z = (int)((Jd + 43200000) / 86400000);
            int alpha = (int)((z + 32044.75) / 36524.25) - 52;
            int a = z + 1 + alpha - (alpha + 100) / 4 + 25;
            int b = a + 1524;
            int c = (int)((b - 122.1) / 365.25);
            int d = 36525 * (c & 32767) / 100;
            int e = (int)((b - d) / 30.6001);
            int x1 = (int)(30.6001 * e);
            D = b - d - x1;
            M = e < 14 ? e - 1 : e - 13;
            Y = M > 2 ? c - 4716 : c - 4715;
        }
        ValidYmd = true;
    }

    public void ComputeHms()
    {
        if (ValidHms) return;
        ComputeJd();
        int dayMs = (int)((Jd + 43200000) % 86400000);
        S = dayMs % 60000 / 1000.0;
        int dayMin = dayMs / 60000;
        Mi = dayMin % 60;
        H = dayMin / 60;
        RawS = false;
        ValidHms = true;
    }

    public void ComputeYmdHms()
    {
        ComputeYmd();
        ComputeHms();
    }

    /// <summary>How many days past the end of its month the date is (31 in a 30-day month, Feb 29-31 …).</summary>
    public void ComputeFloor()
    {
        if (D <= 28) NFloor = 0;
        else if (((1 << M) & 0x15aa) != 0) NFloor = 0;
        else if (M != 2) NFloor = D == 31 ? 1 : 0;
        else if (Y % 4 != 0 || (Y % 100 == 0 && Y % 400 != 0)) NFloor = D - 28;
        else NFloor = D - 29;
    }

    public void SetRawNumber(double r)
    {
        S = r;
        RawS = true;
        // Only a number in the julian day range can be a julian day; anything else waits for 'unixepoch'/'auto'.
        if (r >= 0.0 && r < 5373484.5)
        {
            Jd = (long)(r * 86400000.0 + 0.5);
            ValidJd = true;
        }
    }

    public void SetNow(long nowJd)
    {
        Jd = nowJd;
        ValidJd = nowJd > 0;
        IsUtc = true;
        IsLocal = false;
        ClearYmdHmsTz();
    }

    public int DaysAfterJan01()
    {
        var jan01 = this;
        jan01.ValidJd = false;
        jan01.M = 1;
        jan01.D = 1;
        jan01.ComputeJd();
        return (int)((Jd - jan01.Jd + 43200000) / 86400000);
    }

    public readonly int DaysAfterMonday() => (int)((Jd + 43200000) / 86400000 % 7);

    public readonly int DaysAfterSunday() => (int)((Jd + 129600000) / 86400000 % 7);

    /// <summary>The ISO-8601 week's Thursday: its year is the week-numbering year.</summary>
    public readonly DateTimeValue ThursdayOfWeek()
    {
        var y = this;
        y.Jd += (3 - DaysAfterMonday()) * 86400000L;
        y.ValidYmd = false;
        y.ComputeYmd();
        return y;
    }

    // ---- Parsing. Every span handed in ends in a NUL byte, so lookahead needs no bounds checks (as SQLite's C strings).

    internal static bool IsSpace(byte c) => c is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\v' or (byte)'\f' or (byte)'\r';

    internal static bool IsDigit(byte c) => c is >= (byte)'0' and <= (byte)'9';

    private static readonly int[] DigitMaxima = [12, 14, 24, 31, 59, 14712];

    /// <summary>
    /// Reads fixed-width digit fields described by <paramref name="format"/>: per field, its width, minimum, maximum
    /// (a letter indexing <see cref="DigitMaxima"/>) and the separator that must follow (NUL: none). Returns how many
    /// fields were read before one failed.
    /// </summary>
    internal static int GetDigits(ReadOnlySpan<byte> z, int at, string format, Span<int> values)
    {
        int count = 0, f = 0;
        char next;
        do
        {
            int width = format[f] - '0';
            int min = format[f + 1] - '0';
            int max = DigitMaxima[format[f + 2] - 'a'];
            next = f + 3 < format.Length ? format[f + 3] : '\0';
            int val = 0;
            while (width-- > 0)
            {
                if (!IsDigit(z[at])) return count;
                val = val * 10 + z[at] - '0';
                at++;
            }
            if (val < min || val > max || (next != '\0' && next != z[at])) return count;
            values[count++] = val;
            at++;
            f += 4;
        }
        while (next != '\0');
        return count;
    }

    /// <summary>[+-]HH:MM or Z after a time, then only spaces. True on failure.</summary>
    private bool ParseTimezone(ReadOnlySpan<byte> z, int at)
    {
        while (IsSpace(z[at])) at++;
        Tz = 0;
        byte c = z[at];
        int sign;
        if (c == '-') sign = -1;
        else if (c == '+') sign = 1;
        else if (c is (byte)'Z' or (byte)'z')
        {
            at++;
            IsLocal = false;
            IsUtc = true;
            while (IsSpace(z[at])) at++;
            return z[at] != 0;
        }
        else return c != 0;
        at++;
        Span<int> v = stackalloc int[2];
        if (GetDigits(z, at, "20b:20e", v) != 2) return true;
        at += 5;
        Tz = sign * (v[1] + v[0] * 60);
        while (IsSpace(z[at])) at++;
        return z[at] != 0;
    }

    /// <summary>HH:MM[:SS[.FFF]] then an optional timezone. True on failure.</summary>
    internal bool ParseHhMmSs(ReadOnlySpan<byte> z, int at)
    {
        Span<int> v = stackalloc int[2];
        if (GetDigits(z, at, "20c:20e", v) != 2) return true;
        int h = v[0], m = v[1], s;
        double ms = 0.0;
        at += 5;
        if (z[at] == ':')
        {
            at++;
            if (GetDigits(z, at, "20e", v) != 1) return true;
            s = v[0];
            at += 2;
            if (z[at] == '.' && IsDigit(z[at + 1]))
            {
                double scale = 1.0;
                at++;
                while (IsDigit(z[at]))
                {
                    ms = ms * 10.0 + z[at] - '0';
                    scale *= 10.0;
                    at++;
                }
                ms /= scale;
                // Truncated, not rounded: .9999 must not carry into the next second.
                if (ms > 0.999) ms = 0.999;
            }
        }
        else s = 0;
        ValidJd = false;
        RawS = false;
        ValidHms = true;
        H = h;
        Mi = m;
        S = s + ms;
        return ParseTimezone(z, at);
    }

    /// <summary>[-]YYYY-MM-DD, then optionally spaces or 'T' and a time. True on failure.</summary>
    private bool ParseYyyyMmDd(ReadOnlySpan<byte> z)
    {
        int at = 0;
        bool negative = false;
        if (z[0] == '-')
        {
            at++;
            negative = true;
        }
        Span<int> v = stackalloc int[3];
        if (GetDigits(z, at, "40f-21a-21d", v) != 3) return true;
        at += 10;
        while (IsSpace(z[at]) || z[at] == 'T') at++;
        if (!ParseHhMmSs(z, at))
        {
            // time parsed
        }
        else if (z[at] == 0) ValidHms = false;
        else return true;
        ValidJd = false;
        ValidYmd = true;
        Y = negative ? -v[0] : v[0];
        M = v[1];
        D = v[2];
        ComputeFloor();
        if (Tz != 0) ComputeJd();
        return false;
    }

    /// <summary>The first argument as text. True on failure.</summary>
    public bool ParseTimeValue(ReadOnlySpan<byte> z, FunctionContext ctx, string name)
    {
        if (!ParseYyyyMmDd(z)) return false;
        this = default;
        if (!ParseHhMmSs(z, 0)) return false;
        this = default;
        if (Is(z, 0, "now"))
        {
            DateTimeFunctions.NotPure(ctx, name);
            SetNow(ctx.NowJulianMs);
            return !ValidJd;
        }
        if (SqlRealParser.Parse(z[..Length(z)], out double r) > 0)
        {
            SetRawNumber(r);
            return false;
        }
        if (Is(z, 0, "subsec") || Is(z, 0, "subsecond"))
        {
            DateTimeFunctions.NotPure(ctx, name);
            UseSubsec = true;
            SetNow(ctx.NowJulianMs);
            return !ValidJd;
        }
        return true;
    }

    internal static int Length(ReadOnlySpan<byte> z)
    {
        int n = z.IndexOf((byte)0);
        return n < 0 ? z.Length : n;
    }

    private static byte Lower(byte c) => c is >= (byte)'A' and <= (byte)'Z' ? (byte)(c + 32) : c;

    /// <summary>ASCII case-insensitive: the NUL-terminated text at <paramref name="at"/> is exactly <paramref name="word"/>.</summary>
    internal static bool Is(ReadOnlySpan<byte> z, int at, string word)
        => StartsWith(z, at, word) && z[at + word.Length] == 0;

    internal static bool StartsWith(ReadOnlySpan<byte> z, int at, string word)
    {
        for (int i = 0; i < word.Length; i++)
        {
            if (Lower(z[at + i]) != word[i]) return false;
        }
        return true;
    }
}
