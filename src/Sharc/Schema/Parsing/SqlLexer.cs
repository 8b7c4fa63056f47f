namespace Sharc.Schema.Parsing;

/// <summary>
/// Splits SQL text into tokens the way SQLite's tokenizer does: the same characters make up identifiers,
/// numbers, strings and operators, and the same inputs are "unrecognized tokens". It never throws: bad input
/// comes back as <see cref="SqlTokenKind.Illegal"/> tokens, and every call advances, so callers cannot loop forever.
/// </summary>
internal struct SqlLexer
{
    private readonly string _sql;
    private readonly int _end;
    private int _pos;

    /// <summary>Creates a lexer over <paramref name="sql"/>, from <paramref name="start"/> to the end of the text.</summary>
    public SqlLexer(string sql, int start = 0)
    {
        _sql = sql;
        _end = sql.Length;
        _pos = Math.Clamp(start, 0, sql.Length);
    }

    /// <summary>The offset where the next token (or the whitespace before it) starts.</summary>
    public readonly int Position => _pos;

    /// <summary>Returns the next token, skipping whitespace and comments.</summary>
    public SqlToken Next()
    {
        while (true)
        {
            var token = NextRaw(out bool trivia);
            if (!trivia) return token;
        }
    }

    /// <summary>Every token of <paramref name="sql"/>, ending with <see cref="SqlTokenKind.EndOfInput"/>.</summary>
    public static List<SqlToken> Tokenize(string sql)
    {
        var list = new List<SqlToken>();
        var lexer = new SqlLexer(sql);
        SqlToken t;
        do
        {
            t = lexer.Next();
            list.Add(t);
        } while (t.Kind != SqlTokenKind.EndOfInput);
        return list;
    }

    /// <summary>The 1-based line and column of <paramref name="offset"/> in <paramref name="sql"/>, for error messages.</summary>
    public static (int Line, int Column) LineAndColumn(string sql, int offset)
    {
        offset = Math.Clamp(offset, 0, sql.Length);
        int line = 1, lineStart = 0;
        for (int i = 0; i < offset; i++)
        {
            if (sql[i] == '\n')
            {
                line++;
                lineStart = i + 1;
            }
        }
        return (line, offset - lineStart + 1);
    }

    /// <summary>Characters SQLite treats as whitespace between tokens (note: not \v).</summary>
    public static bool IsSpace(char c) => c is ' ' or '\t' or '\n' or '\f' or '\r';

    /// <summary>Characters that may continue an identifier; SQLite treats every non-ASCII character as one.</summary>
    public static bool IsIdChar(char c) => c >= 0x80 || char.IsAsciiLetterOrDigit(c) || c is '_' or '$';

    /// <summary>Characters that may start an identifier.</summary>
    public static bool IsIdStart(char c) => c >= 0x80 || char.IsAsciiLetter(c) || c == '_';

    private char At(int i) => i < _end ? _sql[i] : '\0';

    private SqlToken Make(SqlTokenKind kind, int start, int end)
    {
        _pos = end;
        return new SqlToken(kind, start, end - start);
    }

    private SqlToken NextRaw(out bool trivia)
    {
        trivia = false;
        int s = _pos;
        char c = At(s);
        // SQLite reads SQL as a C string, so a NUL ends it.
        if (s >= _end || c == '\0') return new SqlToken(SqlTokenKind.EndOfInput, s, 0);

        if (IsSpace(c))
        {
            int i = s + 1;
            while (i < _end && IsSpace(_sql[i])) i++;
            trivia = true;
            return Make(SqlTokenKind.EndOfInput, s, i);
        }

        switch (c)
        {
            case '-':
                if (At(s + 1) == '-')
                {
                    int i = s + 2;
                    while (i < _end && _sql[i] != '\n' && _sql[i] != '\0') i++;
                    trivia = true;
                    return Make(SqlTokenKind.EndOfInput, s, i);
                }
                if (At(s + 1) == '>')
                    return At(s + 2) == '>' ? Make(SqlTokenKind.DoubleArrow, s, s + 3) : Make(SqlTokenKind.Arrow, s, s + 2);
                return Make(SqlTokenKind.Minus, s, s + 1);
            case '/':
                if (At(s + 1) == '*')
                {
                    // An unterminated comment runs to the end of the text; SQLite accepts that.
                    int i = s + 2;
                    while (i < _end && _sql[i] != '\0' && !(_sql[i] == '*' && At(i + 1) == '/')) i++;
                    if (i < _end && _sql[i] == '*') i += 2;
                    trivia = true;
                    return Make(SqlTokenKind.EndOfInput, s, i);
                }
                return Make(SqlTokenKind.Slash, s, s + 1);
            case '(': return Make(SqlTokenKind.LeftParen, s, s + 1);
            case ')': return Make(SqlTokenKind.RightParen, s, s + 1);
            case ';': return Make(SqlTokenKind.Semicolon, s, s + 1);
            case ',': return Make(SqlTokenKind.Comma, s, s + 1);
            case '+': return Make(SqlTokenKind.Plus, s, s + 1);
            case '*': return Make(SqlTokenKind.Star, s, s + 1);
            case '%': return Make(SqlTokenKind.Percent, s, s + 1);
            case '&': return Make(SqlTokenKind.BitAnd, s, s + 1);
            case '~': return Make(SqlTokenKind.BitNot, s, s + 1);
            case '=': return Make(SqlTokenKind.Equal, s, At(s + 1) == '=' ? s + 2 : s + 1);
            case '<':
                return At(s + 1) switch
                {
                    '=' => Make(SqlTokenKind.LessEqual, s, s + 2),
                    '>' => Make(SqlTokenKind.NotEqual, s, s + 2),
                    '<' => Make(SqlTokenKind.ShiftLeft, s, s + 2),
                    _ => Make(SqlTokenKind.Less, s, s + 1),
                };
            case '>':
                return At(s + 1) switch
                {
                    '=' => Make(SqlTokenKind.GreaterEqual, s, s + 2),
                    '>' => Make(SqlTokenKind.ShiftRight, s, s + 2),
                    _ => Make(SqlTokenKind.Greater, s, s + 1),
                };
            case '!':
                return At(s + 1) == '=' ? Make(SqlTokenKind.NotEqual, s, s + 2) : Make(SqlTokenKind.Illegal, s, s + 1);
            case '|':
                return At(s + 1) == '|' ? Make(SqlTokenKind.Concat, s, s + 2) : Make(SqlTokenKind.BitOr, s, s + 1);
            case '\'':
                return Quoted(s, '\'', SqlTokenKind.String);
            case '"':
                return Quoted(s, '"', SqlTokenKind.QuotedIdentifier);
            case '`':
                return Quoted(s, '`', SqlTokenKind.QuotedIdentifier);
            case '[':
            {
                // No escapes inside brackets: the first ']' ends the name.
                int i = s + 1;
                while (i < _end && _sql[i] != ']' && _sql[i] != '\0') i++;
                return i < _end && _sql[i] == ']'
                    ? Make(SqlTokenKind.QuotedIdentifier, s, i + 1)
                    : Make(SqlTokenKind.Illegal, s, i);
            }
            case '.':
                return char.IsAsciiDigit(At(s + 1)) ? Number(s) : Make(SqlTokenKind.Dot, s, s + 1);
            case '?':
            {
                int i = s + 1;
                while (char.IsAsciiDigit(At(i))) i++;
                return Make(SqlTokenKind.Variable, s, i);
            }
            case '$':
            case '@':
            case ':':
            case '#':
                return NamedVariable(s);
        }

        if (char.IsAsciiDigit(c)) return Number(s);

        if ((c == 'x' || c == 'X') && At(s + 1) == '\'')
        {
            int i = s + 2;
            while (char.IsAsciiHexDigit(At(i))) i++;
            if (At(i) == '\'' && (i - s - 2) % 2 == 0) return Make(SqlTokenKind.Blob, s, i + 1);
            // A malformed blob swallows everything up to the next quote, as SQLite's does.
            while (i < _end && _sql[i] != '\'' && _sql[i] != '\0') i++;
            if (i < _end && _sql[i] == '\'') i++;
            return Make(SqlTokenKind.Illegal, s, i);
        }

        if (IsIdStart(c))
        {
            int i = s + 1;
            while (i < _end && IsIdChar(_sql[i])) i++;
            return Make(SqlTokenKind.Identifier, s, i);
        }

        return Make(SqlTokenKind.Illegal, s, s + 1);
    }

    private SqlToken Quoted(int s, char quote, SqlTokenKind kind)
    {
        int i = s + 1;
        while (i < _end && _sql[i] != '\0')
        {
            if (_sql[i] == quote)
            {
                if (At(i + 1) == quote)
                {
                    i += 2;
                    continue;
                }
                return Make(kind, s, i + 1);
            }
            i++;
        }
        return Make(SqlTokenKind.Illegal, s, i);
    }

    private SqlToken NamedVariable(int s)
    {
        int i = s + 1, nameChars = 0;
        while (i < _end)
        {
            char c = _sql[i];
            if (IsIdChar(c))
            {
                nameChars++;
                i++;
            }
            else if (c == '(' && nameChars > 0)
            {
                // TCL-style array suffix $name(key): runs to ')' with no whitespace inside.
                i++;
                while (i < _end && _sql[i] != '\0' && !IsSpace(_sql[i]) && _sql[i] != ')') i++;
                if (At(i) == ')') return Make(nameChars > 0 ? SqlTokenKind.Variable : SqlTokenKind.Illegal, s, i + 1);
                return Make(SqlTokenKind.Illegal, s, i);
            }
            else if (c == ':' && At(i + 1) == ':')
            {
                i += 2;
            }
            else
            {
                break;
            }
        }
        return Make(nameChars > 0 ? SqlTokenKind.Variable : SqlTokenKind.Illegal, s, i);
    }

    private SqlToken Number(int s)
    {
        var kind = SqlTokenKind.Integer;
        bool separators = false;
        int i = s;
        if (At(s) == '0' && (At(s + 1) is 'x' or 'X') && char.IsAsciiHexDigit(At(s + 2)))
        {
            i = s + 3;
            while (char.IsAsciiHexDigit(At(i)) || At(i) == '_')
            {
                separators |= At(i) == '_';
                i++;
            }
        }
        else
        {
            i = Digits(i, ref separators);
            if (At(i) == '.')
            {
                kind = SqlTokenKind.Float;
                i = Digits(i + 1, ref separators);
            }
            if ((At(i) is 'e' or 'E')
                && (char.IsAsciiDigit(At(i + 1)) || (At(i + 1) is '+' or '-' && char.IsAsciiDigit(At(i + 2)))))
            {
                kind = SqlTokenKind.Float;
                i = Digits(i + 2, ref separators);
            }
        }
        // "123abc" or "0x" is one unrecognized token, not a number followed by a name.
        if (i < _end && IsIdChar(_sql[i]))
        {
            while (i < _end && IsIdChar(_sql[i])) i++;
            return Make(SqlTokenKind.Illegal, s, i);
        }
        if (separators && !SeparatorsValid(s, i)) return Make(SqlTokenKind.Illegal, s, i);
        return Make(kind, s, i);
    }

    private int Digits(int i, ref bool separators)
    {
        while (char.IsAsciiDigit(At(i)) || At(i) == '_')
        {
            separators |= At(i) == '_';
            i++;
        }
        return i;
    }

    /// <summary>A '_' digit separator must sit between two digits (hex digits in a hex literal).</summary>
    private bool SeparatorsValid(int s, int end)
    {
        bool hex = end - s > 2 && _sql[s + 1] is 'x' or 'X';
        for (int i = s; i < end; i++)
        {
            if (_sql[i] != '_') continue;
            if (i == s || i + 1 >= end) return false;
            char before = _sql[i - 1], after = _sql[i + 1];
            bool ok = hex
                ? char.IsAsciiHexDigit(before) && char.IsAsciiHexDigit(after) && i > s + 2
                : char.IsAsciiDigit(before) && char.IsAsciiDigit(after);
            if (!ok) return false;
        }
        return true;
    }
}
