using System.Diagnostics.CodeAnalysis;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.TableValued;

/// <summary>
/// A table-valued function: a FROM item written as a call. Its arguments fill its hidden columns in order (as in
/// SQLite, where json_each(X, P) sets the hidden columns json and root); each evaluation yields whole rows, visible
/// columns first, then the hidden ones.
/// </summary>
internal abstract class TableFunction
{
    /// <summary>The function's name, as SQLite spells it.</summary>
    public abstract string Name { get; }

    /// <summary>The columns <c>SELECT *</c> shows.</summary>
    public abstract IReadOnlyList<string> Columns { get; }

    /// <summary>The hidden columns, which the arguments set; their count is the most arguments accepted.</summary>
    public abstract IReadOnlyList<string> HiddenColumns { get; }

    /// <summary>Adds the rows for one set of arguments (there may be fewer than <see cref="HiddenColumns"/>).</summary>
    public abstract void Rows(ReadOnlySpan<SqlValue> args, SharcDatabase? db, List<SqlValue[]> into);
}

/// <summary>The table-valued functions, by name (case-insensitive).</summary>
internal static class TableFunctions
{
    private static readonly Dictionary<string, TableFunction> Json = new(StringComparer.OrdinalIgnoreCase)
    {
        ["json_each"] = new JsonEachFunction("json_each", tree: false, jsonb: false),
        ["json_tree"] = new JsonEachFunction("json_tree", tree: true, jsonb: false),
        ["jsonb_each"] = new JsonEachFunction("jsonb_each", tree: false, jsonb: true),
        ["jsonb_tree"] = new JsonEachFunction("jsonb_tree", tree: true, jsonb: true),
    };

    /// <summary>The function named <paramref name="name"/>: a JSON walker or <c>pragma_</c> and a PRAGMA's name.</summary>
    public static bool TryGet(string name, [NotNullWhen(true)] out TableFunction? function)
    {
        if (Json.TryGetValue(name, out function)) return true;
        function = PragmaTableFunction.TryCreate(name);
        return function is not null;
    }
}
