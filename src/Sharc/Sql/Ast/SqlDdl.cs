using Sharc.Schema.Parsing;

namespace Sharc.Sql.Ast;

/// <summary>
/// The expressions of one column definition, parsed into this AST; everything else about the column (type, affinity,
/// constraints) is in <see cref="Definition"/>, built by the schema reader's CREATE TABLE parser.
/// <see cref="Default"/> is the DEFAULT value as an expression (a bare name becomes a string, as in SQLite).
/// </summary>
internal sealed record SqlColumnDefinition(
    ColumnDefinition Definition,
    SqlExpr? Default,
    SqlExpr? Generated,
    IReadOnlyList<SqlExpr> Checks) : SqlNode
{
    /// <summary>The column name, unquoted.</summary>
    public string Name => Definition.Name;
}

/// <summary>
/// CREATE [TEMP] TABLE [IF NOT EXISTS] [schema.]name (…) [options] | AS select.
/// For a column list, <see cref="Definition"/> is the schema reader's model of the table (columns, keys, rowid
/// alias, WITHOUT ROWID, STRICT) and <see cref="Columns"/>/<see cref="TableChecks"/> hold the parsed expressions;
/// for AS select only <see cref="AsSelect"/> is set. <see cref="NameOffset"/> is where the unqualified name starts:
/// SQLite stores "CREATE TABLE " followed by the text from there to the end of the statement in sqlite_schema.
/// </summary>
internal sealed record SqlCreateTableStatement(
    bool Temporary,
    bool IfNotExists,
    string? Schema,
    string Name,
    int NameOffset,
    TableDefinition? Definition,
    IReadOnlyList<SqlColumnDefinition> Columns,
    IReadOnlyList<SqlExpr> TableChecks,
    SqlSelect? AsSelect) : SqlStatement;

/// <summary>CREATE [UNIQUE] INDEX [IF NOT EXISTS] [schema.]name ON table (keys) [WHERE …].</summary>
internal sealed record SqlCreateIndexStatement(
    bool Unique,
    bool IfNotExists,
    string? Schema,
    string Name,
    int NameOffset,
    string Table,
    IReadOnlyList<SqlOrderingTerm> Keys,
    SqlExpr? Where) : SqlStatement;

/// <summary>CREATE [TEMP] VIEW [IF NOT EXISTS] [schema.]name [(columns)] AS select.</summary>
internal sealed record SqlCreateViewStatement(
    bool Temporary,
    bool IfNotExists,
    string? Schema,
    string Name,
    int NameOffset,
    IReadOnlyList<string> Columns,
    SqlSelect Query) : SqlStatement;

/// <summary>When a trigger fires.</summary>
internal enum SqlTriggerTiming : byte
{
    /// <summary>No timing written: SQLite treats it as BEFORE.</summary>
    Unspecified,
    /// <summary>BEFORE</summary>
    Before,
    /// <summary>AFTER</summary>
    After,
    /// <summary>INSTEAD OF</summary>
    InsteadOf,
}

/// <summary>The statement kind a trigger fires on.</summary>
internal enum SqlTriggerEvent : byte
{
    /// <summary>DELETE</summary>
    Delete,
    /// <summary>INSERT</summary>
    Insert,
    /// <summary>UPDATE [OF columns]</summary>
    Update,
}

/// <summary>
/// CREATE [TEMP] TRIGGER [IF NOT EXISTS] [schema.]name [timing] event ON [schema.]table [FOR EACH ROW] [WHEN …]
/// BEGIN statements END. <see cref="Body"/> holds <see cref="SqlInsertStatement"/>, <see cref="SqlUpdateStatement"/>,
/// <see cref="SqlDeleteStatement"/> and <see cref="SqlSelectStatement"/> nodes; <see cref="UpdateColumns"/> is empty
/// unless UPDATE OF was written.
/// </summary>
internal sealed record SqlCreateTriggerStatement(
    bool Temporary,
    bool IfNotExists,
    string? Schema,
    string Name,
    int NameOffset,
    SqlTriggerTiming Timing,
    SqlTriggerEvent Event,
    IReadOnlyList<string> UpdateColumns,
    string? TableSchema,
    string Table,
    bool ForEachRow,
    SqlExpr? When,
    IReadOnlyList<SqlStatement> Body) : SqlStatement;

/// <summary>
/// CREATE VIRTUAL TABLE [IF NOT EXISTS] [schema.]name USING module [(arguments)]. Each argument is its source text
/// (any tokens, balanced parentheses), as SQLite hands it to the module; empty arguments are dropped.
/// </summary>
internal sealed record SqlCreateVirtualTableStatement(
    bool IfNotExists,
    string? Schema,
    string Name,
    int NameOffset,
    string Module,
    IReadOnlyList<string> Arguments) : SqlStatement;

/// <summary>Kinds of schema object.</summary>
internal enum SqlObjectKind : byte
{
    /// <summary>TABLE</summary>
    Table,
    /// <summary>INDEX</summary>
    Index,
    /// <summary>VIEW</summary>
    View,
    /// <summary>TRIGGER</summary>
    Trigger,
}

/// <summary>DROP TABLE|INDEX|VIEW|TRIGGER [IF EXISTS] [schema.]name.</summary>
internal sealed record SqlDropStatement(SqlObjectKind Kind, bool IfExists, string? Schema, string Name) : SqlStatement;

/// <summary>ALTER TABLE [schema.]table ….</summary>
internal abstract record SqlAlterTableStatement(string? Schema, string Table) : SqlStatement;

/// <summary>ALTER TABLE … RENAME TO new-name.</summary>
internal sealed record SqlRenameTableStatement(string? Schema, string Table, string NewName) : SqlAlterTableStatement(Schema, Table);

/// <summary>ALTER TABLE … RENAME [COLUMN] old TO new.</summary>
internal sealed record SqlRenameColumnStatement(string? Schema, string Table, string Column, string NewName) : SqlAlterTableStatement(Schema, Table);

/// <summary>
/// ALTER TABLE … ADD [COLUMN] definition. The column's span (<see cref="SqlNode.Start"/>/<see cref="SqlNode.End"/>
/// of <see cref="Column"/>) is the definition's source text, which SQLite splices into the stored CREATE TABLE.
/// </summary>
internal sealed record SqlAddColumnStatement(string? Schema, string Table, SqlColumnDefinition Column) : SqlAlterTableStatement(Schema, Table);

/// <summary>ALTER TABLE … DROP [COLUMN] name.</summary>
internal sealed record SqlDropColumnStatement(string? Schema, string Table, string Column) : SqlAlterTableStatement(Schema, Table);
