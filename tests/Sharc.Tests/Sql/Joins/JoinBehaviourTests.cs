using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Joins;

/// <summary>A small schema for join tests: tables with overlapping column names, NULLs, duplicates and indexes.</summary>
public sealed class JoinDatabaseFixture : IDisposable
{
    internal QueryOracle Oracle { get; } = new(
        "CREATE TABLE a(x INTEGER, y TEXT)",
        "CREATE TABLE b(x INTEGER, z TEXT)",
        "CREATE TABLE c(x, w TEXT COLLATE NOCASE)",
        "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT)",
        "CREATE TABLE q(pid INTEGER, v REAL, tag TEXT)",
        "CREATE INDEX q_pid ON q(pid)",
        "CREATE TABLE r(k TEXT PRIMARY KEY, n) WITHOUT ROWID",
        "INSERT INTO a VALUES (1,'a1'),(2,'a2'),(2,'a2bis'),(NULL,'anull'),(5,'a5')",
        "INSERT INTO b VALUES (2,'b2'),(3,'b3'),(NULL,'bnull'),(5,'b5'),(5,'b5bis')",
        "INSERT INTO c VALUES (3,'C3'),(1,'c1'),('2','two'),(2.0,'TWO'),(NULL,NULL)",
        "INSERT INTO p VALUES (1,'one'),(2,'two'),(3,'three'),(4,NULL)",
        "INSERT INTO q VALUES (1,1.5,'x'),(1,2.5,'y'),(3,3.5,'X'),(9,9.5,'z'),(NULL,0,'n')",
        "INSERT INTO r VALUES ('x',1),('Y',2),('z',3)",
        "CREATE TABLE g(a INTEGER, b AS (a * 2), c TEXT AS (upper(z)) STORED, z TEXT, d AS (coalesce(a, 'none')))",
        "INSERT INTO g(a, z) VALUES (1, 'one'), (2, 'two'), (NULL, NULL)",
        "CREATE VIEW ab AS SELECT a.x AS ax, b.z FROM a JOIN b ON a.x = b.x");

    public void Dispose() => Oracle.Dispose();
}

/// <summary>Each join kind and name rule, answered by Sharc and by SQLite over the same file.</summary>
public sealed class JoinBehaviourTests(JoinDatabaseFixture fixture) : IClassFixture<JoinDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    [Theory]
    [InlineData("SELECT * FROM a JOIN b ON a.x = b.x")]
    [InlineData("SELECT * FROM a INNER JOIN b ON a.x = b.x AND b.z > 'b2'")]
    [InlineData("SELECT * FROM a, b WHERE a.x = b.x")]
    [InlineData("SELECT * FROM a, b")]
    [InlineData("SELECT * FROM a CROSS JOIN b ON a.x < b.x")]
    [InlineData("SELECT * FROM a JOIN b ON a.x <> b.x")]
    [InlineData("SELECT * FROM a JOIN b ON 1")]
    [InlineData("SELECT * FROM a JOIN b ON 0")]
    public void Inner_joins_pair_matching_rows(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.x = b.x")]
    [InlineData("SELECT * FROM a LEFT OUTER JOIN b ON a.x = b.x AND b.z = 'b5'")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.x = b.x WHERE b.z IS NULL")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.x = b.x WHERE b.x IS NULL OR b.z = 'b2'")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.y = 'a1'")]
    [InlineData("SELECT * FROM a LEFT JOIN p ON p.id = a.x")]
    [InlineData("SELECT * FROM p LEFT JOIN q ON q.pid = p.id")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.x = b.x LEFT JOIN c ON c.x = b.x")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.x = b.x JOIN c ON c.x = a.x")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON b.x = a.x JOIN c ON c.x = b.x")]
    public void Left_join_keeps_rows_without_a_match(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT * FROM a RIGHT JOIN b ON a.x = b.x")]
    [InlineData("SELECT * FROM a RIGHT OUTER JOIN b ON a.x = b.x WHERE a.y IS NULL")]
    [InlineData("SELECT * FROM a RIGHT JOIN b ON a.x = b.x AND a.y <> 'a2'")]
    [InlineData("SELECT * FROM a JOIN c ON a.x = c.x RIGHT JOIN b ON b.x = a.x")]
    [InlineData("SELECT * FROM a RIGHT JOIN b ON a.x = b.x LEFT JOIN c ON c.x = b.x")]
    [InlineData("SELECT * FROM a RIGHT JOIN b ON a.x < b.x")]
    [InlineData("SELECT * FROM a RIGHT JOIN p ON p.id = a.x")]
    public void Right_join_keeps_all_rows_of_the_right_side(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT * FROM a FULL JOIN b ON a.x = b.x")]
    [InlineData("SELECT * FROM a FULL OUTER JOIN b ON a.x = b.x WHERE a.x IS NULL OR b.x IS NULL")]
    [InlineData("SELECT * FROM a FULL JOIN b ON a.x = b.x FULL JOIN c ON c.x = b.x")]
    [InlineData("SELECT * FROM a FULL JOIN b ON 0")]
    [InlineData("SELECT * FROM a FULL JOIN b USING (x) FULL JOIN c USING (x)")]
    public void Full_join_keeps_rows_of_both_sides(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT * FROM a JOIN b USING (x)")]
    [InlineData("SELECT x, a.x, b.x, y, z FROM a LEFT JOIN b USING (x)")]
    [InlineData("SELECT * FROM a RIGHT JOIN b USING (x)")]
    [InlineData("SELECT x, typeof(x), a.x, b.x FROM a RIGHT JOIN b USING (x)")]
    [InlineData("SELECT * FROM a FULL JOIN b USING (x)")]
    [InlineData("SELECT * FROM a NATURAL JOIN b")]
    [InlineData("SELECT * FROM a NATURAL LEFT JOIN c")]
    [InlineData("SELECT * FROM a JOIN b USING (x) JOIN c USING (x)")]
    [InlineData("SELECT a.*, b.* FROM a JOIN b USING (x)")]
    [InlineData("SELECT b.*, x FROM a JOIN b USING (x, x)")]
    [InlineData("SELECT * FROM a JOIN b ON 1 JOIN c USING (x)")]
    [InlineData("SELECT * FROM a NATURAL JOIN p")]
    public void Using_and_natural_columns_read_as_sqlite_reads_them(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT a.rowid, b.rowid, a.x FROM a JOIN b ON a.x = b.x")]
    [InlineData("SELECT rowid, oid, one FROM a JOIN (SELECT 1 AS one)")]
    [InlineData("SELECT t1.x, t2.x FROM a AS t1 JOIN a AS t2 ON t1.x = t2.x + 1")]
    [InlineData("SELECT p.name, q.tag FROM p JOIN q ON q.pid = p.rowid")]
    [InlineData("SELECT * FROM q JOIN r ON r.k = q.tag")]
    [InlineData("SELECT * FROM q JOIN r ON r.k = q.tag COLLATE NOCASE")]
    [InlineData("SELECT * FROM a JOIN c ON c.x = a.x")]
    [InlineData("SELECT * FROM a JOIN c ON a.x = c.x")]
    [InlineData("SELECT * FROM c JOIN q ON c.w = q.tag")]
    [InlineData("SELECT * FROM q JOIN c ON q.tag = c.w")]
    [InlineData("SELECT * FROM q JOIN p ON p.id = q.v - 0.5")]
    [InlineData("SELECT * FROM a JOIN (SELECT x AS bx, z FROM b) AS s ON s.bx = a.x")]
    [InlineData("SELECT * FROM (SELECT x FROM b) JOIN a USING (x)")]
    [InlineData("SELECT * FROM ab JOIN c ON c.x = ab.ax")]
    [InlineData("SELECT * FROM ab")]
    [InlineData("SELECT * FROM a JOIN (b JOIN c ON b.x = c.x) ON a.x = b.x")]
    [InlineData("SELECT * FROM (a JOIN b ON a.x = b.x) JOIN c ON 1")]
    [InlineData("SELECT * FROM a, (b, c)")]
    [InlineData("SELECT * FROM a JOIN g ON g.b = a.x")]
    [InlineData("SELECT a.y, g.b, g.c FROM a LEFT JOIN g ON g.a = a.x")]
    [InlineData("SELECT a.y, g.b, g.d FROM a LEFT JOIN g ON 0")]
    [InlineData("SELECT a.y, g.b, g.d FROM g RIGHT JOIN a ON g.a = a.x")]
    [InlineData("SELECT * FROM a JOIN b ON b.x = (SELECT max(c.x) FROM c WHERE c.x > a.x)")]
    [InlineData("SELECT * FROM a LEFT JOIN (SELECT x, count(*) AS n FROM b GROUP BY x) AS s ON s.x = a.x")]
    [InlineData("SELECT * FROM a RIGHT JOIN (SELECT x, z FROM b WHERE z <> 'b3') AS s USING (x)")]
    [InlineData("SELECT * FROM a JOIN b ON a.x = b.x AND a.x IN (SELECT x FROM c)")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.x = b.x AND random() IS NOT NULL")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON b.x = a.x WHERE coalesce(b.z, 'none') = 'none'")]
    [InlineData("SELECT * FROM p JOIN q ON q.pid = p.id AND q.tag = 'x' LEFT JOIN r ON r.k = q.tag")]
    [InlineData("SELECT * FROM r JOIN q ON q.tag = r.k")]
    [InlineData("SELECT * FROM a JOIN b ON a.x = b.x WHERE a.x = 5 AND b.rowid > 0")]
    public void Names_affinity_and_collation_follow_sqlite(string sql) => Db.Check(sql, ordered: false);

    [Theory]
    [InlineData("SELECT a.x, count(*), group_concat(b.z) FROM a LEFT JOIN b ON a.x = b.x GROUP BY a.x ORDER BY a.x")]
    [InlineData("SELECT count(*), sum(b.x) FROM a JOIN b ON a.x >= b.x")]
    [InlineData("SELECT p.name, sum(q.v) AS s FROM p JOIN q ON q.pid = p.id GROUP BY p.id HAVING s > 3 ORDER BY s DESC")]
    [InlineData("SELECT DISTINCT a.x FROM a JOIN b ON a.x = b.x ORDER BY 1")]
    [InlineData("SELECT a.y, b.z FROM a JOIN b ON a.x <= b.x ORDER BY a.y, b.z LIMIT 3 OFFSET 2")]
    [InlineData("SELECT a.y, (SELECT count(*) FROM c WHERE c.x = b.x) FROM a JOIN b ON a.x = b.x ORDER BY 1, 2")]
    [InlineData("SELECT p.name FROM p WHERE EXISTS (SELECT 1 FROM q JOIN r ON r.n = q.pid WHERE q.pid = p.id) ORDER BY 1")]
    [InlineData("SELECT a.y FROM a WHERE a.x IN (SELECT b.x FROM b JOIN c ON c.x = b.x) ORDER BY 1")]
    [InlineData("SELECT a.y, b.z FROM a JOIN b ON a.x = b.x WHERE a.y IN (SELECT y FROM a WHERE x = b.x) ORDER BY 1, 2")]
    public void Joins_combine_with_aggregates_ordering_and_subqueries(string sql) => Db.Check(sql, ordered: true);

    [Theory]
    [InlineData("SELECT x FROM a, b", "ambiguous column name: x")]
    [InlineData("SELECT x FROM a, a", "ambiguous column name: x")]
    [InlineData("SELECT a.x FROM a JOIN a", "ambiguous column name: a.x")]
    [InlineData("SELECT * FROM a, a", "ambiguous column name: main.a.x")]
    [InlineData("SELECT * FROM a AS t JOIN b AS t", "ambiguous column name: main.t.x")]
    [InlineData("SELECT rowid FROM a, b", "ambiguous column name: rowid")]
    [InlineData("SELECT * FROM a JOIN b USING (q)", "cannot join using column q - column not present in both tables")]
    [InlineData("SELECT * FROM a NATURAL JOIN b USING (x)", "a NATURAL join may not have an ON or USING clause")]
    [InlineData("SELECT * FROM a LEFT JOIN b ON a.x = c.x JOIN c", "ON clause references tables to its right")]
    [InlineData("SELECT x FROM a JOIN b ON 1 JOIN c USING (x)", "ambiguous column name: x")]
    [InlineData("SELECT c.x FROM a JOIN b", "no such column: c.x")]
    [InlineData("SELECT count(*) FROM a JOIN b ON count(*)", "misuse of aggregate: count()")]
    public void Join_errors_say_what_sqlite_says(string sql, string message)
    {
        Db.Expected(sql).Should().Equal(["ERROR"]);
        var e = Assert.Throws<SharcSqlException>(() =>
        {
            using var r = Db.Db.Query(sql);
            while (r.Read()) { }
        });
        e.SqliteMessage.Should().Be(message);
        var sqliteError = Assert.Throws<Microsoft.Data.Sqlite.SqliteException>(() => Oracle(sql));
        sqliteError.Message.Should().Contain(message);
    }

    [Theory]
    [InlineData("SELECT a.x, b.x, * FROM a JOIN b USING (x)")]
    [InlineData("SELECT a.y AS first, b.z FROM a JOIN b ON a.x = b.x")]
    [InlineData("SELECT * FROM a JOIN (b JOIN c ON b.x = c.x) ON 1")]
    [InlineData("SELECT * FROM a RIGHT JOIN b USING (x)")]
    public void Result_columns_are_named_as_sqlite_names_them(string sql)
    {
        using var cmd = Db.Sqlite.CreateCommand();
        cmd.CommandText = sql;
        using var expected = cmd.ExecuteReader();
        using var actual = Db.Db.Query(sql);
        actual.FieldCount.Should().Be(expected.FieldCount);
        for (int i = 0; i < expected.FieldCount; i++) actual.GetName(i).Should().Be(expected.GetName(i));
    }

    private void Oracle(string sql)
    {
        using var cmd = Db.Sqlite.CreateCommand();
        cmd.CommandText = sql;
        using var r = cmd.ExecuteReader();
        while (r.Read()) { }
    }
}
