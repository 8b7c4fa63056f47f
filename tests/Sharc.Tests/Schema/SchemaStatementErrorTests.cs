using Sharc.Schema.Parsing;

namespace Sharc.Tests.Schema;

/// <summary>Statements SQLite refuses are refused with SQLite's own message.</summary>
public class SchemaStatementErrorTests
{
    public static TheoryData<string> Invalid => new()
    {
        "CREATE TABLE t(a varchar) STRICT",
        "CREATE TABLE t(a) STRICT",
        "CREATE TABLE t(a \"\") STRICT",
        "CREATE TABLE t(a int(5)) STRICT",
        "CREATE TABLE t(a int primary key autoincrement)",
        "CREATE TABLE t(a integer primary key autoincrement) without rowid",
        "CREATE TABLE t(a, b) without rowid",
        "CREATE TABLE t(a primary key, b primary key)",
        "CREATE TABLE t(a primary key, primary key(a))",
        "CREATE TABLE t(a as (1), b, primary key(a))",
        "CREATE TABLE t(a primary key as (1), b)",
        "CREATE TABLE t(a as (1) default 5)",
        "CREATE TABLE t(a default 5 as (1))",
        "CREATE TABLE t(a as (1) stored2)",
        "CREATE TABLE t(a as (1) \"stored\")",
        "CREATE TABLE t(a as (1), b as (2))",
        "CREATE TABLE t(a, a)",
        "CREATE TABLE t(a, A)",
        "CREATE TABLE t2(a, b, primary key(a+1))",
        "CREATE TABLE t2(a, b, unique(lower(a)))",
        "CREATE TABLE t2(a, b, unique(c))",
        "CREATE TABLE t2(a, b, primary key(c))",
        "CREATE TABLE t2(a, b, unique())",
        "CREATE TABLE t2(a, b, primary key(a nulls first))",
        "CREATE TABLE t2(a, b, unique(a desc nulls last))",
        "CREATE TABLE t3(a, b,)",
        "CREATE TABLE t4()",
        "CREATE TABLE t5(a, b) extra",
        "CREATE TABLE t5(a, b) without rowid2",
        "CREATE TABLE t5(a, b) 'strict'",
        "CREATE TABLE t6(a default -abc)",
        "CREATE TABLE t6(a default (abc))",
        "CREATE TABLE t6(a default (\"abc\"))",
        "CREATE TABLE t6(a default ((select 1)))",
        "CREATE TABLE t6(a default (?))",
        "CREATE TABLE t6(a default (abs(b)))",
        "CREATE TABLE t6(a default (x.y))",
        "CREATE TABLE t6(a default ())",
        "CREATE TABLE t6(a default)",
        "CREATE TABLE t6(a default left)",
        "CREATE TABLE t7(a b(",
        "CREATE TABLE t7(a varchar(x))",
        "CREATE TABLE t7(a int left)",
        "CREATE TABLE t7(order int)",
        "CREATE TABLE t7(a, primary key(a) autoincrement)",
        "CREATE TABLE t7(a collate)",
        "CREATE TABLE t7(a check)",
        "CREATE TABLE t7(a check())",
        "CREATE TABLE t7(a, check())",
        "CREATE TABLE t7(a as ())",
        "CREATE TABLE t7(a references)",
        "CREATE TABLE t7(a on conflict)",
        "CREATE TABLE t7(a not null on conflict bogus)",
        "CREATE TABLE t7(a 'x' 123abc)",
        "CREATE TABLE t7(a 'unterminated)",
        "CREATE TABLE t7(PRIMARY KEY(a))",
        "CREATE TABLE t7(a, PRIMARY KEY(a),)",
        "CREATE TABLE if(a)",
        "CREATE TABLE",
        "CREATE TABLE t",
        "CREATE TABLE t(a) AS SELECT 1",
        "CREATE VIRTUAL TABLE v",
        "CREATE VIRTUAL TABLE v USING",
        "CREATE VIRTUAL TABLE v USING fts5(a, (b)",
        "CREATE INDEX i ON t",
        "CREATE INDEX i ON t()",
        "CREATE INDEX i ON t(a) WHERE",
        "CREATE INDEX i ON t(a nulls first)",
        "CREATE INDEX i ON t(a collate)",
        "CREATE INDEX i ON t(a) junk",
        "CREATE UNIQUE TABLE t(a)",
        "CREATE TEMP INDEX i ON t(a)",
        "CREATE VIEW v",
        "CREATE VIEW v AS",
        "CREATE VIEW v(a,) AS SELECT 1",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN END",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;",
        "CREATE TRIGGER tr AFTER INSERT ON t SELECT 1; END",
        "CREATE TRIGGER tr AFTER FROB ON t BEGIN SELECT 1; END",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END junk",
        "CREATE THING x",
    };

    [Theory]
    [MemberData(nameof(Invalid))]
    public void Sharc_refuses_what_sqlite_refuses_with_the_same_message(string sql)
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(a, b)");
        string? sqliteError = db.TryExec(sql.StartsWith("CREATE TRIGGER") || sql.StartsWith("CREATE INDEX") ? sql : sql.Replace("TABLE t(", "TABLE tt("));
        sqliteError.Should().NotBeNull("SQLite refuses {0}", sql);
        var act = () => SchemaStatementParser.Parse(sql);
        var error = act.Should().Throw<SqlSyntaxException>().Which;
        ExtractMessage(sqliteError!).Replace("tt.", "t.").Replace("table tt", "table t").Replace("\"tt\"", "\"t\"")
            .Should().Be(error.Message);
    }

    /// <summary>Microsoft.Data.Sqlite wraps the message as "SQLite Error 1: 'message'.".</summary>
    private static string ExtractMessage(string wrapped)
    {
        int start = wrapped.IndexOf('\'') + 1;
        int end = wrapped.LastIndexOf('\'');
        return end > start ? wrapped[start..end] : wrapped;
    }

    [Theory]
    [InlineData("DROP TABLE t")]
    [InlineData("SELECT 1")]
    [InlineData("")]
    public void Only_create_statements_are_schema_statements(string sql)
    {
        var act = () => SchemaStatementParser.Parse(sql);
        act.Should().Throw<SqlSyntaxException>();
    }

    [Fact]
    public void Only_the_first_statement_counts_so_text_after_its_semicolon_is_ignored()
    {
        var st = SchemaStatementParser.Parse("CREATE TABLE t(a); @@ \"garbage '");
        st.Name.Should().Be("t");
        SchemaStatementParser.Parse("CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END; junk 'x")
            .Kind.Should().Be(SchemaObjectKind.Trigger);
    }

    [Fact]
    public void Deeply_nested_expressions_fail_cleanly_instead_of_overflowing_the_stack()
    {
        string deep = new string('(', 100_000) + "1" + new string(')', 100_000);
        var act = () => SchemaStatementParser.Parse($"CREATE TABLE t(a DEFAULT {deep}, b CHECK({deep}))");
        // The DEFAULT is too deep to analyse: it is kept as opaque text, which is not a constant.
        var table = act.Should().NotThrow().Subject.Table!.ToSharcTable(2, "x");
        table.Columns[0].HasConstantDefault.Should().BeFalse();
        SchemaStatementParser.Parse($"CREATE INDEX i ON t({deep})").Keys[0].ColumnName.Should().BeNull();
    }
}
