using Sharc.Sql.Functions.TableValued;

namespace Sharc.Sql.Intent;

/// <summary>
/// A table-valued function in FROM. Its <see cref="Arguments"/> may read earlier FROM items (or enclosing
/// queries): the rows are computed anew each time the item is opened, once per outer row, like a correlated join.
/// In a join the arguments are compiled with the level's scope, after the items, so the array is filled late.
/// </summary>
internal sealed record TableFunctionSource(TableFunction Function, IntentExpr[] Arguments, string Name, IReadOnlyList<SourceColumn> Columns)
    : IntentSource(Name, Columns);
