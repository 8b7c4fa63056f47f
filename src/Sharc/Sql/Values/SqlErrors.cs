using System.Diagnostics.CodeAnalysis;

namespace Sharc.Sql.Values;

/// <summary>
/// An error raised while evaluating SQL (SQLite's SQLITE_ERROR / SQLITE_TOOBIG at run time). The message is
/// SQLite's own wording, so callers and tests can match it.
/// </summary>
internal sealed class SqlRuntimeException : SharcException
{
    /// <summary>Creates an evaluation error.</summary>
    public SqlRuntimeException(string message) : base(message) { }
}

/// <summary>Throws with SQLite's messages; kept apart so the methods that detect errors stay small.</summary>
internal static class SqlErrors
{
    /// <summary>SQLite's SQLITE_MAX_LENGTH: the largest string or blob it will build.</summary>
    public const int MaxLength = 1_000_000_000;

    /// <summary>SQLite's default SQLITE_MAX_LIKE_PATTERN_LENGTH, in bytes.</summary>
    public const int MaxLikePatternLength = 50_000;

    [DoesNotReturn]
    public static void Throw(string message) => throw new SqlRuntimeException(message);

    [DoesNotReturn]
    public static T Throw<T>(string message) => throw new SqlRuntimeException(message);

    [DoesNotReturn]
    public static void IntegerOverflow() => throw new SqlRuntimeException("integer overflow");

    [DoesNotReturn]
    public static void TooBig() => throw new SqlRuntimeException("string or blob too big");

    /// <summary>Throws <see cref="TooBig"/> when a result of <paramref name="length"/> bytes would exceed SQLite's limit.</summary>
    public static void CheckLength(long length)
    {
        if (length > MaxLength) TooBig();
    }

    [DoesNotReturn]
    public static void WrongArgumentCount(string function)
        => throw new SqlRuntimeException($"wrong number of arguments to function {function}()");

    [DoesNotReturn]
    public static void NoSuchFunction(string function) => throw new SqlRuntimeException($"no such function: {function}");
}
