namespace Sharc;

/// <summary>
/// Julian day numbers (how SQLite's date functions store a moment as a REAL) to .NET dates, with SQLite's own
/// integer-millisecond algorithm so a value reads as the same instant julianday() and datetime() agree on.
/// </summary>
internal static class JulianDay
{
    private const long MsPerDay = 86_400_000;

    /// <summary>
    /// The moment <paramref name="julianDay"/> names. Days outside years 1–9999 throw
    /// <see cref="ArgumentOutOfRangeException"/>, as <see cref="DateTime"/>'s constructor does.
    /// </summary>
    public static DateTime ToDateTime(double julianDay)
    {
        if (!double.IsFinite(julianDay) || Math.Abs(julianDay) > 4e11) OutOfRange();
        long ms = (long)(julianDay * MsPerDay + 0.5);
        // SQLite's computeYMD: the Gregorian calendar date of the (noon-based) Julian day.
        int z = (int)((ms + MsPerDay / 2) / MsPerDay);
        int a = (int)((z - 1867216.25) / 36524.25);
        a = z + 1 + a - (a / 4);
        int b = a + 1524;
        int c = (int)((b - 122.1) / 365.25);
        int d = (36525 * (c & 32767)) / 100;
        int e = (int)((b - d) / 30.6001);
        int x1 = (int)(30.6001 * e);
        int day = b - d - x1;
        int month = e < 14 ? e - 1 : e - 13;
        int year = month > 2 ? c - 4716 : c - 4715;
        long dayMs = (ms + MsPerDay / 2) % MsPerDay;
        return new DateTime(year, month, day).AddMilliseconds(dayMs);
    }

    private static void OutOfRange()
        => throw new ArgumentOutOfRangeException(null, "Year, Month, and Day parameters describe an un-representable DateTime.");
}
