using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>UPDATE and DELETE through SQL, statement by statement against SQLite.</summary>
public class UpdateDeleteTests
{
    private static WriteOracle Seeded()
    {
        var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT UNIQUE, b TEXT, c REAL NOT NULL DEFAULT 0)");
        o.Ok("CREATE INDEX t_b ON t(b)");
        o.Ok("INSERT INTO t VALUES (1, 10, 'x', 1), (2, 20, 'y', 2), (3, 30, 'z', 3), (4, 40, NULL, 4)");
        return o;
    }

    [Fact]
    public void Update_sees_only_the_rows_before_the_statement()
    {
        using var o = Seeded();
        o.Both("UPDATE t SET a = a + 10").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("UPDATE t SET a = a + 1000").Changes.Should().Be(4);
        o.Ok("UPDATE t SET b = b || a, c = c * 2 WHERE id > ?1", 2).Changes.Should().Be(2);
        o.Ok("UPDATE t SET (a, b) = (a * 2, 'r') WHERE b IS NULL");
        o.AssertSameContents();
    }

    [Fact]
    public void Update_assigns_a_row_value_from_a_subquery()
    {
        using var o = Seeded();
        o.Ok("CREATE TABLE s(k INT, x, y TEXT)");
        o.Ok("INSERT INTO s VALUES (1, 7, 'q'), (2, '8', 9), (2, 100, 'later')");
        o.Ok("UPDATE t SET (a, b) = (SELECT x, y FROM s WHERE k = t.id)").Changes.Should().Be(4);
        o.Ok("UPDATE t SET (a, b) = (SELECT 5, 'w' WHERE 0) WHERE id = 1 RETURNING *");
        o.Ok("UPDATE t SET (b, c) = (SELECT * FROM (SELECT 'star', 2.5)), a = 99 WHERE id = 2 RETURNING a, b, c");
        o.Both("UPDATE t SET (a, b) = (SELECT 1)").Error.Should().Be("2 columns assigned 1 values");
        o.Both("UPDATE t SET (a, b) = (SELECT * FROM s)").Error.Should().Be("2 columns assigned 3 values");
        o.Ok("INSERT INTO t VALUES (5, 50, 'v', 0) ON CONFLICT(id) DO UPDATE SET (b, c) = (SELECT y, k FROM s WHERE k = excluded.id - 3)");
        o.Ok("INSERT INTO t VALUES (5, 50, 'v', 0) ON CONFLICT(id) DO UPDATE SET (b, c) = (SELECT y, k FROM s WHERE k = excluded.id - 4)");
        o.AssertSameContents();
    }

    [Fact]
    public void Update_of_the_integer_primary_key_moves_the_row()
    {
        using var o = Seeded();
        o.Ok("UPDATE t SET id = id + 100 WHERE id < 3");
        o.Both("UPDATE t SET id = 3 WHERE id = 4").Error.Should().Be("UNIQUE constraint failed: t.id");
        o.Ok("UPDATE t SET rowid = 50 WHERE id = 4");
        o.AssertSameContents();
    }

    [Fact]
    public void Update_conflicts_follow_sqlite_for_each_or_action()
    {
        using var o = Seeded();
        o.Both("UPDATE t SET a = 10 WHERE id = 2").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("UPDATE OR IGNORE t SET a = 10 WHERE id >= 2").Changes.Should().Be(0);
        o.Ok("UPDATE OR IGNORE t SET a = a + 5").Changes.Should().Be(4);
        o.Ok("UPDATE OR REPLACE t SET a = 15 WHERE id = 3").Changes.Should().Be(1);
        o.Both("UPDATE t SET c = NULL").Error.Should().Be("NOT NULL constraint failed: t.c");
        o.Ok("UPDATE OR REPLACE t SET c = NULL WHERE id = 3");
        o.Both("UPDATE OR FAIL t SET a = 45 WHERE id IN (3, 4)").Error.Should().NotBeNull();
        o.AssertSameContents();
    }

    [Fact]
    public void Delete_removes_rows_and_index_entries()
    {
        using var o = Seeded();
        o.Ok("DELETE FROM t WHERE b > 'x'").Changes.Should().Be(2);
        o.Ok("DELETE FROM t WHERE id = 1 RETURNING *");
        o.Ok("DELETE FROM t").Changes.Should().Be(1);
        o.AssertSameContents();
    }

    [Fact]
    public void Returning_on_update_gives_the_new_values()
    {
        using var o = Seeded();
        o.Ok("UPDATE t SET c = c + 0.5, b = upper(b) WHERE id <= 2 RETURNING id, b, c, typeof(c)").Rows.Should().HaveCount(2);
        o.Both("UPDATE t AS x SET a = x.a + 1 WHERE x.id = 3 RETURNING x.a, a").Error.Should().Be("no such column: x.a");
        o.Ok("UPDATE t AS x SET a = x.a + 1 WHERE x.id = 3 RETURNING t.a, a");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_tables_are_updated_and_deleted_by_primary_key()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k TEXT, n INT, v, PRIMARY KEY(k, n)) WITHOUT ROWID");
        o.Ok("INSERT INTO w VALUES ('a', 1, 'p'), ('a', 2, 'q'), ('b', 1, 'r')");
        o.Ok("UPDATE w SET v = v || n WHERE k = 'a'").Changes.Should().Be(2);
        o.Ok("UPDATE w SET n = 5 WHERE k = 'b' RETURNING *");
        o.Both("UPDATE w SET n = 1 WHERE k = 'a'").Error.Should().NotBeNull();
        o.Ok("DELETE FROM w WHERE n = 2");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_update_or_ignore_skips_rows_that_would_conflict()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k INT, n INT, u TEXT UNIQUE, v NOT NULL DEFAULT 'd', PRIMARY KEY(k, n)) WITHOUT ROWID");
        o.Ok("INSERT INTO w VALUES (1, 1, 'a', 1), (1, 2, 'b', 2), (2, 1, 'c', 3), (3, 3, 'e', 4)");
        o.Ok("UPDATE OR IGNORE w SET n = 1 WHERE k = 1 RETURNING *").Changes.Should().Be(1); // (1, 1) onto itself
        o.Ok("UPDATE OR IGNORE w SET k = 2 RETURNING *");
        o.Ok("UPDATE OR IGNORE w SET u = 'a' WHERE k > 1").Changes.Should().Be(0);
        o.Ok("UPDATE OR IGNORE w SET u = upper(u), k = k + 10");
        o.Ok("UPDATE OR IGNORE w SET v = NULL WHERE n = 1");
        o.Ok("UPDATE OR IGNORE w SET u = 'Z' RETURNING k, n, u");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_update_or_replace_deletes_the_rows_in_the_way()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k INT PRIMARY KEY, u TEXT UNIQUE, v NOT NULL DEFAULT 'd') WITHOUT ROWID");
        o.Ok("INSERT INTO w VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, 'd', 40), (5, 'e', 50), (6, 'f', 60)");
        o.Ok("UPDATE OR REPLACE w SET k = 2 WHERE k = 1 RETURNING *").Changes.Should().Be(1);
        o.Ok("UPDATE OR REPLACE w SET u = 'd' WHERE k = 3").Changes.Should().Be(1);
        o.Ok("UPDATE OR REPLACE w SET k = 5, u = 'f' WHERE k = 2 RETURNING *").Changes.Should().Be(1);
        o.Ok("UPDATE OR REPLACE w SET v = NULL WHERE k = 3 RETURNING *");
        o.Ok("UPDATE OR REPLACE w SET k = k + 1").Changes.Should().Be(2);
        o.AssertSameContents();

        o.Ok("INSERT INTO w VALUES (10, 'x', 1), (11, 'y', 2), (12, 'z', 3)");
        o.Ok("UPDATE OR REPLACE w SET k = k + 1 WHERE k >= 10").Changes.Should().Be(3);
        o.Ok("UPDATE OR REPLACE w SET u = 'x' WHERE k = 4");
        o.Both("UPDATE w SET k = 6 WHERE k = 4").Error.Should().Be("UNIQUE constraint failed: w.k");
        o.Both("UPDATE OR ABORT w SET u = 'f' WHERE k = 4").Error.Should().Be("UNIQUE constraint failed: w.u");
        o.Both("UPDATE OR FAIL w SET v = NULL").Error.Should().Be("NOT NULL constraint failed: w.v");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_update_or_ignore_and_replace_with_a_check_and_nocase_key()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k TEXT PRIMARY KEY COLLATE NOCASE, v INT CHECK (v < 100)) WITHOUT ROWID");
        o.Ok("INSERT INTO w VALUES ('a', 1), ('B', 2), ('c', 3)");
        o.Ok("UPDATE OR IGNORE w SET v = v * 60").Changes.Should().Be(1);
        o.Ok("UPDATE OR IGNORE w SET k = 'b' WHERE k = 'a'").Changes.Should().Be(0);
        o.Ok("UPDATE OR IGNORE w SET k = 'C' WHERE k = 'c' RETURNING *").Changes.Should().Be(1);
        o.Both("UPDATE OR REPLACE w SET v = 1000").Error.Should().Be("CHECK constraint failed: v < 100");
        o.Ok("UPDATE OR REPLACE w SET k = 'b' WHERE k = 'a' RETURNING *").Changes.Should().Be(1);
        o.AssertSameContents();
    }

    [Fact]
    public void Order_by_and_limit_on_update_and_delete_are_syntax_errors_as_in_sqlites_default_build()
    {
        using var o = Seeded();
        o.Both("DELETE FROM t WHERE id > 1 LIMIT 1").Error.Should().Be("near \"LIMIT\": syntax error");
        o.Both("UPDATE t SET a = 1 ORDER BY id LIMIT 1").Error.Should().Be("near \"ORDER\": syntax error");
        o.Both("UPDATE nosuch SET a = 1").Error.Should().Be("no such table: nosuch");
        o.Both("UPDATE t SET nosuch = 1").Error.Should().Be("no such column: nosuch");
        o.AssertSameContents();
    }

    [Theory]
    [InlineData("OR REPLACE")]
    [InlineData("OR IGNORE")]
    [InlineData("OR FAIL")]
    public void Rows_are_visited_in_key_order_when_the_update_cannot_run_in_one_pass(string action)
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k, v, x, PRIMARY KEY(k)) WITHOUT ROWID");
        o.Ok("CREATE UNIQUE INDEX w_v ON w(v, x)");
        o.Ok("CREATE TABLE d(k, v, PRIMARY KEY(k DESC)) WITHOUT ROWID");
        o.Ok("CREATE UNIQUE INDEX d_v ON d(v)");
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, v UNIQUE, g)");
        o.Ok("CREATE INDEX t_g ON t(g)");
        o.Ok("CREATE UNIQUE INDEX t_gv ON t(g, v)");
        foreach (var table in new[] { "w", "d", "t" })
        {
            string values = table == "w" ? "(1, 30, 0), (2, 10, 0), (3, 20, 0), (4, 25, 0)" : table == "d" ? "(1, 30), (2, 10), (3, 20), (4, 25)" : "(1, 1, 30), (2, 2, 10), (3, 3, 20), (4, 4, 25)";
            foreach (var set in new[] { "v = 5", "v = 7 WHERE v > 15", "v = 6 WHERE v < 29 AND v > 0" })
            {
                o.Ok($"DELETE FROM {table}");
                o.Ok($"INSERT INTO {table} VALUES {values}");
                o.Both($"UPDATE {action} {table} SET {set}");
                o.AssertSameContents();
            }
        }
        // A scan through an index the update does not change visits in that index's order (SQLite's one pass).
        o.Ok("DELETE FROM t");
        o.Ok("INSERT INTO t VALUES (1, 1, 30), (2, 2, 10), (3, 3, 20), (4, 4, 25)");
        o.Both($"UPDATE {action} t SET v = 9 WHERE g > 15");
        o.AssertSameContents();
    }

    [Fact]
    public void A_row_breaking_several_unique_constraints_names_the_latest_created_index()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a UNIQUE, b, c)");
        o.Ok("CREATE UNIQUE INDEX t_b ON t(b)");
        o.Ok("CREATE UNIQUE INDEX t_c ON t(c)");
        o.Ok("INSERT INTO t VALUES (1, 1, 1, 1), (2, 2, 2, 2)");
        o.Both("INSERT INTO t VALUES (1, 1, 1, 1)").Error.Should().Be("UNIQUE constraint failed: t.id");
        o.Both("INSERT INTO t VALUES (3, 1, 1, 1)").Error.Should().Be("UNIQUE constraint failed: t.c");
        o.Both("INSERT INTO t VALUES (3, 1, 1, 3)").Error.Should().Be("UNIQUE constraint failed: t.b");
        o.Both("UPDATE t SET a = 1, b = 1, c = 1 WHERE id = 2").Error.Should().Be("UNIQUE constraint failed: t.c");
        o.Both("UPDATE t SET id = 1, a = 1, b = 1, c = 1 WHERE id = 2").Error.Should().Be("UNIQUE constraint failed: t.id");
        o.Both("INSERT INTO t VALUES (3, 3, 3, 3) ON CONFLICT(id) DO UPDATE SET a = 1, b = 1").Error.Should().BeNull();
        o.Both("INSERT INTO t VALUES (3, 3, 3, 3) ON CONFLICT(c) DO UPDATE SET a = 1, b = 1").Error.Should().Be("UNIQUE constraint failed: t.b");
        o.Ok("CREATE TABLE w(a, k, b, UNIQUE(a), PRIMARY KEY(k)) WITHOUT ROWID");
        o.Ok("CREATE UNIQUE INDEX w_b ON w(b)");
        o.Ok("INSERT INTO w VALUES (1, 1, 1), (2, 2, 2)");
        o.Both("INSERT INTO w VALUES (1, 5, 1)").Error.Should().Be("UNIQUE constraint failed: w.b");
        o.Both("INSERT INTO w VALUES (1, 3, 3)").Error.Should().Be("UNIQUE constraint failed: w.a");
        o.Both("UPDATE w SET a = 1, b = 1 WHERE k = 2").Error.Should().Be("UNIQUE constraint failed: w.b");
        o.AssertSameContents();
    }
}
