using System.Diagnostics.CodeAnalysis;
using System.Reflection;

namespace Sharc;

/// <summary>
/// Named parameter values from an object's properties, for the overloads that take a dictionary:
/// <c>db.Query("SELECT * FROM t WHERE id = @id AND kind = $kind", SharcParameters.From(new { id = 5, kind = "a" }))</c>.
/// </summary>
public static class SharcParameters
{
    /// <summary>
    /// A dictionary of the public instance properties of <paramref name="values"/> (an anonymous object, a record…),
    /// name to value. The properties are those of <typeparamref name="T"/>, the type the compiler sees, which the
    /// trimmer keeps (no Reflection.Emit, safe under trimming and NativeAOT).
    /// </summary>
    public static IReadOnlyDictionary<string, object?> From<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicProperties)] T>(T values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values is IReadOnlyDictionary<string, object?> ready) return ready;
        var result = new Dictionary<string, object?>(StringComparer.Ordinal);
        foreach (var p in typeof(T).GetProperties(BindingFlags.Public | BindingFlags.Instance))
            if (p.CanRead && p.GetIndexParameters().Length == 0) result[p.Name] = p.GetValue(values);
        return result;
    }

    /// <summary>
    /// The values of a statement's parameter slots taken by name from <paramref name="values"/>: each slot's name as
    /// written (":a", "@a", "$a", "?3") or without its prefix ("a", "3").
    /// </summary>
    /// <exception cref="ArgumentException">A slot has no value (its name is in the message), or is a bare "?" that no name reaches.</exception>
    internal static object?[] ToPositional(IReadOnlyList<string?> names, int slots, IReadOnlyDictionary<string, object?> values)
    {
        var result = new object?[slots];
        for (int i = 0; i < slots; i++)
        {
            string? name = i < names.Count ? names[i] : null;
            if (name is null) ThrowHelper.MissingParameter(null, i + 1, "a bare ? cannot be bound by name: number it (?NNN) or name it");
            if (values.TryGetValue(name, out var v) || (name.Length > 1 && values.TryGetValue(name[1..], out v))) result[i] = v;
            else ThrowHelper.MissingParameter(name, i + 1, null);
        }
        return result;
    }
}
