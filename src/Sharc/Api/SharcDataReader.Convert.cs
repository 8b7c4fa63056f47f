using System.Globalization;
using System.Runtime.CompilerServices;

namespace Sharc;

// The .NET type mapping users of Microsoft.Data.Sqlite know: each getter converts the stored value as that provider
// does (checked against it by the tests), so code moving between the two reads the same values.
public partial class SharcDataReader
{
    /// <summary>The value of the column named <paramref name="name"/> as <see cref="GetValue"/> gives it.</summary>
    /// <exception cref="ArgumentOutOfRangeException">No column has that name.</exception>
    public object? this[string name] => GetValue(GetOrdinal(name));

    /// <summary>The value of column <paramref name="ordinal"/> as <see cref="GetValue"/> gives it.</summary>
    public object? this[int ordinal] => GetValue(ordinal);

    /// <summary>The value as a bool: true when <see cref="GetInt64(int)"/> is not 0.</summary>
    public bool GetBoolean(int ordinal) => GetInt64(ordinal) != 0;

    /// <summary>The value as a byte (<see cref="GetInt64(int)"/>, range-checked).</summary>
    /// <exception cref="OverflowException">The value does not fit.</exception>
    public byte GetByte(int ordinal) => checked((byte)GetInt64(ordinal));

    /// <summary>The value as a signed byte (<see cref="GetInt64(int)"/>, range-checked).</summary>
    /// <exception cref="OverflowException">The value does not fit.</exception>
    public sbyte GetSByte(int ordinal) => checked((sbyte)GetInt64(ordinal));

    /// <summary>The value as a 16-bit integer (<see cref="GetInt64(int)"/>, range-checked).</summary>
    /// <exception cref="OverflowException">The value does not fit.</exception>
    public short GetInt16(int ordinal) => checked((short)GetInt64(ordinal));

    /// <summary>The value as an unsigned 16-bit integer (<see cref="GetInt64(int)"/>, range-checked).</summary>
    /// <exception cref="OverflowException">The value does not fit.</exception>
    public ushort GetUInt16(int ordinal) => checked((ushort)GetInt64(ordinal));

    /// <summary>
    /// The value as a 32-bit integer: <see cref="GetInt64(int)"/>, range-checked as Microsoft.Data.Sqlite does (5000000000
    /// throws instead of wrapping around).
    /// </summary>
    /// <exception cref="OverflowException">The value does not fit.</exception>
    public int GetInt32(int ordinal) => checked((int)GetInt64(ordinal));

    /// <summary>The value as an unsigned 32-bit integer (<see cref="GetInt64(int)"/>, range-checked).</summary>
    /// <exception cref="OverflowException">The value does not fit.</exception>
    public uint GetUInt32(int ordinal) => checked((uint)GetInt64(ordinal));

    /// <summary>The value as an unsigned 64-bit integer: the bits of <see cref="GetInt64(int)"/> (how ulong values are stored).</summary>
    public ulong GetUInt64(int ordinal) => unchecked((ulong)GetInt64(ordinal));

    /// <summary>The value as a float (<see cref="GetDouble(int)"/> rounded).</summary>
    public float GetFloat(int ordinal) => (float)GetDouble(ordinal);

    /// <summary>
    /// The value as a decimal: text is parsed (invariant culture, exponents allowed; decimals are stored as text),
    /// integers convert exactly, reals as <see cref="decimal"/>'s conversion from double does.
    /// </summary>
    /// <exception cref="FormatException">Text or a blob that is not a number.</exception>
    /// <exception cref="OverflowException">A real beyond decimal's range.</exception>
    public decimal GetDecimal(int ordinal) => GetColumnType(ordinal) switch
    {
        SharcColumnType.Integer => GetInt64(ordinal),
        SharcColumnType.Real => (decimal)GetDouble(ordinal),
        _ => decimal.Parse(GetString(ordinal) ?? "", NumberStyles.Number | NumberStyles.AllowExponent, CultureInfo.InvariantCulture),
    };

    /// <summary>The value as a char: the character of a one-character text, else <see cref="GetInt64(int)"/> as a UTF-16 code (range-checked).</summary>
    /// <exception cref="OverflowException">The number is not a UTF-16 code unit.</exception>
    public char GetChar(int ordinal)
    {
        if (GetColumnType(ordinal) == SharcColumnType.Text && GetString(ordinal) is { Length: 1 } s) return s[0];
        return checked((char)GetInt64(ordinal));
    }

    /// <summary>
    /// The value as a <see cref="DateTime"/>: a number is a Julian day (what julianday() returns), text is parsed
    /// (invariant culture; a time-zone offset converts to UTC).
    /// </summary>
    /// <exception cref="FormatException">Text that is not a date.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A Julian day outside years 1–9999.</exception>
    public DateTime GetDateTime(int ordinal) => GetColumnType(ordinal) switch
    {
        SharcColumnType.Integer or SharcColumnType.Real => JulianDay.ToDateTime(GetDouble(ordinal)),
        _ => DateTime.Parse(GetString(ordinal) ?? "", CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal),
    };

    /// <summary>
    /// The value as a <see cref="DateTimeOffset"/>: a number is a Julian day (UTC), text is parsed (invariant
    /// culture; without an offset it is taken as UTC).
    /// </summary>
    /// <exception cref="FormatException">Text that is not a date.</exception>
    public DateTimeOffset GetDateTimeOffset(int ordinal) => GetColumnType(ordinal) switch
    {
        SharcColumnType.Integer or SharcColumnType.Real => new DateTimeOffset(JulianDay.ToDateTime(GetDouble(ordinal)), TimeSpan.Zero),
        _ => DateTimeOffset.Parse(GetString(ordinal) ?? "", CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal),
    };

    /// <summary>The value as a <see cref="DateOnly"/>: a number is a Julian day, text is parsed (invariant culture, a date alone).</summary>
    /// <exception cref="FormatException">Text that is not a date alone.</exception>
    public DateOnly GetDateOnly(int ordinal) => GetColumnType(ordinal) switch
    {
        SharcColumnType.Integer or SharcColumnType.Real => DateOnly.FromDateTime(JulianDay.ToDateTime(GetDouble(ordinal))),
        _ => DateOnly.Parse(GetString(ordinal) ?? "", CultureInfo.InvariantCulture),
    };

    /// <summary>The value as a <see cref="TimeOnly"/>: its text parsed (invariant culture), as Microsoft.Data.Sqlite does for every storage class.</summary>
    /// <exception cref="FormatException">The text is not a time of day.</exception>
    public TimeOnly GetTimeOnly(int ordinal) => TimeOnly.Parse(GetString(ordinal) ?? "", CultureInfo.InvariantCulture);

    /// <summary>The value as a <see cref="TimeSpan"/>: a number is a count of days, text is parsed ("c" format, e.g. "1.02:03:04.5").</summary>
    /// <exception cref="FormatException">Text that is not a time span.</exception>
    /// <exception cref="OverflowException">A number of days beyond TimeSpan's range.</exception>
    public TimeSpan GetTimeSpan(int ordinal) => GetColumnType(ordinal) switch
    {
        SharcColumnType.Integer or SharcColumnType.Real => TimeSpan.FromDays(GetDouble(ordinal)),
        _ => TimeSpan.Parse(GetString(ordinal) ?? "", CultureInfo.InvariantCulture),
    };

    /// <summary>The value as a <see cref="Guid"/>: a 16-byte blob as <see cref="Guid(ReadOnlySpan{byte})"/> reads it, anything else its text parsed.</summary>
    /// <exception cref="FormatException">The value is not a Guid.</exception>
    public Guid GetGuid(int ordinal)
    {
        if (GetColumnType(ordinal) == SharcColumnType.Blob && GetBlobSpan(ordinal) is { Length: 16 } bytes) return new Guid(bytes);
        return Guid.Parse(GetString(ordinal) ?? "");
    }

    /// <summary>
    /// The value converted to <typeparamref name="T"/> with the getter of that type (<see cref="GetInt32(int)"/>,
    /// <see cref="GetDateTime"/>, <see cref="GetGuid"/>…): bool, every integer type, float, double, decimal, char,
    /// string, byte[], DateTime, DateTimeOffset, DateOnly, TimeOnly, TimeSpan, Guid, enums (from their integer),
    /// object (<see cref="GetValue"/>) and the nullable forms of these. NULL reads as null for reference and nullable
    /// types. Getting a value type allocates nothing.
    /// </summary>
    /// <exception cref="InvalidCastException">The value is NULL and <typeparamref name="T"/> cannot be null, or no conversion to <typeparamref name="T"/> exists.</exception>
    public T GetFieldValue<T>(int ordinal)
    {
        if (typeof(T) == typeof(long)) return As<long, T>(GetInt64(ordinal));
        if (typeof(T) == typeof(int)) return As<int, T>(GetInt32(ordinal));
        if (typeof(T) == typeof(double)) return As<double, T>(GetDouble(ordinal));
        if (typeof(T) == typeof(bool)) return As<bool, T>(GetBoolean(ordinal));
        if (typeof(T) == typeof(string)) return (T)(object)GetString(ordinal)!;
        if (IsNull(ordinal))
        {
            if (default(T) is null) return default!;
            NullValue(ordinal, typeof(T));
        }
        if (typeof(T) == typeof(short)) return As<short, T>(GetInt16(ordinal));
        if (typeof(T) == typeof(byte)) return As<byte, T>(GetByte(ordinal));
        if (typeof(T) == typeof(sbyte)) return As<sbyte, T>(GetSByte(ordinal));
        if (typeof(T) == typeof(ushort)) return As<ushort, T>(GetUInt16(ordinal));
        if (typeof(T) == typeof(uint)) return As<uint, T>(GetUInt32(ordinal));
        if (typeof(T) == typeof(ulong)) return As<ulong, T>(GetUInt64(ordinal));
        if (typeof(T) == typeof(float)) return As<float, T>(GetFloat(ordinal));
        if (typeof(T) == typeof(decimal)) return As<decimal, T>(GetDecimal(ordinal));
        if (typeof(T) == typeof(char)) return As<char, T>(GetChar(ordinal));
        if (typeof(T) == typeof(DateTime)) return As<DateTime, T>(GetDateTime(ordinal));
        if (typeof(T) == typeof(DateTimeOffset)) return As<DateTimeOffset, T>(GetDateTimeOffset(ordinal));
        if (typeof(T) == typeof(DateOnly)) return As<DateOnly, T>(GetDateOnly(ordinal));
        if (typeof(T) == typeof(TimeOnly)) return As<TimeOnly, T>(GetTimeOnly(ordinal));
        if (typeof(T) == typeof(TimeSpan)) return As<TimeSpan, T>(GetTimeSpan(ordinal));
        if (typeof(T) == typeof(Guid)) return As<Guid, T>(GetGuid(ordinal));
        if (typeof(T) == typeof(byte[])) return (T)(object)GetBytes(ordinal)!;
        if (typeof(T) == typeof(object)) return (T)GetValue(ordinal)!;
        // Nullable and enum types: boxed once through the underlying type's getter.
        var type = Nullable.GetUnderlyingType(typeof(T)) ?? typeof(T);
        return (T)GetValueAs(ordinal, type);
    }

    /// <summary><see cref="GetFieldValue{T}(int)"/> of the column named <paramref name="name"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">No column has that name.</exception>
    public T GetFieldValue<T>(string name) => GetFieldValue<T>(GetOrdinal(name));

    /// <summary>The value converted by the getter for <paramref name="type"/> (boxed), for callers that know the type only at run time.</summary>
    /// <exception cref="InvalidCastException">No getter converts to <paramref name="type"/>.</exception>
    public object GetValueAs(int ordinal, Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        if (type == typeof(long)) return GetInt64(ordinal);
        if (type == typeof(int)) return GetInt32(ordinal);
        if (type == typeof(double)) return GetDouble(ordinal);
        if (type == typeof(bool)) return GetBoolean(ordinal);
        if (type == typeof(short)) return GetInt16(ordinal);
        if (type == typeof(byte)) return GetByte(ordinal);
        if (type == typeof(sbyte)) return GetSByte(ordinal);
        if (type == typeof(ushort)) return GetUInt16(ordinal);
        if (type == typeof(uint)) return GetUInt32(ordinal);
        if (type == typeof(ulong)) return GetUInt64(ordinal);
        if (type == typeof(float)) return GetFloat(ordinal);
        if (type == typeof(decimal)) return GetDecimal(ordinal);
        if (type == typeof(char)) return GetChar(ordinal);
        if (type == typeof(string)) return GetString(ordinal) ?? "";
        if (type == typeof(byte[])) return GetBytes(ordinal) ?? [];
        if (type == typeof(DateTime)) return GetDateTime(ordinal);
        if (type == typeof(DateTimeOffset)) return GetDateTimeOffset(ordinal);
        if (type == typeof(DateOnly)) return GetDateOnly(ordinal);
        if (type == typeof(TimeOnly)) return GetTimeOnly(ordinal);
        if (type == typeof(TimeSpan)) return GetTimeSpan(ordinal);
        if (type == typeof(Guid)) return GetGuid(ordinal);
        // Range-checked through the underlying integer type, as Microsoft.Data.Sqlite does.
        if (type.IsEnum) return Enum.ToObject(type, GetValueAs(ordinal, Enum.GetUnderlyingType(type)));
        if (type == typeof(object)) return GetValue(ordinal) ?? DBNull.Value;
        throw new InvalidCastException($"Sharc cannot convert a column value to {type.Name}.");
    }

    /// <summary>The value of the column named <paramref name="name"/> as a string (see <see cref="GetString(int)"/>).</summary>
    public string? GetString(string name) => GetString(GetOrdinal(name));

    /// <summary>The value of the column named <paramref name="name"/> as a 64-bit integer (see <see cref="GetInt64(int)"/>).</summary>
    public long GetInt64(string name) => GetInt64(GetOrdinal(name));

    /// <summary>The value of the column named <paramref name="name"/> as a 32-bit integer (see <see cref="GetInt32(int)"/>).</summary>
    public int GetInt32(string name) => GetInt32(GetOrdinal(name));

    /// <summary>The value of the column named <paramref name="name"/> as a double (see <see cref="GetDouble(int)"/>).</summary>
    public double GetDouble(string name) => GetDouble(GetOrdinal(name));

    /// <summary>True when the value of the column named <paramref name="name"/> is NULL.</summary>
    public bool IsNull(string name) => IsNull(GetOrdinal(name));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static T As<TFrom, T>(TFrom value) => Unsafe.As<TFrom, T>(ref value);

    private void NullValue(int ordinal, Type type)
        => throw new InvalidCastException($"the value of column {GetName(ordinal)} (ordinal {ordinal}) is NULL, which a {type.Name} cannot hold: check IsNull first, or read it as {type.Name}?");
}
