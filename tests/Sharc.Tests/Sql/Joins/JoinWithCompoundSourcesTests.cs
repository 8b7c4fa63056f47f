namespace Sharc.Tests.Sql.Joins;

/// <summary>
/// Joins whose items are CTEs (plain, materialized, recursive), VALUES and compound subqueries — the meeting point of
/// the join and compound engines — answered by Sharc and by SQLite over the same file.
/// </summary>
public sealed class JoinWithCompoundSourcesTests(JoinDatabaseFixture fixture) : IClassFixture<JoinDatabaseFixture>
{
    [Theory]
    [InlineData("WITH t AS (SELECT x FROM a) SELECT * FROM t JOIN b ON b.x = t.x")]
    [InlineData("WITH t AS MATERIALIZED (SELECT x, y FROM a) SELECT * FROM t u JOIN t v ON v.x = u.x")]
    [InlineData("WITH t AS (SELECT x FROM a) SELECT * FROM t u JOIN t v ON v.x = u.x + 3")]
    [InlineData("SELECT * FROM a JOIN (VALUES (1, 'one'), (2, 'two'), (2.0, 'real')) v ON v.column1 = a.x")]
    [InlineData("SELECT * FROM (VALUES ('2'), (3)) v LEFT JOIN c ON c.x = v.column1")]
    [InlineData("SELECT * FROM a JOIN (SELECT x FROM b UNION SELECT x FROM c) u ON u.x = a.x")]
    [InlineData("SELECT * FROM c JOIN (SELECT w FROM c UNION ALL SELECT 'c3') u USING (w)")]
    [InlineData("SELECT * FROM p RIGHT JOIN (SELECT pid FROM q INTERSECT SELECT id FROM p) k ON k.pid = p.id")]
    [InlineData("SELECT * FROM (SELECT x FROM a EXCEPT SELECT x FROM b) e FULL JOIN b ON b.x = e.x")]
    [InlineData("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4) SELECT * FROM n JOIN p ON p.id = n.i")]
    [InlineData("WITH RECURSIVE walk(id, depth) AS (SELECT 1, 0 UNION ALL SELECT p.id, depth + 1 FROM p JOIN walk ON p.id = walk.id + 1) SELECT * FROM walk")]
    [InlineData("WITH RECURSIVE walk(id) AS (SELECT 1 UNION SELECT q.pid FROM q, walk WHERE q.pid = walk.id + 2) SELECT * FROM walk")]
    public void Cte_values_and_compound_items_join_as_in_sqlite(string sql) => fixture.Oracle.Check(sql, ordered: false);
}
