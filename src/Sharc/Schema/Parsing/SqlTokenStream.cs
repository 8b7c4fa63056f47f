namespace Sharc.Schema.Parsing;

/// <summary>
/// A cursor over the tokens of one SQL text, lexed lazily so nothing after the end of the statement is read
/// (SQLite ignores whatever follows the first statement's ';'). Holds the helpers the statement parsers share:
/// keyword tests, name rules and SQLite-style errors.
/// </summary>
internal sealed class SqlTokenStream
{
    /// <summary>Nested expressions allowed before giving up, as SQLite's default SQLITE_MAX_EXPR_DEPTH.</summary>
    public const int MaxDepth = 1000;

    private readonly List<SqlToken> _tokens = new();
    private SqlLexer _lexer;
    private bool _ended;

    /// <summary>Creates a stream over <paramref name="sql"/>.</summary>
    public SqlTokenStream(string sql)
    {
        Sql = sql;
        _lexer = new SqlLexer(sql);
    }

    /// <summary>The SQL text.</summary>
    public string Sql { get; }

    /// <summary>The index of the next token; save it and assign it back to backtrack.</summary>
    public int Index { get; set; }

    /// <summary>The token <paramref name="ahead"/> positions after the current one.</summary>
    public SqlToken Peek(int ahead = 0) => At(Index + ahead);

    /// <summary>The token at absolute index <paramref name="i"/> (end of input past the end).</summary>
    public SqlToken At(int i)
    {
        while (i >= _tokens.Count && !_ended)
        {
            var t = _lexer.Next();
            if (t.Kind == SqlTokenKind.Illegal)
            {
                throw new SqlSyntaxException($"unrecognized token: \"{t.Text(Sql)}\"", Sql, t.Start);
            }
            _tokens.Add(t);
            _ended = t.Kind == SqlTokenKind.EndOfInput;
        }
        return i < _tokens.Count ? _tokens[i] : _tokens[^1];
    }

    /// <summary>Returns the current token and moves past it (never past the end of input).</summary>
    public SqlToken Next()
    {
        var t = Peek();
        if (t.Kind != SqlTokenKind.EndOfInput) Index++;
        return t;
    }

    /// <summary>The text of a token.</summary>
    public ReadOnlySpan<char> Text(SqlToken t) => t.Text(Sql);

    /// <summary>The source text from the start of token <paramref name="first"/> to the end of token <paramref name="last"/>.</summary>
    public string Span(int first, int last)
    {
        int start = At(first).Start, end = At(last).End;
        return end > start ? Sql[start..end] : string.Empty;
    }

    /// <summary>True when <paramref name="t"/> is the bare word <paramref name="upperWord"/> (any case).</summary>
    public bool IsWord(SqlToken t, string upperWord)
        => t.Kind == SqlTokenKind.Identifier && SqlText.EqualsIgnoreCase(t.Text(Sql), upperWord);

    /// <summary>True when the current token is <paramref name="upperWord"/>.</summary>
    public bool PeekWord(string upperWord, int ahead = 0) => IsWord(Peek(ahead), upperWord);

    /// <summary>Consumes the current token when it is <paramref name="upperWord"/>.</summary>
    public bool TryWord(string upperWord)
    {
        if (!PeekWord(upperWord)) return false;
        Index++;
        return true;
    }

    /// <summary>Consumes <paramref name="upperWord"/> or fails with SQLite's syntax error.</summary>
    public void ExpectWord(string upperWord)
    {
        if (!TryWord(upperWord)) throw SyntaxError();
    }

    /// <summary>Consumes the current token when it has kind <paramref name="kind"/>.</summary>
    public bool TryKind(SqlTokenKind kind)
    {
        if (Peek().Kind != kind) return false;
        Index++;
        return true;
    }

    /// <summary>Consumes a token of kind <paramref name="kind"/> or fails with SQLite's syntax error.</summary>
    public SqlToken Expect(SqlTokenKind kind)
    {
        var t = Peek();
        if (t.Kind != kind) throw SyntaxError();
        Index++;
        return t;
    }

    /// <summary>The class of a bare-word token (<see cref="SqlWordClass.NotKeyword"/> for other tokens).</summary>
    public SqlWordClass WordClass(SqlToken t)
        => t.Kind == SqlTokenKind.Identifier ? SqlKeywords.Classify(t.Text(Sql)) : SqlWordClass.NotKeyword;

    /// <summary>SQLite's "nm": an object or column name: identifier, quoted identifier, string, or join keyword.</summary>
    public bool IsName(SqlToken t) => t.Kind switch
    {
        SqlTokenKind.Identifier => WordClass(t) != SqlWordClass.Reserved,
        SqlTokenKind.QuotedIdentifier or SqlTokenKind.String => true,
        _ => false,
    };

    /// <summary>SQLite's "id": identifier or quoted identifier, but no strings and no join keywords.</summary>
    public bool IsId(SqlToken t) => t.Kind switch
    {
        SqlTokenKind.Identifier => WordClass(t) is SqlWordClass.NotKeyword or SqlWordClass.Fallback or SqlWordClass.Indexed,
        SqlTokenKind.QuotedIdentifier => true,
        _ => false,
    };

    /// <summary>SQLite's "ids" (type-name words and collation names): identifier, quoted identifier or string.</summary>
    public bool IsIds(SqlToken t) => t.Kind switch
    {
        SqlTokenKind.Identifier => WordClass(t) is SqlWordClass.NotKeyword or SqlWordClass.Fallback,
        SqlTokenKind.QuotedIdentifier or SqlTokenKind.String => true,
        _ => false,
    };

    /// <summary>Reads a name ("nm") and returns it unquoted.</summary>
    public string ExpectName()
    {
        var t = Peek();
        if (!IsName(t)) throw SyntaxError();
        Index++;
        return SqlText.Dequote(Text(t));
    }

    /// <summary>Reads <c>name</c> or <c>schema.name</c>, both unquoted.</summary>
    public QualifiedName ExpectQualifiedName()
    {
        int start = Peek().Start;
        string first = ExpectName();
        if (!TryKind(SqlTokenKind.Dot)) return new QualifiedName(null, first, start);
        start = Peek().Start;
        return new QualifiedName(first, ExpectName(), start);
    }

    /// <summary>
    /// Skips a parenthesized group starting at the current '(' without interpreting it;
    /// returns the indexes of the '(' and the matching ')'.
    /// </summary>
    public (int Open, int Close) SkipParenthesized()
    {
        int open = Index;
        Expect(SqlTokenKind.LeftParen);
        int depth = 1;
        while (true)
        {
            var t = Next();
            switch (t.Kind)
            {
                case SqlTokenKind.LeftParen:
                    depth++;
                    break;
                case SqlTokenKind.RightParen:
                    if (--depth == 0) return (open, Index - 1);
                    break;
                case SqlTokenKind.EndOfInput:
                    throw SyntaxError(t);
            }
        }
    }

    /// <summary>True at the end of the statement: end of input or ';'.</summary>
    public bool AtStatementEnd => Peek().Kind is SqlTokenKind.EndOfInput or SqlTokenKind.Semicolon;

    /// <summary>Fails unless the statement ends here.</summary>
    public void ExpectStatementEnd()
    {
        if (!AtStatementEnd) throw SyntaxError();
    }

    /// <summary>SQLite's error for an unexpected token: <c>near "x": syntax error</c>, or <c>incomplete input</c> at the end.</summary>
    public SqlSyntaxException SyntaxError() => SyntaxError(Peek());

    /// <inheritdoc cref="SyntaxError()"/>
    public SqlSyntaxException SyntaxError(SqlToken t)
        => t.Kind == SqlTokenKind.EndOfInput
            ? new SqlSyntaxException("incomplete input", Sql, t.Start)
            : new SqlSyntaxException($"near \"{Text(t)}\": syntax error", Sql, t.Start);

    /// <summary>An error with a custom message at token <paramref name="t"/>.</summary>
    public SqlSyntaxException Error(string message, SqlToken t) => new(message, Sql, t.Start);
}

/// <summary>
/// A possibly schema-qualified name; <see cref="NameStart"/> is where the unqualified name's token starts, which is
/// where the text SQLite stores for a CREATE statement begins.
/// </summary>
internal readonly record struct QualifiedName(string? Schema, string Name, int NameStart)
{
    public bool Qualified => Schema is not null;
}
