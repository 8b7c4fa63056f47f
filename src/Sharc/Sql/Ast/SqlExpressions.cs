using System.Collections.Immutable;

namespace Sharc.Sql.Ast;

/// <summary>An expression. Parentheses are not nodes: "(a)" is the node for a, with a's own span.</summary>
internal abstract record SqlExpr : SqlNode
{
    /// <summary>
    /// The height of the expression tree as SQLite measures it for its depth limit (a leaf is 1; a subquery counts
    /// the expressions of its SELECT). The parser refuses trees taller than 1000.
    /// </summary>
    public int Height { get; init; } = 1;
}

/// <summary>A literal value.</summary>
internal abstract record SqlLiteralExpr : SqlExpr;

/// <summary>NULL.</summary>
internal sealed record SqlNullLiteral : SqlLiteralExpr;

/// <summary>An integer literal that fits in 64 bits (decimal, or hexadecimal read as two's complement).</summary>
internal sealed record SqlIntegerLiteral(long Value) : SqlLiteralExpr;

/// <summary>
/// A real literal, or a decimal integer literal too large for 64 bits (SQLite reads those as REAL).
/// <see cref="Text"/> is the literal without '_' separators.
/// </summary>
internal sealed record SqlRealLiteral(double Value, string Text) : SqlLiteralExpr
{
    /// <summary>
    /// True for 9223372036854775808: negated, SQLite reads it as the integer -9223372036854775808, not as a REAL.
    /// </summary>
    public bool IsInt64MinMagnitude => Text == "9223372036854775808";
}

/// <summary>A string literal ('…'), unquoted.</summary>
internal sealed record SqlStringLiteral(string Value) : SqlLiteralExpr;

/// <summary>A blob literal (x'…').</summary>
internal sealed record SqlBlobLiteral(ImmutableArray<byte> Value) : SqlLiteralExpr;

/// <summary>
/// A bare TRUE or FALSE. SQLite reads these words as names first: when a column called "true" or "false" is in
/// scope, the word refers to it, and only otherwise is it the value 1 or 0.
/// </summary>
internal sealed record SqlBoolLiteral(bool Value) : SqlLiteralExpr;

/// <summary>Which CURRENT_* keyword.</summary>
internal enum SqlCurrentTimeKind : byte
{
    /// <summary>CURRENT_TIME ("HH:MM:SS").</summary>
    Time,
    /// <summary>CURRENT_DATE ("YYYY-MM-DD").</summary>
    Date,
    /// <summary>CURRENT_TIMESTAMP ("YYYY-MM-DD HH:MM:SS").</summary>
    Timestamp,
}

/// <summary>CURRENT_TIME, CURRENT_DATE or CURRENT_TIMESTAMP.</summary>
internal sealed record SqlCurrentTimeLiteral(SqlCurrentTimeKind Kind) : SqlLiteralExpr;

/// <summary>
/// A bound parameter. <see cref="Name"/> is the token as written ("?", "?3", ":a", "@a", "$a"); <see cref="Index"/>
/// is its 1-based slot, numbered as SQLite numbers them.
/// </summary>
internal sealed record SqlParameterExpr(string Name, int Index) : SqlExpr;

/// <summary>
/// A column reference: name, table.name or schema.table.name, unquoted. <see cref="DoubleQuoted"/> is set for
/// an unqualified name written in double quotes, which SQLite reads as a string when no such column exists.
/// </summary>
internal sealed record SqlColumnRef(string? Schema, string? Table, string Name, bool DoubleQuoted) : SqlExpr;

/// <summary>Prefix operators.</summary>
internal enum SqlUnaryOperator : byte
{
    /// <summary>-x</summary>
    Negate,
    /// <summary>+x</summary>
    Plus,
    /// <summary>~x</summary>
    BitNot,
    /// <summary>NOT x</summary>
    Not,
}

/// <summary>A prefix operator applied to an operand.</summary>
internal sealed record SqlUnaryExpr(SqlUnaryOperator Operator, SqlExpr Operand) : SqlExpr;

/// <summary>Binary operators. IS DISTINCT FROM is <see cref="IsNot"/> and IS NOT DISTINCT FROM is <see cref="Is"/>, as in SQLite.</summary>
internal enum SqlBinaryOperator : byte
{
    /// <summary>||</summary>
    Concat,
    /// <summary>-&gt;</summary>
    JsonExtract,
    /// <summary>-&gt;&gt;</summary>
    JsonExtractValue,
    /// <summary>*</summary>
    Multiply,
    /// <summary>/</summary>
    Divide,
    /// <summary>%</summary>
    Remainder,
    /// <summary>+</summary>
    Add,
    /// <summary>-</summary>
    Subtract,
    /// <summary>&amp;</summary>
    BitAnd,
    /// <summary>|</summary>
    BitOr,
    /// <summary>&lt;&lt;</summary>
    ShiftLeft,
    /// <summary>&gt;&gt;</summary>
    ShiftRight,
    /// <summary>&lt;</summary>
    Less,
    /// <summary>&lt;=</summary>
    LessOrEqual,
    /// <summary>&gt;</summary>
    Greater,
    /// <summary>&gt;=</summary>
    GreaterOrEqual,
    /// <summary>= or ==</summary>
    Equal,
    /// <summary>!= or &lt;&gt;</summary>
    NotEqual,
    /// <summary>IS, IS NOT DISTINCT FROM</summary>
    Is,
    /// <summary>IS NOT, IS DISTINCT FROM</summary>
    IsNot,
    /// <summary>AND</summary>
    And,
    /// <summary>OR</summary>
    Or,
}

/// <summary>A binary operator applied to two operands.</summary>
internal sealed record SqlBinaryExpr(SqlBinaryOperator Operator, SqlExpr Left, SqlExpr Right) : SqlExpr;

/// <summary>x COLLATE name.</summary>
internal sealed record SqlCollateExpr(SqlExpr Operand, string Collation) : SqlExpr;

/// <summary>
/// CAST(x AS type). <see cref="TypeName"/> is the type's source text (words and any "(n, m)"), empty for "CAST(x AS)";
/// the affinity follows from it as for a column's declared type.
/// </summary>
internal sealed record SqlCastExpr(SqlExpr Operand, string TypeName) : SqlExpr;

/// <summary>The pattern-matching operators.</summary>
internal enum SqlLikeOperator : byte
{
    /// <summary>LIKE</summary>
    Like,
    /// <summary>GLOB</summary>
    Glob,
    /// <summary>REGEXP</summary>
    Regexp,
    /// <summary>MATCH</summary>
    Match,
}

/// <summary>x [NOT] LIKE|GLOB|REGEXP|MATCH pattern [ESCAPE e].</summary>
internal sealed record SqlLikeExpr(SqlLikeOperator Operator, bool Not, SqlExpr Operand, SqlExpr Pattern, SqlExpr? Escape) : SqlExpr;

/// <summary>x [NOT] BETWEEN low AND high.</summary>
internal sealed record SqlBetweenExpr(bool Not, SqlExpr Operand, SqlExpr Low, SqlExpr High) : SqlExpr;

/// <summary>
/// x ISNULL / x IS NULL (<see cref="Not"/> false), x NOTNULL / x NOT NULL / x IS NOT NULL (<see cref="Not"/> true).
/// Like SQLite, "x IS NULL" and "x IS NOT DISTINCT FROM NULL" become this node.
/// </summary>
internal sealed record SqlNullTestExpr(bool Not, SqlExpr Operand) : SqlExpr;

/// <summary>x [NOT] IN (a, b, …); the list may be empty.</summary>
internal sealed record SqlInListExpr(bool Not, SqlExpr Operand, IReadOnlyList<SqlExpr> Items) : SqlExpr;

/// <summary>x [NOT] IN (SELECT …).</summary>
internal sealed record SqlInSelectExpr(bool Not, SqlExpr Operand, SqlSelect Query) : SqlExpr;

/// <summary>
/// x [NOT] IN [schema.]table, or x [NOT] IN [schema.]function(args) for a table-valued function
/// (<see cref="Arguments"/> is null when no parentheses were written).
/// </summary>
internal sealed record SqlInTableExpr(bool Not, SqlExpr Operand, string? Schema, string Name, IReadOnlyList<SqlExpr>? Arguments) : SqlExpr;

/// <summary>One WHEN … THEN … arm of a CASE.</summary>
internal sealed record SqlWhenClause(SqlExpr When, SqlExpr Then) : SqlNode;

/// <summary>CASE [operand] WHEN … THEN … [ELSE …] END.</summary>
internal sealed record SqlCaseExpr(SqlExpr? Operand, IReadOnlyList<SqlWhenClause> Whens, SqlExpr? Else) : SqlExpr;

/// <summary>EXISTS (SELECT …); NOT EXISTS is a <see cref="SqlUnaryExpr"/> around it.</summary>
internal sealed record SqlExistsExpr(SqlSelect Query) : SqlExpr;

/// <summary>A scalar subquery, (SELECT …).</summary>
internal sealed record SqlSubqueryExpr(SqlSelect Query) : SqlExpr;

/// <summary>
/// Column <see cref="Column"/> of the first row of a subquery assigned to <see cref="Width"/> columns, as in
/// UPDATE … SET (a, b) = (SELECT …); built by the statement, not parsed.
/// </summary>
internal sealed record SqlRowElementExpr(SqlSelect Query, int Column, int Width) : SqlExpr;

/// <summary>A row value, (a, b, …) with at least two items.</summary>
internal sealed record SqlRowValueExpr(IReadOnlyList<SqlExpr> Items) : SqlExpr;

/// <summary>
/// A function call: name(args), name(DISTINCT x), name(*), name(args ORDER BY …), with an optional
/// FILTER (WHERE …) and an OVER clause that is either a window specification or a window name.
/// </summary>
internal sealed record SqlFunctionExpr(
    string Name,
    bool Distinct,
    bool Star,
    IReadOnlyList<SqlExpr> Arguments,
    IReadOnlyList<SqlOrderingTerm> OrderBy,
    SqlExpr? Filter,
    SqlWindowSpec? Over,
    string? OverWindowName) : SqlExpr
{
    /// <summary>True when the call has an OVER clause, making it a window function call.</summary>
    public bool IsWindowCall => Over is not null || OverWindowName is not null;
}

/// <summary>The action of RAISE().</summary>
internal enum SqlRaiseAction : byte
{
    /// <summary>RAISE(IGNORE)</summary>
    Ignore,
    /// <summary>RAISE(ROLLBACK, message)</summary>
    Rollback,
    /// <summary>RAISE(ABORT, message)</summary>
    Abort,
    /// <summary>RAISE(FAIL, message)</summary>
    Fail,
}

/// <summary>RAISE(action [, message]) inside a trigger; <see cref="Message"/> is null only for IGNORE.</summary>
internal sealed record SqlRaiseExpr(SqlRaiseAction Action, SqlExpr? Message) : SqlExpr;
