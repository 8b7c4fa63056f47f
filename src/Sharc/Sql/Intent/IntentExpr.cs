using Sharc.Format;
using Sharc.Sql.Functions;
using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

/// <summary>
/// A resolved expression of a <see cref="QueryIntent"/>: names are bound to columns, functions to their
/// implementations, and each comparison knows the affinity and collation SQLite would apply. It is the one
/// representation of predicates and values: the planner reads it to find seeks, the executor compiles it.
/// </summary>
/// <remarks>
/// <see cref="Affinity"/> is what sqlite3ExprAffinity gives (a column's, a CAST's, a scalar subquery's first
/// column's, or none); <see cref="HasCollate"/> is SQLite's EP_Collate: an explicit COLLATE somewhere below that is
/// not inside a subquery, which makes that collation win in comparisons.
/// </remarks>
internal abstract record IntentExpr
{
    /// <summary>The affinity of the expression (none for most computed values).</summary>
    public SqlAffinity Affinity { get; init; }

    /// <summary>True when an explicit COLLATE lies in this tree (SQLite's EP_Collate).</summary>
    public bool HasCollate { get; init; }

    /// <summary>Where the expression starts in the SQL text (for messages).</summary>
    public int Offset { get; init; }
}

/// <summary>A constant.</summary>
internal sealed record LiteralExpr(SqlValue Value) : IntentExpr;

/// <summary>A bound parameter; <see cref="Slot"/> is 0-based (SQLite's index minus one).</summary>
internal sealed record ParameterExpr(int Slot) : IntentExpr;

/// <summary>
/// What the intent knows about a column of a source: enough for affinity, collation and naming.
/// <see cref="UnknownCollation"/> names a collation Sharc does not implement (the column can then not be used).
/// </summary>
internal sealed record SourceColumn(string Name, SqlAffinity Affinity, Collation Collation, string DeclaredType, bool Hidden, SharcColumn? TableColumn, string? UnknownCollation = null)
{
    /// <summary>In a nested FROM: the table the column came from (what <c>t.x</c> names) and its unsuffixed name.</summary>
    public NestedFromName? Nested { get; init; }

    /// <summary>The column number meaning "the rowid" of a rowid table.</summary>
    public const int RowId = -1;
}

/// <summary>
/// How a column of a nested FROM (a parenthesized join on the right of a join) is found, as SQLite keeps it in the
/// subquery's result list: by its table and column name rather than its ":N"-suffixed subquery name.
/// <see cref="NoExpand"/>: a USING join's right-hand copy, readable by name but left out of <c>*</c>;
/// <see cref="UsingTerm"/>: the left-hand copy, which ends the search for an unqualified name.
/// </summary>
internal sealed record NestedFromName(string Table, string Column, bool NoExpand, bool UsingTerm);

/// <summary>
/// A column of the source of query level <see cref="Frame"/> (the current level or an enclosing one, which makes
/// the expression correlated). <see cref="Column"/> indexes the source's columns, or is <see cref="SourceColumn.RowId"/>.
/// </summary>
internal sealed record ColumnExpr(int Frame, int Column, SourceColumn Meta) : IntentExpr;

/// <summary>
/// A value of the aggregated row of query level <see cref="Frame"/>: a group key, an aggregate's result or a bare
/// column, by <see cref="Slot"/> in <see cref="AggregationIntent"/>'s layout. <see cref="Collation"/> is the collation
/// the original expression carried.
/// </summary>
internal sealed record AggregateSlotExpr(int Frame, int Slot, Collation? Collation) : IntentExpr
{
    /// <summary>
    /// The GROUP BY key expression this slot reads, when it is one: SQLite keeps the key's own tree in the result
    /// column, so what a compound arm may produce through it (sqlite3ExprDataType) is read from that tree.
    /// </summary>
    public IntentExpr? Key { get; init; }
}

/// <summary>
/// A VIRTUAL generated column of a table: its expression (over the same row), with the column's affinity applied to
/// the result as SQLite applies it; it compares and sorts with the column's collation.
/// </summary>
internal sealed record GeneratedColumnExpr(IntentExpr Value, SourceColumn Meta) : IntentExpr;

/// <summary>Prefix operators other than NOT.</summary>
internal enum IntentUnaryOp : byte
{
    /// <summary>-x</summary>
    Negate,
    /// <summary>+x (the value unchanged, its affinity dropped)</summary>
    Plus,
    /// <summary>~x</summary>
    BitNot,
    /// <summary>NOT x</summary>
    Not,
}

/// <summary>-x, +x, ~x, NOT x.</summary>
internal sealed record UnaryExpr(IntentUnaryOp Op, IntentExpr Operand) : IntentExpr;

/// <summary>Arithmetic, bitwise and concatenation operators.</summary>
internal enum IntentArithmeticOp : byte
{
    /// <summary>+</summary>
    Add,
    /// <summary>-</summary>
    Subtract,
    /// <summary>*</summary>
    Multiply,
    /// <summary>/</summary>
    Divide,
    /// <summary>%</summary>
    Remainder,
    /// <summary>&amp;</summary>
    BitAnd,
    /// <summary>|</summary>
    BitOr,
    /// <summary>&lt;&lt;</summary>
    ShiftLeft,
    /// <summary>&gt;&gt;</summary>
    ShiftRight,
    /// <summary>||</summary>
    Concat,
}

/// <summary>An arithmetic, bitwise or concatenation operator.</summary>
internal sealed record ArithmeticExpr(IntentArithmeticOp Op, IntentExpr Left, IntentExpr Right) : IntentExpr;

/// <summary>The comparison operators, IS and IS NOT included.</summary>
internal enum IntentCompareOp : byte
{
    /// <summary>=</summary>
    Eq,
    /// <summary>!=</summary>
    Ne,
    /// <summary>&lt;</summary>
    Lt,
    /// <summary>&lt;=</summary>
    Le,
    /// <summary>&gt;</summary>
    Gt,
    /// <summary>&gt;=</summary>
    Ge,
    /// <summary>IS (never NULL)</summary>
    Is,
    /// <summary>IS NOT (never NULL)</summary>
    IsNot,
}

/// <summary>
/// A comparison, with the comparison affinity (applied to both operands) and collation SQLite chooses for it.
/// </summary>
internal sealed record CompareExpr(IntentCompareOp Op, IntentExpr Left, IntentExpr Right, SqlAffinity CompareAffinity, Collation Collation) : IntentExpr;

/// <summary>
/// x IS [NOT] TRUE / x IS [NOT] FALSE with the words TRUE and FALSE (not columns of those names): a truth test, never
/// NULL, so 2 IS TRUE holds though 2 IS 1 does not.
/// </summary>
internal sealed record IsTruthExpr(IntentExpr Operand, bool Truth, bool Not) : IntentExpr;

/// <summary>AND / OR with three-valued logic.</summary>
internal sealed record LogicExpr(bool IsAnd, IntentExpr Left, IntentExpr Right) : IntentExpr;

/// <summary>x COLLATE name: the value of x; the collation steers comparisons and sorting.</summary>
internal sealed record CollateExpr(IntentExpr Operand, Collation Collation) : IntentExpr;

/// <summary>CAST(x AS type), by the affinity the type name gives.</summary>
internal sealed record CastExpr(IntentExpr Operand, SqlAffinity Target) : IntentExpr;

/// <summary>x [NOT] LIKE/GLOB pattern [ESCAPE e].</summary>
internal sealed record LikeExpr(bool Glob, bool Not, IntentExpr Operand, IntentExpr Pattern, IntentExpr? Escape) : IntentExpr;

/// <summary>
/// x [NOT] BETWEEN low AND high, which SQLite evaluates as x &gt;= low AND x &lt;= high, each half with its own
/// comparison affinity and collation.
/// </summary>
internal sealed record BetweenExpr(
    bool Not, IntentExpr Operand, IntentExpr Low, IntentExpr High,
    SqlAffinity LowAffinity, Collation LowCollation, SqlAffinity HighAffinity, Collation HighCollation) : IntentExpr;

/// <summary>x IS NULL (<see cref="Not"/> false) or x IS NOT NULL.</summary>
internal sealed record NullTestExpr(bool Not, IntentExpr Operand) : IntentExpr;

/// <summary>x [NOT] IN (list): x's affinity and collation, as SQLite applies them.</summary>
internal sealed record InListExpr(bool Not, IntentExpr Operand, IReadOnlyList<IntentExpr> Items, SqlAffinity CompareAffinity, Collation Collation) : IntentExpr;

/// <summary>x [NOT] IN (SELECT …).</summary>
internal sealed record InSubqueryExpr(bool Not, IntentExpr Operand, QueryIntent Query, SqlAffinity CompareAffinity, Collation Collation) : IntentExpr
{
    /// <summary>
    /// Set when SQLite would answer the IN by seeking an index on the left column with each value of the right side
    /// (see IntentCompiler.IndexDrivenIns): the collation of those seeks, which may differ from <see cref="Collation"/>.
    /// </summary>
    public Collation? SeekCollation { get; init; }
}

/// <summary>EXISTS (SELECT …).</summary>
internal sealed record ExistsExpr(QueryIntent Query) : IntentExpr;

/// <summary>(SELECT …): the first column of the first row, or NULL.</summary>
internal sealed record ScalarSubqueryExpr(QueryIntent Query) : IntentExpr
{
    /// <summary>
    /// Set when this is element <see cref="Column"/> of a subquery used as a row value: the elements of one side
    /// share a single run of the subquery (see <see cref="RowCompareExpr"/>), so it is run once per comparison.
    /// </summary>
    public bool RowElement { get; init; }

    /// <summary>The column of the first row this element reads (0 unless <see cref="RowElement"/>).</summary>
    public int Column { get; init; }
}

/// <summary>
/// A comparison of two row values of the same size, element by element from the left as SQLite's
/// codeVectorBinary does: each pair with its own comparison affinity and collation. A side that is a subquery is a
/// list of <see cref="ScalarSubqueryExpr"/> row elements.
/// </summary>
internal sealed record RowCompareExpr(IntentCompareOp Op, IReadOnlyList<IntentExpr> Left, IReadOnlyList<IntentExpr> Right,
    IReadOnlyList<SqlAffinity> Affinities, IReadOnlyList<Collation> Collations) : IntentExpr;

/// <summary>(x, y, …) [NOT] IN (SELECT a, b, …), per column with the affinity and collation SQLite's exprINAffinity and
/// sqlite3BinaryCompareCollSeq give; IN lists of row values arrive here as VALUES.</summary>
internal sealed record RowInSubqueryExpr(bool Not, IReadOnlyList<IntentExpr> Left, QueryIntent Query,
    IReadOnlyList<SqlAffinity> Affinities, IReadOnlyList<Collation> Collations) : IntentExpr;

/// <summary>One WHEN arm; with a CASE operand the test is operand = <see cref="When"/> with this affinity and collation.</summary>
internal sealed record CaseArm(IntentExpr When, IntentExpr Then, SqlAffinity CompareAffinity, Collation Collation);

/// <summary>CASE [operand] WHEN … THEN … [ELSE …] END (also iif()).</summary>
internal sealed record CaseExpr(IntentExpr? Operand, IReadOnlyList<CaseArm> Arms, IntentExpr? Else) : IntentExpr;

/// <summary>coalesce()/ifnull(): arguments evaluated in order until one is not NULL, as SQLite codes it.</summary>
internal sealed record CoalesceExpr(IReadOnlyList<IntentExpr> Arguments) : IntentExpr;

/// <summary>A scalar function call; <see cref="Collation"/> is the call's collation (for min, max, nullif).</summary>
internal sealed record FunctionExpr(ScalarFunction Function, IReadOnlyList<IntentExpr> Arguments, Collation Collation) : IntentExpr;
