namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// The planner picks the seek a query allows — rowid equality, IN and ranges; index equality, IN, prefix and range,
/// with the index's collation and direction; covering indexes; index order in place of a sort — and the answer is
/// still exactly SQLite's.
/// </summary>
public sealed class PlannerTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    private string Plan(string sql) => Db.Db.Explain(sql);

    [Theory]
    [InlineData("SELECT s FROM t WHERE id = 42", "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)")]
    [InlineData("SELECT s FROM t WHERE rowid = 42", "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)")]
    [InlineData("SELECT s FROM t WHERE 42 = oid", "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)")]
    [InlineData("SELECT s FROM t WHERE id IN (5, 1, 9)", "SEARCH t USING INTEGER PRIMARY KEY (rowid IN (…))")]
    [InlineData("SELECT s FROM t WHERE id > 10 AND id <= 20", "SEARCH t USING INTEGER PRIMARY KEY (rowid>? AND rowid<=?)")]
    [InlineData("SELECT s FROM t WHERE id BETWEEN 10 AND 20", "SEARCH t USING INTEGER PRIMARY KEY (rowid>=? AND rowid<=?)")]
    [InlineData("SELECT s FROM t WHERE i = 3", "SEARCH t USING INDEX t_i (i=?)")]
    [InlineData("SELECT i FROM t WHERE i = 3", "SEARCH t USING COVERING INDEX t_i (i=?)")]
    [InlineData("SELECT id, i FROM t WHERE i > 3", "SEARCH t USING COVERING INDEX t_i (i>?)")]
    [InlineData("SELECT s FROM t WHERE i = 3 AND c = 'abc'", "SEARCH t USING INDEX t_ic (i=? AND c=?)")]
    [InlineData("SELECT s FROM t WHERE i = 3 AND c > 'abc'", "SEARCH t USING INDEX t_ic (i=? AND c>?)")]
    [InlineData("SELECT s FROM t WHERE i IN (1, 2) AND c = 'x'", "SEARCH t USING INDEX t_ic (i IN (…) AND c=?)")]
    [InlineData("SELECT s FROM t WHERE r < 2.5", "SEARCH t USING INDEX t_r (r<?)")]
    [InlineData("SELECT s FROM t WHERE c = 'ABC'", "SEARCH t USING INDEX t_c (c=?)")]
    [InlineData("SELECT r FROM t WHERE s = 'abc'", "SEARCH t USING INDEX t_s (s=?)")]
    [InlineData("SELECT s FROM t WHERE s IS NULL", "SEARCH t USING COVERING INDEX t_s (s IS NULL)")]
    [InlineData("SELECT s FROM t WHERE n = 4 AND s = 'abc' COLLATE RTRIM", "SEARCH t USING COVERING INDEX t_n_s (n=? AND s=?)")]
    [InlineData("SELECT v FROM kv WHERE k = 'abc'", "SEARCH kv USING PRIMARY KEY (k=?)")]
    [InlineData("SELECT v FROM kv WHERE k >= 'a' AND k < 'b'", "SEARCH kv USING PRIMARY KEY (k>=? AND k<?)")]
    [InlineData("SELECT s FROM t WHERE i = $p1", "SEARCH t USING INDEX t_i (i=?)")]
    public void Uses_the_seek_the_predicate_allows(string sql, string plan)
    {
        Plan(sql).Should().StartWith(plan);
        Db.Check(sql, ordered: false, 3L);
    }

    [Theory]
    // A TEXT comparison cannot use the index of a numeric column, nor a numeric one the index of a TEXT column.
    [InlineData("SELECT s FROM t WHERE i = CAST(3 AS TEXT) COLLATE NOCASE")]
    [InlineData("SELECT s FROM t WHERE +i = 3")]
    // The comparison's collation must be the index's.
    [InlineData("SELECT s FROM t WHERE s = 'abc' COLLATE NOCASE")]
    [InlineData("SELECT s FROM t WHERE c = 'abc' COLLATE BINARY")]
    // Neither side is a column alone, or the value depends on the row.
    [InlineData("SELECT s FROM t WHERE i + 0 = 3")]
    [InlineData("SELECT s FROM t WHERE i = r")]
    [InlineData("SELECT s FROM t WHERE i = random()")]
    [InlineData("SELECT s FROM t NOT INDEXED WHERE i = 3")]
    [InlineData("SELECT s FROM t WHERE i = 3 OR s = 'b'")]
    public void Scans_when_no_index_can_serve(string sql)
    {
        Plan(sql).Should().StartWith("SCAN t");
        if (!sql.Contains("random()", StringComparison.Ordinal)) Db.Check(sql, ordered: false);
    }

    [Theory]
    [InlineData("SELECT id, s FROM t ORDER BY id", "SCAN t; ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id, i FROM t ORDER BY i, id", "SCAN t USING COVERING INDEX t_i; ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id, i FROM t WHERE i > 2 ORDER BY i", "SEARCH t USING COVERING INDEX t_i (i>?); ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id, c FROM t WHERE i = 3 ORDER BY c", "SEARCH t USING COVERING INDEX t_ic (i=?); ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id, i, c FROM t WHERE i IN (3, 1, 2) ORDER BY i, c, id", "SEARCH t USING COVERING INDEX t_ic (i IN (…)); ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id, r FROM t WHERE r > 0 ORDER BY r DESC", "SEARCH t USING COVERING INDEX t_r (r>?); ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id, s FROM t ORDER BY s LIMIT 5", "SCAN t USING COVERING INDEX t_s; ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT k FROM kv ORDER BY k", "SCAN kv; ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id FROM t WHERE id IN (30, 10, 20) ORDER BY id", "SEARCH t USING INTEGER PRIMARY KEY (rowid IN (…)); ORDER BY FROM INDEX ORDER")]
    [InlineData("SELECT id FROM t ORDER BY id DESC", "SCAN t; ORDER BY FROM INDEX ORDER, WALKED BACKWARD")]
    [InlineData("SELECT id, i FROM t ORDER BY i DESC", "SCAN t USING COVERING INDEX t_i; ORDER BY FROM INDEX ORDER, WALKED BACKWARD")]
    [InlineData("SELECT id, r FROM t WHERE r > 0 ORDER BY r", "SEARCH t USING COVERING INDEX t_r (r>?); ORDER BY FROM INDEX ORDER, WALKED BACKWARD")]
    [InlineData("SELECT id, c FROM t WHERE i = 3 ORDER BY c DESC", "SEARCH t USING COVERING INDEX t_ic (i=?); ORDER BY FROM INDEX ORDER, WALKED BACKWARD")]
    [InlineData("SELECT k FROM kv WHERE k < 'm' ORDER BY k DESC", "SEARCH kv USING PRIMARY KEY (k<?); ORDER BY FROM INDEX ORDER, WALKED BACKWARD")]
    public void Takes_the_order_from_the_index_instead_of_sorting(string sql, string plan)
    {
        Plan(sql).Should().Be(plan);
        Db.Check(sql, ordered: true);
    }

    [Theory]
    [InlineData("SELECT id, i FROM t ORDER BY i DESC, id")]
    [InlineData("SELECT id, c FROM t WHERE i = 3 ORDER BY c COLLATE BINARY, id")]
    [InlineData("SELECT id, i FROM t WHERE i > 2 ORDER BY i NULLS LAST, id")]
    [InlineData("SELECT id, r FROM t WHERE r > 0 ORDER BY r, id")]
    public void Sorts_when_the_index_order_is_not_the_one_asked_for(string sql)
    {
        Plan(sql).Should().Contain("USE SORT FOR ORDER BY");
        Db.Check(sql, ordered: true);
    }

    [Fact]
    public void Uses_a_top_n_heap_for_order_by_with_limit()
    {
        const string sql = "SELECT id, s FROM t ORDER BY length(s) DESC, id LIMIT 7 OFFSET 2";
        Plan(sql).Should().Contain("USE TOP-N HEAP FOR ORDER BY");
        Db.Check(sql, ordered: true);
    }

    [Fact]
    public void Plans_each_subquery_and_view_level()
    {
        const string sql = "SELECT id, (SELECT count(*) FROM t AS x WHERE x.i = t.i) FROM v_pos AS t WHERE id IN (SELECT a FROM u)";
        var plan = Plan(sql).Split('\n');
        plan[0].Should().Be("SCAN t");
        plan.Should().Contain(line => line.Contains("SEARCH t USING INDEX t_i (i>?)", StringComparison.Ordinal), "the view's own WHERE seeks");
        plan.Should().Contain(line => line.Contains("SEARCH x USING COVERING INDEX t_i (i=?)", StringComparison.Ordinal));
        plan.Should().Contain(line => line.Contains("SCAN u", StringComparison.Ordinal));
        Db.Check(sql, ordered: false);
    }

    [Theory]
    // Keys that convert or do not: text to a number for a numeric column, numbers to text for a TEXT column.
    [InlineData("SELECT id FROM t WHERE i = '7'")]
    [InlineData("SELECT id FROM t WHERE i >= '3' AND i < '8'")]
    [InlineData("SELECT id FROM t WHERE s = 12")]
    [InlineData("SELECT id FROM t WHERE s > 1 AND s < 5")]
    [InlineData("SELECT id FROM t WHERE x = '12'")]
    [InlineData("SELECT id FROM t WHERE x > 'a'")]
    [InlineData("SELECT id FROM t WHERE i > 'abc'")]
    [InlineData("SELECT id FROM t WHERE i < 'abc'")]
    [InlineData("SELECT id FROM t WHERE i = NULL")]
    [InlineData("SELECT id FROM t WHERE i > NULL")]
    [InlineData("SELECT id FROM t WHERE i IN (NULL, 3, '3', 3.0)")]
    [InlineData("SELECT id FROM t WHERE r = 2")]
    [InlineData("SELECT id FROM t WHERE r >= 2 AND r < 6")]
    [InlineData("SELECT id FROM t WHERE r < -1.5")]
    [InlineData("SELECT id FROM t WHERE c > 'ab' AND c <= 'B'")]
    [InlineData("SELECT id FROM t WHERE i = 3 AND c BETWEEN 'a' AND 'B'")]
    [InlineData("SELECT id FROM t WHERE i = 3 AND c IS NULL")]
    [InlineData("SELECT id FROM t WHERE n = 4.0 AND s > 'a' COLLATE RTRIM")]
    [InlineData("SELECT id FROM t WHERE id = 7.0")]
    [InlineData("SELECT id FROM t WHERE id = 7.5")]
    [InlineData("SELECT id FROM t WHERE id > 7.5 AND id < 12.5")]
    [InlineData("SELECT id FROM t WHERE id IN ('5', 6.0, 7.5, NULL)")]
    [InlineData("SELECT id FROM t WHERE id > 9223372036854775807")]
    [InlineData("SELECT id FROM t WHERE id < -1e300")]
    [InlineData("SELECT k FROM kv WHERE k IN ('abc', 'b', 'zz', 'abc')")]
    public void Seeks_with_keys_of_every_class_answer_as_sqlite_does(string sql) => Db.Check(sql, ordered: false);

    [Fact]
    public void Correlated_subqueries_seek_with_the_outer_row_as_key()
    {
        const string sql = "SELECT id, (SELECT count(*) FROM t AS x WHERE x.i = t.i AND x.c >= t.c) FROM t";
        Plan(sql).Should().Contain("SEARCH x USING COVERING INDEX t_ic (i=? AND c>=?)");
        Db.Check(sql, ordered: false);
    }
}
