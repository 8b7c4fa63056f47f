using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// Statements: the entry point for one statement (with EXPLAIN), the dispatch on its first keyword, and the small
/// statements: transactions, savepoints, PRAGMA, ANALYZE, VACUUM, REINDEX, ATTACH and DETACH.
/// </summary>
internal sealed partial class SharqParser
{
    /// <summary>
    /// Parses the statement starting at the current token (which must not be ';' or the end of input) and stops
    /// before the ';' or end of input that ends it.
    /// </summary>
    internal SqlStatement Statement()
    {
        ResetStatementState();
        int start = Peek().Start;
        var explain = SqlExplainMode.None;
        if (Accept("EXPLAIN"))
        {
            explain = SqlExplainMode.Explain;
            if (Accept("QUERY"))
            {
                Expect("PLAN");
                explain = SqlExplainMode.QueryPlan;
            }
        }
        var statement = Command();
        _ts.ExpectStatementEnd();
        ThrowDeferred();
        return statement with
        {
            Start = start,
            End = PrevEnd,
            Explain = explain,
            ParameterCount = _parameterCount,
            ParameterNames = _parameterNames.ToArray(),
        };
    }

    /// <summary>Parses one expression that must make up the whole text.</summary>
    internal SqlExpr WholeExpression()
    {
        ResetStatementState();
        var e = Expr();
        if (PeekKind() != SqlTokenKind.EndOfInput) throw _ts.SyntaxError();
        ThrowDeferred();
        return e;
    }

    private SqlStatement Command()
    {
        int start = Peek().Start;
        if (Is("SELECT") || Is("VALUES")) return new SqlSelectStatement(Select()) { Start = start, End = PrevEnd };
        if (Is("WITH")) return WithStatement();
        if (Is("INSERT") || Is("REPLACE")) return Insert(null, start, inTrigger: false);
        if (Is("UPDATE")) return Update(null, start, inTrigger: false);
        if (Is("DELETE")) return Delete(null, start, inTrigger: false);
        if (Is("CREATE")) return Create();
        if (Is("DROP")) return Drop();
        if (Is("ALTER")) return Alter();
        if (Is("BEGIN")) return Begin();
        if (Is("COMMIT") || Is("END"))
        {
            Next();
            TransactionName();
            return new SqlCommitStatement { Start = start, End = PrevEnd };
        }
        if (Is("ROLLBACK")) return Rollback();
        if (Accept("SAVEPOINT")) return new SqlSavepointStatement(Name()) { Start = start, End = PrevEnd };
        if (Accept("RELEASE"))
        {
            Accept("SAVEPOINT");
            return new SqlReleaseStatement(Name()) { Start = start, End = PrevEnd };
        }
        if (Is("PRAGMA")) return Pragma();
        if (Accept("ANALYZE"))
        {
            var (qualifier, name) = OptionalQualifiedName();
            return new SqlAnalyzeStatement(qualifier, name) { Start = start, End = PrevEnd };
        }
        if (Accept("REINDEX"))
        {
            var (qualifier, name) = OptionalQualifiedName();
            return new SqlReindexStatement(qualifier, name) { Start = start, End = PrevEnd };
        }
        if (Accept("VACUUM"))
        {
            string? schema = IsNm() ? Name() : null;
            var into = Accept("INTO") ? Expr() : null;
            return new SqlVacuumStatement(schema, into) { Start = start, End = PrevEnd };
        }
        if (Accept("ATTACH"))
        {
            Accept("DATABASE");
            var file = Expr();
            Expect("AS");
            var schema = Expr();
            var key = Accept("KEY") ? Expr() : null;
            return new SqlAttachStatement(file, schema, key) { Start = start, End = PrevEnd };
        }
        if (Accept("DETACH"))
        {
            Accept("DATABASE");
            return new SqlDetachStatement(Expr()) { Start = start, End = PrevEnd };
        }
        throw _ts.SyntaxError();
    }

    /// <summary>[name | qualifier.name], as ANALYZE and REINDEX take it.</summary>
    private (string? Qualifier, string? Name) OptionalQualifiedName()
    {
        if (!IsNm()) return (null, null);
        string first = Name();
        return Accept(SqlTokenKind.Dot) ? (first, Name()) : (null, first);
    }

    private SqlBeginStatement Begin()
    {
        int start = Next().Start;
        var kind = Accept("IMMEDIATE") ? SqlTransactionKind.Immediate
            : Accept("EXCLUSIVE") ? SqlTransactionKind.Exclusive
            : SqlTransactionKind.Deferred;
        if (kind == SqlTransactionKind.Deferred) Accept("DEFERRED");
        TransactionName();
        return new SqlBeginStatement(kind) { Start = start, End = PrevEnd };
    }

    /// <summary>[TRANSACTION [name]]; SQLite ignores the name.</summary>
    private void TransactionName()
    {
        if (Accept("TRANSACTION") && IsNm()) Name();
    }

    private SqlRollbackStatement Rollback()
    {
        int start = Next().Start;
        TransactionName();
        string? savepoint = null;
        if (Accept("TO"))
        {
            Accept("SAVEPOINT");
            savepoint = Name();
        }
        return new SqlRollbackStatement(savepoint) { Start = start, End = PrevEnd };
    }

    /// <summary>PRAGMA [schema.]name [= value | ( value )].</summary>
    private SqlPragmaStatement Pragma()
    {
        int start = Next().Start;
        var (schema, name, _) = QualifiedName();
        string? value = null;
        bool parenthesized = false;
        if (Accept(SqlTokenKind.Equal))
        {
            value = PragmaValue();
        }
        else if (Accept(SqlTokenKind.LeftParen))
        {
            value = PragmaValue();
            Expect(SqlTokenKind.RightParen);
            parenthesized = true;
        }
        return new SqlPragmaStatement(schema, name, value, parenthesized) { Start = start, End = PrevEnd };
    }

    /// <summary>A pragma value: a signed number, a name or string, or the keywords ON, DELETE and DEFAULT.</summary>
    private string PragmaValue()
    {
        var t = Peek();
        if (t.Kind is SqlTokenKind.Plus or SqlTokenKind.Minus)
        {
            Next();
            var number = Peek();
            if (number.Kind is not (SqlTokenKind.Integer or SqlTokenKind.Float)) throw _ts.SyntaxError();
            Next();
            return t.Kind == SqlTokenKind.Minus ? "-" + _ts.Text(number).ToString() : _ts.Text(number).ToString();
        }
        if (t.Kind is SqlTokenKind.Integer or SqlTokenKind.Float || Is("ON") || Is("DELETE") || Is("DEFAULT"))
        {
            Next();
            return _ts.Text(t).ToString();
        }
        return Name();
    }
}
