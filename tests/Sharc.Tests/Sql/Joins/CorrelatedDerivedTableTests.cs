namespace Sharc.Tests.Sql.Joins;

/// <summary>Subqueries in FROM that read columns of an enclosing query, answered by Sharc and SQLite over the same file.</summary>
public sealed class CorrelatedDerivedTableTests(JoinDatabaseFixture fixture) : IClassFixture<JoinDatabaseFixture>
{
    private Sharc.Tests.Sql.Execution.QueryOracle Db => fixture.Oracle;

    [Theory]
    [InlineData("SELECT (SELECT x FROM (SELECT a.x AS x)) FROM a")]
    [InlineData("SELECT (SELECT x FROM (SELECT a.x AS x) WHERE x > 1) FROM a")]
    [InlineData("SELECT y, EXISTS (SELECT 1 FROM (SELECT b.z FROM b WHERE b.x = a.x)) FROM a")]
    [InlineData("SELECT y, (SELECT count(*) FROM (SELECT * FROM b WHERE b.x = a.x)) FROM a")]
    [InlineData("SELECT y, (SELECT group_concat(z) FROM (SELECT z FROM b WHERE b.x <= a.x ORDER BY z)) FROM a")]
    [InlineData("SELECT y FROM a WHERE x IN (SELECT v FROM (SELECT a.x + 0 AS v))")]
    [InlineData("SELECT y, (SELECT s FROM (SELECT sum(b.x) AS s FROM b WHERE b.x < a.x)) FROM a")]
    [InlineData("SELECT (SELECT t.v FROM (SELECT a.x AS v) AS t) FROM a")]
    [InlineData("SELECT y, (SELECT count(*) FROM b JOIN (SELECT a.x AS ax) ON b.x = ax) FROM a")]
    [InlineData("SELECT y, (SELECT v FROM (SELECT a.x AS v UNION ALL SELECT 99) ORDER BY v LIMIT 1) FROM a")]
    [InlineData("SELECT y, (SELECT v FROM (WITH w AS (SELECT a.x AS v) SELECT v FROM w)) FROM a")]
    [InlineData("SELECT y, (SELECT v FROM (SELECT (SELECT a.x) AS v)) FROM a")]
    [InlineData("SELECT y, (SELECT count(*) FROM (SELECT DISTINCT z FROM b WHERE b.x = a.x)) FROM a")]
    [InlineData("SELECT y, (SELECT v FROM (SELECT a.x AS v) GROUP BY v) FROM a")]
    [InlineData("SELECT y, (SELECT n FROM (SELECT count(*) AS n FROM b GROUP BY b.x HAVING b.x = a.x)) FROM a")]
    [InlineData("SELECT y, (SELECT v FROM (SELECT row_number() OVER (ORDER BY a.x) AS v)) FROM a")]
    [InlineData("SELECT y, (SELECT v FROM (SELECT * FROM (SELECT a.y AS v))) FROM a")]
    [InlineData("SELECT y FROM a WHERE EXISTS (SELECT 1 FROM (SELECT b.x FROM b WHERE b.x = a.x) AS s JOIN c ON c.x = s.x)")]
    [InlineData("SELECT * FROM a, (SELECT a.x AS v)")]
    [InlineData("SELECT * FROM a JOIN (SELECT b.z FROM b WHERE b.x = a.x) ON 1")]
    [InlineData("SELECT y, (SELECT count(*) FROM (SELECT * FROM b LIMIT a.x)) FROM a")]
    public void Derived_tables_read_enclosing_columns_as_sqlite_does(string sql) => Db.Check(sql, ordered: false);
}
