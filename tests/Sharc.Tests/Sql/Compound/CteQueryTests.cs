using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// WITH clauses — plain CTEs named once or many times, with column lists, shadowing tables, seen from subqueries,
/// referring to each other, MATERIALIZED or not — and WITH RECURSIVE counters, walks, UNION and UNION ALL forms,
/// LIMIT/OFFSET and ORDER BY inside the CTE; each answered by Sharc exactly as by SQLite.
/// </summary>
public sealed class CteQueryTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    public static TheoryData<string> Unordered => new()
    {
        "WITH a AS (SELECT i, s FROM t WHERE i > 2) SELECT * FROM a",
        "WITH a(x, y) AS (SELECT i, s FROM t) SELECT y FROM a WHERE x = 3",
        "WITH a AS (SELECT i FROM t) SELECT count(*), sum(i) FROM a",
        "WITH a AS (SELECT i FROM t) SELECT * FROM a WHERE i IN (SELECT i FROM a WHERE i > 5)",
        "WITH a AS (SELECT i FROM t), b AS (SELECT i * 2 AS d FROM a) SELECT d FROM b",
        "WITH b AS (SELECT * FROM a), a AS (SELECT 1 AS x) SELECT * FROM b",
        "WITH t AS (SELECT 1 AS shadow) SELECT * FROM t",
        "WITH t AS (SELECT 1 AS shadow) SELECT * FROM main.t WHERE id < 3",
        "WITH a AS MATERIALIZED (SELECT i FROM t WHERE i < 3) SELECT (SELECT count(*) FROM a), i FROM a",
        "WITH a AS NOT MATERIALIZED (SELECT i FROM t WHERE i < 3) SELECT i FROM a WHERE i IN (SELECT i FROM a)",
        "WITH a AS (SELECT s FROM t UNION SELECT c FROM t) SELECT * FROM a WHERE s > 'a'",
        "WITH a AS (VALUES (1, 'x'), (2, 'y')) SELECT * FROM a",
        "SELECT (WITH a AS (SELECT max(i) AS m FROM t) SELECT m FROM a)",
        "SELECT id FROM t AS o WHERE EXISTS (WITH a AS (SELECT i FROM t WHERE i = o.i) SELECT 1 FROM a)",
        "WITH a AS (SELECT i FROM t) SELECT * FROM (WITH a AS (SELECT 'inner' AS i) SELECT * FROM a)",
        "WITH v_pos AS (SELECT 1 AS id) SELECT * FROM v_groups",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) SELECT sum(x), count(*) FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x % 7 + 1 FROM c) SELECT x FROM c",
        "WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) SELECT x FROM c",
        "WITH RECURSIVE c(x, y) AS (SELECT 0, 1 UNION ALL SELECT y, x + y FROM c WHERE y < 1000) SELECT x FROM c",
        "WITH RECURSIVE c(n, s) AS (SELECT 1, 'a' UNION ALL SELECT n + 1, s || char(97 + n) FROM c WHERE n < 8) SELECT s FROM c",
        "WITH RECURSIVE up(id, depth) AS (SELECT 300, 0 UNION ALL SELECT id / 2, depth + 1 FROM up WHERE id > 1) SELECT * FROM up",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3 UNION ALL SELECT x + 10 FROM c WHERE x < 3) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT i FROM t WHERE id < 10 UNION SELECT x - 1 FROM c WHERE x > 0 AND x < 20) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT 1.0 UNION SELECT x + 1 FROM c WHERE x < 3) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT (SELECT max(i) FROM t WHERE i < c.x + 3) FROM c WHERE x < 9) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT count(*) OVER () UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3 AND x IN (SELECT row_number() OVER () FROM t)) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT (SELECT row_number() OVER ()) + x FROM c WHERE x < 3) SELECT x FROM c",
        "SELECT id, (WITH RECURSIVE c(x) AS (SELECT o.id UNION ALL SELECT x / 2 FROM c WHERE x > 1) SELECT count(*) FROM c) FROM t AS o WHERE id < 20",
    };

    [Theory]
    [MemberData(nameof(Unordered))]
    public void Ctes_return_sqlites_rows(string sql) => Db.Check(sql, ordered: false);

    public static TheoryData<string> Ordered => new()
    {
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5 OFFSET 3) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x + 1 FROM c LIMIT 5) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5 ORDER BY 1 DESC LIMIT 3) SELECT x FROM c",
        "WITH RECURSIVE c(x, d) AS (SELECT 1, 0 UNION ALL SELECT x * 2, d + 1 FROM c WHERE d < 4 UNION ALL SELECT x * 2 + 1, d + 1 FROM c WHERE d < 4 ORDER BY 2 DESC, 1) SELECT x FROM c",
        "WITH RECURSIVE c(x, d) AS (SELECT 1, 0 UNION ALL SELECT x * 2, d + 1 FROM c WHERE d < 4 UNION ALL SELECT x * 2 + 1, d + 1 FROM c WHERE d < 4 ORDER BY d) SELECT x FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20) SELECT x FROM c ORDER BY x DESC LIMIT 4",
        "WITH a AS (SELECT i FROM t UNION SELECT r FROM t ORDER BY 1 LIMIT 5) SELECT * FROM a",
    };

    [Theory]
    [InlineData("WITH a AS MATERIALIZED (SELECT random() AS r) SELECT (SELECT r FROM a) = (SELECT r FROM a)")]
    [InlineData("WITH a AS (SELECT random() AS r) SELECT (SELECT r FROM a) = (SELECT r FROM a)")]
    [InlineData("WITH a AS (SELECT randomblob(8) AS r) SELECT count(DISTINCT r) FROM (SELECT r FROM a UNION ALL SELECT r FROM a)")]
    public void A_materialized_cte_is_computed_once_per_execution(string sql)
    {
        // A CTE named twice is materialized, as in SQLite, so both references see the same random value.
        Db.Check(sql, ordered: true);
        using var r = Db.Db.Query(sql);
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(1);
    }

    [Theory]
    [MemberData(nameof(Ordered))]
    public void Recursive_ctes_return_sqlites_rows_in_order(string sql) => Db.Check(sql, ordered: true);
}
