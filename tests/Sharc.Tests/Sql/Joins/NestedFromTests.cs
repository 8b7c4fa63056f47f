namespace Sharc.Tests.Sql.Joins;

/// <summary>
/// Parenthesized joins that SQLite runs as a nested FROM (a subquery whose columns keep their tables' names): on the
/// right of LEFT, RIGHT, FULL, NATURAL and USING joins, with USING inside, aliased; and a table NATURAL-joined to
/// itself. Hand-picked cases, answered by Sharc and SQLite over the same file.
/// </summary>
public sealed class NestedFromTests(JoinDatabaseFixture fixture) : IClassFixture<JoinDatabaseFixture>
{
    private Sharc.Tests.Sql.Execution.QueryOracle Db => fixture.Oracle;

    [Theory]
    [InlineData("SELECT * FROM a LEFT JOIN (b JOIN c ON b.x = c.x) ON a.x = b.x")]
    [InlineData("SELECT * FROM a LEFT JOIN (b JOIN c ON b.x = c.x) ON a.x = c.x")]
    [InlineData("SELECT * FROM a LEFT JOIN (b LEFT JOIN c ON b.x = c.x) ON a.x = b.x")]
    [InlineData("SELECT * FROM a LEFT JOIN (b, c) ON a.x = b.x AND b.x = c.x")]
    [InlineData("SELECT * FROM a NATURAL JOIN (b, c)")]
    [InlineData("SELECT * FROM a NATURAL JOIN (b JOIN c ON b.x = c.x)")]
    [InlineData("SELECT * FROM a NATURAL LEFT JOIN (b NATURAL JOIN c)")]
    [InlineData("SELECT * FROM a JOIN (b JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a JOIN (b JOIN c ON b.x = c.x) USING (x)")]
    [InlineData("SELECT * FROM a RIGHT JOIN (b JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a FULL JOIN (b JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a LEFT JOIN (b RIGHT JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a LEFT JOIN (b FULL JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT x, b.x, c.x FROM a LEFT JOIN (b FULL JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT x FROM a JOIN (b JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT x FROM a NATURAL JOIN (b JOIN c ON b.x = c.x)")]
    [InlineData("SELECT a.x, b.x, c.x FROM a JOIN (b JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT c.* FROM a JOIN (b JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT b.* FROM a LEFT JOIN (b JOIN c USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a LEFT JOIN (b JOIN c USING (x)) ON a.x = c.x")]
    [InlineData("SELECT count(*) FROM a LEFT JOIN (b JOIN c USING (x)) USING (x) WHERE c.w IS NULL")]
    [InlineData("SELECT * FROM a LEFT JOIN (b JOIN (c) USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a LEFT JOIN (b JOIN (SELECT * FROM c) AS cc USING (x)) USING (x)")]
    [InlineData("SELECT cc.w FROM a LEFT JOIN (b JOIN (SELECT * FROM c) AS cc USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a LEFT JOIN (b JOIN (c JOIN a AS a2 USING (x)) USING (x)) USING (x)")]
    [InlineData("SELECT a2.y FROM a LEFT JOIN (b JOIN (c JOIN a AS a2 USING (x)) USING (x)) USING (x)")]
    [InlineData("SELECT * FROM a JOIN (b JOIN c ON b.x = c.x) AS bc ON a.x = bc.x")]
    [InlineData("SELECT b.z FROM a JOIN (b JOIN c ON b.x = c.x) AS bc ON a.x = bc.x")]
    [InlineData("SELECT * FROM a JOIN (b) USING (x)")]
    [InlineData("SELECT * FROM a JOIN ((b)) USING (x)")]
    [InlineData("SELECT * FROM a, (b JOIN c USING (x))")]
    [InlineData("SELECT * FROM a JOIN (b LEFT JOIN c ON b.x = c.x) ON a.x = b.x")]
    [InlineData("SELECT a.y, (SELECT count(*) FROM b LEFT JOIN (c JOIN p ON p.id = c.x) ON c.x = b.x WHERE b.x = a.x) FROM a")]
    public void Parenthesized_joins_read_as_a_nested_from(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT * FROM a NATURAL JOIN a")]
    [InlineData("SELECT a.x, a.y FROM a NATURAL JOIN a")]
    [InlineData("SELECT a.* FROM a NATURAL JOIN a")]
    [InlineData("SELECT * FROM a JOIN a USING (x, y)")]
    [InlineData("SELECT * FROM a LEFT JOIN a USING (x, y)")]
    [InlineData("SELECT * FROM a NATURAL LEFT JOIN a")]
    [InlineData("SELECT * FROM a NATURAL RIGHT JOIN a")]
    [InlineData("SELECT a.x FROM a NATURAL FULL JOIN a")]
    [InlineData("SELECT a.x FROM a JOIN a USING (x)")]
    public void A_table_joined_to_itself_on_all_its_columns_is_not_ambiguous(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT * FROM a JOIN a USING (x)", "ambiguous column name: main.a.y")]
    [InlineData("SELECT a.y FROM a JOIN a USING (x)", "ambiguous column name: a.y")]
    [InlineData("SELECT x FROM a, (b JOIN c ON b.x = c.x)", "ambiguous column name: x")]
    [InlineData("SELECT c.x, x FROM a LEFT JOIN (b LEFT JOIN c USING (x)) ON 1", "ambiguous column name: x")]
    [InlineData("SELECT bc.* FROM a JOIN (b JOIN c ON b.x = c.x) AS bc ON a.x = bc.x", "no such table: bc")]
    [InlineData("SELECT * FROM a, (c JOIN (b NATURAL JOIN c) USING (x))", "ambiguous column name: main.c.w")]
    [InlineData("SELECT * FROM a JOIN (a FULL JOIN a AS a2 USING (x)) USING (x)", "ambiguous column name: main.a.y")]
    public void Nested_from_errors_say_what_sqlite_says(string sql, string message)
    {
        Db.Expected(sql).Should().Equal(["ERROR"]);
        Assert.Throws<SharcSqlException>(() =>
        {
            using var r = Db.Db.Query(sql);
            while (r.Read()) { }
        }).SqliteMessage.Should().Be(message);
    }
}
