using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>CREATE INDEX / VIEW / TRIGGER / VIRTUAL TABLE, DROP and ALTER TABLE (CREATE TABLE has its own file).</summary>
internal sealed partial class SharqParser
{
    private SqlStatement Create()
    {
        int start = Next().Start;
        bool temp = Accept("TEMP") || Accept("TEMPORARY");
        if (Accept("TABLE")) return CreateTable(temp, start);
        if (Accept("VIEW")) return CreateView(temp, start);
        if (Accept("TRIGGER")) return CreateTrigger(temp, start);
        if (!temp)
        {
            if (Accept("VIRTUAL"))
            {
                Expect("TABLE");
                return CreateVirtualTable(start);
            }
            bool unique = Accept("UNIQUE");
            if (Accept("INDEX")) return CreateIndex(unique, start);
        }
        throw _ts.SyntaxError();
    }

    /// <summary>SQLite lets a TEMP object be qualified only with "temp".</summary>
    // Only main is known to exist here: SQLite says "unknown database" first for a name that is not attached, and
    // the statement's runner checks attached names (DdlStatements).
    private static bool QualifiedOutsideTemp(bool temp, string? schema) => temp && schema is not null && SqlText.EqualsIgnoreCase(schema, "main");

    private SqlCreateViewStatement CreateView(bool temp, int start)
    {
        bool ifNotExists = IfNotExists();
        var (schema, name, nameOffset) = QualifiedName();
        List<string> columns = PeekKind() == SqlTokenKind.LeftParen ? ColumnNameList() : [];
        Expect("AS");
        var query = Select();
        // Both are checked when SQLite finishes the statement.
        if (QualifiedOutsideTemp(temp, schema)) Defer(Error("temporary table name must be unqualified", nameOffset));
        if (_parameterCount > 0) Defer(Error("parameters are not allowed in views", query.Start));
        return new SqlCreateViewStatement(temp, ifNotExists, schema, name, nameOffset, columns, query) { Start = start, End = PrevEnd };
    }

    private SqlCreateIndexStatement CreateIndex(bool unique, int start)
    {
        bool ifNotExists = IfNotExists();
        var (schema, name, nameOffset) = QualifiedName();
        Expect("ON");
        string table = Name();
        Expect(SqlTokenKind.LeftParen);
        var keys = OrderingTerms();
        Expect(SqlTokenKind.RightParen);
        var where = Accept("WHERE") ? Expr() : null;
        RefuseNullsOrder(keys);
        return new SqlCreateIndexStatement(unique, ifNotExists, schema, name, nameOffset, table, keys, where) { Start = start, End = PrevEnd };
    }

    private SqlCreateTriggerStatement CreateTrigger(bool temp, int start)
    {
        bool ifNotExists = IfNotExists();
        var (schema, name, nameOffset) = QualifiedName();
        var timing = Accept("BEFORE") ? SqlTriggerTiming.Before
            : Accept("AFTER") ? SqlTriggerTiming.After
            : Accept("INSTEAD") ? SqlTriggerTiming.InsteadOf
            : SqlTriggerTiming.Unspecified;
        if (timing == SqlTriggerTiming.InsteadOf) Expect("OF");

        SqlTriggerEvent triggerEvent;
        List<string> updateColumns = [];
        if (Accept("DELETE"))
        {
            triggerEvent = SqlTriggerEvent.Delete;
        }
        else if (Accept("INSERT"))
        {
            triggerEvent = SqlTriggerEvent.Insert;
        }
        else if (Accept("UPDATE"))
        {
            triggerEvent = SqlTriggerEvent.Update;
            if (Accept("OF"))
            {
                do updateColumns.Add(Name()); while (Accept(SqlTokenKind.Comma));
            }
        }
        else
        {
            throw _ts.SyntaxError();
        }

        Expect("ON");
        var (tableSchema, table, _) = QualifiedName();
        bool forEachRow = false;
        if (Accept("FOR"))
        {
            Expect("EACH");
            Expect("ROW");
            forEachRow = true;
        }
        var when = Accept("WHEN") ? Expr() : null;
        if (!Is("BEGIN")) throw _ts.SyntaxError();
        // SQLite checks the trigger's name as soon as the header is complete, before reading the body.
        if (temp && schema is not null) throw Error("temporary trigger may not have qualified name", nameOffset);
        Next();

        var body = new List<SqlStatement>();
        do
        {
            var step = TriggerStep();
            CheckTriggerStepTarget(step, temp);
            body.Add(step);
            Expect(SqlTokenKind.Semicolon);
        } while (!Is("END"));
        Next();
        return new SqlCreateTriggerStatement(temp, ifNotExists, schema, name, nameOffset, timing, triggerEvent, updateColumns,
            tableSchema, table, forEachRow, when, body) { Start = start, End = PrevEnd };
    }

    /// <summary>One statement of a trigger body: UPDATE, INSERT/REPLACE, DELETE or a query.</summary>
    private SqlStatement TriggerStep()
    {
        int start = Peek().Start;
        if (Is("UPDATE")) return Update(null, start, inTrigger: true);
        if (Is("INSERT") || Is("REPLACE")) return Insert(null, start, inTrigger: true);
        if (Is("DELETE")) return Delete(null, start, inTrigger: true);
        if (StartsSelect()) return new SqlSelectStatement(Select()) { Start = start, End = PrevEnd };
        throw _ts.SyntaxError();
    }

    /// <summary>
    /// CREATE VIRTUAL TABLE … USING module [( arguments )]. SQLite's grammar takes any tokens as arguments, with
    /// balanced parentheses and top-level commas between them (even ';' is just another token there).
    /// </summary>
    private SqlCreateVirtualTableStatement CreateVirtualTable(int start)
    {
        bool ifNotExists = IfNotExists();
        var (schema, name, nameOffset) = QualifiedName();
        Expect("USING");
        string module = Name();
        var arguments = new List<string>();
        if (Accept(SqlTokenKind.LeftParen))
        {
            int depth = 0, argFirst = _ts.Index;
            while (true)
            {
                var t = Peek();
                if (t.Kind == SqlTokenKind.EndOfInput) throw _ts.SyntaxError(t);
                bool endOfArgument = depth == 0 && t.Kind is SqlTokenKind.Comma or SqlTokenKind.RightParen;
                if (endOfArgument)
                {
                    if (_ts.Index > argFirst) arguments.Add(_ts.Span(argFirst, _ts.Index - 1));
                    Next();
                    if (t.Kind == SqlTokenKind.RightParen) break;
                    argFirst = _ts.Index;
                    continue;
                }
                if (t.Kind == SqlTokenKind.LeftParen)
                {
                    if (++depth > MaxDepth) throw TooDeep(t.Start);
                }
                else if (t.Kind == SqlTokenKind.RightParen)
                {
                    depth--;
                }
                Next();
            }
        }
        return new SqlCreateVirtualTableStatement(ifNotExists, schema, name, nameOffset, module, arguments) { Start = start, End = PrevEnd };
    }

    private SqlDropStatement Drop()
    {
        int start = Next().Start;
        var kind = Accept("TABLE") ? SqlObjectKind.Table
            : Accept("INDEX") ? SqlObjectKind.Index
            : Accept("VIEW") ? SqlObjectKind.View
            : Accept("TRIGGER") ? SqlObjectKind.Trigger
            : throw _ts.SyntaxError();
        bool ifExists = false;
        if (Accept("IF"))
        {
            Expect("EXISTS");
            ifExists = true;
        }
        var (schema, name, _) = QualifiedName();
        return new SqlDropStatement(kind, ifExists, schema, name) { Start = start, End = PrevEnd };
    }

    private SqlAlterTableStatement Alter()
    {
        int start = Next().Start;
        Expect("TABLE");
        var (schema, table, _) = QualifiedName();
        if (Accept("RENAME"))
        {
            if (Accept("TO")) return new SqlRenameTableStatement(schema, table, Name()) { Start = start, End = PrevEnd };
            Accept("COLUMN");
            string column = Name();
            Expect("TO");
            return new SqlRenameColumnStatement(schema, table, column, Name()) { Start = start, End = PrevEnd };
        }
        if (Accept("ADD"))
        {
            Accept("COLUMN");
            return new SqlAddColumnStatement(schema, table, AddedColumn()) { Start = start, End = PrevEnd };
        }
        if (Accept("DROP"))
        {
            Accept("COLUMN");
            return new SqlDropColumnStatement(schema, table, Name()) { Start = start, End = PrevEnd };
        }
        throw _ts.SyntaxError();
    }
}
