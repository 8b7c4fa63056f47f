using Sharc.Schema.Parsing;

namespace Sharc.Tests.Schema;

public class SqlExpressionParserTests
{
    private static (SqlExpr Expr, SqlTokenStream Tokens) Parse(string sql)
    {
        var ts = new SqlTokenStream(sql);
        SqlExpressionParser.TryParse(ts, out var e).Should().BeTrue(sql);
        return (e, ts);
    }

    [Theory]
    [InlineData("a COLLATE x", "COLLATE")]
    [InlineData("-a COLLATE x", "COLLATE")]
    [InlineData("a + b COLLATE x", "+")]
    [InlineData("NOT a COLLATE x", "NOT")]
    [InlineData("a IN (1, 2) COLLATE x", "COLLATE")]
    [InlineData("a NOT NULL COLLATE x", "COLLATE")]
    [InlineData("a IS NOT NULL COLLATE x", "IS")]
    [InlineData("a BETWEEN 1 AND 2 COLLATE x", "BETWEEN")]
    [InlineData("a OR b AND c", "OR")]
    [InlineData("a AND b OR c", "OR")]
    [InlineData("a = b < c", "=")]
    [InlineData("a * b + c", "+")]
    [InlineData("a || b * c", "*")]
    [InlineData("CASE WHEN a THEN b END COLLATE x", "COLLATE")]
    public void Operator_precedence_decides_the_root(string sql, string root)
    {
        var (e, ts) = Parse(sql);
        e = e.Unparenthesized;
        string actual = e.Kind switch
        {
            SqlExprKind.Collate => "COLLATE",
            SqlExprKind.Unary => ts.Text(ts.At(e.OpToken)).ToString(),
            SqlExprKind.Operator => FirstOperator(ts, e),
            _ => e.Kind.ToString(),
        };
        actual.Should().Be(root);
    }

    /// <summary>The operator of a binary node is the first token after its left operand.</summary>
    private static string FirstOperator(SqlTokenStream ts, SqlExpr e)
        => ts.Text(ts.At(e.Children![0].Last + 1)).ToString().ToUpperInvariant();

    [Theory]
    [InlineData("a DESC", "DESC")]
    [InlineData("a COLLATE x ASC", "ASC")]
    [InlineData("f(a, b) , c", ",")]
    [InlineData("(a) )", ")")]
    [InlineData("new.a > 0 BEGIN", "BEGIN")]
    public void Parsing_stops_at_the_first_token_that_cannot_continue_the_expression(string sql, string next)
    {
        var (_, ts) = Parse(sql);
        ts.Text(ts.Peek()).ToString().Should().Be(next);
    }

    [Theory]
    [InlineData("")]
    [InlineData(")")]
    [InlineData("a +")]
    [InlineData("CASE END")]
    [InlineData("(a")]
    [InlineData("a COLLATE")]
    [InlineData("SELECT")]
    public void Failure_leaves_the_position_unchanged(string sql)
    {
        var ts = new SqlTokenStream("x " + sql);
        ts.Index = 1;
        SqlExpressionParser.TryParse(ts, out _).Should().BeFalse();
        ts.Index.Should().Be(1);
    }

    [Fact]
    public void Subqueries_and_window_calls_are_opaque_but_skipped_whole()
    {
        var (e, ts) = Parse("(SELECT max(x) FROM t) + count(*) FILTER (WHERE y) OVER (PARTITION BY z) + EXISTS (SELECT 1)");
        e.Kind.Should().Be(SqlExprKind.Operator);
        ts.Peek().Kind.Should().Be(SqlTokenKind.EndOfInput);
    }
}
