namespace Sharc.Sql.Ast;

/// <summary>The locking mode of BEGIN.</summary>
internal enum SqlTransactionKind : byte
{
    /// <summary>BEGIN or BEGIN DEFERRED.</summary>
    Deferred,
    /// <summary>BEGIN IMMEDIATE.</summary>
    Immediate,
    /// <summary>BEGIN EXCLUSIVE.</summary>
    Exclusive,
}

/// <summary>BEGIN [DEFERRED|IMMEDIATE|EXCLUSIVE] [TRANSACTION [name]]; the name is ignored, as in SQLite.</summary>
internal sealed record SqlBeginStatement(SqlTransactionKind Kind) : SqlStatement;

/// <summary>COMMIT or END [TRANSACTION [name]].</summary>
internal sealed record SqlCommitStatement : SqlStatement;

/// <summary>ROLLBACK [TRANSACTION [name]] [TO [SAVEPOINT] savepoint]; <see cref="Savepoint"/> is null for a full rollback.</summary>
internal sealed record SqlRollbackStatement(string? Savepoint) : SqlStatement;

/// <summary>SAVEPOINT name.</summary>
internal sealed record SqlSavepointStatement(string Name) : SqlStatement;

/// <summary>RELEASE [SAVEPOINT] name.</summary>
internal sealed record SqlReleaseStatement(string Name) : SqlStatement;

/// <summary>
/// PRAGMA [schema.]name [= value | (value)]. <see cref="Value"/> is the value's text as SQLite passes it to the
/// pragma: unquoted for names and strings, the digits for numbers, with a leading '-' for negative numbers and no
/// '+' for positive ones; ON, DELETE and DEFAULT are their own words. <see cref="Parenthesized"/> tells
/// "PRAGMA x(v)" from "PRAGMA x = v".
/// </summary>
internal sealed record SqlPragmaStatement(string? Schema, string Name, string? Value, bool Parenthesized) : SqlStatement;

/// <summary>
/// ANALYZE [name | qualifier.name]. The single name may be a schema, a table or an index: SQLite decides which when it runs.
/// </summary>
internal sealed record SqlAnalyzeStatement(string? Qualifier, string? Name) : SqlStatement;

/// <summary>REINDEX [name | qualifier.name]; the single name may be a collation, a table or an index.</summary>
internal sealed record SqlReindexStatement(string? Qualifier, string? Name) : SqlStatement;

/// <summary>VACUUM [schema] [INTO file-expression].</summary>
internal sealed record SqlVacuumStatement(string? Schema, SqlExpr? Into) : SqlStatement;

/// <summary>ATTACH [DATABASE] file AS schema [KEY key]; all three are expressions, as in SQLite.</summary>
internal sealed record SqlAttachStatement(SqlExpr File, SqlExpr Schema, SqlExpr? Key) : SqlStatement;

/// <summary>DETACH [DATABASE] schema; an expression, as in SQLite.</summary>
internal sealed record SqlDetachStatement(SqlExpr Schema) : SqlStatement;
