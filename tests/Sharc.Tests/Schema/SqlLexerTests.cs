using Sharc.Schema.Parsing;

namespace Sharc.Tests.Schema;

public class SqlLexerTests
{
    private static List<(SqlTokenKind Kind, string Text)> Lex(string sql)
        => SqlLexer.Tokenize(sql).Select(t => (t.Kind, t.Text(sql).ToString())).ToList();

    private static (SqlTokenKind Kind, string Text) Single(string sql)
    {
        var tokens = Lex(sql);
        tokens.Should().HaveCount(2, "'{0}' should be one token", sql);
        tokens[1].Kind.Should().Be(SqlTokenKind.EndOfInput);
        return tokens[0];
    }

    [Theory]
    [InlineData("abc", SqlTokenKind.Identifier)]
    [InlineData("_a1$b", SqlTokenKind.Identifier)]
    [InlineData("ÉtéΩ", SqlTokenKind.Identifier)]
    [InlineData("SELECT", SqlTokenKind.Identifier)]
    [InlineData("\"a b\"", SqlTokenKind.QuotedIdentifier)]
    [InlineData("\"a\"\"b\"", SqlTokenKind.QuotedIdentifier)]
    [InlineData("[a \"b]", SqlTokenKind.QuotedIdentifier)]
    [InlineData("`a``b`", SqlTokenKind.QuotedIdentifier)]
    [InlineData("'it''s'", SqlTokenKind.String)]
    [InlineData("''", SqlTokenKind.String)]
    [InlineData("x'0aFF'", SqlTokenKind.Blob)]
    [InlineData("X''", SqlTokenKind.Blob)]
    [InlineData("123", SqlTokenKind.Integer)]
    [InlineData("0x1F", SqlTokenKind.Integer)]
    [InlineData("0XaBc", SqlTokenKind.Integer)]
    [InlineData("1_000", SqlTokenKind.Integer)]
    [InlineData("0x1_F", SqlTokenKind.Integer)]
    [InlineData("1.5", SqlTokenKind.Float)]
    [InlineData(".5", SqlTokenKind.Float)]
    [InlineData("5.", SqlTokenKind.Float)]
    [InlineData("1e10", SqlTokenKind.Float)]
    [InlineData("1E-7", SqlTokenKind.Float)]
    [InlineData("2.5e+3", SqlTokenKind.Float)]
    [InlineData("1e5_0", SqlTokenKind.Float)]
    [InlineData("?", SqlTokenKind.Variable)]
    [InlineData("?12", SqlTokenKind.Variable)]
    [InlineData(":name", SqlTokenKind.Variable)]
    [InlineData("@p1", SqlTokenKind.Variable)]
    [InlineData("$a::b(c d)", SqlTokenKind.Illegal)]
    [InlineData("$a::b(cd)", SqlTokenKind.Variable)]
    [InlineData("#x", SqlTokenKind.Variable)]
    public void Single_tokens_have_their_sqlite_class(string sql, object expected)
    {
        var kind = (SqlTokenKind)expected;
        if (kind == SqlTokenKind.Illegal)
        {
            Lex(sql).Should().Contain(t => t.Kind == SqlTokenKind.Illegal);
            return;
        }
        Single(sql).Should().Be((kind, sql));
    }

    [Theory]
    [InlineData("(", SqlTokenKind.LeftParen)]
    [InlineData(")", SqlTokenKind.RightParen)]
    [InlineData(",", SqlTokenKind.Comma)]
    [InlineData(";", SqlTokenKind.Semicolon)]
    [InlineData(".", SqlTokenKind.Dot)]
    [InlineData("+", SqlTokenKind.Plus)]
    [InlineData("-", SqlTokenKind.Minus)]
    [InlineData("*", SqlTokenKind.Star)]
    [InlineData("/", SqlTokenKind.Slash)]
    [InlineData("%", SqlTokenKind.Percent)]
    [InlineData("||", SqlTokenKind.Concat)]
    [InlineData("->", SqlTokenKind.Arrow)]
    [InlineData("->>", SqlTokenKind.DoubleArrow)]
    [InlineData("=", SqlTokenKind.Equal)]
    [InlineData("==", SqlTokenKind.Equal)]
    [InlineData("!=", SqlTokenKind.NotEqual)]
    [InlineData("<>", SqlTokenKind.NotEqual)]
    [InlineData("<", SqlTokenKind.Less)]
    [InlineData("<=", SqlTokenKind.LessEqual)]
    [InlineData(">", SqlTokenKind.Greater)]
    [InlineData(">=", SqlTokenKind.GreaterEqual)]
    [InlineData("<<", SqlTokenKind.ShiftLeft)]
    [InlineData(">>", SqlTokenKind.ShiftRight)]
    [InlineData("&", SqlTokenKind.BitAnd)]
    [InlineData("|", SqlTokenKind.BitOr)]
    [InlineData("~", SqlTokenKind.BitNot)]
    public void Operators_are_single_tokens(string sql, object kind)
        => Single(sql).Should().Be(((SqlTokenKind)kind, sql));

    [Theory]
    [InlineData("'abc")]
    [InlineData("\"abc")]
    [InlineData("[abc")]
    [InlineData("`abc")]
    [InlineData("x'0'")]
    [InlineData("x'zz'")]
    [InlineData("123abc")]
    [InlineData("0x")]
    [InlineData("1$")]
    [InlineData("1_")]
    [InlineData("1__0")]
    [InlineData("0x_1")]
    [InlineData("1._5")]
    [InlineData("!")]
    [InlineData("^")]
    [InlineData("{")]
    [InlineData("\\")]
    [InlineData("\v")]
    [InlineData(":")]
    [InlineData("@")]
    public void Text_sqlite_rejects_is_an_illegal_token(string sql)
        => Lex(sql).Should().ContainSingle(t => t.Kind == SqlTokenKind.Illegal);

    [Fact]
    public void Illegal_tokens_are_the_ones_sqlite_names_in_its_error()
    {
        // SQLite: unrecognized token: "x'0'" / "123abc" / "'abc"
        Lex("SELECT x'0' FROM t")[1].Should().Be((SqlTokenKind.Illegal, "x'0'"));
        Lex("a 123abc b")[1].Should().Be((SqlTokenKind.Illegal, "123abc"));
        Lex("a 'abc")[1].Should().Be((SqlTokenKind.Illegal, "'abc"));
    }

    [Fact]
    public void Comments_and_whitespace_separate_tokens_and_are_skipped()
    {
        Lex("a/*x*/b -- c\n\t\fd\r\n/* unterminated")
            .Should().Equal((SqlTokenKind.Identifier, "a"), (SqlTokenKind.Identifier, "b"), (SqlTokenKind.Identifier, "d"), (SqlTokenKind.EndOfInput, ""));
    }

    [Fact]
    public void Minus_and_slash_are_operators_unless_they_start_a_comment()
        => Lex("a-b/c--x").Select(t => t.Kind).Should().Equal(
            SqlTokenKind.Identifier, SqlTokenKind.Minus, SqlTokenKind.Identifier, SqlTokenKind.Slash, SqlTokenKind.Identifier, SqlTokenKind.EndOfInput);

    [Fact]
    public void A_number_directly_followed_by_a_dot_name_is_a_float_then_a_name()
        => Lex("1.e").Select(t => t.Kind).Should().Equal(SqlTokenKind.Illegal, SqlTokenKind.EndOfInput);

    [Fact]
    public void Exponent_without_digits_is_not_part_of_the_number()
        => Lex("1e+ 2").Select(t => t.Text).Should().Equal("1e", "+", "2", "");

    [Fact]
    public void A_nul_character_ends_the_text_as_in_sqlites_c_strings()
        => Lex("a\0 b").Should().Equal((SqlTokenKind.Identifier, "a"), (SqlTokenKind.EndOfInput, ""));

    [Fact]
    public void Adjacent_tokens_need_no_space()
        => Lex("t(a,b)x'00'").Select(t => t.Kind).Should().Equal(
            SqlTokenKind.Identifier, SqlTokenKind.LeftParen, SqlTokenKind.Identifier, SqlTokenKind.Comma,
            SqlTokenKind.Identifier, SqlTokenKind.RightParen, SqlTokenKind.Blob, SqlTokenKind.EndOfInput);

    [Fact]
    public void Tokens_are_offsets_into_the_source()
    {
        const string sql = "  CREATE  TABLE \"t\"";
        var tokens = SqlLexer.Tokenize(sql);
        tokens[0].Should().Be(new SqlToken(SqlTokenKind.Identifier, 2, 6));
        tokens[2].Start.Should().Be(16);
        tokens[2].End.Should().Be(19);
    }

    [Theory]
    [InlineData("abc", 0, 1, 1)]
    [InlineData("abc", 2, 1, 3)]
    [InlineData("a\nbc\n  d", 7, 3, 3)]
    [InlineData("a\nb", 2, 2, 1)]
    public void Offsets_map_to_one_based_line_and_column(string sql, int offset, int line, int column)
        => SqlLexer.LineAndColumn(sql, offset).Should().Be((line, column));

    [Fact]
    public void Syntax_errors_carry_line_and_column()
    {
        var act = () => Sharc.Schema.Parsing.SchemaStatementParser.Parse("CREATE TABLE t(\n  a INT,\n  b NOT )");
        var e = act.Should().Throw<SqlSyntaxException>().Which;
        e.Message.Should().Be("near \")\": syntax error");
        (e.Line, e.Column).Should().Be((3, 9));
    }

    [Fact]
    public void Every_keyword_is_recognized_in_any_case_and_nothing_else_is()
    {
        SqlKeywords.All.Should().HaveCount(147);
        foreach (var k in SqlKeywords.All)
        {
            SqlKeywords.IsKeyword(k.ToLowerInvariant()).Should().BeTrue(k);
        }
        SqlKeywords.IsKeyword("rowid").Should().BeFalse();
        SqlKeywords.IsKeyword("true").Should().BeFalse();
        // Only ASCII letters fold: a dotless i does not make "IN".
        SqlKeywords.IsKeyword("\u0131n").Should().BeFalse();
    }

    [Fact]
    public void Lexing_random_text_always_terminates_with_ordered_non_overlapping_tokens()
    {
        var rng = new Random(12345);
        const string alphabet = "abcxX019_$'\"`[]().,;-+*/%|=<>!~&?:@#eE \t\n\r\v\0é\u2028{}^\\";
        for (int n = 0; n < 3000; n++)
        {
            var chars = new char[rng.Next(0, 40)];
            for (int i = 0; i < chars.Length; i++) chars[i] = alphabet[rng.Next(alphabet.Length)];
            var sql = new string(chars);
            var tokens = SqlLexer.Tokenize(sql);
            tokens[^1].Kind.Should().Be(SqlTokenKind.EndOfInput);
            int previousEnd = 0;
            foreach (var t in tokens)
            {
                t.Start.Should().BeGreaterThanOrEqualTo(previousEnd);
                t.End.Should().BeLessThanOrEqualTo(sql.Length);
                if (t.Kind != SqlTokenKind.EndOfInput) t.Length.Should().BePositive();
                previousEnd = t.End;
            }
        }
    }
}
