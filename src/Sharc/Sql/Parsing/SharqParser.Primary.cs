using System.Collections.Immutable;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// The operands of expressions: literals, parameters, column references, function calls, CASE, CAST, RAISE,
/// subqueries, row values and parenthesized expressions.
/// </summary>
internal sealed partial class SharqParser
{
    private SqlExpr Primary()
    {
        var t = Peek();
        switch (t.Kind)
        {
            case SqlTokenKind.Integer or SqlTokenKind.Float or SqlTokenKind.Blob:
                Next();
                return Literal(t)!;
            case SqlTokenKind.String:
                // 'x'.y names a column; SQLite accepts a string wherever a table name may be written.
                if (PeekKind(1) == SqlTokenKind.Dot) return NameOrCall();
                Next();
                return Literal(t)!;
            case SqlTokenKind.Variable:
                Next();
                return Parameter(t);
            case SqlTokenKind.LeftParen:
                return Parenthesized();
            case SqlTokenKind.QuotedIdentifier:
                return NameOrCall();
            case SqlTokenKind.Identifier:
                break;
            default:
                throw _ts.SyntaxError();
        }

        if (Literal(t) is { } literal)
        {
            Next();
            return literal;
        }
        if (Is("CASE")) return Case();
        if (Is("CAST")) return Cast();
        if (Is("RAISE")) return Raise();
        if (Is("EXISTS"))
        {
            Next();
            OpenParenthesis();
            var query = Select();
            CloseParenthesis();
            return new SqlExistsExpr(query) { Start = t.Start, End = PrevEnd, Height = Grow(SelectHeight(query), t.Start) };
        }
        if (!IsIdj()) throw _ts.SyntaxError();
        return NameOrCall();
    }

    /// <summary>
    /// The literal a token stands for, or null when it is not a literal (NULL and CURRENT_* are literals; TRUE and
    /// FALSE are names, see <see cref="NameOrCall"/>).
    /// </summary>
    private SqlLiteralExpr? Literal(SqlToken t)
    {
        var text = _ts.Text(t);
        SqlLiteralExpr? literal = t.Kind switch
        {
            SqlTokenKind.Integer => IntegerLiteral(t),
            SqlTokenKind.Float => RealLiteral(text),
            SqlTokenKind.String => new SqlStringLiteral(SqlLiteral.StringValue(text)),
            SqlTokenKind.Blob => new SqlBlobLiteral(ImmutableArray.Create(SqlLiteral.BlobValue(text))),
            SqlTokenKind.Identifier when _ts.IsWord(t, "NULL") => new SqlNullLiteral(),
            SqlTokenKind.Identifier when _ts.IsWord(t, "CURRENT_TIME") => new SqlCurrentTimeLiteral(SqlCurrentTimeKind.Time),
            SqlTokenKind.Identifier when _ts.IsWord(t, "CURRENT_DATE") => new SqlCurrentTimeLiteral(SqlCurrentTimeKind.Date),
            SqlTokenKind.Identifier when _ts.IsWord(t, "CURRENT_TIMESTAMP") => new SqlCurrentTimeLiteral(SqlCurrentTimeKind.Timestamp),
            _ => null,
        };
        return literal is null ? null : literal with { Start = t.Start, End = t.End };
    }

    private SqlLiteralExpr IntegerLiteral(SqlToken t)
    {
        var text = _ts.Text(t);
        if (SqlLiteral.TryIntegerValue(text, out long value)) return new SqlIntegerLiteral(value);
        if (text.Length > 1 && text[1] is 'x' or 'X')
        {
            // SQLite reports this when it generates code, after the whole statement has parsed.
            Defer(Error($"hex literal too big: {text}", t.Start));
            return new SqlRealLiteral(double.NaN, SqlLiteral.NumberText(text));
        }
        return RealLiteral(text);
    }

    private static SqlRealLiteral RealLiteral(ReadOnlySpan<char> token)
    {
        string text = SqlLiteral.NumberText(token);
        SqlNumeric.ParseReal(text, out double value);
        return new SqlRealLiteral(value, text);
    }

    /// <summary>
    /// A name at the start of an operand: a function call "name(…)", a column "a", "t.a" or "s.t.a", or a bare
    /// TRUE/FALSE.
    /// </summary>
    private SqlExpr NameOrCall()
    {
        var first = Peek();
        if (first.Kind != SqlTokenKind.String && PeekKind(1) == SqlTokenKind.LeftParen) return FunctionCall();
        if (PeekKind(1) == SqlTokenKind.Dot)
        {
            string a = Name();
            Next();
            string b = Name();
            if (!Accept(SqlTokenKind.Dot))
            {
                return new SqlColumnRef(null, a, b, false) { Start = first.Start, End = PrevEnd, Height = 2 };
            }
            string c = Name();
            return new SqlColumnRef(a, b, c, false) { Start = first.Start, End = PrevEnd, Height = 3 };
        }
        Next();
        if (first.Kind == SqlTokenKind.Identifier && (_ts.IsWord(first, "TRUE") || _ts.IsWord(first, "FALSE")))
        {
            return new SqlBoolLiteral(_ts.IsWord(first, "TRUE")) { Start = first.Start, End = first.End };
        }
        var text = _ts.Text(first);
        return new SqlColumnRef(null, null, SqlText.Dequote(text), text[0] == '"') { Start = first.Start, End = first.End };
    }

    /// <summary>name ( [DISTINCT|ALL] args [ORDER BY …] | * ) [FILTER (WHERE …)] [OVER window].</summary>
    private SqlExpr FunctionCall()
    {
        var nameToken = Next();
        string name = SqlText.Dequote(_ts.Text(nameToken));
        OpenParenthesis();
        bool star = false, distinct = false;
        var args = new List<SqlExpr>();
        List<SqlOrderingTerm> orderBy = [];
        // SQLite's grammar shifts "(*" and then wants ")": count(*, a) fails at the comma, as there.
        if (PeekKind() == SqlTokenKind.Star)
        {
            Next();
            star = true;
        }
        else
        {
            distinct = Accept("DISTINCT");
            if (!distinct) Accept("ALL");
            if (PeekKind() != SqlTokenKind.RightParen && !Is("ORDER")) ExprList(args);
            if (Accept("ORDER"))
            {
                Expect("BY");
                orderBy = OrderingTerms();
            }
        }
        CloseParenthesis();

        SqlExpr? filter = null;
        if (IsContextKeyword(_ts.Index, "FILTER"))
        {
            Next();
            Expect(SqlTokenKind.LeftParen);
            Expect("WHERE");
            filter = Expr();
            Expect(SqlTokenKind.RightParen);
        }
        SqlWindowSpec? over = null;
        string? overName = null;
        if (IsContextKeyword(_ts.Index, "OVER"))
        {
            Next();
            if (PeekKind() == SqlTokenKind.LeftParen)
            {
                Next();
                over = WindowSpec();
                Expect(SqlTokenKind.RightParen);
            }
            else
            {
                overName = Name();
            }
        }
        return new SqlFunctionExpr(name, distinct, star, args, orderBy, filter, over, overName)
        {
            Start = nameToken.Start,
            End = PrevEnd,
            Height = Grow(MaxHeight(args), nameToken.Start),
        };
    }

    /// <summary>CASE [operand] WHEN … THEN … [ELSE …] END.</summary>
    private SqlExpr Case()
    {
        int start = Next().Start;
        SqlExpr? operand = Is("WHEN") ? null : Expr();
        if (!Is("WHEN")) throw _ts.SyntaxError();
        var whens = new List<SqlWhenClause>();
        int height = operand?.Height ?? 0;
        while (Is("WHEN"))
        {
            int armStart = Next().Start;
            var when = Expr();
            Expect("THEN");
            var then = Expr();
            whens.Add(new SqlWhenClause(when, then) { Start = armStart, End = PrevEnd });
            height = Math.Max(height, Math.Max(when.Height, then.Height));
        }
        SqlExpr? otherwise = Accept("ELSE") ? Expr() : null;
        Expect("END");
        return new SqlCaseExpr(operand, whens, otherwise)
        {
            Start = start,
            End = PrevEnd,
            Height = Grow(MaxHeight(otherwise, height), start),
        };
    }

    /// <summary>CAST ( expr AS [type] ).</summary>
    private SqlExpr Cast()
    {
        int start = Next().Start;
        Expect(SqlTokenKind.LeftParen);
        var operand = Expr();
        Expect("AS");
        string type = TypeName();
        Expect(SqlTokenKind.RightParen);
        return new SqlCastExpr(operand, type) { Start = start, End = PrevEnd, Height = Grow(operand.Height, start) };
    }

    /// <summary>
    /// A type name as CAST accepts it: words ("ids"), optionally followed by "(n)" or "(n, m)" with signed numbers;
    /// returns its source text, or "" when there are no words.
    /// </summary>
    private string TypeName()
    {
        int first = _ts.Index;
        while (IsIds()) Next();
        if (_ts.Index == first) return string.Empty;
        if (Accept(SqlTokenKind.LeftParen))
        {
            SignedNumber();
            if (Accept(SqlTokenKind.Comma)) SignedNumber();
            Expect(SqlTokenKind.RightParen);
        }
        return _ts.Span(first, _ts.Index - 1);
    }

    private void SignedNumber()
    {
        if (PeekKind() is SqlTokenKind.Plus or SqlTokenKind.Minus) Next();
        if (PeekKind() is not (SqlTokenKind.Integer or SqlTokenKind.Float)) throw _ts.SyntaxError();
        Next();
    }

    /// <summary>RAISE ( IGNORE ) or RAISE ( ROLLBACK|ABORT|FAIL , message ).</summary>
    private SqlExpr Raise()
    {
        int start = Next().Start;
        Expect(SqlTokenKind.LeftParen);
        if (Accept("IGNORE"))
        {
            Expect(SqlTokenKind.RightParen);
            return new SqlRaiseExpr(SqlRaiseAction.Ignore, null) { Start = start, End = PrevEnd };
        }
        var action = Accept("ROLLBACK") ? SqlRaiseAction.Rollback
            : Accept("ABORT") ? SqlRaiseAction.Abort
            : Accept("FAIL") ? SqlRaiseAction.Fail
            : throw _ts.SyntaxError();
        Expect(SqlTokenKind.Comma);
        var message = Expr();
        Expect(SqlTokenKind.RightParen);
        return new SqlRaiseExpr(action, message) { Start = start, End = PrevEnd, Height = Grow(message.Height, start) };
    }

    /// <summary>"( select )", "( expr )" or the row value "( expr, expr, … )".</summary>
    private SqlExpr Parenthesized()
    {
        int start = OpenParenthesis().Start;
        if (StartsSelect())
        {
            var query = Select();
            CloseParenthesis();
            return new SqlSubqueryExpr(query) { Start = start, End = PrevEnd, Height = Grow(SelectHeight(query), start) };
        }
        var first = Expr();
        if (!Accept(SqlTokenKind.Comma))
        {
            CloseParenthesis();
            return first;
        }
        var items = new List<SqlExpr> { first };
        ExprList(items);
        CloseParenthesis();
        return new SqlRowValueExpr(items) { Start = start, End = PrevEnd, Height = Grow(MaxHeight(items), start) };
    }
}
