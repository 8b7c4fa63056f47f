namespace Sharc.Sql.Ast;

/// <summary>
/// SET column = expr, or SET (a, b) = expr (a row value or a subquery): <see cref="Columns"/> has one name in the
/// first form.
/// </summary>
internal sealed record SqlAssignment(IReadOnlyList<string> Columns, SqlExpr Value) : SqlNode;

/// <summary>
/// ON CONFLICT [(target) [WHERE …]] DO NOTHING | DO UPDATE SET … [WHERE …]. <see cref="Target"/> is empty when
/// no target was written (only the last clause may omit it); <see cref="Set"/> is empty for DO NOTHING.
/// </summary>
internal sealed record SqlUpsertClause(
    IReadOnlyList<SqlOrderingTerm> Target,
    SqlExpr? TargetWhere,
    bool DoNothing,
    IReadOnlyList<SqlAssignment> Set,
    SqlExpr? Where) : SqlNode;

/// <summary>
/// [WITH …] INSERT [OR action] | REPLACE INTO [schema.]table [AS alias] [(columns)] (select | VALUES … | DEFAULT VALUES)
/// [upsert clauses] [RETURNING …]. VALUES lists arrive as a <see cref="SqlSelect"/> whose body is a
/// <see cref="SqlValuesBody"/>; <see cref="Source"/> is null for DEFAULT VALUES. REPLACE INTO has
/// <see cref="Conflict"/> = Replace. <see cref="Columns"/> is empty when no column list was written.
/// </summary>
internal sealed record SqlInsertStatement(
    SqlWithClause? With,
    SqlConflictAction Conflict,
    SqlTableRef Table,
    IReadOnlyList<string> Columns,
    SqlSelect? Source,
    IReadOnlyList<SqlUpsertClause> Upserts,
    IReadOnlyList<SqlResultColumn> Returning) : SqlStatement
{
    /// <summary>True for DEFAULT VALUES.</summary>
    public bool DefaultValues => Source is null;
}

/// <summary>
/// [WITH …] UPDATE [OR action] target SET … [FROM …] [WHERE …] [RETURNING …] [ORDER BY …] [LIMIT …].
/// ORDER BY and LIMIT exist only in SQLite builds with SQLITE_ENABLE_UPDATE_DELETE_LIMIT.
/// </summary>
internal sealed record SqlUpdateStatement(
    SqlWithClause? With,
    SqlConflictAction Conflict,
    SqlTableRef Table,
    IReadOnlyList<SqlAssignment> Set,
    SqlJoinClause? From,
    SqlExpr? Where,
    IReadOnlyList<SqlResultColumn> Returning,
    IReadOnlyList<SqlOrderingTerm> OrderBy,
    SqlExpr? Limit,
    SqlExpr? Offset) : SqlStatement;

/// <summary>
/// [WITH …] DELETE FROM target [WHERE …] [RETURNING …] [ORDER BY …] [LIMIT …].
/// ORDER BY and LIMIT exist only in SQLite builds with SQLITE_ENABLE_UPDATE_DELETE_LIMIT.
/// </summary>
internal sealed record SqlDeleteStatement(
    SqlWithClause? With,
    SqlTableRef Table,
    SqlExpr? Where,
    IReadOnlyList<SqlResultColumn> Returning,
    IReadOnlyList<SqlOrderingTerm> OrderBy,
    SqlExpr? Limit,
    SqlExpr? Offset) : SqlStatement;
