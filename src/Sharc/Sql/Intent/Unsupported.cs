using System.Diagnostics.CodeAnalysis;

namespace Sharc.Sql.Intent;

/// <summary>
/// The one way the SQL engine refuses what parses but does not run yet: a <see cref="SharcSqlException"/> saying
/// "… is not supported", pointing at the construct. Nothing the parser accepts is ever silently ignored.
/// </summary>
internal static class Unsupported
{
    /// <summary>The message for <paramref name="what"/> (e.g. "joins").</summary>
    public static string Message(string what) => what + " is not supported";

    /// <summary>The message for <paramref name="what"/> with a note on why or what to do instead, after the verdict so the sentence stays whole.</summary>
    public static string Message(string what, string note) => $"{what} is not supported ({note})";

    [DoesNotReturn]
    public static void Throw(string what, string sql, int offset)
        => throw new SharcSqlException(Message(what), sql, offset);

    [DoesNotReturn]
    public static T Throw<T>(string what, string sql, int offset)
        => throw new SharcSqlException(Message(what), sql, offset);

    [DoesNotReturn]
    public static void Throw(string what, string note, string sql, int offset)
        => throw new SharcSqlException(Message(what, note), sql, offset);

    [DoesNotReturn]
    public static T Throw<T>(string what, string note, string sql, int offset)
        => throw new SharcSqlException(Message(what, note), sql, offset);
}
