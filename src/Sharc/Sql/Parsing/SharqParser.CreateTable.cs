using System.Diagnostics;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// CREATE TABLE and ALTER TABLE … ADD COLUMN. The column list is parsed by the schema reader's
/// <see cref="CreateTableParser"/>, so the code base has one CREATE TABLE grammar; it reads CHECK, DEFAULT and
/// generated-column expressions only as far as it needs, so this file then parses those expressions (and the
/// keys of PRIMARY KEY/UNIQUE table constraints) with Sharq, which validates them and builds their AST.
/// When both report an error, the one SQLite would meet first wins (see SharqParser.SchemaErrors.cs).
/// </summary>
internal sealed partial class SharqParser
{
    /// <summary>What the expression pass collects for one column definition.</summary>
    private sealed class ColumnExpressions
    {
        public int Start;
        public int End;
        public SqlExpr? Default;
        public SqlExpr? Generated;
        public readonly List<SqlExpr> Checks = new();
    }

    private SqlCreateTableStatement CreateTable(bool temp, int start)
    {
        int afterKeyword = _ts.Index;
        bool ifNotExists = IfNotExists();
        var (schema, name, nameOffset) = QualifiedName();
        // SQLite checks the name as soon as it has read it and sees the table body start.
        if ((PeekKind() == SqlTokenKind.LeftParen || Is("AS")) && QualifiedOutsideTemp(temp, schema))
        {
            throw Error("temporary table name must be unqualified", nameOffset);
        }
        if (Accept("AS"))
        {
            var query = Select();
            return new SqlCreateTableStatement(temp, ifNotExists, schema, name, nameOffset, null, [], [], query) { Start = start, End = PrevEnd };
        }

        int open = _ts.Index;
        _ts.Index = afterKeyword;
        var tableTokens = TokensWithoutLeadingOptionComma(open);
        tableTokens.Index = afterKeyword;
        TableDefinition? table = null;
        SqlSyntaxException? tableError = null;
        try
        {
            table = CreateTableParser.ParseTable(tableTokens).Table;
        }
        catch (SqlSyntaxException e)
        {
            tableError = e;
        }
        int end = tableTokens == _ts ? _ts.Index : IndexAtOffset(afterKeyword, OffsetReached(tableTokens));
        int stop = int.MaxValue;
        if (tableError is not null) (tableError, stop) = ReconcileSchemaError(tableError, end, open + 1, singleColumn: false);
        var (columns, tableChecks) = _ts.At(open).Kind == SqlTokenKind.LeftParen
            ? ScanColumnExpressions(open + 1, singleColumn: false, tableError, stop)
            : ([], []);
        if (tableError is not null) throw tableError;
        _ts.Index = end;

        var definitions = new List<SqlColumnDefinition>(table!.Columns.Count);
        for (int i = 0; i < table.Columns.Count && i < columns.Count; i++)
        {
            var c = columns[i];
            definitions.Add(new SqlColumnDefinition(table.Columns[i], c.Default, c.Generated, c.Checks) { Start = c.Start, End = c.End });
        }
        return new SqlCreateTableStatement(temp, ifNotExists, schema, name, nameOffset, table, definitions, tableChecks, null)
        {
            Start = start,
            End = PrevEnd,
        };
    }

    /// <summary>
    /// SQLite's grammar lets the table options start with an empty option ("(…) , STRICT"); the schema parser does
    /// not, so when the column list is followed by a comma it is given a copy of the text with that comma blanked
    /// out (offsets unchanged). Otherwise it reads this statement's own tokens.
    /// </summary>
    private SqlTokenStream TokensWithoutLeadingOptionComma(int open)
    {
        if (_ts.At(open).Kind != SqlTokenKind.LeftParen) return _ts;
        int depth = 0;
        for (int i = open; ; i++)
        {
            var kind = _ts.At(i).Kind;
            if (kind is SqlTokenKind.EndOfInput or SqlTokenKind.Semicolon) return _ts;
            if (kind == SqlTokenKind.LeftParen) depth++;
            else if (kind == SqlTokenKind.RightParen && --depth == 0)
            {
                var comma = _ts.At(i + 1);
                if (comma.Kind != SqlTokenKind.Comma || !_ts.IsName(_ts.At(i + 2))) return _ts;
                var text = Sql.ToCharArray();
                text[comma.Start] = ' ';
                return new SqlTokenStream(new string(text));
            }
        }
    }

    /// <summary>The offset of the token a stream stopped at (or of the unrecognized token there).</summary>
    private static int OffsetReached(SqlTokenStream tokens)
    {
        try
        {
            return tokens.Peek().Start;
        }
        catch (SqlSyntaxException e)
        {
            return e.Offset;
        }
    }

    /// <summary>The index of the first token of this statement, from <paramref name="first"/>, starting at or after <paramref name="offset"/>.</summary>
    private int IndexAtOffset(int first, int offset)
    {
        int i = first;
        while (_ts.At(i).Start < offset && _ts.At(i).Kind != SqlTokenKind.EndOfInput) i++;
        return i;
    }

    /// <summary>
    /// The column definition of ALTER TABLE … ADD COLUMN. The schema reader's parser reads whole tables, so it is
    /// given a copy of the text in which everything before the definition is blanked out and replaced by the
    /// start of a one-column table: offsets (and so error positions) stay those of the real statement.
    /// </summary>
    private SqlColumnDefinition AddedColumn()
    {
        const string TablePrefix = "x(\"\u0001\",";
        int first = _ts.Index;
        var firstToken = Peek();
        if (!IsNm()) throw _ts.SyntaxError();

        // The definition ends at the statement's end, or early at an unbalanced ")" or a top-level ",".
        int cut = first, depth = 0;
        while (true)
        {
            var t = _ts.At(cut);
            if (t.Kind is SqlTokenKind.Semicolon or SqlTokenKind.EndOfInput) break;
            if (t.Kind == SqlTokenKind.LeftParen) depth++;
            else if (t.Kind == SqlTokenKind.RightParen && depth-- == 0) break;
            else if (t.Kind == SqlTokenKind.Comma && depth == 0) break;
            cut++;
        }
        var cutToken = _ts.At(cut);

        int defStart = firstToken.Start;
        Debug.Assert(defStart >= TablePrefix.Length, "ALTER TABLE … ADD precedes the definition");
        string text = string.Concat(new string(' ', defStart - TablePrefix.Length), TablePrefix, Sql.AsSpan(defStart, cutToken.Start - defStart), ")");
        var columnTokens = new SqlTokenStream(text);
        ColumnDefinition? column = null;
        SqlSyntaxException? columnError = null;
        int stop = int.MaxValue;
        try
        {
            column = CreateTableParser.ParseTable(columnTokens).Table.Columns[1];
        }
        catch (SqlSyntaxException e) when (e.Offset >= cutToken.Start)
        {
            // Beyond the definition, the copy differs from the statement: the error is at the statement's own token.
            columnError = _ts.SyntaxError(cutToken);
            stop = cutToken.Start;
        }
        catch (SqlSyntaxException e)
        {
            // Where the schema parser stopped, as an index into this statement's tokens (offsets are shared).
            int reached = IsSyntaxMessage(e.Message) ? first : Math.Min(cut, IndexAtOffset(first, OffsetReached(columnTokens)));
            (columnError, stop) = ReconcileSchemaError(e, reached, first, singleColumn: true);
        }
        if (columnError is null && cutToken.Kind is not (SqlTokenKind.Semicolon or SqlTokenKind.EndOfInput))
        {
            columnError = _ts.SyntaxError(cutToken);
            stop = cutToken.Start;
        }

        var (columns, _) = ScanColumnExpressions(first, singleColumn: true, columnError, stop);
        if (columnError is not null) throw columnError;
        _ts.Index = cut;
        var c = columns[0];
        return new SqlColumnDefinition(column!, c.Default, c.Generated, c.Checks) { Start = defStart, End = PrevEnd };
    }

    /// <summary>
    /// Walks a column list from token <paramref name="first"/> and parses the expressions in it: CHECK (…),
    /// DEFAULT …, AS (…) of generated columns, and the keys of PRIMARY KEY (…) and UNIQUE (…) table constraints.
    /// Stops at the list's closing ")" (or, for a single column, at the end of the definition) and at offset
    /// <paramref name="stop"/>, where SQLite would report <paramref name="pending"/>, the schema parser's error: an
    /// error of its own wins only if it comes before that.
    /// </summary>
    private (List<ColumnExpressions> Columns, List<SqlExpr> TableChecks) ScanColumnExpressions(
        int first, bool singleColumn, SqlSyntaxException? pending, int stop)
    {
        var columns = new List<ColumnExpressions>();
        var tableChecks = new List<SqlExpr>();
        try
        {
            int i = first, depth = 0;
            bool constraints = false;
            var column = new ColumnExpressions { Start = _ts.At(i).Start };
            columns.Add(column);
            while (true)
            {
                var t = _ts.At(i);
                if (t.Start >= stop) break;
                if (t.Kind is SqlTokenKind.EndOfInput or SqlTokenKind.Semicolon)
                {
                    // A column list running into the end of the statement is a syntax error, whatever else is wrong with it.
                    if (singleColumn) break;
                    throw _ts.SyntaxError(t);
                }
                if (depth == 0)
                {
                    if (t.Kind == SqlTokenKind.RightParen) break;
                    if (t.Kind == SqlTokenKind.Comma)
                    {
                        if (singleColumn) break;
                        if (!constraints) column.End = _ts.At(i - 1).End;
                        i++;
                        constraints |= IsTableConstraintStart(i);
                        if (!constraints)
                        {
                            column = new ColumnExpressions { Start = _ts.At(i).Start };
                            columns.Add(column);
                        }
                        continue;
                    }
                    if (WordAt(i, "CHECK") && _ts.At(i + 1).Kind == SqlTokenKind.LeftParen)
                    {
                        (constraints ? tableChecks : column.Checks).Add(ParenthesizedExpressionAt(i + 1, out i));
                        continue;
                    }
                    if (!constraints && WordAt(i, "DEFAULT") && !WordAt(i - 1, "SET"))
                    {
                        column.Default = DefaultValueAt(i + 1, out i);
                        continue;
                    }
                    if (!constraints && WordAt(i, "AS") && _ts.At(i + 1).Kind == SqlTokenKind.LeftParen)
                    {
                        column.Generated = ParenthesizedExpressionAt(i + 1, out i);
                        continue;
                    }
                    if (constraints && WordAt(i, "PRIMARY") && WordAt(i + 1, "KEY") && _ts.At(i + 2).Kind == SqlTokenKind.LeftParen)
                    {
                        i = ConstraintKeysAt(i + 3);
                        continue;
                    }
                    if (constraints && WordAt(i, "UNIQUE") && _ts.At(i + 1).Kind == SqlTokenKind.LeftParen)
                    {
                        i = ConstraintKeysAt(i + 2);
                        continue;
                    }
                }
                if (t.Kind == SqlTokenKind.LeftParen) depth++;
                else if (t.Kind == SqlTokenKind.RightParen) depth--;
                i++;
            }
            if (!constraints) column.End = i > first ? _ts.At(i - 1).End : column.Start;
        }
        catch (SqlSyntaxException e) when (pending is not null && e.Offset >= stop)
        {
            throw pending;
        }
        return (columns, tableChecks);
    }

    private bool WordAt(int index, string upperWord) => index >= 0 && _ts.IsWord(_ts.At(index), upperWord);

    private bool IsTableConstraintStart(int index)
        => WordAt(index, "CONSTRAINT") || WordAt(index, "PRIMARY") || WordAt(index, "UNIQUE")
           || WordAt(index, "CHECK") || WordAt(index, "FOREIGN");

    /// <summary>Parses "( expr )" whose "(" is token <paramref name="open"/>; <paramref name="next"/> is the token after ")".</summary>
    private SqlExpr ParenthesizedExpressionAt(int open, out int next)
    {
        _ts.Index = open + 1;
        var e = Expr();
        Expect(SqlTokenKind.RightParen);
        next = _ts.Index;
        return e;
    }

    /// <summary>
    /// The value after DEFAULT: "( expr )", a literal, a signed number, or a bare name, which SQLite stores as
    /// a string (TRUE and FALSE excepted).
    /// </summary>
    private SqlExpr DefaultValueAt(int index, out int next)
    {
        _ts.Index = index;
        var t = Peek();
        SqlExpr value;
        if (t.Kind == SqlTokenKind.LeftParen)
        {
            value = ParenthesizedExpressionAt(index, out next);
            return value;
        }
        if (t.Kind is SqlTokenKind.Plus or SqlTokenKind.Minus)
        {
            Next();
            var literal = Literal(Peek()) ?? throw _ts.SyntaxError();
            Next();
            var op = t.Kind == SqlTokenKind.Minus ? SqlUnaryOperator.Negate : SqlUnaryOperator.Plus;
            value = new SqlUnaryExpr(op, literal) { Start = t.Start, End = PrevEnd, Height = 2 };
        }
        else if (Literal(t) is { } literal)
        {
            Next();
            value = literal;
        }
        else if (IsId())
        {
            Next();
            bool isTrue = _ts.IsWord(t, "TRUE");
            value = isTrue || _ts.IsWord(t, "FALSE")
                ? new SqlBoolLiteral(isTrue) { Start = t.Start, End = t.End }
                : new SqlStringLiteral(SqlText.Dequote(_ts.Text(t))) { Start = t.Start, End = t.End };
        }
        else
        {
            throw _ts.SyntaxError();
        }
        next = _ts.Index;
        return value;
    }

    /// <summary>Validates "keys [AUTOINCREMENT] )" of a PRIMARY KEY or UNIQUE table constraint; returns the index after ")".</summary>
    private int ConstraintKeysAt(int index)
    {
        _ts.Index = index;
        OrderingTerms();
        Accept("AUTOINCREMENT");
        Expect(SqlTokenKind.RightParen);
        return _ts.Index;
    }
}
