using System.Diagnostics.CodeAnalysis;

namespace Sharc;

/// <summary>
/// Throws live here so the hot methods that detect a problem stay small enough to inline.
/// </summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    public static void Corrupt(string message, uint page = 0, int offset = -1)
        => throw new SharcCorruptException(message, page, offset);

    [DoesNotReturn]
    public static T Corrupt<T>(string message, uint page = 0, int offset = -1)
        => throw new SharcCorruptException(message, page, offset);

    // Specific throws with primitive arguments: an interpolated message built at the call site would bloat the hot
    // method around it (string-building code and registers), even though it never runs.

    [DoesNotReturn]
    public static void PageOutOfRange(uint page, uint pageCount)
        => Corrupt($"page number {page} is outside the database (1..{pageCount})", page);

    [DoesNotReturn]
    public static void CellPointerOutside(int index, int offset, uint page, int at)
        => Corrupt($"cell {index} pointer {offset} is outside the cell content area", page, at);

    [DoesNotReturn]
    public static void ChildOutOfRange(uint child, uint pageCount, uint page)
        => Corrupt($"child page number {child} is outside the database (1..{pageCount})", page);

    [DoesNotReturn]
    public static void Format(string message) => throw new SharcFormatException(message);

    [DoesNotReturn]
    public static void ColumnOutOfRange(int ordinal, int count)
        => throw new ArgumentOutOfRangeException(nameof(ordinal), ordinal, $"Column ordinal must be in [0, {count}).");

    /// <summary>
    /// More values than the statement has parameter slots: SQLite's sqlite3_bind_* answers SQLITE_RANGE, so this is a
    /// range error (fewer values leave the remaining slots NULL, as unbound parameters are in SQLite).
    /// </summary>
    [DoesNotReturn]
    public static void TooManyParameters(int slots, int given, string paramName)
        => throw new ArgumentOutOfRangeException(paramName, given,
            $"the statement has {slots} parameter{(slots == 1 ? "" : "s")}, but {given} values were given");

    [DoesNotReturn]
    public static void NoSuchColumn(string name)
        => throw new ArgumentOutOfRangeException(nameof(name), name, $"the result has no column named {name}");

    /// <summary>
    /// A parameter slot without a value: Microsoft.Data.Sqlite refuses to run such a statement, and so does Sharc
    /// (binding NULL silently hid mistakes). Bind NULL explicitly when that is meant.
    /// </summary>
    [DoesNotReturn]
    public static void MissingParameter(string? name, int slot, string? detail)
        => throw new ArgumentException(
            $"missing value for parameter {name ?? "?" + slot.ToString(System.Globalization.CultureInfo.InvariantCulture)} (slot {slot}){(detail is null ? "" : ": " + detail)}", "parameters");

    /// <summary>Checks that <paramref name="given"/> positional values reach every one of <paramref name="slots"/> slots.</summary>
    public static void EnsureAllParameters(IReadOnlyList<string?> names, int slots, int given)
    {
        if (given < slots) MissingParameter(given < names.Count ? names[given] : null, given + 1, $"the statement has {slots} parameter{(slots == 1 ? "" : "s")} but {given} value{(given == 1 ? " was" : "s were")} given");
    }

    [DoesNotReturn]
    public static void NoCurrentRow()
        => throw new InvalidOperationException("The reader is not positioned on a row: call Read() or Seek() first and check its result.");

    [DoesNotReturn]
    public static void Disposed(string name) => throw new ObjectDisposedException(name);
}
