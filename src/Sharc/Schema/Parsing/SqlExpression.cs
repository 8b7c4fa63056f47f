using System.Runtime.CompilerServices;

namespace Sharc.Schema.Parsing;

/// <summary>The shape of an expression node: only as much structure as schema reading needs.</summary>
internal enum SqlExprKind : byte
{
    /// <summary>A number, string, blob, NULL or CURRENT_TIME/DATE/TIMESTAMP.</summary>
    Literal,
    /// <summary>A single (possibly quoted) identifier; TRUE and FALSE are names too, as in SQLite.</summary>
    Name,
    /// <summary>a.b or a.b.c.</summary>
    QualifiedName,
    /// <summary>A bound parameter.</summary>
    Variable,
    /// <summary>( expr ): transparent for evaluation, kept for the source text.</summary>
    Paren,
    /// <summary>Prefix -, +, ~ or NOT; <see cref="SqlExpr.OpToken"/> says which.</summary>
    Unary,
    /// <summary>expr COLLATE name.</summary>
    Collate,
    /// <summary>CAST(expr AS type).</summary>
    Cast,
    /// <summary>Any other operator (binary, BETWEEN, IN, LIKE, IS NULL …); its operands are the children.</summary>
    Operator,
    /// <summary>A function call; arguments are the children (none when they could not be parsed).</summary>
    Function,
    /// <summary>CASE … END.</summary>
    Case,
    /// <summary>(SELECT …), EXISTS (…), RAISE(…), or a row value: never constant.</summary>
    Opaque,
}

/// <summary>One node of a parsed expression, with the token range it covers.</summary>
internal sealed class SqlExpr
{
    /// <summary>Creates a node.</summary>
    public SqlExpr(SqlExprKind kind, int first, int last)
    {
        Kind = kind;
        First = first;
        Last = last;
    }

    /// <summary>The node kind.</summary>
    public SqlExprKind Kind { get; }
    /// <summary>Index of the node's first token.</summary>
    public int First { get; }
    /// <summary>Index of the node's last token.</summary>
    public int Last { get; set; }
    /// <summary>The operand of unary, paren, collate and cast nodes.</summary>
    public SqlExpr? Operand { get; init; }
    /// <summary>Operands of operators, arguments of functions, parts of CASE.</summary>
    public List<SqlExpr>? Children { get; init; }
    /// <summary>The operator token of a unary node, the collation name of a collate node.</summary>
    public int OpToken { get; init; } = -1;
    /// <summary>For casts: the first and last token of the type name (First &gt; Last when it is empty).</summary>
    public (int First, int Last) TypeTokens { get; init; }

    /// <summary>This node with any enclosing parentheses removed.</summary>
    public SqlExpr Unparenthesized
    {
        get
        {
            var e = this;
            while (e.Kind == SqlExprKind.Paren) e = e.Operand!;
            return e;
        }
    }
}

/// <summary>
/// A small precedence-climbing parser for SQLite expressions. It recovers the structure schema reading needs:
/// which COLLATE applies to a whole index key, whether a key is a bare column, and whether a DEFAULT is a
/// constant. Operator precedence follows SQLite's grammar (e.g. "-a COLLATE x" is "(-a) COLLATE x", while
/// "a+b COLLATE x" is "a+(b COLLATE x)"). Anything it does not understand makes <see cref="TryParse"/> fail,
/// and callers then treat the expression as opaque text.
/// </summary>
internal sealed class SqlExpressionParser
{
    private const int PrecOr = 1, PrecAnd = 2, PrecNot = 3, PrecEquality = 4, PrecCompare = 5,
        PrecBits = 7, PrecAdd = 8, PrecMul = 9, PrecConcat = 10, PrecCollate = 11, PrecUnary = 12;

    private readonly SqlTokenStream _ts;
    private int _depth;

    private SqlExpressionParser(SqlTokenStream ts) => _ts = ts;

    /// <summary>
    /// Parses one expression at the stream's position and stops at the first token that cannot continue it.
    /// On failure the position is restored and false is returned; no exception escapes.
    /// </summary>
    public static bool TryParse(SqlTokenStream ts, out SqlExpr expr)
    {
        int start = ts.Index;
        try
        {
            expr = new SqlExpressionParser(ts).Parse(0);
            return true;
        }
        catch (Exception e) when (e is SqlSyntaxException or InsufficientExecutionStackException)
        {
            ts.Index = start;
            expr = null!;
            return false;
        }
    }

    private SqlExpr Parse(int minPrec)
    {
        if (++_depth > SqlTokenStream.MaxDepth) throw _ts.Error("Expression tree is too large (maximum depth 1000)", _ts.Peek());
        RuntimeHelpers.EnsureSufficientExecutionStack();
        var left = ParseUnary();
        while (true)
        {
            var next = ParseInfix(left, minPrec);
            if (next is null) break;
            left = next;
        }
        _depth--;
        return left;
    }

    private SqlExpr ParseUnary()
    {
        int first = _ts.Index;
        var t = _ts.Peek();
        if (t.Kind is SqlTokenKind.Minus or SqlTokenKind.Plus or SqlTokenKind.BitNot)
        {
            _ts.Index++;
            var operand = Parse(PrecUnary);
            return new SqlExpr(SqlExprKind.Unary, first, operand.Last) { Operand = operand, OpToken = first };
        }
        if (_ts.IsWord(t, "NOT"))
        {
            _ts.Index++;
            var operand = Parse(PrecNot);
            return new SqlExpr(SqlExprKind.Unary, first, operand.Last) { Operand = operand, OpToken = first };
        }
        return ParsePrimary();
    }

    private SqlExpr ParsePrimary()
    {
        int first = _ts.Index;
        var t = _ts.Peek();
        switch (t.Kind)
        {
            case SqlTokenKind.Integer:
            case SqlTokenKind.Float:
            case SqlTokenKind.String:
            case SqlTokenKind.Blob:
                _ts.Index++;
                return new SqlExpr(SqlExprKind.Literal, first, first);
            case SqlTokenKind.Variable:
                _ts.Index++;
                return new SqlExpr(SqlExprKind.Variable, first, first);
            case SqlTokenKind.LeftParen:
                return ParseParenthesized();
            case SqlTokenKind.QuotedIdentifier:
                return ParseNameOrCall();
            case SqlTokenKind.Identifier:
                break;
            default:
                throw _ts.SyntaxError();
        }

        if (_ts.IsWord(t, "NULL") || _ts.IsWord(t, "CURRENT_TIME") || _ts.IsWord(t, "CURRENT_DATE") || _ts.IsWord(t, "CURRENT_TIMESTAMP"))
        {
            _ts.Index++;
            return new SqlExpr(SqlExprKind.Literal, first, first);
        }
        if (_ts.IsWord(t, "CASE")) return ParseCase();
        if (_ts.IsWord(t, "CAST") && _ts.Peek(1).Kind == SqlTokenKind.LeftParen) return ParseCast();
        if ((_ts.IsWord(t, "EXISTS") || _ts.IsWord(t, "RAISE")) && _ts.Peek(1).Kind == SqlTokenKind.LeftParen)
        {
            _ts.Index++;
            var (_, close) = _ts.SkipParenthesized();
            return new SqlExpr(SqlExprKind.Opaque, first, close);
        }
        if (_ts.WordClass(t) == SqlWordClass.Reserved) throw _ts.SyntaxError();
        return ParseNameOrCall();
    }

    private SqlExpr ParseParenthesized()
    {
        int first = _ts.Index;
        var inner = _ts.Peek(1);
        if (_ts.IsWord(inner, "SELECT") || _ts.IsWord(inner, "WITH") || _ts.IsWord(inner, "VALUES"))
        {
            var (_, close) = _ts.SkipParenthesized();
            return new SqlExpr(SqlExprKind.Opaque, first, close);
        }
        _ts.Index++;
        var e = Parse(0);
        if (_ts.TryKind(SqlTokenKind.Comma))
        {
            // A row value such as (a, b): not something a schema needs to look into.
            var items = new List<SqlExpr> { e };
            do items.Add(Parse(0)); while (_ts.TryKind(SqlTokenKind.Comma));
            _ts.Expect(SqlTokenKind.RightParen);
            return new SqlExpr(SqlExprKind.Opaque, first, _ts.Index - 1) { Children = items };
        }
        _ts.Expect(SqlTokenKind.RightParen);
        return new SqlExpr(SqlExprKind.Paren, first, _ts.Index - 1) { Operand = e };
    }

    private SqlExpr ParseNameOrCall()
    {
        int first = _ts.Index;
        _ts.Index++;
        if (_ts.Peek().Kind == SqlTokenKind.LeftParen) return ParseCallArguments(first);
        if (_ts.Peek().Kind == SqlTokenKind.Dot)
        {
            int parts = 1;
            while (parts < 3 && _ts.TryKind(SqlTokenKind.Dot))
            {
                if (!_ts.IsName(_ts.Peek())) throw _ts.SyntaxError();
                _ts.Index++;
                parts++;
            }
            return new SqlExpr(SqlExprKind.QualifiedName, first, _ts.Index - 1);
        }
        return new SqlExpr(SqlExprKind.Name, first, first);
    }

    private SqlExpr ParseCallArguments(int first)
    {
        int open = _ts.Index;
        _ts.Index++;
        var args = new List<SqlExpr>();
        bool parsed = true;
        if (_ts.Peek().Kind == SqlTokenKind.Star && _ts.Peek(1).Kind == SqlTokenKind.RightParen)
        {
            _ts.Index += 2;
        }
        else if (!_ts.TryKind(SqlTokenKind.RightParen))
        {
            if (_ts.PeekWord("DISTINCT") || _ts.PeekWord("ALL")) _ts.Index++;
            do args.Add(Parse(0)); while (_ts.TryKind(SqlTokenKind.Comma));
            if (!_ts.TryKind(SqlTokenKind.RightParen))
            {
                // ORDER BY inside an aggregate, or other syntax not worth modelling: keep the call opaque.
                _ts.Index = open;
                _ts.SkipParenthesized();
                parsed = false;
            }
        }
        if (_ts.PeekWord("FILTER") && _ts.Peek(1).Kind == SqlTokenKind.LeftParen)
        {
            _ts.Index++;
            _ts.SkipParenthesized();
        }
        if (_ts.PeekWord("OVER"))
        {
            _ts.Index++;
            if (_ts.Peek().Kind == SqlTokenKind.LeftParen) _ts.SkipParenthesized();
            else _ts.ExpectName();
        }
        return parsed
            ? new SqlExpr(SqlExprKind.Function, first, _ts.Index - 1) { Children = args }
            : new SqlExpr(SqlExprKind.Opaque, first, _ts.Index - 1);
    }

    private SqlExpr ParseCase()
    {
        int first = _ts.Index;
        _ts.Index++;
        var parts = new List<SqlExpr>();
        if (!_ts.PeekWord("WHEN")) parts.Add(Parse(0));
        if (!_ts.PeekWord("WHEN")) throw _ts.SyntaxError();
        while (_ts.TryWord("WHEN"))
        {
            parts.Add(Parse(0));
            _ts.ExpectWord("THEN");
            parts.Add(Parse(0));
        }
        if (_ts.TryWord("ELSE")) parts.Add(Parse(0));
        _ts.ExpectWord("END");
        return new SqlExpr(SqlExprKind.Case, first, _ts.Index - 1) { Children = parts };
    }

    private SqlExpr ParseCast()
    {
        int first = _ts.Index;
        _ts.Index += 2;
        var operand = Parse(0);
        _ts.ExpectWord("AS");
        int typeFirst = _ts.Index;
        while (_ts.IsIds(_ts.Peek())) _ts.Index++;
        if (_ts.Peek().Kind == SqlTokenKind.LeftParen && _ts.Index > typeFirst) _ts.SkipParenthesized();
        int typeLast = _ts.Index - 1;
        _ts.Expect(SqlTokenKind.RightParen);
        return new SqlExpr(SqlExprKind.Cast, first, _ts.Index - 1) { Operand = operand, TypeTokens = (typeFirst, typeLast) };
    }

    /// <summary>Extends <paramref name="left"/> with one infix or postfix operator, or returns null when none applies.</summary>
    private SqlExpr? ParseInfix(SqlExpr left, int minPrec)
    {
        var t = _ts.Peek();
        int first = left.First;

        if (_ts.IsWord(t, "COLLATE"))
        {
            if (PrecCollate < minPrec) return null;
            _ts.Index++;
            if (!_ts.IsIds(_ts.Peek())) throw _ts.SyntaxError();
            int name = _ts.Index++;
            return new SqlExpr(SqlExprKind.Collate, first, name) { Operand = left, OpToken = name };
        }

        int prec = BinaryPrecedence(t);
        if (prec > 0)
        {
            if (prec < minPrec) return null;
            _ts.Index++;
            var right = Parse(prec + 1);
            return Operator(first, left, right);
        }

        if (t.Kind != SqlTokenKind.Identifier || PrecEquality < minPrec) return null;

        // Word operators, all at SQLite's equality level.
        int save = _ts.Index;
        if (_ts.TryWord("ISNULL") || _ts.TryWord("NOTNULL")) return Operator(first, left);
        if (_ts.TryWord("IS"))
        {
            _ts.TryWord("NOT");
            if (_ts.TryWord("DISTINCT")) _ts.ExpectWord("FROM");
            return Operator(first, left, Parse(PrecEquality + 1));
        }
        bool negated = _ts.TryWord("NOT");
        if (negated && _ts.TryWord("NULL")) return Operator(first, left);
        if (_ts.TryWord("BETWEEN"))
        {
            var low = Parse(PrecEquality + 1);
            _ts.ExpectWord("AND");
            return Operator(first, left, low, Parse(PrecEquality + 1));
        }
        if (_ts.TryWord("IN"))
        {
            if (_ts.Peek().Kind == SqlTokenKind.LeftParen)
            {
                _ts.SkipParenthesized();
            }
            else
            {
                _ts.ExpectQualifiedName();
                if (_ts.Peek().Kind == SqlTokenKind.LeftParen) _ts.SkipParenthesized();
            }
            return Operator(first, left);
        }
        if (_ts.TryWord("LIKE") || _ts.TryWord("GLOB") || _ts.TryWord("REGEXP") || _ts.TryWord("MATCH"))
        {
            var pattern = Parse(PrecEquality + 1);
            if (_ts.TryWord("ESCAPE")) return Operator(first, left, pattern, Parse(PrecBits));
            return Operator(first, left, pattern);
        }
        _ts.Index = save;
        return null;
    }

    private SqlExpr Operator(int first, params SqlExpr[] operands)
        => new(SqlExprKind.Operator, first, _ts.Index - 1) { Children = [.. operands] };

    private int BinaryPrecedence(SqlToken t) => t.Kind switch
    {
        SqlTokenKind.Concat or SqlTokenKind.Arrow or SqlTokenKind.DoubleArrow => PrecConcat,
        SqlTokenKind.Star or SqlTokenKind.Slash or SqlTokenKind.Percent => PrecMul,
        SqlTokenKind.Plus or SqlTokenKind.Minus => PrecAdd,
        SqlTokenKind.BitAnd or SqlTokenKind.BitOr or SqlTokenKind.ShiftLeft or SqlTokenKind.ShiftRight => PrecBits,
        SqlTokenKind.Less or SqlTokenKind.LessEqual or SqlTokenKind.Greater or SqlTokenKind.GreaterEqual => PrecCompare,
        SqlTokenKind.Equal or SqlTokenKind.NotEqual => PrecEquality,
        SqlTokenKind.Identifier when _ts.IsWord(t, "AND") => PrecAnd,
        SqlTokenKind.Identifier when _ts.IsWord(t, "OR") => PrecOr,
        _ => 0,
    };
}
