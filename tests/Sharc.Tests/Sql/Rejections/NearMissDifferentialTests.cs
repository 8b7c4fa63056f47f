using FluentAssertions;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Rejections;

/// <summary>
/// Near-miss statements (wrong arity, window misuse, MATCH, IN over a table-valued function, hand-picked query,
/// DDL and DML errors) run on SQLite and Sharc: where SQLite fails Sharc fails with the same
/// message, and where SQLite answers Sharc gives the same rows.
/// </summary>
public class NearMissDifferentialTests
{
    private static WriteOracle NewOracle()
    {
        var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a INTEGER, b TEXT, c REAL)");
        o.Ok("INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', 2.5)");
        return o;
    }

    [Theory]
    [InlineData("SELECT 'a' MATCH 'b'")]
    [InlineData("SELECT 1 FROM t WHERE b MATCH 'x'")]
    [InlineData("SELECT min(1, 2) OVER ()")]
    [InlineData("SELECT max(a, c) OVER () FROM t")]
    [InlineData("SELECT count(1, 2) OVER ()")]
    [InlineData("SELECT abs(1) OVER ()")]
    [InlineData("SELECT json_extract()")]
    [InlineData("SELECT jsonb_extract()")]
    [InlineData("SELECT json_insert()")]
    [InlineData("SELECT json_set()")]
    [InlineData("SELECT json_replace()")]
    [InlineData("SELECT json_remove()")]
    [InlineData("SELECT jsonb_set()")]
    [InlineData("SELECT jsonb_insert()")]
    [InlineData("SELECT jsonb_replace()")]
    [InlineData("SELECT jsonb_remove()")]
    [InlineData("SELECT json_set('{}', '$.a')")]
    [InlineData("SELECT 1 IN json_each('[1]')")]
    [InlineData("SELECT 'a' IN pragma_table_info('t')")]
    [InlineData("SELECT 'a' NOT IN pragma_index_list('t')")]
    [InlineData("SELECT 1 IN pragma_user_version()")]
    [InlineData("SELECT 0 IN pragma_user_version()")]
    [InlineData("SELECT 'BINARY' IN pragma_collation_list()")]
    [InlineData("SELECT a FROM t WHERE sum(a) > 1")]
    [InlineData("SELECT a FROM t GROUP BY sum(a)")]
    [InlineData("SELECT sum(sum(a)) FROM t")]
    [InlineData("SELECT a FROM t ORDER BY 0")]
    [InlineData("SELECT a FROM t ORDER BY 2")]
    [InlineData("SELECT a FROM t GROUP BY 2")]
    [InlineData("SELECT count(DISTINCT a, b) FROM t")]
    [InlineData("SELECT group_concat(a, b, c) FROM t")]
    [InlineData("SELECT row_number() FROM t")]
    [InlineData("SELECT row_number() OVER () FROM t WHERE row_number() OVER () > 1")]
    [InlineData("SELECT a FROM t GROUP BY row_number() OVER ()")]
    [InlineData("SELECT sum(a) OVER (ORDER BY sum(a) OVER ()) FROM t")]
    [InlineData("SELECT ntile() OVER () FROM t")]
    [InlineData("SELECT a FROM t WINDOW w AS (), w AS ()")]
    [InlineData("SELECT sum(a) OVER w FROM t")]
    [InlineData("SELECT sum(a) OVER (w ORDER BY a) FROM t WINDOW w AS (ORDER BY b)")]
    [InlineData("SELECT sum(a) OVER (ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM t")]
    [InlineData("SELECT sum(a) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t")]
    [InlineData("SELECT sum(a) OVER (RANGE 1 PRECEDING) FROM t")]
    [InlineData("SELECT sum(a) OVER (ORDER BY a, b RANGE 1 PRECEDING) FROM t")]
    [InlineData("SELECT sum(a) OVER (GROUPS 1 PRECEDING) FROM t")]
    [InlineData("SELECT a, b FROM t UNION SELECT a FROM t")]
    [InlineData("SELECT a FROM t UNION SELECT a FROM t ORDER BY b")]
    [InlineData("SELECT a FROM t UNION SELECT a FROM t ORDER BY 2")]
    [InlineData("CREATE TABLE d1(a, a)")]
    [InlineData("CREATE TABLE d2(a, A)")]
    [InlineData("CREATE TABLE d3(a DEFAULT (random()))")]
    [InlineData("CREATE TABLE d4(a DEFAULT (b))")]
    [InlineData("CREATE TABLE d7(a, PRIMARY KEY(a, a))")]
    [InlineData("CREATE TABLE d8(a PRIMARY KEY, b PRIMARY KEY)")]
    [InlineData("CREATE TABLE d10(a TEXT PRIMARY KEY AUTOINCREMENT)")]
    [InlineData("CREATE TABLE d12(a FOO) STRICT")]
    [InlineData("CREATE TABLE d13(a, b, UNIQUE(c))")]
    [InlineData("CREATE TABLE d14(a CHECK (sum(a) > 0))")]
    [InlineData("INSERT INTO t(a, a) VALUES (1, 2)")]
    [InlineData("INSERT INTO t(zz) VALUES (1)")]
    [InlineData("INSERT INTO t VALUES (1, 2)")]
    [InlineData("INSERT INTO t(a) VALUES (1, 2)")]
    [InlineData("INSERT INTO t VALUES (1, 2, 3), (1, 2)")]
    [InlineData("UPDATE t SET zz = 1")]
    [InlineData("DELETE FROM t WHERE sum(a) > 0")]
    [InlineData("SELECT * FROM t AS x, t AS x")]
    [InlineData("SELECT a FROM t WHERE a IN (SELECT a, b FROM t)")]
    [InlineData("SELECT (SELECT a, b FROM t)")]
    [InlineData("SELECT a FROM t WHERE (a, b) = (1)")]
    [InlineData("SELECT a FROM t HAVING a > 0")]
    [InlineData("SELECT abs(a) FILTER (WHERE 1) FROM t")]
    [InlineData("SELECT upper(DISTINCT b) FROM t")]
    [InlineData("VALUES (1), (1, 2)")]
    [InlineData("SELECT first_value() OVER () FROM t")]
    [InlineData("SELECT percent_rank(a) OVER () FROM t")]
    public void Near_miss_statements_fail_or_answer_as_sqlite_does(string sql)
    {
        using var o = NewOracle();
        o.Both(sql);
    }
}
