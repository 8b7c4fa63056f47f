using Sharc.Schema.Parsing;
using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions.TableValued;
using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    // Join items whose arguments wait for the level's scope (they may name earlier items).
    private readonly Dictionary<TableFunctionSource, SqlTableFunctionRef> _pendingFunctionArguments = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// A FROM item written as a call. With <paramref name="parent"/> scope known (the only FROM item) the
    /// arguments are compiled now; in a join they wait for <see cref="CompileTableFunctionArguments"/>.
    /// </summary>
    private TableFunctionSource CompileTableFunction(SqlTableFunctionRef f, Scope? parent, bool inJoin)
    {
        if (f.Schema is not null && !SqlText.EqualsIgnoreCase(f.Schema, "main"))
            throw Error($"no such table: {f.Schema}.{f.Name}", f.Start);
        if (!TableFunctions.TryGet(f.Name, out var function))
        {
            if (_schema.FindTable(f.Name) is not null) throw Error($"'{f.Name}' is not a function", f.Start);
            throw Error($"no such table: {f.Name}", f.Start);
        }
        if (f.Arguments.Count > function.HiddenColumns.Count)
            throw Error($"too many arguments on {f.Name}() - max {function.HiddenColumns.Count}", f.Start);
        var columns = new List<SourceColumn>();
        foreach (var c in function.Columns) columns.Add(new SourceColumn(c, SqlAffinity.None, Collation.Binary, "", false, null));
        foreach (var c in function.HiddenColumns) columns.Add(new SourceColumn(c, SqlAffinity.None, Collation.Binary, "", true, null));
        var source = new TableFunctionSource(function, new IntentExpr[f.Arguments.Count], f.Alias ?? f.Name, columns);
        if (inJoin) _pendingFunctionArguments[source] = f;
        else CompileArguments(source, f, new Scope(parent, _nextFrame++, null, isAggregate: false));
        return source;
    }

    /// <summary>Compiles the arguments of the join's table-valued functions in the level's scope.</summary>
    private void CompileTableFunctionArguments(JoinSource join, Scope scope)
    {
        foreach (var item in join.Items)
        {
            if (item.Source is TableFunctionSource t && _pendingFunctionArguments.Remove(t, out var f))
                CompileArguments(t, f, scope);
        }
    }

    private void CompileArguments(TableFunctionSource source, SqlTableFunctionRef f, Scope scope)
    {
        for (int i = 0; i < f.Arguments.Count; i++) source.Arguments[i] = Expr(f.Arguments[i], scope, Clause.Where);
    }
}
