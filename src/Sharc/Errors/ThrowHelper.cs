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

    [DoesNotReturn]
    public static void Format(string message) => throw new SharcFormatException(message);

    [DoesNotReturn]
    public static void ColumnOutOfRange(int ordinal, int count)
        => throw new ArgumentOutOfRangeException(nameof(ordinal), ordinal, $"Column ordinal must be in [0, {count}).");

    [DoesNotReturn]
    public static void NoCurrentRow()
        => throw new InvalidOperationException("The reader is not positioned on a row: call Read() or Seek() first and check its result.");

    [DoesNotReturn]
    public static void Disposed(string name) => throw new ObjectDisposedException(name);
}
