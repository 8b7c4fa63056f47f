using System.Globalization;

namespace Sharc;

/// <summary>
/// .NET values as SQLite stores them, the way Microsoft.Data.Sqlite binds them (checked against it by the tests): so a
/// database written through Sharc reads back through Microsoft.Data.Sqlite, and the other way round, as the same
/// .NET values.
/// </summary>
internal static class ClrValues
{
    /// <summary>Microsoft.Data.Sqlite's decimal text: invariant, always one decimal digit at least.</summary>
    internal const string DecimalFormat = "0.0###########################";

    /// <summary>
    /// <paramref name="value"/> reduced to a storage class: null, <see cref="long"/>, <see cref="double"/>,
    /// <see cref="string"/> or byte[] (other values pass through unchanged for the caller to reject).
    /// </summary>
    public static object? Normalize(object? value) => value switch
    {
        null or DBNull => null,
        long or double or string or byte[] => value,
        int i => (long)i,
        bool b => b ? 1L : 0L,
        short s => (long)s,
        sbyte b => (long)b,
        byte b => (long)b,
        uint u => (long)u,
        ushort u => (long)u,
        // As Microsoft.Data.Sqlite: the bits, so ulong.MaxValue is stored as -1 and reads back as itself.
        ulong u => unchecked((long)u),
        float f => (double)f,
        decimal m => m.ToString(DecimalFormat, CultureInfo.InvariantCulture),
        char c => c.ToString(),
        DateTime dt => FormatDateTime(dt),
        DateTimeOffset dto => dto.ToString("yyyy-MM-dd HH:mm:ss.FFFFFFFzzz", CultureInfo.InvariantCulture),
        DateOnly d => d.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
        TimeOnly t => t.Ticks % TimeSpan.TicksPerSecond == 0
            ? t.ToString("HH:mm:ss", CultureInfo.InvariantCulture)
            : t.ToString("HH:mm:ss.fffffff", CultureInfo.InvariantCulture),
        TimeSpan ts => ts.ToString("c", CultureInfo.InvariantCulture),
        // Text, upper case: what Microsoft.Data.Sqlite stores (not the 16-byte blob one might expect).
        Guid g => g.ToString("D").ToUpperInvariant(),
        ReadOnlyMemory<byte> m => m.ToArray(),
        Memory<byte> m => m.ToArray(),
        ArraySegment<byte> s => s.AsSpan().ToArray(),
        Enum e => EnumValue(e),
        _ => value,
    };

    /// <summary>The text a DateTime is stored as (its Kind is not converted, as Microsoft.Data.Sqlite does).</summary>
    public static string FormatDateTime(DateTime value)
        => value.ToString("yyyy-MM-dd HH:mm:ss.FFFFFFF", CultureInfo.InvariantCulture);

    private static long EnumValue(Enum e)
        => Convert.GetTypeCode(e) == TypeCode.UInt64 ? unchecked((long)Convert.ToUInt64(e, CultureInfo.InvariantCulture)) : Convert.ToInt64(e, CultureInfo.InvariantCulture);

    /// <summary>The error for a value of a type that has no storage class.</summary>
    public static ArgumentException Unsupported(object value, string paramName)
        => new($"A {value.GetType().Name} cannot be a SQL value: use null, a number, bool, string, char, byte[], Guid, decimal, an enum, DateTime, DateTimeOffset, DateOnly, TimeOnly or TimeSpan.", paramName);
}
