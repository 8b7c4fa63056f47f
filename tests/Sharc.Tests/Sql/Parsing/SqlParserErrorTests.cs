using Sharc.Sql.Parsing;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>Error messages (SQLite's wording) and their positions: offset, 1-based line and column.</summary>
public sealed class SqlParserErrorTests
{
    private static SharcSqlException Fail(string sql)
    {
        var act = () => SqlParser.ParseScript(sql);
        return act.Should().Throw<SharcSqlException>().Which;
    }

    [Theory]
    [InlineData("SELECT a FROM FROM t", "near \"FROM\": syntax error", 1, 15)]
    [InlineData("SELECT 1 +", "incomplete input", 1, 11)]
    [InlineData("SELECT 'abc", "unrecognized token: \"'abc\"", 1, 8)]
    [InlineData("SELECT 1abc", "unrecognized token: \"1abc\"", 1, 8)]
    [InlineData("SELECT\n  a,\n  b FROM t WHERE\n", "incomplete input", 4, 1)]
    [InlineData("SELECT a\nFROM t\nWHERE a = = 1", "near \"=\": syntax error", 3, 11)]
    [InlineData("SELECT 1;\nSELECT 2;\n  SELEC 3", "near \"SELEC\": syntax error", 3, 3)]
    [InlineData("SELECT 1 x y", "near \"y\": syntax error", 1, 12)]
    [InlineData("SELECT 1 ;; SELECT 2 2", "near \"2\": syntax error", 1, 22)]
    [InlineData("CREATE TABLE t (a CHECK (a >))", "near \")\": syntax error", 1, 29)]
    [InlineData("ALTER TABLE t ADD d)", "near \")\": syntax error", 1, 20)]
    [InlineData("ALTER TABLE t ADD d DEFAULT", "incomplete input", 1, 28)]
    public void Syntax_errors(string sql, string message, int line, int column)
    {
        var e = Fail(sql);
        e.SqliteMessage.Should().Be(message);
        e.IsSyntaxError.Should().BeTrue();
        (e.Line, e.Column).Should().Be((line, column));
        e.Message.Should().Be($"{message} (line {line}, column {column})");
    }

    [Theory]
    [InlineData("SELECT * FROM t LEFT foo JOIN u", "unknown join type: LEFT foo")]
    [InlineData("SELECT * FROM t CROSS OUTER JOIN u", "unknown join type: CROSS OUTER")]
    [InlineData("SELECT * FROM t ON 1", "a JOIN clause is required before ON")]
    [InlineData("SELECT * FROM t USING (a)", "a JOIN clause is required before USING")]
    [InlineData("SELECT 1 ORDER BY 1 UNION SELECT 2", "ORDER BY clause should come after UNION not before")]
    [InlineData("SELECT 1 LIMIT 1 UNION ALL SELECT 2", "LIMIT clause should come after UNION ALL not before")]
    [InlineData("VALUES (1), (2, 3)", "all VALUES must have the same number of terms")]
    [InlineData("WITH c(x DESC) AS (SELECT 1) SELECT 1", "syntax error after column name \"x\"")]
    [InlineData("CREATE VIEW v (a COLLATE x) AS SELECT 1", "syntax error after column name \"a\"")]
    [InlineData("WITH x AS (SELECT 1), X AS (SELECT 2) SELECT 1", "duplicate WITH table name: X")]
    [InlineData("SELECT ?0", "variable number must be between ?1 and ?32766")]
    [InlineData("SELECT ?32767", "variable number must be between ?1 and ?32766")]
    [InlineData("SELECT 0x1FFFFFFFFFFFFFFFF", "hex literal too big: 0x1FFFFFFFFFFFFFFFF")]
    [InlineData("SELECT sum(a) OVER (ROWS 1 FOLLOWING) FROM t", "unsupported frame specification")]
    [InlineData("UPDATE t SET (a, b) = (1, 2, 3)", "2 columns assigned 3 values")]
    [InlineData("CREATE TEMP TABLE main.x (a)", "temporary table name must be unqualified")]
    [InlineData("CREATE TEMP VIEW main.x AS SELECT 1", "temporary table name must be unqualified")]
    [InlineData("CREATE TEMP TRIGGER main.tr AFTER INSERT ON t BEGIN SELECT 1; END", "temporary trigger may not have qualified name")]
    [InlineData("CREATE VIEW v AS SELECT ?", "parameters are not allowed in views")]
    [InlineData("CREATE INDEX i ON t (a NULLS FIRST)", "unsupported use of NULLS FIRST")]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE main.t SET a = 1; END", "qualified table names are not allowed on INSERT, UPDATE, and DELETE statements within triggers")]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; DELETE FROM main.t AS q; x; END", "qualified table names are not allowed on INSERT, UPDATE, and DELETE statements within triggers")]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE main.t INDEXED BY i SET a = 1; END", "the INDEXED BY clause is not allowed on UPDATE or DELETE statements within triggers")]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t INDEXED BY i; END", "the INDEXED BY clause is not allowed on UPDATE or DELETE statements within triggers")]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t NOT INDEXED; END", "the NOT INDEXED clause is not allowed on UPDATE or DELETE statements within triggers")]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO t VALUES (1) RETURNING *; END", "cannot use RETURNING in a trigger")]
    [InlineData("CREATE TABLE t (a, a)", "duplicate column name: a")]
    [InlineData("CREATE TABLE t (a) WITHOUT ROWID", "PRIMARY KEY missing on table t")]
    [InlineData("CREATE TABLE t (a) FOO", "unknown table option: FOO")]
    [InlineData("CREATE TABLE t (a DEFAULT (b))", "default value of column [a] is not constant")]
    [InlineData("DELETE FROM t ORDER BY a", "ORDER BY without LIMIT on DELETE")]
    public void Rules_sqlite_checks_while_parsing(string sql, string message)
    {
        var e = Fail(sql);
        e.SqliteMessage.Should().Be(message);
        e.IsSyntaxError.Should().BeFalse();
    }

    [Fact]
    public void A_syntax_error_later_in_the_statement_wins_over_a_rule_checked_when_it_ends()
    {
        // SQLite checks these once the construct is complete, which it never is here.
        Fail("SELECT 1 ORDER BY 1 UNION SELECT 2 +").SqliteMessage.Should().Be("incomplete input");
        Fail("VALUES (1), (2, 3) +").SqliteMessage.Should().Be("near \"+\": syntax error");
        Fail("SELECT 0x1FFFFFFFFFFFFFFFF +").SqliteMessage.Should().Be("incomplete input");
        Fail("SELECT * FROM t ON 1 +").SqliteMessage.Should().Be("incomplete input");
        // SQLite 3.53 checks a trigger step's target once the step is built, at its ";".
        Fail("CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO main.t VALUES (1) x; END").SqliteMessage.Should().Be("near \"x\": syntax error");
        Fail("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE main.t INDEXED BY i x").SqliteMessage.Should().Be("near \"x\": syntax error");
    }

    [Fact]
    public void Deep_nesting_is_refused_with_sqlites_message()
    {
        var e = Fail("SELECT " + string.Concat(Enumerable.Repeat("1 + ", 1000)) + "1");
        e.SqliteMessage.Should().Be("Expression tree is too large (maximum depth 1000)");
        // 999 operators make a tree exactly 1000 high, which SQLite accepts.
        SqlParser.ParseStatement("SELECT " + string.Concat(Enumerable.Repeat("1 + ", 999)) + "1");
        SqlParser.ParseStatement("SELECT " + string.Concat(Enumerable.Repeat("- ", 999)) + "1");
        Fail("SELECT " + string.Concat(Enumerable.Repeat("- ", 1000)) + "1").SqliteMessage.Should().StartWith("Expression tree is too large");
        Fail("SELECT " + string.Concat(Enumerable.Repeat("NOT ", 1000)) + "1").SqliteMessage.Should().StartWith("Expression tree is too large");
    }

    [Fact]
    public void Empty_and_multiple_statements_are_refused_by_ParseStatement()
    {
        var act = () => SqlParser.ParseStatement("  -- nothing\n ;; ");
        act.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be("the SQL text holds no statement");
        var two = () => SqlParser.ParseStatement("SELECT 1; SELECT 2");
        two.Should().Throw<SharcSqlException>().Which.Column.Should().Be(11);
        SqlParser.ParseStatement(";; SELECT 1 ;; -- done").Should().BeOfType<Sharc.Sql.Ast.SqlSelectStatement>();
    }

    [Fact]
    public void ParseExpression_takes_one_expression_and_nothing_more()
    {
        var act = () => SqlParser.ParseExpression("1 + 2;");
        act.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be("near \";\": syntax error");
        var empty = () => SqlParser.ParseExpression("");
        empty.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be("incomplete input");
    }

    [Fact]
    public void ParseScript_can_return_the_statements_before_an_error()
    {
        var statements = SqlParser.ParseScript("SELECT 1; SELECT 2; SELECT FROM; SELECT 4", out var error);
        statements.Should().HaveCount(2);
        error!.SqliteMessage.Should().Be("near \"FROM\": syntax error");
        error.Offset.Should().Be(27);
    }
}
