namespace Sharc.Sql.Ast;

/// <summary>
/// A query: [WITH …] body [ORDER BY …] [LIMIT …]. The ORDER BY and LIMIT apply to the whole body, compound or not
/// (SQLite only accepts them after the last SELECT of a compound, and never after a bare VALUES).
/// "LIMIT a, b" is stored as <see cref="Offset"/> a and <see cref="Limit"/> b.
/// </summary>
internal sealed record SqlSelect(
    SqlWithClause? With,
    SqlQueryBody Body,
    IReadOnlyList<SqlOrderingTerm> OrderBy,
    SqlExpr? Limit,
    SqlExpr? Offset) : SqlNode;

/// <summary>The SELECT statement.</summary>
internal sealed record SqlSelectStatement(SqlSelect Query) : SqlStatement;

/// <summary>A query body: a SELECT core, a VALUES list, or a compound of them.</summary>
internal abstract record SqlQueryBody : SqlNode;

/// <summary>
/// SELECT [DISTINCT|ALL] columns [FROM …] [WHERE …] [GROUP BY …] [HAVING …] [WINDOW …].
/// </summary>
internal sealed record SqlSelectCore(
    bool Distinct,
    IReadOnlyList<SqlResultColumn> Columns,
    SqlJoinClause? From,
    SqlExpr? Where,
    IReadOnlyList<SqlExpr> GroupBy,
    SqlExpr? Having,
    IReadOnlyList<SqlWindowDefinition> Windows) : SqlQueryBody;

/// <summary>VALUES (…), (…): every row has the same number of values.</summary>
internal sealed record SqlValuesBody(IReadOnlyList<IReadOnlyList<SqlExpr>> Rows) : SqlQueryBody;

/// <summary>The compound operators.</summary>
internal enum SqlCompoundOperator : byte
{
    /// <summary>UNION</summary>
    Union,
    /// <summary>UNION ALL</summary>
    UnionAll,
    /// <summary>INTERSECT</summary>
    Intersect,
    /// <summary>EXCEPT</summary>
    Except,
}

/// <summary>
/// first op1 b1 op2 b2 …, which associates to the left: ((first op1 b1) op2 b2) …. The terms are a list rather than
/// nested nodes because SQLite sets no limit on their number when the last one is a VALUES list, and a tree that
/// deep would be a hazard to every recursive consumer.
/// </summary>
internal sealed record SqlCompoundSelect(SqlQueryBody First, IReadOnlyList<SqlCompoundTerm> Terms) : SqlQueryBody;

/// <summary>One "op body" step of a compound: UNION|UNION ALL|INTERSECT|EXCEPT followed by a SELECT or VALUES.</summary>
internal sealed record SqlCompoundTerm(SqlCompoundOperator Operator, SqlQueryBody Body) : SqlNode;

/// <summary>A result column of a SELECT or RETURNING clause.</summary>
internal abstract record SqlResultColumn : SqlNode;

/// <summary>"*" (<see cref="Table"/> null) or "table.*".</summary>
internal sealed record SqlStarColumn(string? Table) : SqlResultColumn
{
    /// <summary>
    /// The <c>*</c> of a parenthesized join compiled as a nested FROM: it also lists the columns a USING join hides
    /// (readable as <c>t.x</c>, left out of an outer <c>*</c>) and keeps each column's table name.
    /// </summary>
    public bool NestedFrom { get; init; }
}

/// <summary>
/// expr [[AS] alias]. The node's span is the expression's source text (parentheses included, alias excluded):
/// SQLite names an unaliased result column after that text.
/// </summary>
internal sealed record SqlExprColumn(SqlExpr Expr, string? Alias) : SqlResultColumn;

/// <summary>Sort direction of an ORDER BY term.</summary>
internal enum SqlSortOrder : byte
{
    /// <summary>Not written (ascending).</summary>
    Unspecified,
    /// <summary>ASC</summary>
    Ascending,
    /// <summary>DESC</summary>
    Descending,
}

/// <summary>NULLS FIRST / NULLS LAST.</summary>
internal enum SqlNullsOrder : byte
{
    /// <summary>Not written: NULLs sort first ascending, last descending.</summary>
    Unspecified,
    /// <summary>NULLS FIRST</summary>
    First,
    /// <summary>NULLS LAST</summary>
    Last,
}

/// <summary>expr [ASC|DESC] [NULLS FIRST|LAST]; a COLLATE is part of the expression.</summary>
internal sealed record SqlOrderingTerm(SqlExpr Expr, SqlSortOrder Order, SqlNullsOrder Nulls) : SqlNode;

/// <summary>WITH [RECURSIVE] cte, ….</summary>
internal sealed record SqlWithClause(bool Recursive, IReadOnlyList<SqlCommonTableExpression> Tables) : SqlNode;

/// <summary>MATERIALIZED hint of a common table expression.</summary>
internal enum SqlMaterialization : byte
{
    /// <summary>No hint.</summary>
    Default,
    /// <summary>AS MATERIALIZED</summary>
    Materialized,
    /// <summary>AS NOT MATERIALIZED</summary>
    NotMaterialized,
}

/// <summary>name [(columns)] AS [[NOT] MATERIALIZED] (select).</summary>
internal sealed record SqlCommonTableExpression(
    string Name,
    IReadOnlyList<string> Columns,
    SqlMaterialization Materialization,
    SqlSelect Query) : SqlNode;

/// <summary>
/// A FROM clause (also UPDATE … FROM and the inside of a parenthesized join): the first source, then each joined
/// source with its operator and constraint, in order (joins associate to the left).
/// </summary>
internal sealed record SqlJoinClause(SqlTableSource First, IReadOnlyList<SqlJoin> Joins) : SqlNode;

/// <summary>How a source is joined to the ones before it.</summary>
internal enum SqlJoinKind : byte
{
    /// <summary>a comma.</summary>
    Comma,
    /// <summary>JOIN, INNER JOIN.</summary>
    Inner,
    /// <summary>CROSS JOIN.</summary>
    Cross,
    /// <summary>LEFT [OUTER] JOIN.</summary>
    Left,
    /// <summary>RIGHT [OUTER] JOIN.</summary>
    Right,
    /// <summary>FULL [OUTER] JOIN (also LEFT RIGHT JOIN, which SQLite accepts).</summary>
    Full,
}

/// <summary>
/// One joined source: [NATURAL] kind JOIN source [ON expr | USING (columns)]. <see cref="Using"/> is empty
/// when there is no USING clause.
/// </summary>
internal sealed record SqlJoin(SqlJoinKind Kind, bool Natural, SqlTableSource Source, SqlExpr? On, IReadOnlyList<string> Using) : SqlNode;

/// <summary>A source in a FROM clause; every kind may carry an alias.</summary>
internal abstract record SqlTableSource(string? Alias) : SqlNode;

/// <summary>
/// [schema.]name [[AS] alias] [INDEXED BY index | NOT INDEXED]; also the target of INSERT, UPDATE and DELETE.
/// </summary>
internal sealed record SqlTableRef(string? Schema, string Name, string? Alias, string? IndexedBy, bool NotIndexed) : SqlTableSource(Alias);

/// <summary>A table-valued function: [schema.]name(args) [[AS] alias].</summary>
internal sealed record SqlTableFunctionRef(string? Schema, string Name, IReadOnlyList<SqlExpr> Arguments, string? Alias) : SqlTableSource(Alias);

/// <summary>(select) [[AS] alias].</summary>
internal sealed record SqlSubquerySource(SqlSelect Query, string? Alias) : SqlTableSource(Alias);

/// <summary>(a JOIN b …) [[AS] alias]: a parenthesized FROM list.</summary>
internal sealed record SqlNestedJoinSource(SqlJoinClause Join, string? Alias) : SqlTableSource(Alias);

/// <summary>WINDOW name AS (spec).</summary>
internal sealed record SqlWindowDefinition(string Name, SqlWindowSpec Spec) : SqlNode;

/// <summary>
/// A window: [base window name] [PARTITION BY …] [ORDER BY …] [frame]. A null <see cref="Frame"/> means the default
/// frame (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).
/// </summary>
internal sealed record SqlWindowSpec(
    string? BaseWindowName,
    IReadOnlyList<SqlExpr> PartitionBy,
    IReadOnlyList<SqlOrderingTerm> OrderBy,
    SqlFrameSpec? Frame) : SqlNode;

/// <summary>ROWS, RANGE or GROUPS.</summary>
internal enum SqlFrameUnit : byte
{
    /// <summary>ROWS</summary>
    Rows,
    /// <summary>RANGE</summary>
    Range,
    /// <summary>GROUPS</summary>
    Groups,
}

/// <summary>The kinds of frame boundary.</summary>
internal enum SqlFrameBoundKind : byte
{
    /// <summary>UNBOUNDED PRECEDING</summary>
    UnboundedPreceding,
    /// <summary>expr PRECEDING</summary>
    Preceding,
    /// <summary>CURRENT ROW</summary>
    CurrentRow,
    /// <summary>expr FOLLOWING</summary>
    Following,
    /// <summary>UNBOUNDED FOLLOWING</summary>
    UnboundedFollowing,
}

/// <summary>A frame boundary; <see cref="Offset"/> is set for PRECEDING and FOLLOWING.</summary>
internal sealed record SqlFrameBound(SqlFrameBoundKind Kind, SqlExpr? Offset) : SqlNode;

/// <summary>EXCLUDE clause of a frame.</summary>
internal enum SqlFrameExclude : byte
{
    /// <summary>No EXCLUDE clause, or EXCLUDE NO OTHERS.</summary>
    NoOthers,
    /// <summary>EXCLUDE CURRENT ROW</summary>
    CurrentRow,
    /// <summary>EXCLUDE GROUP</summary>
    Group,
    /// <summary>EXCLUDE TIES</summary>
    Ties,
}

/// <summary>
/// unit BETWEEN start AND end [EXCLUDE …], or "unit start", which SQLite reads as BETWEEN start AND CURRENT ROW
/// (<see cref="EndBound"/> is then that CURRENT ROW bound, with an empty span).
/// </summary>
internal sealed record SqlFrameSpec(SqlFrameUnit Unit, SqlFrameBound StartBound, SqlFrameBound EndBound, SqlFrameExclude Exclude) : SqlNode;
