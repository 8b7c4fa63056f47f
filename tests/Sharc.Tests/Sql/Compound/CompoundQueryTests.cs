using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// Hand-picked compound SELECTs and VALUES queries over the mixed-type table, each answered by Sharc exactly as by
/// SQLite: values and storage classes, and row order where ORDER BY fixes it — including which of two equal rows
/// (1 and 1.0, 'abc' and 'ABC' under NOCASE) a set operator keeps.
/// </summary>
public sealed class CompoundQueryTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    public static TheoryData<string> Unordered => new()
    {
        "SELECT i FROM t UNION SELECT r FROM t",
        "SELECT i FROM t UNION ALL SELECT r FROM t",
        "SELECT i FROM t INTERSECT SELECT r FROM t",
        "SELECT i FROM t EXCEPT SELECT r FROM t",
        "SELECT s FROM t UNION SELECT c FROM t",
        "SELECT c FROM t UNION SELECT s FROM t",
        "SELECT 'ABC' UNION SELECT c FROM t",
        "SELECT c FROM t INTERSECT SELECT s FROM t",
        "SELECT s FROM t INTERSECT SELECT c FROM t",
        "SELECT s COLLATE NOCASE FROM t EXCEPT SELECT c FROM t",
        "SELECT i, s FROM t UNION SELECT n, c FROM t WHERE id < 50",
        "SELECT i FROM t UNION SELECT r FROM t UNION ALL SELECT n FROM t",
        "SELECT i FROM t UNION ALL SELECT r FROM t UNION SELECT n FROM t",
        "SELECT i FROM t EXCEPT SELECT r FROM t UNION SELECT n FROM t",
        "SELECT i FROM t INTERSECT SELECT r FROM t EXCEPT SELECT 3",
        "SELECT 1 UNION SELECT 1.0",
        "SELECT 1.0 UNION SELECT 1",
        "SELECT 1 UNION ALL SELECT 1.0 UNION SELECT 2",
        "SELECT x FROM (SELECT 1 AS x UNION SELECT 1.0)",
        "SELECT NULL UNION SELECT NULL",
        "SELECT count(*) FROM t UNION SELECT sum(i) FROM t",
        "SELECT i % 3, count(*) FROM t GROUP BY 1 UNION SELECT 7, 8",
        "SELECT DISTINCT i FROM t UNION ALL SELECT DISTINCT r FROM t",
        "VALUES (1, 'a'), (2, 'b'), (1, 'a')",
        "VALUES (1), (1.0), (NULL), ('x'), (x'00')",
        "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) WHERE column1 > 1",
        "SELECT column2 FROM (VALUES (1, 'a'), (2, 'b'))",
        "VALUES (1) UNION VALUES (1.0)",
        "SELECT 1 UNION VALUES (1.0), (2)",
        "VALUES (1), (1) UNION SELECT 2",
        "SELECT * FROM (SELECT i AS a FROM t UNION SELECT s FROM t) WHERE a > 3",
        "SELECT * FROM (SELECT s AS a FROM t UNION SELECT 5) WHERE a = 5",
        "SELECT * FROM (SELECT s AS a FROM t UNION SELECT 5) WHERE a = '5'",
        "SELECT * FROM (SELECT i AS a FROM t UNION ALL SELECT 'x') WHERE a < '5'",
        "SELECT * FROM (SELECT 'abc' AS a UNION SELECT c FROM t) WHERE a = 'ABC'",
        "SELECT id FROM t WHERE i IN (SELECT r FROM t UNION SELECT n FROM t)",
        "SELECT id FROM t WHERE s IN (SELECT c FROM t INTERSECT SELECT s FROM t)",
        "SELECT id FROM t WHERE s IN (VALUES ('abc'), ('b'))",
        "SELECT id, (SELECT max(i) FROM t UNION SELECT 1) FROM t WHERE id < 5",
        "SELECT id FROM t AS o WHERE EXISTS (SELECT 1 FROM t WHERE i = o.i UNION SELECT 2 WHERE o.s = 'b')",
        "SELECT id FROM t AS o WHERE o.i IN (SELECT r FROM t WHERE id < o.id EXCEPT SELECT 3)",
        "SELECT * FROM v_pos UNION SELECT id, i, s, 0 FROM t WHERE id < 20",
        "SELECT k FROM kv UNION SELECT s FROM t",
    };

    [Theory]
    [MemberData(nameof(Unordered))]
    public void Unordered_compounds_return_sqlites_rows(string sql) => Db.Check(sql, ordered: false);

    public static TheoryData<string> Ordered => new()
    {
        "SELECT i FROM t UNION SELECT r FROM t ORDER BY 1",
        "SELECT i FROM t UNION ALL SELECT r FROM t ORDER BY 1 DESC",
        "SELECT i AS a FROM t UNION SELECT r FROM t ORDER BY a DESC NULLS FIRST",
        "SELECT i FROM t UNION SELECT r FROM t ORDER BY i",
        "SELECT i FROM t UNION SELECT r AS q FROM t ORDER BY q",
        "SELECT i, s FROM t UNION SELECT n, c FROM t ORDER BY 2, 1 DESC",
        "SELECT s FROM t UNION SELECT c FROM t ORDER BY 1 COLLATE NOCASE",
        "SELECT c FROM t UNION SELECT s FROM t ORDER BY 1",
        "SELECT c FROM t UNION ALL SELECT s FROM t ORDER BY 1 COLLATE BINARY",
        "SELECT i FROM t INTERSECT SELECT r FROM t ORDER BY 1 LIMIT 3",
        "SELECT i FROM t EXCEPT SELECT r FROM t ORDER BY 1 DESC LIMIT 5 OFFSET 2",
        "SELECT i FROM t UNION SELECT r FROM t LIMIT 4",
        "SELECT i FROM t UNION ALL SELECT r FROM t LIMIT 7 OFFSET 3",
        "SELECT 1 UNION SELECT 1.0 ORDER BY 1",
        "SELECT 1.0 UNION SELECT 1 ORDER BY 1",
        "SELECT x FROM (VALUES (1), (1.0), (2)) UNION SELECT 3 ORDER BY 1",
        "VALUES (3), (1), (2) UNION ALL SELECT 0 ORDER BY 1",
        "SELECT i + 1 FROM t UNION SELECT r FROM t ORDER BY i + 1",
        "SELECT i FROM t UNION SELECT r FROM t ORDER BY r",
        "SELECT i, s FROM t UNION SELECT r, c FROM t ORDER BY s, i LIMIT 10",
        "SELECT r FROM t WHERE id < 40 UNION SELECT a FROM u ORDER BY 1 COLLATE BINARY, 1",
        "SELECT id + 1, i FROM t WHERE id < 60 EXCEPT SELECT r, i FROM t ORDER BY 1 COLLATE BINARY, 2",
    };

    [Theory]
    [MemberData(nameof(Ordered))]
    public void Ordered_compounds_return_sqlites_rows_in_order(string sql) => Db.Check(sql, ordered: true);

    [Fact]
    public void Prepared_compounds_and_ctes_rerun_with_new_parameters()
    {
        const string sql = "WITH RECURSIVE c(x) AS (SELECT $p1 UNION ALL SELECT x + 1 FROM c WHERE x < $p2) " +
            "SELECT x FROM c UNION SELECT i FROM t WHERE i = $p1 UNION SELECT $p2 ORDER BY 1";
        using var q = Db.Db.Prepare(sql);
        foreach (var (a, b) in new[] { (1L, 3L), (5L, 9L), (2L, 2L), (4L, 1L) })
            QueryOracle.Rows(q.Execute(a, b)).Should().Equal(Db.Expected(sql, a, b));
    }

    [Fact]
    public void Result_columns_are_named_after_the_first_arm()
    {
        using var r = Db.Db.Query("SELECT i AS first, s FROM t UNION SELECT 1 AS other, 2");
        r.GetName(0).Should().Be("first");
        r.GetName(1).Should().Be("s");
        using var v = Db.Db.Query("VALUES (1, 2)");
        v.GetName(0).Should().Be("column1");
        v.GetName(1).Should().Be("column2");
    }

    /// <summary>
    /// The collation of x IN (SELECT ...): sqlite3BinaryCompareCollSeq of the left side and the subquery's result
    /// expression — of the last arm of a compound — with an explicit COLLATE on the right beating the left column's
    /// own; and, when an index led by the left column answers the IN, the set's last-kept values matched by the
    /// index's collation.
    /// </summary>
    public static TheoryData<string> InCollations => new()
    {
        "SELECT count(*) FROM t WHERE x IN (SELECT c COLLATE NOCASE FROM t WHERE id % 8 = 1)",
        "SELECT count(*) FROM t WHERE +x IN (SELECT c COLLATE NOCASE FROM t WHERE id % 8 = 1)",
        "SELECT count(*) FROM t WHERE b IN (SELECT s COLLATE NOCASE FROM t WHERE id % 3 = 1)",
        "SELECT count(*) FROM t WHERE b IN (SELECT c FROM t WHERE id % 3 = 1)",
        "SELECT count(*) FROM t WHERE b COLLATE NOCASE IN (SELECT s COLLATE BINARY FROM t WHERE id % 3 = 1)",
        "SELECT count(*) FROM t WHERE b IN (SELECT -3 FROM t WHERE id % 10 = 2 UNION SELECT r COLLATE RTRIM FROM t WHERE id % 8 = 0)",
        "SELECT count(*) FROM t WHERE b IN (SELECT r COLLATE RTRIM FROM t WHERE id % 8 = 0 UNION SELECT -3 FROM t WHERE id % 10 = 2)",
        "SELECT count(*) FROM t WHERE x IN (SELECT r FROM t WHERE id % 3 = 2 UNION ALL SELECT c COLLATE NOCASE FROM t WHERE id % 8 = 1)",
        "SELECT count(*) FROM t WHERE s IN (SELECT b COLLATE RTRIM FROM t WHERE id % 4 = 1 UNION ALL SELECT c COLLATE NOCASE FROM t WHERE id % 4 = 2)",
        "SELECT count(*) FROM t WHERE s IN (SELECT id + 1 FROM t WHERE id % 9 = 0 UNION SELECT n COLLATE RTRIM FROM t WHERE id % 6 = 2)",
        "SELECT count(*) FROM t WHERE x NOT IN (SELECT c COLLATE NOCASE FROM t WHERE id % 8 = 1)",
        "SELECT count(*) FROM t WHERE i > 0 AND x IN (SELECT c COLLATE NOCASE FROM t WHERE id % 8 = 1)",
    };

    [Theory]
    [MemberData(nameof(InCollations))]
    public void In_subqueries_compare_with_sqlites_collation(string sql) => Db.Check(sql, ordered: false);

    /// <summary>
    /// A compound arm that groups: its GROUP BY key keeps its own expression (i % 3 can only be a number), so the
    /// compound column keeps the affinity of the first arm instead of losing it to a value that might be text.
    /// </summary>
    public static TheoryData<string> GroupedArms => new()
    {
        "WITH q(a, b) AS (SELECT CAST(b AS REAL), r FROM t WHERE id % 4 = 1 UNION SELECT i % 3, count(*) FROM t WHERE id < 192 GROUP BY 1) SELECT * FROM q WHERE a > '12'",
        "SELECT * FROM (SELECT r AS a, i AS b FROM t WHERE id % 7 = 2 UNION ALL SELECT i % 3, count(*) FROM t WHERE id < 115 GROUP BY 1) WHERE a < 1",
        "SELECT * FROM (SELECT r AS a, i AS b FROM t WHERE id % 7 = 2 UNION ALL SELECT i % 3, count(*) FROM t WHERE id < 115 GROUP BY 1) WHERE b < '3'",
    };

    [Theory]
    [MemberData(nameof(GroupedArms))]
    public void Grouped_compound_arms_keep_the_columns_affinity(string sql) => Db.Check(sql, ordered: false);
}
