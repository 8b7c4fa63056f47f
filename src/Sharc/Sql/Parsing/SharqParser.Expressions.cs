using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// Expression operators, by precedence climbing over SQLite's table (lowest to highest): OR; AND; NOT;
/// = == != &lt;&gt; IS IN LIKE GLOB MATCH REGEXP BETWEEN ISNULL NOTNULL; &lt; &lt;= &gt; &gt;=; ESCAPE;
/// &amp; | &lt;&lt; &gt;&gt;; + -; * / %; || -&gt; -&gt;&gt;; COLLATE; unary ~ + -. Binary operators associate to the
/// left; NOT and the unary operators bind their operand at their own level.
/// </summary>
internal sealed partial class SharqParser
{
    private const int PrecOr = 1, PrecAnd = 2, PrecNot = 3, PrecEquality = 4, PrecCompare = 5, PrecEscape = 6,
        PrecBits = 7, PrecAdd = 8, PrecMultiply = 9, PrecConcat = 10, PrecCollate = 11, PrecUnary = 12;

    /// <summary>Parses a whole expression at the current token.</summary>
    internal SqlExpr Expr() => Expr(0);

    /// <summary>
    /// An expression whose operators all bind at least as tightly as <paramref name="minPrecedence"/>. Prefix
    /// operators are collected first and applied innermost-first, each after the infix operators that bind tighter
    /// than it ("NOT a = b" is NOT (a = b), "-a * b" is (-a) * b): a loop, so long chains such as "NOT NOT … x" do
    /// not recurse.
    /// </summary>
    private SqlExpr Expr(int minPrecedence)
    {
        Enter();
        List<SqlToken>? prefixes = null;
        while (PrefixOperator(Peek()) is not null) (prefixes ??= new()).Add(Next());
        var operand = Primary();
        if (prefixes is not null)
        {
            for (int i = prefixes.Count - 1; i >= 0; i--)
            {
                var op = PrefixOperator(prefixes[i])!.Value;
                operand = InfixChain(operand, op == SqlUnaryOperator.Not ? PrecNot : PrecUnary);
                operand = new SqlUnaryExpr(op, operand)
                {
                    Start = prefixes[i].Start,
                    End = PrevEnd,
                    Height = Grow(operand.Height, prefixes[i].Start),
                };
            }
        }
        var result = InfixChain(operand, minPrecedence);
        Leave();
        return result;
    }

    /// <summary>Extends <paramref name="left"/> with infix and postfix operators binding at least at <paramref name="minPrecedence"/>.</summary>
    private SqlExpr InfixChain(SqlExpr left, int minPrecedence)
    {
        while (true)
        {
            int precedence = InfixPrecedence(Peek());
            if (precedence == 0 || precedence < minPrecedence) return left;
            left = Infix(left, precedence);
        }
    }

    private SqlUnaryOperator? PrefixOperator(SqlToken t) => t.Kind switch
    {
        SqlTokenKind.Minus => SqlUnaryOperator.Negate,
        SqlTokenKind.Plus => SqlUnaryOperator.Plus,
        SqlTokenKind.BitNot => SqlUnaryOperator.BitNot,
        SqlTokenKind.Identifier when _ts.IsWord(t, "NOT") => SqlUnaryOperator.Not,
        _ => null,
    };

    private int InfixPrecedence(SqlToken t)
    {
        switch (t.Kind)
        {
            case SqlTokenKind.Concat or SqlTokenKind.Arrow or SqlTokenKind.DoubleArrow: return PrecConcat;
            case SqlTokenKind.Star or SqlTokenKind.Slash or SqlTokenKind.Percent: return PrecMultiply;
            case SqlTokenKind.Plus or SqlTokenKind.Minus: return PrecAdd;
            case SqlTokenKind.BitAnd or SqlTokenKind.BitOr or SqlTokenKind.ShiftLeft or SqlTokenKind.ShiftRight: return PrecBits;
            case SqlTokenKind.Less or SqlTokenKind.LessEqual or SqlTokenKind.Greater or SqlTokenKind.GreaterEqual: return PrecCompare;
            case SqlTokenKind.Equal or SqlTokenKind.NotEqual: return PrecEquality;
            case SqlTokenKind.Identifier: break;
            default: return 0;
        }
        var word = _ts.Text(t);
        if (word.Length > 7) return 0;
        Span<char> upper = stackalloc char[7];
        int n = word.ToUpperInvariant(upper);
        return upper[..n] switch
        {
            "OR" => PrecOr,
            "AND" => PrecAnd,
            "IS" or "ISNULL" or "NOTNULL" or "NOT" or "IN" or "BETWEEN" or "LIKE" or "GLOB" or "REGEXP" or "MATCH" => PrecEquality,
            "COLLATE" => PrecCollate,
            _ => 0,
        };
    }

    private SqlExpr Infix(SqlExpr left, int precedence)
    {
        var t = Next();
        int start = left.Start;
        var op = t.Kind switch
        {
            SqlTokenKind.Concat => SqlBinaryOperator.Concat,
            SqlTokenKind.Arrow => SqlBinaryOperator.JsonExtract,
            SqlTokenKind.DoubleArrow => SqlBinaryOperator.JsonExtractValue,
            SqlTokenKind.Star => SqlBinaryOperator.Multiply,
            SqlTokenKind.Slash => SqlBinaryOperator.Divide,
            SqlTokenKind.Percent => SqlBinaryOperator.Remainder,
            SqlTokenKind.Plus => SqlBinaryOperator.Add,
            SqlTokenKind.Minus => SqlBinaryOperator.Subtract,
            SqlTokenKind.BitAnd => SqlBinaryOperator.BitAnd,
            SqlTokenKind.BitOr => SqlBinaryOperator.BitOr,
            SqlTokenKind.ShiftLeft => SqlBinaryOperator.ShiftLeft,
            SqlTokenKind.ShiftRight => SqlBinaryOperator.ShiftRight,
            SqlTokenKind.Less => SqlBinaryOperator.Less,
            SqlTokenKind.LessEqual => SqlBinaryOperator.LessOrEqual,
            SqlTokenKind.Greater => SqlBinaryOperator.Greater,
            SqlTokenKind.GreaterEqual => SqlBinaryOperator.GreaterOrEqual,
            SqlTokenKind.Equal => SqlBinaryOperator.Equal,
            SqlTokenKind.NotEqual => SqlBinaryOperator.NotEqual,
            _ when _ts.IsWord(t, "AND") => SqlBinaryOperator.And,
            _ when _ts.IsWord(t, "OR") => SqlBinaryOperator.Or,
            _ => (SqlBinaryOperator)255,
        };
        if (op != (SqlBinaryOperator)255) return Binary(op, left, Expr(precedence + 1));

        if (_ts.IsWord(t, "COLLATE"))
        {
            string collation = Ids();
            return new SqlCollateExpr(left, collation) { Start = start, End = PrevEnd, Height = Grow(left.Height, start) };
        }
        if (_ts.IsWord(t, "ISNULL")) return NullTest(false, left);
        if (_ts.IsWord(t, "NOTNULL")) return NullTest(true, left);
        if (_ts.IsWord(t, "IS"))
        {
            bool not = Accept("NOT");
            if (Accept("DISTINCT"))
            {
                Expect("FROM");
                not = !not;
            }
            var right = Expr(PrecEquality + 1);
            // As in SQLite, comparing with a literal NULL is a null test.
            if (right is SqlNullLiteral) return NullTest(not, left);
            return Binary(not ? SqlBinaryOperator.IsNot : SqlBinaryOperator.Is, left, right);
        }
        bool negated = false;
        var word = t;
        if (_ts.IsWord(t, "NOT"))
        {
            negated = true;
            if (Accept("NULL")) return NullTest(true, left);
            word = Next();
        }
        if (_ts.IsWord(word, "BETWEEN")) return Between(negated, left);
        if (_ts.IsWord(word, "IN")) return In(negated, left);
        SqlLikeOperator? like = _ts.IsWord(word, "LIKE") ? SqlLikeOperator.Like
            : _ts.IsWord(word, "GLOB") ? SqlLikeOperator.Glob
            : _ts.IsWord(word, "REGEXP") ? SqlLikeOperator.Regexp
            : _ts.IsWord(word, "MATCH") ? SqlLikeOperator.Match
            : null;
        if (like is null) throw _ts.SyntaxError(word);
        return Like(like.Value, negated, left);
    }

    private SqlBinaryExpr Binary(SqlBinaryOperator op, SqlExpr left, SqlExpr right)
        => new(op, left, right)
        {
            Start = left.Start,
            End = PrevEnd,
            Height = Grow(Math.Max(left.Height, right.Height), left.Start),
        };

    private SqlNullTestExpr NullTest(bool not, SqlExpr operand)
        => new(not, operand) { Start = operand.Start, End = PrevEnd, Height = Grow(operand.Height, operand.Start) };

    /// <summary>SQLite builds "NOT x" around LIKE, BETWEEN and IN, one level taller; the depth limit counts it.</summary>
    private int NegatedHeight(bool not, int height, int start) => not ? Grow(height, start) : height;

    private SqlExpr Like(SqlLikeOperator op, bool not, SqlExpr left)
    {
        var pattern = Expr(PrecCompare);
        SqlExpr? escape = Accept("ESCAPE") ? Expr(PrecEscape + 1) : null;
        int height = Grow(MaxHeight(escape, Math.Max(left.Height, pattern.Height)), left.Start);
        return new SqlLikeExpr(op, not, left, pattern, escape)
        {
            Start = left.Start,
            End = PrevEnd,
            Height = NegatedHeight(not, height, left.Start),
        };
    }

    /// <summary>
    /// x BETWEEN low AND high. The low bound stops at AND (as SQLite's grammar resolves it); an OR there can never
    /// be completed in SQLite either, so stopping at it reports the same syntax error sooner.
    /// </summary>
    private SqlExpr Between(bool not, SqlExpr left)
    {
        var low = Expr(PrecNot);
        Expect("AND");
        var high = Expr(PrecEquality + 1);
        int height = Grow(Math.Max(left.Height, Math.Max(low.Height, high.Height)), left.Start);
        return new SqlBetweenExpr(not, left, low, high)
        {
            Start = left.Start,
            End = PrevEnd,
            Height = NegatedHeight(not, height, left.Start),
        };
    }

    private SqlExpr In(bool not, SqlExpr left)
    {
        int start = left.Start;
        if (PeekKind() == SqlTokenKind.LeftParen)
        {
            if (StartsSelect(1))
            {
                OpenParenthesis();
                var query = Select();
                CloseParenthesis();
                int h = Grow(Math.Max(left.Height, SelectHeight(query)), start);
                return new SqlInSelectExpr(not, left, query) { Start = start, End = PrevEnd, Height = NegatedHeight(not, h, start) };
            }
            var items = ParenthesizedExprList();
            int height = Grow(MaxHeight(items, left.Height), start);
            return new SqlInListExpr(not, left, items) { Start = start, End = PrevEnd, Height = NegatedHeight(not, height, start) };
        }
        var (schema, name, _) = QualifiedName();
        List<SqlExpr>? args = PeekKind() == SqlTokenKind.LeftParen ? ParenthesizedExprList() : null;
        int tableHeight = Grow(args is null ? left.Height : MaxHeight(args, left.Height), start);
        return new SqlInTableExpr(not, left, schema, name, args)
        {
            Start = start,
            End = PrevEnd,
            Height = NegatedHeight(not, tableHeight, start),
        };
    }

    /// <summary>"( [expr, …] )": a possibly empty list.</summary>
    private List<SqlExpr> ParenthesizedExprList()
    {
        OpenParenthesis();
        var items = new List<SqlExpr>();
        if (PeekKind() != SqlTokenKind.RightParen) ExprList(items);
        CloseParenthesis();
        return items;
    }

    /// <summary>"expr, expr, …" (at least one).</summary>
    private List<SqlExpr> ExprList(List<SqlExpr>? into = null)
    {
        var items = into ?? new List<SqlExpr>();
        do items.Add(Expr()); while (Accept(SqlTokenKind.Comma));
        return items;
    }

    /// <summary>An ordering term list: "expr [ASC|DESC] [NULLS FIRST|LAST], …".</summary>
    private List<SqlOrderingTerm> OrderingTerms()
    {
        var terms = new List<SqlOrderingTerm>();
        do
        {
            var e = Expr();
            var order = Accept("ASC") ? SqlSortOrder.Ascending : Accept("DESC") ? SqlSortOrder.Descending : SqlSortOrder.Unspecified;
            var nulls = SqlNullsOrder.Unspecified;
            if (Accept("NULLS"))
            {
                if (Accept("FIRST")) nulls = SqlNullsOrder.First;
                else if (Accept("LAST")) nulls = SqlNullsOrder.Last;
                else throw _ts.SyntaxError();
            }
            terms.Add(new SqlOrderingTerm(e, order, nulls) { Start = e.Start, End = PrevEnd });
        } while (Accept(SqlTokenKind.Comma));
        return terms;
    }

    /// <summary>
    /// CREATE INDEX and ON CONFLICT targets accept NULLS FIRST/LAST in their grammar but refuse them once the
    /// statement is complete.
    /// </summary>
    private void RefuseNullsOrder(List<SqlOrderingTerm> terms)
    {
        foreach (var term in terms)
        {
            if (term.Nulls == SqlNullsOrder.Unspecified) continue;
            Defer(Error($"unsupported use of NULLS {(term.Nulls == SqlNullsOrder.First ? "FIRST" : "LAST")}", term.Start));
            return;
        }
    }
}
