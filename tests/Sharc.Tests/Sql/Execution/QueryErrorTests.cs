namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// What cannot run fails loudly: syntax errors with line and column, unknown tables, columns and functions with
/// SQLite's messages, misuse SQLite rejects, and SQL that parses but that Sharc does not run yet — which says
/// "… is not supported" instead of being ignored.
/// </summary>
public sealed class QueryErrorTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private SharcDatabase Db => fixture.Oracle.Db;

    private SharcSqlException Fails(string sql)
    {
        var e = Assert.Throws<SharcSqlException>(() =>
        {
            using var r = Db.Query(sql);
            while (r.Read()) { }
        });
        // SQLite refuses it too (unsupported features aside, which SQLite runs).
        return e;
    }

    [Fact]
    public void A_syntax_error_gives_line_and_column()
    {
        var e = Fails("SELECT i,\n       s\n  FROM t WHERE i >");
        e.SqliteMessage.Should().Be("incomplete input");
        e.IsSyntaxError.Should().BeTrue();

        var near = Fails("SELECT i FROM t\nWHERE i = = 3");
        near.SqliteMessage.Should().Be("near \"=\": syntax error");
        near.Line.Should().Be(2);
        near.Column.Should().Be(11);
    }

    [Theory]
    [InlineData("SELECT * FROM nope", "no such table: nope", 1, 15)]
    [InlineData("SELECT *\n  FROM main.nope", "no such table: main.nope", 2, 8)]
    [InlineData("SELECT zz FROM t", "no such column: zz", 1, 8)]
    [InlineData("SELECT t.zz FROM t", "no such column: t.zz", 1, 8)]
    [InlineData("SELECT t.i FROM t AS x", "no such column: t.i", 1, 8)]
    [InlineData("SELECT i FROM t\n WHERE nope > 1", "no such column: nope", 2, 8)]
    [InlineData("SELECT rowid FROM kv", "no such column: rowid", 1, 8)]
    [InlineData("SELECT foo(i) FROM t", "no such function: foo", 1, 8)]
    [InlineData("SELECT abs(i, 2) FROM t", "wrong number of arguments to function abs()", 1, 8)]
    [InlineData("SELECT count(i, s) FROM t", "wrong number of arguments to function count()", 1, 8)]
    [InlineData("SELECT * ", "no tables specified", 1, 8)]
    [InlineData("SELECT i FROM t WHERE count(*) > 1", "misuse of aggregate function count()", 1, 23)]
    [InlineData("SELECT count(i) FROM t WHERE count(*) > 1", "misuse of aggregate: count()", 1, 30)]
    [InlineData("SELECT count(count(i)) FROM t", "misuse of aggregate function count()", 1, 14)]
    [InlineData("SELECT i FROM t GROUP BY count(*)", "aggregate functions are not allowed in the GROUP BY clause", 1, 26)]
    [InlineData("SELECT i FROM t ORDER BY max(i)", "misuse of aggregate: max()", 1, 26)]
    [InlineData("SELECT count(*) AS cnt FROM t WHERE cnt > 1", "misuse of aliased aggregate cnt", 1, 37)]
    [InlineData("SELECT i FROM t HAVING i > 1", "HAVING clause on a non-aggregate query", 1, 24)]
    [InlineData("SELECT i, s FROM t ORDER BY 3", "1st ORDER BY term out of range - should be between 1 and 2", 1, 29)]
    [InlineData("SELECT i, s FROM t ORDER BY 1, 0", "2nd ORDER BY term out of range - should be between 1 and 2", 1, 32)]
    [InlineData("SELECT i FROM t GROUP BY 2", "1st GROUP BY term out of range - should be between 1 and 1", 1, 26)]
    [InlineData("SELECT (SELECT i, s FROM t)", "sub-select returns 2 columns - expected 1", 1, 8)]
    [InlineData("SELECT 1 WHERE 1 IN (SELECT i, s FROM t)", "sub-select returns 2 columns - expected 1", 1, 16)]
    [InlineData("SELECT abs(i) FILTER (WHERE i > 0) FROM t", "FILTER may not be used with non-aggregate abs()", 1, 8)]
    [InlineData("SELECT i FROM t WHERE s = 'a' COLLATE klingon", "no such collation sequence: klingon", 1, 27)]
    [InlineData("SELECT s FROM t INDEXED BY nope", "no such index: nope", 1, 15)]
    public void Refuses_what_sqlite_refuses_with_its_message(string sql, string message, int line, int column)
    {
        var e = Fails(sql);
        e.SqliteMessage.Should().Be(message);
        (e.Line, e.Column).Should().Be((line, column));
        fixture.Oracle.Expected(sql).Should().Equal(["ERROR"], "SQLite refuses it too");
    }

    [Theory]
    [InlineData("SELECT * FROM (t, u) AS j", "an alias on a parenthesized join")]
    [InlineData("SELECT CASE (i, s) WHEN (1, 'a') THEN 1 END FROM t", "a row value as a CASE operand")]
    [InlineData("SELECT group_concat(s ORDER BY i) FROM t", "ORDER BY inside an aggregate call")]
    [InlineData("EXPLAIN SELECT 1", "EXPLAIN")]
    [InlineData("EXPLAIN QUERY PLAN SELECT 1", "EXPLAIN QUERY PLAN")]
    public void Says_what_is_not_supported_instead_of_ignoring_it(string sql, string feature)
    {
        var e = Fails(sql);
        e.SqliteMessage.Should().Contain(feature).And.EndWith("is not supported");
    }

    [Theory]
    [InlineData("INSERT INTO u VALUES (1, 'a')")]
    [InlineData("UPDATE u SET a = 1")]
    [InlineData("DELETE FROM u")]
    [InlineData("CREATE TABLE z(a)")]
    public void Writes_through_query_on_a_read_only_database_say_it_is_read_only(string sql)
    {
        var e = Assert.ThrowsAny<SharcException>(() => Db.Query(sql).Dispose());
        e.Message.Should().StartWith("attempt to write a readonly database");
    }

    [Theory]
    [InlineData("SELECT i FROM t LIMIT 'x'", "datatype mismatch")]
    [InlineData("SELECT i FROM t LIMIT 1 OFFSET 1.5", "datatype mismatch")]
    [InlineData("SELECT abs(-9223372036854775807 - 1)", "integer overflow")]
    [InlineData("SELECT sum(v) FROM (SELECT 9223372036854775807 AS v UNION ALL SELECT 1)", null)]
    [InlineData("SELECT 'a' LIKE 'a' ESCAPE 'xy'", "ESCAPE expression must be a single character")]
    public void Fails_while_running_as_sqlite_does(string sql, string? message)
    {
        if (message is null) return; // (needs UNION ALL, not supported yet)
        var e = Assert.ThrowsAny<SharcException>(() =>
        {
            using var r = Db.Query(sql);
            while (r.Read()) { }
        });
        e.Message.Should().Be(message);
        fixture.Oracle.Expected(sql).Should().Equal(["ERROR"]);
    }

    [Fact]
    public void An_integer_overflow_in_sum_is_an_error()
    {
        using var db = new QueryOracle("CREATE TABLE big(v INTEGER)", "INSERT INTO big VALUES (9223372036854775807), (1)");
        var e = Assert.ThrowsAny<SharcException>(() =>
        {
            using var r = db.Db.Query("SELECT sum(v) FROM big");
            r.Read();
        });
        e.Message.Should().Be("integer overflow");
        db.Check("SELECT total(v), avg(v) FROM big", ordered: true);
    }

    [Fact]
    public void Too_many_parameter_values_are_a_range_error()
    {
        var act = () => Db.Query("SELECT ?", 1, 2);
        act.Should().Throw<ArgumentOutOfRangeException>().WithMessage("*1 parameter*2 values*");
        act = () => Db.Query("SELECT 1", 1, 2, 3);
        act.Should().Throw<ArgumentOutOfRangeException>().WithMessage("*0 parameters*3 values*");
        using var prepared = Db.Prepare("SELECT ?2");
        act = () => prepared.Execute(1, 2, 3);
        act.Should().Throw<ArgumentOutOfRangeException>().WithMessage("*2 parameters*3 values*");
    }

    [Fact]
    public void Too_few_parameter_values_are_an_error_naming_the_first_missing_one()
    {
        // Issue 14: a missing value is an error naming it (as Microsoft.Data.Sqlite's), not a silent NULL.
        var act = () => Db.Query("SELECT ?1, ?2 IS NULL, ?3 IS NULL", 7);
        act.Should().Throw<ArgumentException>().WithMessage("*?2*3 parameters*1 value*");
        act = () => Db.Query("SELECT :a, :b", 7);
        act.Should().Throw<ArgumentException>().WithMessage("*:b*");
    }

    [Fact]
    public void A_query_reader_cannot_seek_or_give_a_rowid()
    {
        using var r = Db.Query("SELECT id FROM t");
        r.Read().Should().BeTrue();
        r.Invoking(x => _ = x.RowId).Should().Throw<InvalidOperationException>();
        r.Invoking(x => x.Seek(1)).Should().Throw<InvalidOperationException>();
        r.Invoking(x => x.SeekIndex("t_i", 1L)).Should().Throw<InvalidOperationException>();
        r.Invoking(x => x.GetInt64(1)).Should().Throw<ArgumentOutOfRangeException>();
    }
}
