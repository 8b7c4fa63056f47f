using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;

namespace Sharc.Sql.Intent;

/// <summary>
/// Nested FROMs: a parenthesized join that cannot be spliced into the enclosing FROM (it is outer-joined, NATURAL or
/// USING joined, aliased, or holds such joins itself) is, as in SQLite, the subquery <c>SELECT * FROM (…)</c> whose
/// columns still answer to the names of the tables inside (<c>b.x</c>), the right-hand copy of a USING column included.
/// </summary>
internal sealed partial class IntentCompiler
{
    // The names each nested FROM's star recorded while it expanded, picked up once its SELECT is compiled.
    private readonly Dictionary<SqlStarColumn, List<NestedFromName>> _nestedStars = new(ReferenceEqualityComparer.Instance);

    private SubquerySource CompileNestedFrom(SqlNestedJoinSource nested, Scope? parent)
    {
        var star = new SqlStarColumn(null) { NestedFrom = true, Start = nested.Start, End = nested.End };
        var core = new SqlSelectCore(false, [star], nested.Join, null, [], null, []) { Start = nested.Start, End = nested.End };
        var inner = CompileSelect(new SqlSelect(null, core, [], null, null) { Start = nested.Start, End = nested.End }, parent);
        var names = _nestedStars[star];
        _nestedStars.Remove(star);
        var columns = SubqueryColumns(inner, null, nested.Start);
        for (int i = 0; i < columns.Count; i++) columns[i] = columns[i] with { Nested = names[i] };
        return new SubquerySource(inner, nested.Alias ?? "", columns);
    }

    private static bool IsNestedFrom(IntentSource source) => source is SubquerySource { Columns: [{ Nested: not null }, ..] };

    /// <summary>The first column an unqualified <paramref name="name"/> finds in a source, or -1.</summary>
    private static int FirstMatch(IntentSource source, string name)
        => IsNestedFrom(source) ? NestedMatch(source, null, name, -1) : LocalColumn(source, name);

    /// <summary>
    /// The next column after <paramref name="after"/> an unqualified name also finds, or -1: only a nested FROM has
    /// more than one, and its search ends at the left-hand column of a USING pair.
    /// </summary>
    private static int NextMatch(IntentSource source, string name, int after)
        => IsNestedFrom(source) && !source.Columns[after].Nested!.UsingTerm ? NestedMatch(source, null, name, after) : -1;

    /// <summary>The next column after <paramref name="after"/> of a nested FROM that <c>table.name</c> names, or -1.</summary>
    private static int QualifiedMatch(IntentSource source, string table, string name, int after)
        => IsNestedFrom(source) ? NestedMatch(source, table, name, after) : -1;

    private static int NestedMatch(IntentSource source, string? table, string name, int after)
    {
        for (int i = after + 1; i < source.Columns.Count; i++)
        {
            var n = source.Columns[i].Nested!;
            if (SqlNameComparer.Instance.Equals(n.Column, name) && (table is null || SqlNameComparer.Instance.Equals(n.Table, table))) return i;
        }
        return -1;
    }
}
