namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// Row values (https://sqlite.org/rowvalue.html) answered as SQLite answers them: comparisons element by element
/// with NULLs, per-element affinity and collation, subqueries as row values, IN with subqueries, VALUES and lists of
/// row values, BETWEEN, keyset pagination, and the errors SQLite gives for misuse.
/// </summary>
public sealed class RowValueTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    public static TheoryData<string> Queries => new()
    {
        "SELECT (1, 2) = (1, 2), (1, 2) = (1, 3), (1, NULL) = (1, 2), (NULL, 1) = (2, 2), (1, NULL) = (2, 2)",
        "SELECT (1, 2) <> (1, 2), (1, NULL) <> (1, 2), (1, NULL) <> (2, 2), (1, 2, 3) != (1, 2, 4)",
        "SELECT (1, NULL) < (2, 0), (1, NULL) < (1, 5), (NULL, 1) < (2, 3), (2, NULL) < (1, 5), (1, 2) < (1, 2), (1, 2) <= (1, 2)",
        "SELECT (1, 2) > (1, 1), (1, 2) >= (1, 3), (2, 'a') > (2, 'B'), (3, 1, 1) > (3, 1, NULL), (3, 2, NULL) > (3, 1, 1)",
        "SELECT (1, NULL) IS (1, NULL), (1, 2) IS (1, NULL), (1, NULL) IS NOT (1, NULL), (1, 2) IS NOT (1, 3)",
        "SELECT (1, '1') = ('1', 1), (1, 2) = (1.0, 2.0), ('a', 'b') = ('A' COLLATE NOCASE, 'b')",
        "SELECT (1, 2) BETWEEN (0, 0) AND (1, 3), (1, 2) NOT BETWEEN (1, 3) AND (2, 0), (1, NULL) BETWEEN (0, 1) AND (2, 2)",
        "SELECT (1, 2) IN ((1, 2), (3, 4)), (1, 5) IN ((1, 2), (3, 4)), (1, NULL) IN ((1, 2)), (1, 5) NOT IN ((1, 2), (NULL, 5))",
        "SELECT (1, 2) IN (VALUES (1, 2), (3, 4)), (3, 4) NOT IN (VALUES (1, 2), (3, 4))",
        "SELECT (1, 2) IN (SELECT 1, NULL), (1, 2) IN (SELECT 1, 3), (1, NULL) IN (SELECT 1, 3), (1, 2) NOT IN (SELECT 1, NULL), (1, 2) IN (SELECT 1, 2 WHERE 0)",
        "SELECT (1, 2) = (SELECT 1, 2), (1, 2) = (SELECT 1, 2 WHERE 0), (1, 2) <> (SELECT 1, 2 WHERE 0), (1, 2) IS (SELECT 1, 2 WHERE 0)",
        "SELECT (SELECT 1, 2) = (1, 2), (SELECT 1, 2) < (SELECT 1, 3), (SELECT 5, 6 UNION ALL SELECT 1, 2) = (5, 6)",
        "SELECT (1) = (1), ((1, 2)) = (1, 2), (1, 2) IN (SELECT 1, 2) IS 1, (1, 2) = (VALUES (1, 2))",
        "SELECT id FROM t WHERE (i, s) = (3, 'abc')",
        "SELECT id FROM t WHERE (i, r) > (3, 2.5)",
        "SELECT id FROM t WHERE (i, r) <= (3, 2.5)",
        "SELECT id FROM t WHERE (i, s) < ('5', 5)",
        "SELECT id FROM t WHERE (s, c) >= ('abc', 'ABC')",
        "SELECT id FROM t WHERE (c, s) = ('ABC', 'abc')",
        "SELECT id FROM t WHERE (x, n) <> (12, '4.5')",
        "SELECT id FROM t WHERE (i, c) IS (NULL, NULL)",
        "SELECT id FROM t WHERE (i, c) IS NOT (5, 'b')",
        "SELECT id FROM t WHERE (i, s) IN (SELECT a, b FROM u)",
        "SELECT id FROM t WHERE (i, s) NOT IN (SELECT a, b FROM u)",
        "SELECT id FROM t WHERE (i, c) IN (SELECT i, s FROM t WHERE id < 50)",
        "SELECT id FROM t WHERE (i, r) BETWEEN (2, 0) AND (5, 100)",
        "SELECT id FROM t WHERE (i, id) IN ((3, 7), (5, 11), ('5', 12))",
        "SELECT id FROM t AS o WHERE (i, s) = (SELECT i, s FROM t WHERE id = o.id + 1)",
        "SELECT id FROM t AS o WHERE (o.i, o.r) < (SELECT max(i), min(r) FROM t WHERE id < o.id)",
        "SELECT id, (i, r) < (4, 1.5), (s, c) = (c, s) FROM t",
        "SELECT k FROM kv WHERE (k, v) > ('b', 3)",
        "SELECT id FROM t WHERE (i, c) > (3, 'b') ORDER BY i, c, id LIMIT 10",
        "SELECT id, i, c FROM t WHERE (i, c) > (3, 'B') ORDER BY i, c LIMIT 5",
        "SELECT id FROM t WHERE (i, id) > (4, 100) ORDER BY i, id LIMIT 7",
        "SELECT (1, 2) = (1, 2, 3)",
        "SELECT (1, 2) = 1",
        "SELECT (1, 2) = (SELECT 1)",
        "SELECT 1 IN (SELECT 1, 2)",
        "SELECT (1, 2)",
        "SELECT (1, 2) IN ((1, 2), (3))",
        "SELECT (1, 2) IN (SELECT 1 UNION SELECT 2)",
        "SELECT (SELECT 1, 2)",
        "SELECT (1, 2) BETWEEN 1 AND 2",
        "SELECT max((1, 2))",
        "SELECT (1, (2, 3)) = (1, (2, 3))",
        "SELECT 1 = (SELECT 1, 2)",
        "SELECT 1 IN ((1, 2))",
    };

    // Without ORDER BY the row order is the plan's (SQLite seeks an index for a row value range).
    [Theory]
    [MemberData(nameof(Queries))]
    public void Answers_as_sqlite_does(string sql) => Db.Check(sql, ordered: sql.Contains("ORDER BY", StringComparison.Ordinal));

    [Theory]
    [InlineData(4, "b")]
    [InlineData(null, null)]
    [InlineData("3", 7)]
    public void Keyset_pagination_binds_as_sqlite_does(object? a, object? b)
        => Db.Check("SELECT id, i, c FROM t WHERE (i, c) > ($p1, $p2) ORDER BY i, c LIMIT 6", ordered: true, a, b);

    [Theory]
    [InlineData("SELECT (1, 2) = (1, 2, 3)", "row value misused")]
    [InlineData("SELECT (1, 2)", "row value misused")]
    [InlineData("SELECT (1, 2) = (SELECT 1)", "row value misused")]
    [InlineData("SELECT 1 IN (SELECT 1, 2)", "sub-select returns 2 columns - expected 1")]
    [InlineData("SELECT (1, 2) IN (SELECT 1, 2, 3)", "sub-select returns 3 columns - expected 2")]
    [InlineData("SELECT (1, 2) IN ((1, 2), (3))", "IN(...) element has 1 term - expected 2")]
    [InlineData("SELECT (1, 2) IN ((1, 2), (3, 4, 5))", "IN(...) element has 3 terms - expected 2")]
    [InlineData("SELECT (SELECT 1, 2)", "sub-select returns 2 columns - expected 1")]
    public void Misuse_fails_with_sqlites_message(string sql, string message)
    {
        var e = Assert.Throws<SharcSqlException>(() =>
        {
            using var r = Db.Db.Query(sql);
            while (r.Read()) { }
        });
        e.SqliteMessage.Should().Be(message);
        Db.Expected(sql).Should().Equal("ERROR");
    }
}
