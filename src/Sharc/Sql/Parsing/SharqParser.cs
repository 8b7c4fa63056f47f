using System.Runtime.CompilerServices;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// Sharq: a recursive-descent parser for SQLite's SQL grammar, producing the AST in <see cref="Sharc.Sql.Ast"/>.
/// It reuses the schema reader's tokenizer (<see cref="SqlTokenStream"/>) and CREATE TABLE parser. Errors are
/// <see cref="SqlSyntaxException"/>s worded as SQLite words them; <see cref="SqlParser"/> turns them into
/// <see cref="SharcSqlException"/>s. This file holds the state and the token and name helpers the other parts share.
/// </summary>
/// <remarks>
/// SQLite's LALR grammar lets most keywords double as names wherever the keyword itself would not fit. The parser
/// mirrors that by testing for keywords before names at each point. Three words are special: SQLite's tokenizer
/// makes WINDOW, OVER and FILTER keywords only in certain contexts (see <see cref="IsContextKeyword"/>).
/// </remarks>
internal sealed partial class SharqParser
{
    /// <summary>
    /// SQLite's default SQLITE_MAX_EXPR_DEPTH: expression trees may be this tall, and parentheses may nest this deep.
    /// </summary>
    public const int MaxDepth = 1000;

    /// <summary>
    /// A bound on the parser's own recursion, as a backstop: every input within the two limits above stays well
    /// under it, so it only cuts short pathological input before the tree-height check would.
    /// </summary>
    private const int MaxRecursion = 3 * MaxDepth;

    /// <summary>SQLite's default SQLITE_MAX_VARIABLE_NUMBER.</summary>
    private const int MaxVariableNumber = 32766;

    /// <summary>SQLite's default SQLITE_MAX_COMPOUND_SELECT.</summary>
    private const int MaxCompoundTerms = 500;

    private readonly SqlTokenStream _ts;
    private int _depth;
    private int _parentheses;
    private int _parameterCount;
    private readonly List<string?> _parameterNames = new();
    private readonly Dictionary<string, int> _namedParameters = new(StringComparer.Ordinal);
    private SqlSyntaxException? _deferred;
    private int _statementFirstToken;

    /// <summary>Creates a parser over <paramref name="sql"/>, positioned at its first token.</summary>
    public SharqParser(string sql) => _ts = new SqlTokenStream(sql);

    /// <summary>The token stream, for callers that step between statements.</summary>
    public SqlTokenStream Tokens => _ts;

    private string Sql => _ts.Sql;

    /// <summary>Rewinds to the start of the text, for a parse that has to be run again.</summary>
    internal void Reset()
    {
        _ts.Index = 0;
        ResetStatementState();
    }

    /// <summary>Forgets the parameters, nesting and pending errors of the previous statement.</summary>
    private void ResetStatementState()
    {
        _depth = 0;
        _parentheses = 0;
        _parameterCount = 0;
        _parameterNames.Clear();
        _namedParameters.Clear();
        _deferred = null;
        _statementFirstToken = _ts.Index;
    }

    // ---- tokens -------------------------------------------------------------------------------------------------

    private SqlToken Peek(int ahead = 0) => _ts.Peek(ahead);

    private SqlTokenKind PeekKind(int ahead = 0) => _ts.Peek(ahead).Kind;

    /// <summary>The offset just past the last consumed token: the end of the node being built.</summary>
    private int PrevEnd => _ts.Index > 0 ? _ts.At(_ts.Index - 1).End : 0;

    private bool Is(string upperWord, int ahead = 0) => _ts.PeekWord(upperWord, ahead);

    private bool Accept(string upperWord) => _ts.TryWord(upperWord);

    private void Expect(string upperWord) => _ts.ExpectWord(upperWord);

    private bool Accept(SqlTokenKind kind) => _ts.TryKind(kind);

    private SqlToken Expect(SqlTokenKind kind) => _ts.Expect(kind);

    private SqlToken Next()
    {
        var t = _ts.Peek();
        if (t.Kind == SqlTokenKind.EndOfInput) throw _ts.SyntaxError(t);
        _ts.Index++;
        return t;
    }

    /// <summary>True when the word at <paramref name="ahead"/> starts a SELECT (SELECT, VALUES or WITH).</summary>
    private bool StartsSelect(int ahead = 0) => Is("SELECT", ahead) || Is("VALUES", ahead) || Is("WITH", ahead);

    /// <summary>
    /// SQLite's tokenizer reads WINDOW, OVER and FILTER as keywords only in context, and as plain names otherwise:
    /// OVER right after ")" and before "(" or a name, FILTER right after ")" and before "(", and WINDOW before
    /// "name AS".
    /// </summary>
    private bool IsContextKeyword(int index, string upperWord)
    {
        var t = _ts.At(index);
        if (!_ts.IsWord(t, upperWord)) return false;
        bool afterParen = index > 0 && _ts.At(index - 1).Kind == SqlTokenKind.RightParen;
        return upperWord switch
        {
            "OVER" => afterParen && (_ts.At(index + 1).Kind == SqlTokenKind.LeftParen || IsIdLike(_ts.At(index + 1))),
            "FILTER" => afterParen && _ts.At(index + 1).Kind == SqlTokenKind.LeftParen,
            "WINDOW" => IsIdLike(_ts.At(index + 1)) && _ts.IsWord(_ts.At(index + 2), "AS"),
            _ => false,
        };
    }

    /// <summary>
    /// What SQLite's tokenizer counts as an identifier when it looks ahead for WINDOW and OVER: names, strings, join
    /// keywords and the keywords that fall back to names, except FILTER, which does not.
    /// </summary>
    private bool IsIdLike(SqlToken t) => t.Kind switch
    {
        SqlTokenKind.QuotedIdentifier or SqlTokenKind.String => true,
        SqlTokenKind.Identifier => _ts.WordClass(t) is SqlWordClass.NotKeyword or SqlWordClass.Fallback or SqlWordClass.JoinKeyword
                                   && !_ts.IsWord(t, "FILTER"),
        _ => false,
    };

    /// <summary>True when the token at <paramref name="index"/> is WINDOW, OVER or FILTER read as a keyword.</summary>
    private bool IsContextKeywordAt(int index)
    {
        var t = _ts.At(index);
        if (t.Kind != SqlTokenKind.Identifier || t.Length is not (4 or 6)) return false;
        return IsContextKeyword(index, "OVER") || IsContextKeyword(index, "FILTER") || IsContextKeyword(index, "WINDOW");
    }

    // ---- names --------------------------------------------------------------------------------------------------
    // SQLite's grammar has four kinds of name: nm (identifiers, strings and join keywords: object and column names),
    // idj (identifiers and join keywords: function names and bare column references), id (identifiers only) and
    // ids (identifiers and strings: implicit aliases, collations and type words).

    private bool IsNm(int ahead = 0) => _ts.IsName(Peek(ahead)) && !IsContextKeywordAt(_ts.Index + ahead);

    private bool IsIdj(int ahead = 0)
    {
        var t = Peek(ahead);
        bool ok = t.Kind == SqlTokenKind.QuotedIdentifier
                  || (t.Kind == SqlTokenKind.Identifier && _ts.WordClass(t) != SqlWordClass.Reserved);
        return ok && !IsContextKeywordAt(_ts.Index + ahead);
    }

    private bool IsId(int ahead = 0) => _ts.IsId(Peek(ahead)) && !IsContextKeywordAt(_ts.Index + ahead);

    private bool IsIds(int ahead = 0) => _ts.IsIds(Peek(ahead)) && !IsContextKeywordAt(_ts.Index + ahead);

    /// <summary>Reads an "nm" and returns it unquoted.</summary>
    private string Name()
    {
        if (!IsNm()) throw _ts.SyntaxError();
        return SqlText.Dequote(_ts.Text(Next()));
    }

    /// <summary>Reads an "ids" and returns it unquoted.</summary>
    private string Ids()
    {
        if (!IsIds()) throw _ts.SyntaxError();
        return SqlText.Dequote(_ts.Text(Next()));
    }

    /// <summary>Reads <c>nm [. nm]</c>: an optionally schema-qualified name.</summary>
    private (string? Schema, string Name, int NameOffset) QualifiedName()
    {
        int offset = Peek().Start;
        string first = Name();
        if (!Accept(SqlTokenKind.Dot)) return (null, first, offset);
        offset = Peek().Start;
        return (first, Name(), offset);
    }

    /// <summary>[AS] alias after a result column or a FROM source: "AS nm", or an "ids" without AS.</summary>
    private string? AliasOpt()
    {
        if (Accept("AS")) return Name();
        return IsIds() ? Ids() : null;
    }

    /// <summary>"( nm, … )": the column lists of USING, INSERT and UPDATE.</summary>
    private List<string> ParenthesizedNames()
    {
        Expect(SqlTokenKind.LeftParen);
        var names = new List<string>();
        do names.Add(Name()); while (Accept(SqlTokenKind.Comma));
        Expect(SqlTokenKind.RightParen);
        return names;
    }

    /// <summary>
    /// "( nm [COLLATE x] [ASC|DESC], … )" for CTE and view columns: SQLite's grammar accepts COLLATE and a sort order
    /// there only to reject them with its own message.
    /// </summary>
    private List<string> ColumnNameList()
    {
        Expect(SqlTokenKind.LeftParen);
        var names = new List<string>();
        do
        {
            var nameToken = Peek();
            names.Add(Name());
            bool extra = false;
            if (Accept("COLLATE"))
            {
                Ids();
                extra = true;
            }
            if (Accept("ASC") || Accept("DESC")) extra = true;
            if (extra && PeekKind() is SqlTokenKind.Comma or SqlTokenKind.RightParen)
            {
                throw Error($"syntax error after column name \"{_ts.Text(nameToken)}\"", nameToken.Start);
            }
        } while (Accept(SqlTokenKind.Comma));
        Expect(SqlTokenKind.RightParen);
        return names;
    }

    /// <summary>IF NOT EXISTS, when present.</summary>
    private bool IfNotExists()
    {
        if (!Accept("IF")) return false;
        Expect("NOT");
        Expect("EXISTS");
        return true;
    }

    // ---- errors, depth and parameters ---------------------------------------------------------------------------

    private SqlSyntaxException Error(string message, int offset) => new(message, Sql, offset);

    private SqlSyntaxException TooDeep(int offset) => Error($"Expression tree is too large (maximum depth {MaxDepth})", offset);

    /// <summary>
    /// Records an error SQLite raises only once the construct is complete, so that a syntax error further on in
    /// the statement still wins, as it does in SQLite; the first recorded error is thrown when the statement ends.
    /// </summary>
    private void Defer(SqlSyntaxException error) => _deferred ??= error;

    /// <summary>
    /// Raises an error SQLite reports when it reduces a construct, which it does once it sees a token that may follow
    /// the construct: at once when the next token is such a token, otherwise when the statement ends, so that a
    /// syntax error at the next token comes first. Inside parentheses ")" follows, at the top level ";" or the end of
    /// the text; <paramref name="followers"/> adds keywords (and "," for a comma, "JOIN" for any join operator).
    /// </summary>
    private void RaiseAtReduce(SqlSyntaxException error, params string[] followers)
    {
        var next = Peek();
        bool follows = OpenParentheses() > 0
            ? next.Kind == SqlTokenKind.RightParen
            : next.Kind is SqlTokenKind.Semicolon or SqlTokenKind.EndOfInput;
        foreach (var word in followers)
        {
            follows |= word switch
            {
                "," => next.Kind == SqlTokenKind.Comma,
                "JOIN" => _ts.IsWord(next, "JOIN") || _ts.WordClass(next) == SqlWordClass.JoinKeyword,
                _ => _ts.IsWord(next, word),
            };
        }
        if (follows) throw error;
        Defer(error);
    }

    /// <summary>How many "(" of the current statement are still open; only needed on error paths.</summary>
    private int OpenParentheses()
    {
        int open = 0;
        for (int i = _statementFirstToken; i < _ts.Index; i++)
        {
            var kind = _ts.At(i).Kind;
            if (kind == SqlTokenKind.LeftParen) open++;
            else if (kind == SqlTokenKind.RightParen) open--;
        }
        return open;
    }

    /// <summary>Throws the first deferred error, if any; called when a statement has parsed.</summary>
    private void ThrowDeferred()
    {
        if (_deferred is { } e) throw e;
    }

    /// <summary>
    /// Enters a recursive construct; every recursion goes through here, so no input can exhaust the stack (a stack
    /// too small for the limits raises InsufficientExecutionStackException, which <see cref="SqlParser"/> handles).
    /// </summary>
    private void Enter()
    {
        if (++_depth > MaxRecursion) throw TooDeep(Peek().Start);
        RuntimeHelpers.EnsureSufficientExecutionStack();
    }

    private void Leave() => _depth--;

    /// <summary>Reads the "(" of a parenthesized construct, counting how deeply parentheses nest.</summary>
    private SqlToken OpenParenthesis()
    {
        var t = Expect(SqlTokenKind.LeftParen);
        if (++_parentheses > MaxDepth) throw TooDeep(t.Start);
        return t;
    }

    /// <summary>Reads the ")" matching <see cref="OpenParenthesis"/>.</summary>
    private void CloseParenthesis()
    {
        Expect(SqlTokenKind.RightParen);
        _parentheses--;
    }

    /// <summary>The height of a node over children of height <paramref name="childHeight"/>, refused above SQLite's limit.</summary>
    private int Grow(int childHeight, int start)
    {
        int h = childHeight + 1;
        if (h > MaxDepth) throw TooDeep(start);
        return h;
    }

    private static int MaxHeight(IReadOnlyList<SqlExpr> items, int height = 0)
    {
        foreach (var e in items) height = Math.Max(height, e.Height);
        return height;
    }

    private static int MaxHeight(IReadOnlyList<SqlOrderingTerm> items, int height = 0)
    {
        foreach (var e in items) height = Math.Max(height, e.Expr.Height);
        return height;
    }

    private static int MaxHeight(SqlExpr? e, int height) => e is null ? height : Math.Max(height, e.Height);

    /// <summary>
    /// The height SQLite gives a subquery: that of the tallest expression among its result columns, WHERE, GROUP BY,
    /// HAVING, ORDER BY and LIMIT (FROM clauses are not counted), over every SELECT of a compound.
    /// </summary>
    private static int SelectHeight(SqlSelect select)
    {
        int h = MaxHeight(select.OrderBy);
        h = MaxHeight(select.Limit, h);
        h = MaxHeight(select.Offset, h);
        if (select.Body is not SqlCompoundSelect compound) return BodyHeight(select.Body, h);
        h = BodyHeight(compound.First, h);
        foreach (var term in compound.Terms) h = BodyHeight(term.Body, h);
        return h;
    }

    private static int BodyHeight(SqlQueryBody body, int h)
    {
        switch (body)
        {
            case SqlSelectCore s:
                foreach (var column in s.Columns)
                {
                    if (column is SqlExprColumn ec) h = Math.Max(h, ec.Expr.Height);
                }
                h = MaxHeight(s.Where, h);
                h = MaxHeight(s.GroupBy, h);
                h = MaxHeight(s.Having, h);
                break;
            case SqlValuesBody v:
                foreach (var row in v.Rows) h = MaxHeight(row, h);
                break;
        }
        return h;
    }

    /// <summary>Numbers a parameter the way SQLite does (sqlite3ExprAssignVarNumber).</summary>
    private SqlParameterExpr Parameter(SqlToken t)
    {
        string name = _ts.Text(t).ToString();
        int index;
        bool named = false;
        if (name == "?")
        {
            index = ++_parameterCount;
        }
        else if (name[0] == '?')
        {
            if (!long.TryParse(name.AsSpan(1), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out long n)
                || n < 1 || n > MaxVariableNumber)
            {
                throw Error($"variable number must be between ?1 and ?{MaxVariableNumber}", t.Start);
            }
            index = (int)n;
            _parameterCount = Math.Max(_parameterCount, index);
            named = true;
        }
        else if (_namedParameters.TryGetValue(name, out int existing))
        {
            index = existing;
        }
        else
        {
            index = ++_parameterCount;
            _namedParameters.Add(name, index);
            named = true;
        }
        if (index > MaxVariableNumber) throw Error("too many SQL variables", t.Start);
        while (_parameterNames.Count < _parameterCount) _parameterNames.Add(null);
        // A slot keeps the first name it was given; "?NNN" names a slot only if nothing named it before.
        if (named && _parameterNames[index - 1] is null) _parameterNames[index - 1] = name;
        return new SqlParameterExpr(name, index) { Start = t.Start, End = t.End };
    }
}
