using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// INSERT, REPLACE, UPDATE and DELETE, both as statements and as the steps of a trigger body, where SQLite's grammar
/// is narrower: no WITH, no index hints, no DEFAULT VALUES and no RETURNING; a schema-qualified target only in a TEMP
/// trigger. (SQLite 3.53 lets a step alias its target with AS, which 3.50 refused as a syntax error.)
/// </summary>
internal sealed partial class SharqParser
{
    /// <summary>A statement starting with WITH: a query, or INSERT/REPLACE/UPDATE/DELETE with common table expressions.</summary>
    private SqlStatement WithStatement()
    {
        int start = Peek().Start;
        var with = With();
        if (Is("SELECT") || Is("VALUES")) return new SqlSelectStatement(SelectAfterWith(with, start)) { Start = start, End = PrevEnd };
        if (Is("INSERT") || Is("REPLACE")) return Insert(with, start, inTrigger: false);
        if (Is("UPDATE")) return Update(with, start, inTrigger: false);
        if (Is("DELETE")) return Delete(with, start, inTrigger: false);
        throw _ts.SyntaxError();
    }

    private SqlInsertStatement Insert(SqlWithClause? with, int start, bool inTrigger)
    {
        SqlConflictAction conflict;
        if (Accept("REPLACE"))
        {
            conflict = SqlConflictAction.Replace;
        }
        else
        {
            Expect("INSERT");
            conflict = OrConflict();
        }
        Expect("INTO");
        var table = DmlTarget("INSERT", inTrigger);
        List<string> columns = PeekKind() == SqlTokenKind.LeftParen ? ParenthesizedNames() : [];

        SqlSelect? source = null;
        List<SqlUpsertClause> upserts = [];
        if (!inTrigger && Accept("DEFAULT"))
        {
            Expect("VALUES");
        }
        else
        {
            source = Select();
            upserts = UpsertClauses();
        }
        var returningToken = Peek();
        var returning = Returning();
        if (inTrigger && returning.Count > 0) RaiseAtReduce(Error("cannot use RETURNING in a trigger", returningToken.Start));
        return new SqlInsertStatement(with, conflict, table, columns, source, upserts, returning) { Start = start, End = PrevEnd };
    }

    /// <summary>[OR ROLLBACK|ABORT|FAIL|IGNORE|REPLACE].</summary>
    private SqlConflictAction OrConflict()
    {
        if (!Accept("OR")) return SqlConflictAction.Default;
        if (Accept("ROLLBACK")) return SqlConflictAction.Rollback;
        if (Accept("ABORT")) return SqlConflictAction.Abort;
        if (Accept("FAIL")) return SqlConflictAction.Fail;
        if (Accept("IGNORE")) return SqlConflictAction.Ignore;
        if (Accept("REPLACE")) return SqlConflictAction.Replace;
        throw _ts.SyntaxError();
    }

    /// <summary>
    /// ON CONFLICT clauses. Each but the last needs a target: the grammar lets only RETURNING follow a clause
    /// without one.
    /// </summary>
    private List<SqlUpsertClause> UpsertClauses()
    {
        var clauses = new List<SqlUpsertClause>();
        while (Is("ON"))
        {
            int start = Next().Start;
            Expect("CONFLICT");
            List<SqlOrderingTerm> target = [];
            SqlExpr? targetWhere = null;
            if (PeekKind() == SqlTokenKind.LeftParen)
            {
                Next();
                target = OrderingTerms();
                Expect(SqlTokenKind.RightParen);
                RefuseNullsOrder(target);
                if (Accept("WHERE")) targetWhere = Expr();
            }
            Expect("DO");
            bool nothing = false;
            List<SqlAssignment> set = [];
            SqlExpr? where = null;
            if (Accept("NOTHING"))
            {
                nothing = true;
            }
            else
            {
                Expect("UPDATE");
                Expect("SET");
                set = Assignments();
                if (Accept("WHERE")) where = Expr();
            }
            clauses.Add(new SqlUpsertClause(target, targetWhere, nothing, set, where) { Start = start, End = PrevEnd });
            if (target.Count == 0) break;
        }
        return clauses;
    }

    private List<SqlResultColumn> Returning() => Accept("RETURNING") ? ResultColumns() : [];

    private SqlUpdateStatement Update(SqlWithClause? with, int start, bool inTrigger)
    {
        Expect("UPDATE");
        var conflict = OrConflict();
        var table = DmlTarget("UPDATE", inTrigger);
        Expect("SET");
        var set = Assignments();
        var from = Accept("FROM") ? JoinClause() : null;
        var where = Accept("WHERE") ? Expr() : null;
        if (inTrigger) return new SqlUpdateStatement(null, conflict, table, set, from, where, [], [], null, null) { Start = start, End = PrevEnd };
        var returning = Returning();
        var (orderBy, limit, offset) = UpdateDeleteLimit("UPDATE");
        return new SqlUpdateStatement(with, conflict, table, set, from, where, returning, orderBy, limit, offset) { Start = start, End = PrevEnd };
    }

    private SqlDeleteStatement Delete(SqlWithClause? with, int start, bool inTrigger)
    {
        Expect("DELETE");
        Expect("FROM");
        var table = DmlTarget("DELETE", inTrigger);
        var where = Accept("WHERE") ? Expr() : null;
        if (inTrigger) return new SqlDeleteStatement(null, table, where, [], [], null, null) { Start = start, End = PrevEnd };
        var returning = Returning();
        var (orderBy, limit, offset) = UpdateDeleteLimit("DELETE");
        return new SqlDeleteStatement(with, table, where, returning, orderBy, limit, offset) { Start = start, End = PrevEnd };
    }

    /// <summary>[ORDER BY …] [LIMIT …] after UPDATE and DELETE, as SQLITE_ENABLE_UPDATE_DELETE_LIMIT builds accept it.</summary>
    private (List<SqlOrderingTerm> OrderBy, SqlExpr? Limit, SqlExpr? Offset) UpdateDeleteLimit(string statement)
    {
        List<SqlOrderingTerm> orderBy = [];
        if (Accept("ORDER"))
        {
            Expect("BY");
            orderBy = OrderingTerms();
        }
        if (!Accept("LIMIT"))
        {
            if (orderBy.Count > 0) Defer(Error($"ORDER BY without LIMIT on {statement}", orderBy[0].Start));
            return (orderBy, null, null);
        }
        var (limit, offset) = LimitClause();
        return (orderBy, limit, offset);
    }

    /// <summary>
    /// The table of INSERT, UPDATE or DELETE: "[schema.]name [AS alias]", and for UPDATE and DELETE
    /// "[INDEXED BY i | NOT INDEXED]". A trigger body reads the same target (since SQLite 3.53): index hints only to
    /// refuse them with SQLite's messages once the next token shows the hint is complete, and a schema only to refuse
    /// it outside TEMP triggers, when the whole step is (see <see cref="CheckTriggerStepTarget"/>).
    /// </summary>
    private SqlTableRef DmlTarget(string statement, bool inTrigger)
    {
        int start = Peek().Start;
        var (schema, name, _) = QualifiedName();
        string? alias = Accept("AS") ? Name() : null;
        bool indexHints = statement != "INSERT";
        if (inTrigger)
        {
            var hint = Peek();
            var (indexedBy, notIndexed) = indexHints ? IndexHint() : (null, false);
            if (indexedBy is not null)
            {
                ThrowInTrigger("the INDEXED BY clause is not allowed on UPDATE or DELETE statements within triggers", hint.Start, statement);
            }
            if (notIndexed)
            {
                ThrowInTrigger("the NOT INDEXED clause is not allowed on UPDATE or DELETE statements within triggers", hint.Start, statement);
            }
            return new SqlTableRef(schema, name, alias, null, false) { Start = start, End = PrevEnd };
        }
        var (index, noIndex) = indexHints ? IndexHint() : (null, false);
        return new SqlTableRef(schema, name, alias, index, noIndex) { Start = start, End = PrevEnd };
    }

    /// <summary>
    /// Throws <paramref name="message"/> about an index hint in a trigger body, or the syntax error at the next token
    /// if that token cannot follow the hint (SET after UPDATE's; WHERE or the step's end after DELETE's).
    /// </summary>
    private void ThrowInTrigger(string message, int offset, string statement)
    {
        var next = Peek();
        bool follows = statement == "UPDATE"
            ? Is("SET")
            : Is("WHERE") || next.Kind is SqlTokenKind.Semicolon or SqlTokenKind.EndOfInput;
        throw follows ? Error(message, offset) : _ts.SyntaxError(next);
    }

    /// <summary>
    /// SQLite 3.53 refuses a schema-qualified target outside a TEMP trigger only when it builds the step, that is once
    /// the step is complete and its ";" (or the end of the text) is next; any other token is a syntax error first.
    /// </summary>
    private void CheckTriggerStepTarget(SqlStatement step, bool temp)
    {
        if (temp) return;
        var target = step switch
        {
            SqlInsertStatement i => i.Table,
            SqlUpdateStatement u => u.Table,
            SqlDeleteStatement d => d.Table,
            _ => null,
        };
        if (target?.Schema is null || PeekKind() is not (SqlTokenKind.Semicolon or SqlTokenKind.EndOfInput)) return;
        ThrowDeferred();
        throw Error("qualified table names are not allowed on INSERT, UPDATE, and DELETE statements within triggers", target.Start);
    }

    /// <summary>"column = expr" or "(a, b, …) = expr", separated by commas.</summary>
    private List<SqlAssignment> Assignments()
    {
        var list = new List<SqlAssignment>();
        do
        {
            int start = Peek().Start;
            bool vector = PeekKind() == SqlTokenKind.LeftParen;
            List<string> columns = vector ? ParenthesizedNames() : [Name()];
            Expect(SqlTokenKind.Equal);
            var value = Expr();
            if (vector && value is not SqlSubqueryExpr)
            {
                // A subquery's width is checked later, once "*" has been expanded.
                int width = value is SqlRowValueExpr row ? row.Items.Count : 1;
                if (width != columns.Count) RaiseAtReduce(Error($"{columns.Count} columns assigned {width} values", start), ",", "FROM", "WHERE", "RETURNING", "ORDER", "LIMIT", "ON");
            }
            list.Add(new SqlAssignment(columns, value) { Start = start, End = PrevEnd });
        } while (Accept(SqlTokenKind.Comma));
        return list;
    }
}
