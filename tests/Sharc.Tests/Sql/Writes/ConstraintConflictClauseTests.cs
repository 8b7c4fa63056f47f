using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// ON CONFLICT clauses on NOT NULL, PRIMARY KEY and UNIQUE constraints of CREATE TABLE, against SQLite: a write with no
/// OR clause resolves each conflict by its constraint's algorithm; an OR clause overrides them all.
/// </summary>
public class ConstraintConflictClauseTests
{
    [Fact]
    public void Not_null_algorithms()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT NOT NULL ON CONFLICT IGNORE, b INT NOT NULL ON CONFLICT REPLACE DEFAULT 7, c INT NOT NULL ON CONFLICT REPLACE)");
        o.Ok("INSERT INTO t VALUES (1, NULL, 1, 1), (2, 'x', 1, 1)").Changes.Should().Be(1);
        o.Ok("INSERT INTO t VALUES (3, 'y', NULL, 1)");
        o.Both("INSERT INTO t VALUES (4, 'z', 1, NULL)").Error.Should().Be("NOT NULL constraint failed: t.c");
        // The REPLACE without a default fails only after the other NOT NULL columns were judged: IGNORE wins.
        o.Ok("INSERT INTO t VALUES (5, NULL, NULL, NULL)").Changes.Should().Be(0);
        o.Both("INSERT OR ABORT INTO t VALUES (6, NULL, 1, 1)").Error.Should().Be("NOT NULL constraint failed: t.a");
        o.Both("INSERT OR FAIL INTO t VALUES (6, 'q', NULL, 1)").Error.Should().Be("NOT NULL constraint failed: t.b");
        o.Ok("INSERT INTO t(id, a, c) VALUES (7, 'w', 2)");
        o.Ok("SELECT * FROM t ORDER BY id");
        o.AssertSameContents();
    }

    [Fact]
    public void Not_null_fail_and_rollback_inside_a_transaction()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE f(a INT NOT NULL ON CONFLICT FAIL)");
        o.Ok("CREATE TABLE r(a INT NOT NULL ON CONFLICT ROLLBACK)");
        o.Ok("BEGIN");
        o.Ok("INSERT INTO r VALUES (0)");
        o.Both("INSERT INTO f VALUES (1), (2), (NULL), (3)").Error.Should().Be("NOT NULL constraint failed: f.a");
        o.Ok("SELECT * FROM f");
        o.Both("INSERT INTO r VALUES (1), (NULL)").Error.Should().Be("NOT NULL constraint failed: r.a");
        o.Both("COMMIT").Error.Should().NotBeNull();
        o.Ok("SELECT (SELECT count(*) FROM f), (SELECT count(*) FROM r)");
        o.AssertSameContents();
    }

    [Fact]
    public void Unique_column_algorithms()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, i UNIQUE ON CONFLICT IGNORE, r UNIQUE ON CONFLICT REPLACE, f UNIQUE ON CONFLICT FAIL, a UNIQUE ON CONFLICT ABORT)");
        o.Ok("INSERT INTO t VALUES (1, 1, 1, 1, 1), (2, 2, 2, 2, 2)");
        o.Ok("INSERT INTO t VALUES (3, 1, 3, 3, 3), (4, 4, 4, 4, 4)").Changes.Should().Be(1);
        o.Ok("INSERT INTO t VALUES (5, 5, 1, 5, 5)").Changes.Should().Be(1);
        o.Both("INSERT INTO t VALUES (6, 6, 6, 6, 6), (7, 7, 7, 2, 7)").Error.Should().Be("UNIQUE constraint failed: t.f");
        o.Both("INSERT INTO t VALUES (8, 8, 8, 8, 8), (9, 9, 9, 9, 2)").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("SELECT * FROM t ORDER BY id");
        o.AssertSameContents();
    }

    [Fact]
    public void Statement_or_clause_overrides_the_constraint()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY ON CONFLICT IGNORE, u TEXT UNIQUE ON CONFLICT IGNORE, n INT NOT NULL ON CONFLICT IGNORE)");
        o.Ok("INSERT INTO t VALUES (1, 'a', 1)");
        o.Both("INSERT OR ABORT INTO t VALUES (2, 'a', 2)").Error.Should().Be("UNIQUE constraint failed: t.u");
        o.Both("INSERT OR FAIL INTO t VALUES (1, 'b', 2)").Error.Should().Be("UNIQUE constraint failed: t.id");
        o.Ok("INSERT OR REPLACE INTO t VALUES (3, 'a', 3)").Changes.Should().Be(1);
        o.Ok("INSERT INTO t VALUES (3, 'z', 9)").Changes.Should().Be(0);
        o.Ok("SELECT * FROM t ORDER BY id");
        o.AssertSameContents();
    }

    [Fact]
    public void Integer_primary_key_algorithms()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE i(id INTEGER PRIMARY KEY ON CONFLICT IGNORE, v)");
        o.Ok("CREATE TABLE r(id INTEGER PRIMARY KEY ON CONFLICT REPLACE, v)");
        o.Ok("CREATE TABLE f(v, id INTEGER, PRIMARY KEY(id) ON CONFLICT FAIL)");
        o.Ok("INSERT INTO i VALUES (1, 'a'), (1, 'b'), (2, 'c')").Changes.Should().Be(2);
        o.Ok("INSERT INTO r VALUES (1, 'a'), (1, 'b'), (2, 'c')").Changes.Should().Be(3);
        o.Ok("INSERT INTO r(rowid, v) VALUES (2, 'd')");
        o.Ok("INSERT INTO f VALUES ('a', 1)");
        o.Both("INSERT INTO f VALUES ('b', 2), ('c', 1)").Error.Should().Be("UNIQUE constraint failed: f.id");
        o.AssertSameContents();
    }

    [Fact]
    public void Rowid_table_primary_key_and_table_unique_constraints()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE p(a TEXT PRIMARY KEY ON CONFLICT REPLACE, b)");
        o.Ok("CREATE TABLE u(a, b, c, UNIQUE(a, b) ON CONFLICT REPLACE)");
        o.Ok("INSERT INTO p VALUES ('x', 1), ('y', 2), ('x', 3)");
        o.Ok("INSERT INTO u VALUES (1, 1, 'first'), (1, 2, 'other'), (1, 1, 'second')");
        o.Ok("SELECT rowid, * FROM u ORDER BY rowid");
        o.AssertSameContents();
    }

    [Fact]
    public void Check_ignores_its_on_conflict_clause()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a INT UNIQUE ON CONFLICT IGNORE, CHECK (a > 0) ON CONFLICT IGNORE)");
        o.Ok("INSERT INTO t VALUES (1)");
        o.Both("INSERT INTO t VALUES (-1)").Error.Should().Be("CHECK constraint failed: a > 0");
        o.Ok("INSERT OR IGNORE INTO t VALUES (-2)").Changes.Should().Be(0);
        o.Ok("INSERT INTO t VALUES (1)").Changes.Should().Be(0);
        o.AssertSameContents();
    }

    [Fact]
    public void Check_comes_before_an_ignored_uniqueness_conflict()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a INT UNIQUE ON CONFLICT IGNORE, b INT CHECK (b > 0))");
        o.Ok("INSERT INTO t VALUES (1, 1)");
        o.Both("INSERT INTO t VALUES (1, -1)").Error.Should().Be("CHECK constraint failed: b > 0");
        o.AssertSameContents();
    }

    [Fact]
    public void Several_conflicts_in_one_row_are_resolved_in_sqlite_order()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE a(r UNIQUE ON CONFLICT REPLACE, i UNIQUE ON CONFLICT IGNORE)");
        o.Ok("INSERT INTO a VALUES (1, 1), (2, 2)");
        // The REPLACE constraint is checked after the IGNORE one, though it was declared first: the row is skipped.
        o.Ok("INSERT INTO a VALUES (1, 2)").Changes.Should().Be(0);
        o.Ok("CREATE TABLE b(id INTEGER PRIMARY KEY ON CONFLICT REPLACE, u UNIQUE ON CONFLICT FAIL)");
        o.Ok("INSERT INTO b VALUES (1, 'x'), (2, 'y')");
        // A REPLACE INTEGER PRIMARY KEY waits for the UNIQUE constraints.
        o.Both("INSERT INTO b VALUES (1, 'y')").Error.Should().Be("UNIQUE constraint failed: b.u");
        o.Ok("CREATE TABLE c(x UNIQUE ON CONFLICT IGNORE, y UNIQUE ON CONFLICT FAIL, z UNIQUE ON CONFLICT ABORT)");
        o.Ok("INSERT INTO c VALUES (1, 1, 1)");
        // Newest constraint first.
        o.Both("INSERT INTO c VALUES (1, 1, 1)").Error.Should().Be("UNIQUE constraint failed: c.z");
        o.Both("INSERT INTO c VALUES (1, 1, 2)").Error.Should().Be("UNIQUE constraint failed: c.y");
        o.Ok("INSERT INTO c VALUES (1, 2, 2)").Changes.Should().Be(0);
        o.Ok("CREATE TABLE d(n NOT NULL ON CONFLICT IGNORE, u UNIQUE ON CONFLICT ABORT)");
        o.Ok("INSERT INTO d VALUES (1, 1)");
        o.Ok("INSERT INTO d VALUES (NULL, 1)").Changes.Should().Be(0);
        o.Ok("CREATE TABLE e(id INTEGER PRIMARY KEY ON CONFLICT IGNORE, u UNIQUE ON CONFLICT FAIL)");
        o.Ok("INSERT INTO e VALUES (1, 'x'), (2, 'y')");
        o.Ok("INSERT INTO e VALUES (1, 'y')").Changes.Should().Be(0);
        o.Ok("CREATE UNIQUE INDEX ex ON a(r)");
        o.Both("INSERT INTO a VALUES (2, 9)").Error.Should().Be("UNIQUE constraint failed: a.r");
        o.AssertSameContents();
    }

    [Fact]
    public void Duplicate_constraints_share_one_algorithm()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a UNIQUE, UNIQUE(a) ON CONFLICT IGNORE)");
        o.Ok("INSERT INTO t VALUES (1), (1)").Changes.Should().Be(1);
        o.Both("CREATE TABLE c(a UNIQUE ON CONFLICT IGNORE, UNIQUE(a) ON CONFLICT FAIL)").Error.Should().Be("conflicting ON CONFLICT clauses specified");
        o.AssertSameContents();
    }

    [Fact]
    public void Multi_row_fail_and_rollback_inside_a_transaction()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE f(a UNIQUE ON CONFLICT FAIL)");
        o.Ok("CREATE TABLE r(a PRIMARY KEY ON CONFLICT ROLLBACK) WITHOUT ROWID");
        o.Ok("BEGIN");
        o.Ok("INSERT INTO f VALUES (1)");
        o.Both("INSERT INTO f VALUES (2), (3), (1), (4)").Error.Should().Be("UNIQUE constraint failed: f.a");
        o.Ok("SELECT * FROM f ORDER BY a");
        o.Ok("INSERT INTO r VALUES (1)");
        o.Both("INSERT INTO r VALUES (2), (1)").Error.Should().Be("UNIQUE constraint failed: r.a");
        o.Both("COMMIT").Error.Should().NotBeNull();
        o.Ok("SELECT (SELECT count(*) FROM f), (SELECT count(*) FROM r)");
        o.Both("INSERT INTO f VALUES (7), (7), (8)").Error.Should().Be("UNIQUE constraint failed: f.a");
        o.Ok("SELECT * FROM f ORDER BY a");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_tables()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k TEXT PRIMARY KEY ON CONFLICT REPLACE, u INT UNIQUE ON CONFLICT IGNORE, v) WITHOUT ROWID");
        o.Ok("INSERT INTO w VALUES ('a', 1, 'x'), ('b', 2, 'y'), ('a', 3, 'z')").Changes.Should().Be(3);
        o.Ok("INSERT INTO w VALUES ('a', 2, 'q')").Changes.Should().Be(0);
        o.Ok("CREATE TABLE n(k INTEGER PRIMARY KEY ON CONFLICT IGNORE, v NOT NULL ON CONFLICT REPLACE DEFAULT 'd') WITHOUT ROWID");
        o.Ok("INSERT INTO n VALUES (1, NULL), (1, 'x'), (2, 'y')").Changes.Should().Be(2);
        o.Both("INSERT INTO n VALUES (NULL, 'z')").Error.Should().Be("NOT NULL constraint failed: n.k");
        o.Ok("CREATE TABLE m(a, b, c, PRIMARY KEY(a, b) ON CONFLICT FAIL, UNIQUE(c) ON CONFLICT REPLACE) WITHOUT ROWID");
        o.Ok("INSERT INTO m VALUES (1, 1, 1), (1, 2, 2)");
        o.Ok("INSERT INTO m VALUES (2, 2, 1)");
        o.Both("INSERT INTO m VALUES (3, 3, 3), (1, 2, 2)").Error.Should().Be("UNIQUE constraint failed: m.a, m.b");
        o.Ok("SELECT * FROM w ORDER BY k");
        o.AssertSameContents();
    }

    [Fact]
    public void Upsert_leaves_other_constraints_to_their_own_algorithm()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(k UNIQUE, u UNIQUE ON CONFLICT IGNORE, v)");
        o.Ok("INSERT INTO t VALUES (1, 1, 'a'), (2, 2, 'b')");
        o.Ok("INSERT INTO t VALUES (3, 1, 'c') ON CONFLICT(k) DO UPDATE SET v = 'updated'").Changes.Should().Be(0);
        o.Ok("INSERT INTO t VALUES (1, 9, 'c') ON CONFLICT(k) DO UPDATE SET v = 'updated'").Changes.Should().Be(1);
        o.AssertSameContents();
    }

    [Fact]
    public void Csharp_api_insert_follows_the_constraints()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, u TEXT UNIQUE ON CONFLICT IGNORE, r INT UNIQUE ON CONFLICT REPLACE, n INT NOT NULL ON CONFLICT REPLACE DEFAULT 0)");
        o.Db.Insert("t", 1L, "a", 1L, 5L).Should().Be(1);
        o.SqliteOnly("INSERT INTO t VALUES (1, 'a', 1, 5)");
        o.Db.Insert("t", 2L, "a", 2L, 6L).Should().Be(0, "the row is ignored");
        o.Db.Insert("t", 3L, "b", 1L, null).Should().Be(3);
        o.SqliteOnly("INSERT INTO t VALUES (3, 'b', 1, NULL)");
        o.Db.Insert("t", ["u", "r"], ["c", 9L]).Should().Be(4);
        o.SqliteOnly("INSERT INTO t(u, r) VALUES ('c', 9)");
        o.Db.Upsert("t", 4L, "b", 9L, 1L);
        o.SqliteOnly("INSERT OR REPLACE INTO t VALUES (4, 'b', 9, 1)");
        o.Ok("CREATE TABLE a(x UNIQUE ON CONFLICT FAIL)");
        o.Db.Insert("a", 1L);
        o.SqliteOnly("INSERT INTO a VALUES (1)");
        var act = () => o.Db.Insert("a", 1L);
        act.Should().Throw<SharcConstraintException>().WithMessage("UNIQUE constraint failed: a.x");
        o.AssertSameContents();
    }
}

/// <summary>UPDATE without an OR clause on tables whose constraints name their own algorithm, against SQLite.</summary>
public class ConstraintConflictClauseUpdateTests
{
    [Fact]
    public void Update_resolves_by_each_constraint()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, i UNIQUE ON CONFLICT IGNORE, r UNIQUE ON CONFLICT REPLACE, f UNIQUE ON CONFLICT FAIL, n NOT NULL ON CONFLICT REPLACE DEFAULT 'd')");
        o.Ok("INSERT INTO t VALUES (1, 1, 1, 1, 'a'), (2, 2, 2, 2, 'b'), (3, 3, 3, 3, 'c'), (4, 4, 4, 4, 'e')");
        o.Ok("UPDATE t SET i = 1 WHERE id = 2").Changes.Should().Be(0);
        o.Ok("UPDATE t SET r = 1 WHERE id = 2").Changes.Should().Be(1);
        o.Ok("UPDATE t SET n = NULL WHERE id = 3");
        o.Both("UPDATE t SET f = f + 1").Error.Should().Be("UNIQUE constraint failed: t.f");
        o.Both("UPDATE OR ABORT t SET i = 3 WHERE id = 4").Error.Should().Be("UNIQUE constraint failed: t.i");
        o.Ok("UPDATE t SET r = 3, i = 2 WHERE id = 4").Changes.Should().Be(0);
        o.Ok("SELECT * FROM t ORDER BY id");
        o.AssertSameContents();
    }

    [Fact]
    public void Update_of_rowid_and_without_rowid_keys()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE r(id INTEGER PRIMARY KEY ON CONFLICT REPLACE, u UNIQUE ON CONFLICT IGNORE)");
        o.Ok("INSERT INTO r VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        o.Ok("UPDATE r SET id = 1, u = 'b' WHERE id = 3").Changes.Should().Be(0);
        o.Ok("UPDATE r SET id = 1 WHERE id = 3").Changes.Should().Be(1);
        o.Ok("CREATE TABLE w(k PRIMARY KEY ON CONFLICT IGNORE, u UNIQUE ON CONFLICT REPLACE, v) WITHOUT ROWID");
        o.Ok("INSERT INTO w VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c')");
        o.Ok("UPDATE w SET k = 1 WHERE k = 2").Changes.Should().Be(0);
        o.Ok("UPDATE w SET u = 1 WHERE k = 3").Changes.Should().Be(1);
        o.Ok("CREATE TABLE x(k PRIMARY KEY ON CONFLICT ROLLBACK, v) WITHOUT ROWID");
        o.Ok("INSERT INTO x VALUES (1, 'a'), (2, 'b')");
        o.Ok("BEGIN");
        o.Ok("INSERT INTO x VALUES (3, 'c')");
        o.Both("UPDATE x SET k = 1 WHERE k = 2").Error.Should().Be("UNIQUE constraint failed: x.k");
        o.Both("COMMIT").Error.Should().NotBeNull();
        o.AssertSameContents();
    }

    [Fact]
    public void Csharp_api_update_follows_the_constraints()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, i UNIQUE ON CONFLICT IGNORE, r UNIQUE ON CONFLICT REPLACE, n NOT NULL ON CONFLICT REPLACE DEFAULT 'd')");
        o.Ok("INSERT INTO t VALUES (1, 1, 1, 'a'), (2, 2, 2, 'b'), (3, 3, 3, 'c')");
        o.Db.Update("t", 2, ["i"], [1L]).Should().BeFalse("the IGNORE constraint skips the row");
        o.SqliteOnly("UPDATE t SET i = 1 WHERE id = 2");
        o.Db.Update("t", 2, ["r"], [1L]).Should().BeTrue();
        o.SqliteOnly("UPDATE t SET r = 1 WHERE id = 2");
        o.Db.UpdateByKey("t", [3L], ["n"], [null]).Should().BeTrue();
        o.SqliteOnly("UPDATE t SET n = NULL WHERE id = 3");
        o.Ok("CREATE TABLE w(k PRIMARY KEY ON CONFLICT IGNORE, u UNIQUE ON CONFLICT REPLACE, v) WITHOUT ROWID");
        o.Ok("INSERT INTO w VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c')");
        o.Db.UpdateByKey("w", [2L], ["k"], [1L]).Should().BeFalse();
        o.SqliteOnly("UPDATE w SET k = 1 WHERE k = 2");
        o.Db.UpdateByKey("w", [3L], ["u"], [1L]).Should().BeTrue();
        o.SqliteOnly("UPDATE w SET u = 1 WHERE k = 3");
        o.AssertSameContents();
    }
}
