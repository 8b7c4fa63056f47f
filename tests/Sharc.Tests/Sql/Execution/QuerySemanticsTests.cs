namespace Sharc.Tests.Sql.Execution;

/// <summary>A mixed-type database shared by the tests of a class (built once by real SQLite).</summary>
public sealed class MixedDatabaseFixture : IDisposable
{
    internal QueryOracle Oracle { get; } = new(MixedTable.Build(seed: 7, rows: 300));

    public void Dispose() => Oracle.Dispose();
}

/// <summary>
/// Hand-picked queries over a table with every storage class and NULLs in every column, each answered by Sharc
/// exactly as by SQLite: comparisons across classes and affinities, collations, NULL logic, LIKE/GLOB, BETWEEN,
/// IN, CASE, CAST, functions, aggregates with their empty-input rules, GROUP BY/HAVING, ORDER BY in all its forms,
/// LIMIT/OFFSET, DISTINCT, subqueries of every kind, views and parameters.
/// </summary>
/// <remarks>
/// Where SQL leaves a choice to the engine — which row of a group shows through a bare column, or which spelling of
/// a NOCASE group key appears — SQLite's answer depends on its plan; these queries avoid showing such values.
/// </remarks>
public sealed class QuerySemanticsTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    public static TheoryData<string> Unordered => new()
    {
        "SELECT * FROM t",
        "SELECT id, i, s FROM t WHERE i > 3",
        "SELECT id FROM t WHERE i = '5'",
        "SELECT id FROM t WHERE s = 12",
        "SELECT id FROM t WHERE s > 5",
        "SELECT id FROM t WHERE x = 12",
        "SELECT id FROM t WHERE x = '12'",
        "SELECT id FROM t WHERE n = '4.5'",
        "SELECT id FROM t WHERE r < i",
        "SELECT id FROM t WHERE c = 'abc'",
        "SELECT id FROM t WHERE c = 'ABC' COLLATE BINARY",
        "SELECT id FROM t WHERE s = 'ABC' COLLATE NOCASE",
        "SELECT id FROM t WHERE s = 'abc' COLLATE RTRIM",
        "SELECT id FROM t WHERE s < c",
        "SELECT id FROM t WHERE c < s",
        "SELECT id FROM t WHERE +i = 5",
        "SELECT id FROM t WHERE i IS NULL",
        "SELECT id FROM t WHERE i IS NOT NULL AND s IS NULL",
        "SELECT id FROM t WHERE i IS 5",
        "SELECT id FROM t WHERE i IS NOT 5",
        "SELECT id FROM t WHERE i IS DISTINCT FROM r",
        "SELECT id FROM t WHERE i IS NOT DISTINCT FROM r",
        "SELECT id FROM t WHERE NOT (i > 2)",
        "SELECT id FROM t WHERE i > 2 OR s = 'b'",
        "SELECT id FROM t WHERE i > 2 AND s IS NOT NULL",
        "SELECT id FROM t WHERE s LIKE 'ab%'",
        "SELECT id FROM t WHERE s LIKE 'A_C'",
        "SELECT id FROM t WHERE s NOT LIKE '%b%'",
        "SELECT id FROM t WHERE s LIKE 'x\\_%' ESCAPE '\\'",
        "SELECT id FROM t WHERE s LIKE 'x!%%' ESCAPE '!'",
        "SELECT id FROM t WHERE s GLOB 'a*'",
        "SELECT id FROM t WHERE s GLOB '[a-b]*'",
        "SELECT id FROM t WHERE x LIKE '1%'",
        "SELECT id FROM t WHERE i BETWEEN 2 AND 6",
        "SELECT id FROM t WHERE i NOT BETWEEN 2 AND 6",
        "SELECT id FROM t WHERE s BETWEEN 'a' AND 'b'",
        "SELECT id FROM t WHERE r BETWEEN i AND 10",
        "SELECT id FROM t WHERE i IN (1, 3, '5', NULL)",
        "SELECT id FROM t WHERE i NOT IN (1, 3, 5)",
        "SELECT id FROM t WHERE i NOT IN (1, NULL)",
        "SELECT id FROM t WHERE s IN ('abc', 'b', 12)",
        "SELECT id FROM t WHERE c IN ('ABC', 'B')",
        "SELECT id FROM t WHERE i IN ()",
        "SELECT id FROM t WHERE id IN (3, 1, 7, 7, 1000)",
        "SELECT id FROM t WHERE id = 17",
        "SELECT id FROM t WHERE id = '17'",
        "SELECT id FROM t WHERE id = 17.0",
        "SELECT id FROM t WHERE id = 17.5",
        "SELECT id FROM t WHERE rowid > 250",
        "SELECT id FROM t WHERE oid >= 20.5 AND _rowid_ < 31",
        "SELECT id FROM t WHERE id < 'abc'",
        "SELECT id FROM t WHERE id > 'abc'",
        "SELECT id FROM t WHERE id > NULL",
        "SELECT id, CASE WHEN i > 5 THEN 'big' WHEN i > 0 THEN 'small' ELSE 'other' END FROM t",
        "SELECT id, CASE i WHEN 1 THEN 'one' WHEN '2' THEN 'two' END FROM t",
        "SELECT id, CASE s WHEN 'ABC' THEN 1 ELSE 0 END, CASE c WHEN 'ABC' THEN 1 ELSE 0 END FROM t",
        "SELECT id, CAST(s AS INTEGER), CAST(r AS TEXT), CAST(x AS REAL), CAST(s AS NUMERIC), CAST(i AS BLOB) FROM t",
        "SELECT id, i + r, i - 1, i * 2, i / 2, i % 3, s || c, -i, ~i, i & 6, i | 1, i << 2, i >> 1 FROM t",
        "SELECT id, i / 0, r % 0, s + 0, b + 0 FROM t",
        "SELECT id, abs(i), length(s), lower(c), upper(s), typeof(x), typeof(n), coalesce(i, r, s), ifnull(s, 'none') FROM t",
        "SELECT id, substr(s, 2), substr(s, 1, 2), replace(s, 'b', 'B'), trim(s), instr(s, 'b'), round(r, 1), nullif(i, 5) FROM t",
        "SELECT id, min(i, r), max(s, c), iif(i > 3, 'y', 'n'), quote(x), hex(b) FROM t",
        "SELECT id, max(c, 'abc'), min(s COLLATE NOCASE, 'B') FROM t",
        "SELECT id, i = r, i < s, s = c, c = s, x = i, n = s FROM t",
        "SELECT id, i > 2 AND s IS NULL, i > 2 OR s IS NULL, NOT i FROM t",
        "SELECT DISTINCT i FROM t",
        "SELECT DISTINCT upper(c) FROM t",
        "SELECT DISTINCT lower(s) COLLATE NOCASE FROM t",
        "SELECT DISTINCT i, s FROM t WHERE i > 0",
        "SELECT i, count(*) FROM t GROUP BY i",
        "SELECT lower(c), count(*), min(s), max(s) FROM t GROUP BY c",
        "SELECT upper(s) AS k, count(*) FROM t GROUP BY s COLLATE NOCASE",
        "SELECT i % 3, sum(i), total(r), avg(r), min(r), max(r), count(r), count(DISTINCT s) FROM t GROUP BY i % 3",
        "SELECT i, count(*) FROM t GROUP BY i HAVING count(*) > 5",
        "SELECT i, count(*) AS cnt FROM t GROUP BY 1 HAVING cnt > 3 AND i > 0",
        "SELECT i + 1, count(*) FROM t WHERE s IS NOT NULL GROUP BY i + 1",
        "SELECT count(*), count(i), sum(i), total(i), avg(i), min(i), max(i) FROM t",
        "SELECT count(*), sum(i), total(i), avg(i), min(i), max(i) FROM t WHERE 0",
        "SELECT i, count(*) FROM t WHERE 0 GROUP BY i",
        "SELECT count(*) FROM t WHERE i > 3 AND s LIKE '%b%'",
        "SELECT sum(i) FILTER (WHERE i > 0), count(*) FILTER (WHERE s IS NULL) FROM t",
        "SELECT count(DISTINCT c), count(DISTINCT s), sum(DISTINCT i) FROM t",
        "SELECT max(i) + min(i), count(*) * 2 FROM t",
        "SELECT id, (SELECT count(*) FROM t AS x WHERE x.i < t.i) FROM t",
        "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t AS x WHERE x.i = t.i + 1)",
        "SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.i)",
        "SELECT id FROM t WHERE i IN (SELECT a FROM u)",
        "SELECT id FROM t WHERE i NOT IN (SELECT a FROM u)",
        "SELECT id FROM t WHERE s IN (SELECT b FROM u)",
        "SELECT id FROM t WHERE i = (SELECT max(a) FROM u)",
        "SELECT id, (SELECT b FROM u WHERE u.a = t.i) FROM t",
        "SELECT id FROM t WHERE i > (SELECT avg(i) FROM t)",
        "SELECT i, (SELECT count(*) FROM u WHERE u.a = t.i) FROM t GROUP BY i",
        "SELECT * FROM v_pos",
        "SELECT id, dbl FROM v_pos WHERE dbl > 6",
        "SELECT * FROM v_groups",
        "SELECT k, cnt FROM v_groups WHERE total IS NOT NULL",
        "SELECT * FROM (SELECT i, s FROM t WHERE i > 2) WHERE s IS NOT NULL",
        "SELECT a, sum(cnt) FROM (SELECT i % 2 AS a, count(*) AS cnt FROM t GROUP BY i) GROUP BY a",
        "SELECT * FROM kv",
        "SELECT k, v FROM kv WHERE k = 'abc'",
        "SELECT k FROM kv WHERE k > 'a' AND k < 'c'",
        "SELECT 1, 'a', NULL, 2.5, x'01'",
        "SELECT (SELECT 1)",
        "SELECT 1 WHERE 0",
        "SELECT count(*)",
        "SELECT id FROM t WHERE TRUE AND NOT FALSE",
        "SELECT id, i IS TRUE, s IS NOT FALSE, r IS FALSE, x IS NOT TRUE FROM t",
        "SELECT id, \"i\", I, T.S FROM t",
        "SELECT rowid, * FROM t WHERE rowid < 5",
        "SELECT x.* FROM t AS x WHERE x.id > 290",
        "SELECT s AS i FROM t WHERE i > 3 ORDER BY i, id",
        "SELECT i + 1 AS k FROM t WHERE k > 3",
        "SELECT i % 4 AS k, count(*) FROM t GROUP BY k HAVING k IS NOT NULL",
        "SELECT count(*) FROM t HAVING count(*) > 5",
        "SELECT max(i), count(*) FROM t WHERE i > 100",
        "SELECT i, max(r), s FROM t GROUP BY i",
        "SELECT i, min(r), s, id FROM t GROUP BY i",
        "SELECT i, count(*), s, id FROM t GROUP BY i",
        "SELECT max(r), s, id FROM t",
        "SELECT i % 3, sum(r), max(r), min(r), id FROM t GROUP BY i % 3",
        "SELECT id FROM t WHERE i = (SELECT s FROM t AS x WHERE x.id = t.id)",
        "SELECT id FROM t WHERE x IN (SELECT s FROM t AS x2 WHERE x2.id < 50)",
        "SELECT id, (SELECT a FROM u ORDER BY a DESC) FROM t WHERE id < 5",
        "SELECT id, (SELECT i FROM t AS z WHERE z.i > t.i ORDER BY z.i, z.id LIMIT 1 OFFSET 1) FROM t",
        "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u LIMIT 0)",
        "SELECT i FROM t WHERE i IN u",
        "SELECT i FROM t WHERE i NOT IN u",
        "SELECT 1 IN t",
        "SELECT * FROM (SELECT i AS a, i AS a FROM t WHERE id < 3)",
        "SELECT k, cnt FROM v_groups AS g WHERE g.k = 1",
        "SELECT id, b || s, s || r, quote(b), length(b), hex(r) FROM t",
        "SELECT id, s LIKE c, s GLOB c, c LIKE s FROM t",
        "SELECT id, i BETWEEN s AND c, s BETWEEN 'a' AND c COLLATE NOCASE FROM t",
        "SELECT name, type FROM sqlite_master",
        "SELECT i FROM t INDEXED BY t_i WHERE i > 4",
        "SELECT i FROM t NOT INDEXED WHERE i > 4",
        "SELECT id FROM t WHERE n > 3 AND s = 'abc'",
        "SELECT id FROM t WHERE i = 2 AND c = 'ABC'",
        "SELECT id FROM t WHERE i = 2 AND c > 'a'",
        "SELECT id FROM t WHERE i IN (2, 3) AND c IN ('abc', 'b')",
        "SELECT id FROM t WHERE r > 2.5",
        "SELECT id FROM t WHERE r <= 2",
        "SELECT id FROM t WHERE r BETWEEN -3 AND 4.5",
        "SELECT id FROM t WHERE x > 5",
        "SELECT id FROM t WHERE x < 'b'",
        "SELECT id FROM t WHERE x >= x'00'",
        "SELECT id FROM t WHERE s > 'a' AND s < 'b'",
        "SELECT id FROM t WHERE s >= '1' AND s <= '9'",
        "SELECT id FROM t WHERE c >= 'AB' AND c < 'b'",
        "SELECT id FROM t WHERE i > 9223372036854775806",
        "SELECT id FROM t WHERE i < -2999999999.5",
    };

    [Theory]
    [MemberData(nameof(Unordered))]
    public void Answers_as_sqlite_does(string sql) => Db.Check(sql, ordered: false);

    public static TheoryData<string> Ordered => new()
    {
        "SELECT id, i FROM t ORDER BY i, id",
        "SELECT id, i FROM t ORDER BY i DESC, id",
        "SELECT id, i FROM t ORDER BY i NULLS LAST, id DESC",
        "SELECT id, i FROM t ORDER BY i DESC NULLS FIRST, id",
        "SELECT id, s FROM t ORDER BY s, id",
        "SELECT id, s FROM t ORDER BY s COLLATE NOCASE, id",
        "SELECT id, s FROM t ORDER BY s COLLATE RTRIM DESC, id",
        "SELECT id, c FROM t ORDER BY c, id",
        "SELECT id, c FROM t ORDER BY c COLLATE BINARY DESC, id",
        "SELECT id, x FROM t ORDER BY x, id",
        "SELECT id, r AS rr FROM t ORDER BY rr, 1",
        "SELECT id, i + r FROM t ORDER BY 2 DESC, 1",
        "SELECT id, i FROM t ORDER BY i * -1, id LIMIT 10",
        "SELECT id, i FROM t ORDER BY i, id LIMIT 5 OFFSET 3",
        "SELECT id, i FROM t ORDER BY i, id LIMIT 3, 5",
        "SELECT id FROM t ORDER BY id LIMIT 10",
        "SELECT id FROM t ORDER BY rowid DESC LIMIT 7",
        "SELECT id FROM t WHERE i > 2 ORDER BY id LIMIT 4 OFFSET 2",
        "SELECT id FROM t LIMIT 0",
        "SELECT id FROM t ORDER BY id LIMIT -1 OFFSET 295",
        "SELECT id FROM t ORDER BY id LIMIT '3'",
        "SELECT id FROM t ORDER BY id LIMIT 2.0 + 1",
        "SELECT id FROM t ORDER BY id LIMIT (SELECT count(*) FROM u)",
        "SELECT id, s FROM t ORDER BY length(s) DESC, s, id LIMIT 20",
        "SELECT i, count(*) FROM t GROUP BY i ORDER BY count(*) DESC, i",
        "SELECT i, count(*) FROM t GROUP BY i",
        "SELECT lower(c), count(*) FROM t GROUP BY c",
        "SELECT s, count(*) FROM t GROUP BY s ORDER BY 2, 1 LIMIT 5",
        "SELECT DISTINCT i FROM t ORDER BY i DESC",
        "SELECT DISTINCT i FROM t ORDER BY 1 LIMIT 3",
        "SELECT id FROM t WHERE id IN (30, 10, 20) ORDER BY id",
        "SELECT id, i FROM t WHERE i IN (4, 2, 3) ORDER BY i, id",
        "SELECT i, c FROM t WHERE i = 3 ORDER BY c, rowid",
        "SELECT id, r FROM t WHERE r > 0 ORDER BY r DESC, id",
        "SELECT s FROM t WHERE s > 'a' ORDER BY s LIMIT 4",
        "SELECT id FROM t ORDER BY (SELECT count(*) FROM u WHERE u.a = t.i), id",
        "SELECT k, v FROM kv ORDER BY k",
        "SELECT k FROM kv ORDER BY k DESC LIMIT 3",
        // Top-N reads the columns outside the sort keys only for rows it keeps: text, blobs, NULLs and constants
        // must still come out as a full evaluation would give them.
        "SELECT s, b, id, x, c, 'k', n FROM t ORDER BY r DESC, id LIMIT 6",
        "SELECT c, 3, id, s FROM t WHERE i > 1 ORDER BY id DESC LIMIT 5 OFFSET 2",
        "SELECT b, s || 'x', id FROM t ORDER BY i, id LIMIT 9",
        "SELECT i, count(*), max(s), min(b) FROM t GROUP BY i ORDER BY 2 DESC, 1 LIMIT 3",
        "SELECT DISTINCT s, i FROM t ORDER BY i, s LIMIT 4",
    };

    [Theory]
    [MemberData(nameof(Ordered))]
    public void Orders_as_sqlite_does(string sql) => Db.Check(sql, ordered: true);

    [Theory]
    [InlineData("SELECT id FROM t WHERE i = $p1 ORDER BY id", 3L)]
    [InlineData("SELECT id FROM t WHERE s = $p1 ORDER BY id", "abc")]
    [InlineData("SELECT id FROM t WHERE i > $p1 AND s LIKE $p2 ORDER BY id", 2L, "%b%")]
    [InlineData("SELECT id FROM t WHERE id = $p1", 42L)]
    [InlineData("SELECT id FROM t WHERE r < $p1 ORDER BY id", 2.5)]
    [InlineData("SELECT id FROM t WHERE i IS $p1 ORDER BY id", null)]
    [InlineData("SELECT $p1 + 1, $p1 || 'x'", 41L)]
    [InlineData("SELECT id FROM t ORDER BY id LIMIT $p1 OFFSET $p2", 3L, 4L)]
    public void Binds_parameters_as_sqlite_does(string sql, params object?[] args) => Db.Check(sql, ordered: true, args);

    [Fact]
    public void Parameters_of_every_form_are_numbered_as_sqlite_numbers_them()
    {
        using var r = Db.Db.Query("SELECT ?, ?3, :a, @b, $c, ?", 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        r.Read().Should().BeTrue();
        Enumerable.Range(0, 6).Select(i => r.GetInt64(i)).Should().Equal(1, 3, 4, 5, 6, 7);
    }

    [Fact]
    public void Result_columns_are_named_as_sqlite_names_them()
    {
        using var r = Db.Db.Query("SELECT i, t.s, (c), r AS alias, i + 1, rowid, count(*) FROM t");
        Enumerable.Range(0, r.FieldCount).Select(r.GetName).Should().Equal("i", "s", "c", "alias", "i + 1", "rowid", "count(*)");
        r.GetDeclaredType(0).Should().Be("INTEGER");
        r.GetDeclaredType(4).Should().Be("");
    }
}
