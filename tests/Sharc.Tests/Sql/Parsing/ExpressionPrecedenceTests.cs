using Sharc.Sql.Parsing;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// Operator precedence and associativity, checked by printing the tree fully parenthesized. The expected shapes
/// follow SQLite's grammar (parse.y's precedence table), including its less obvious corners.
/// </summary>
public sealed class ExpressionPrecedenceTests
{
    [Theory]
    // NOT binds looser than comparisons and tighter than AND.
    [InlineData("NOT x = y", "(NOT (x = y))")]
    [InlineData("NOT a AND b", "((NOT a) AND b)")]
    [InlineData("NOT NOT a", "(NOT (NOT a))")]
    [InlineData("a = NOT b", "(a = (NOT b))")]
    [InlineData("a + NOT b + c", "(a + (NOT (b + c)))")]
    [InlineData("a OR b AND c", "(a OR (b AND c))")]
    [InlineData("a AND b OR c AND d", "((a AND b) OR (c AND d))")]
    // || binds tighter than * and +.
    [InlineData("a || b * c", "((a || b) * c)")]
    [InlineData("a * b || c", "(a * (b || c))")]
    [InlineData("a -> b ->> c || d", "(((a -> b) ->> c) || d)")]
    // Unary operators bind tighter than COLLATE, which binds tighter than everything else.
    [InlineData("-x COLLATE nocase", "((-x) COLLATE nocase)")]
    [InlineData("a || b COLLATE nocase", "(a || (b COLLATE nocase))")]
    [InlineData("~a + -b", "((~a) + (-b))")]
    [InlineData("- - x", "(-(-x))")]
    [InlineData("1 - -1", "(1 - (-1))")]
    [InlineData("-a.b", "(-a.b)")]
    [InlineData("- NOT x = y", "(-(NOT (x = y)))")]
    // Arithmetic and bitwise levels, all left associative.
    [InlineData("a - b - c", "((a - b) - c)")]
    [InlineData("a / b * c % d", "(((a / b) * c) % d)")]
    [InlineData("a + b * c", "(a + (b * c))")]
    [InlineData("a & b | c << d >> e", "((((a & b) | c) << d) >> e)")]
    [InlineData("a + b & c", "((a + b) & c)")]
    [InlineData("a & b < c", "((a & b) < c)")]
    [InlineData("a < b = c", "((a < b) = c)")]
    [InlineData("a = b < c", "(a = (b < c))")]
    // Equality-level operators share one level and associate to the left.
    [InlineData("a = b = c", "((a = b) = c)")]
    [InlineData("a == b != c <> d", "(((a = b) <> c) <> d)")]
    [InlineData("a = b IS c", "((a = b) IS c)")]
    [InlineData("a IS b = c", "((a IS b) = c)")]
    [InlineData("a IS NOT b", "(a IS NOT b)")]
    [InlineData("x IS NOT DISTINCT FROM y", "(x IS y)")]
    [InlineData("x IS DISTINCT FROM y", "(x IS NOT y)")]
    [InlineData("x IS NULL", "(x IS NULL)")]
    [InlineData("x IS NOT NULL", "(x IS NOT NULL)")]
    [InlineData("x IS DISTINCT FROM NULL", "(x IS NOT NULL)")]
    [InlineData("x ISNULL", "(x IS NULL)")]
    [InlineData("x NOTNULL", "(x IS NOT NULL)")]
    [InlineData("x NOT NULL", "(x IS NOT NULL)")]
    [InlineData("a + b ISNULL", "((a + b) IS NULL)")]
    [InlineData("a = b ISNULL", "((a = b) IS NULL)")]
    [InlineData("NOT a ISNULL", "(NOT (a IS NULL))")]
    [InlineData("a LIKE b = c", "((a LIKE b) = c)")]
    [InlineData("a = b LIKE c", "((a = b) LIKE c)")]
    [InlineData("a LIKE b < c", "(a LIKE (b < c))")]
    // ESCAPE sits between comparisons and the bitwise operators.
    [InlineData("a LIKE b ESCAPE c", "(a LIKE b ESCAPE c)")]
    [InlineData("a NOT GLOB b ESCAPE c & d", "(a NOT GLOB b ESCAPE (c & d))")]
    [InlineData("a LIKE b ESCAPE c < d", "((a LIKE b ESCAPE c) < d)")]
    [InlineData("a REGEXP b", "(a REGEXP b)")]
    [InlineData("a NOT MATCH b", "(a NOT MATCH b)")]
    // BETWEEN: the low bound ends at AND; the high bound binds like an equality operand.
    [InlineData("x BETWEEN a AND b", "(x BETWEEN a AND b)")]
    [InlineData("x NOT BETWEEN a AND b AND c", "((x NOT BETWEEN a AND b) AND c)")]
    [InlineData("x BETWEEN a + 1 AND b * 2", "(x BETWEEN (a + 1) AND (b * 2))")]
    [InlineData("x BETWEEN a = b AND c", "(x BETWEEN (a = b) AND c)")]
    [InlineData("x BETWEEN a AND b = c", "((x BETWEEN a AND b) = c)")]
    [InlineData("x BETWEEN NOT a AND b", "(x BETWEEN (NOT a) AND b)")]
    [InlineData("x BETWEEN a BETWEEN b AND c AND d", "(x BETWEEN (a BETWEEN b AND c) AND d)")]
    // IN.
    [InlineData("x IN ()", "(x IN ())")]
    [InlineData("x IN (1, 2) = y", "((x IN (1, 2)) = y)")]
    [InlineData("x NOT IN (SELECT 1)", "(x NOT IN (SELECT 1))")]
    [InlineData("x IN t", "(x IN t)")]
    [InlineData("x IN main.t", "(x IN main.t)")]
    [InlineData("x IN f(1, 2)", "(x IN f(1, 2))")]
    [InlineData("(a, b) IN (SELECT 1, 2)", "((a, b) IN (SELECT 1, 2))")]
    [InlineData("x IN ((SELECT 1), 2)", "(x IN ((SELECT 1), 2))")]
    // Operands.
    [InlineData("(a + b) * c", "((a + b) * c)")]
    [InlineData("((a))", "a")]
    [InlineData("CAST(a + 1 AS INTEGER) + 1", "(CAST((a + 1) AS INTEGER) + 1)")]
    [InlineData("CASE a WHEN 1 THEN b + 1 ELSE c END = d", "(CASE a WHEN 1 THEN (b + 1) ELSE c END = d)")]
    [InlineData("NOT EXISTS (SELECT 1) OR x", "((NOT EXISTS (SELECT 1)) OR x)")]
    [InlineData("count(*) + sum(DISTINCT a)", "(count(*) + sum(DISTINCT a))")]
    [InlineData("'a'.b + \"c\"", "(a.b + c)")]
    [InlineData("s.t.c = 1", "(s.t.c = 1)")]
    [InlineData("true AND false", "(TRUE AND FALSE)")]
    [InlineData("\"true\"", "\"true\"")]
    [InlineData("CASE END WHEN 1 THEN 2 END", "CASE \"END\" WHEN 1 THEN 2 END")]
    public void Shape(string sql, string expected)
    {
        var e = SqlParser.ParseExpression(sql);
        SqlAstPrinter.Print(e, sql).Should().Be(expected);
    }

    [Theory]
    [InlineData("1", typeof(Sharc.Sql.Ast.SqlIntegerLiteral))]
    [InlineData("0x10", typeof(Sharc.Sql.Ast.SqlIntegerLiteral))]
    [InlineData("9223372036854775807", typeof(Sharc.Sql.Ast.SqlIntegerLiteral))]
    [InlineData("9223372036854775808", typeof(Sharc.Sql.Ast.SqlRealLiteral))]
    [InlineData("1.5", typeof(Sharc.Sql.Ast.SqlRealLiteral))]
    [InlineData(".5e1", typeof(Sharc.Sql.Ast.SqlRealLiteral))]
    [InlineData("'x'", typeof(Sharc.Sql.Ast.SqlStringLiteral))]
    [InlineData("x'AB'", typeof(Sharc.Sql.Ast.SqlBlobLiteral))]
    [InlineData("NULL", typeof(Sharc.Sql.Ast.SqlNullLiteral))]
    [InlineData("TRUE", typeof(Sharc.Sql.Ast.SqlBoolLiteral))]
    [InlineData("current_timestamp", typeof(Sharc.Sql.Ast.SqlCurrentTimeLiteral))]
    public void Literal_kinds(string sql, Type type) => SqlParser.ParseExpression(sql).Should().BeOfType(type);

    [Fact]
    public void Literal_values()
    {
        ((Sharc.Sql.Ast.SqlIntegerLiteral)SqlParser.ParseExpression("0xFFFFFFFFFFFFFFFF")).Value.Should().Be(-1);
        ((Sharc.Sql.Ast.SqlIntegerLiteral)SqlParser.ParseExpression("1_000")).Value.Should().Be(1000);
        var big = (Sharc.Sql.Ast.SqlRealLiteral)SqlParser.ParseExpression("9223372036854775808");
        big.Value.Should().Be(9223372036854775808.0);
        big.IsInt64MinMagnitude.Should().BeTrue();
        ((Sharc.Sql.Ast.SqlRealLiteral)SqlParser.ParseExpression("1e999")).Value.Should().Be(double.PositiveInfinity);
        ((Sharc.Sql.Ast.SqlStringLiteral)SqlParser.ParseExpression("'it''s'")).Value.Should().Be("it's");
        ((Sharc.Sql.Ast.SqlBlobLiteral)SqlParser.ParseExpression("X'0aFF'")).Value.Should().Equal(0x0A, 0xFF);
        var column = (Sharc.Sql.Ast.SqlColumnRef)SqlParser.ParseExpression("\"a\"\"b\"");
        column.Name.Should().Be("a\"b");
        column.DoubleQuoted.Should().BeTrue();
        ((Sharc.Sql.Ast.SqlColumnRef)SqlParser.ParseExpression("[a b]")).DoubleQuoted.Should().BeFalse();
    }

    [Fact]
    public void Spans_cover_the_source_text()
    {
        const string sql = "  a + (b * c)  ";
        var e = (Sharc.Sql.Ast.SqlBinaryExpr)SqlParser.ParseExpression(sql);
        sql[e.Start..e.End].Should().Be("a + (b * c)");
        sql[e.Right.Start..e.Right.End].Should().Be("b * c");
    }
}
