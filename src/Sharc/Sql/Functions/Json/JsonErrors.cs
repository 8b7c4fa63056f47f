using System.Diagnostics.CodeAnalysis;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>The JSON functions' errors, in SQLite's words.</summary>
internal static class JsonErrors
{
    [DoesNotReturn]
    public static void Malformed() => SqlErrors.Throw("malformed JSON");

    [DoesNotReturn]
    public static SqlValue MalformedValue() => SqlErrors.Throw<SqlValue>("malformed JSON");

    [DoesNotReturn]
    public static T MalformedValue<T>() => SqlErrors.Throw<T>("malformed JSON");

    [DoesNotReturn]
    public static void BadPath(ReadOnlySpan<byte> path) => SqlErrors.Throw($"bad JSON path: '{System.Text.Encoding.UTF8.GetString(path)}'");

    [DoesNotReturn]
    public static void NotArrayElement(ReadOnlySpan<byte> path) => SqlErrors.Throw($"not an array element: '{System.Text.Encoding.UTF8.GetString(path)}'");

    [DoesNotReturn]
    public static void BlobValue() => SqlErrors.Throw("JSON cannot hold BLOB values");

    [DoesNotReturn]
    public static void Throw(string message) => SqlErrors.Throw(message);
}
