using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>INSERT through SQL, statement by statement against SQLite.</summary>
public class InsertTests
{
    [Fact]
    public void Insert_values_applies_column_affinity_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a INTEGER, b TEXT, c REAL, d NUMERIC, e BLOB, f)");
        o.Ok("INSERT INTO t VALUES ('12', 12, '1.5', '3.0', '7', x'00ff')").Changes.Should().Be(1);
        o.Ok("INSERT INTO t VALUES (1.0, 2.5, 3, ' 4 ', 5, 6), (NULL, NULL, NULL, NULL, NULL, NULL)").Changes.Should().Be(2);
        o.Ok("INSERT INTO t(f, a) VALUES (?1, ?2)", "x", 9.5);
        o.AssertSameContents();
    }

    [Fact]
    public void Too_many_parameter_values_for_a_write_are_a_range_error_and_change_nothing()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a, b)");
        Action[] calls =
        [
            () => o.Db.Execute("INSERT INTO t VALUES (?, ?)", 1, 2, 3),
            () => o.Db.Execute("INSERT INTO t VALUES (?); INSERT INTO t VALUES (?, ?)", 1, 2, 3),
            () => o.Db.Query("INSERT INTO t VALUES (?, ?)", 1, 2, 3).Dispose(),
            () => o.Db.Prepare("INSERT INTO t VALUES (?1, ?1)").Execute(1, 2),
        ];
        foreach (var call in calls) call.Should().Throw<ArgumentOutOfRangeException>().WithMessage("*values were given*");
        o.AssertSameContents();
    }

    [Fact]
    public void Insert_without_a_column_list_skips_generated_columns_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE g(a, b AS (a * 2), c, d AS (c + 1) STORED)");
        o.Ok("INSERT INTO g VALUES (1, 5), (2, 'x')").Changes.Should().Be(2);
        o.Ok("INSERT INTO g SELECT a + 10, c FROM g");
        o.Both("INSERT INTO g VALUES (1, 2, 3)").Error.Should().Be("table g has 2 columns but 3 values were supplied");
        o.AssertSameContents();
    }

    [Fact]
    public void Insert_select_and_default_values_fill_the_table_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE s(x INTEGER PRIMARY KEY, y TEXT DEFAULT 'none', z INT DEFAULT 7)");
        o.Ok("INSERT INTO s DEFAULT VALUES");
        o.Ok("INSERT INTO s(y) SELECT 'v' || x FROM s");
        o.Ok("INSERT INTO s(y, z) SELECT y, z + 1 FROM s WHERE x > 0").Changes.Should().Be(2);
        o.AssertSameContents();
    }

    [Fact]
    public void Conflicts_follow_sqlite_for_each_or_action()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT UNIQUE, b INT NOT NULL DEFAULT 5)");
        o.Ok("INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 2)");
        o.Both("INSERT INTO t VALUES (3, 'z', 3), (4, 'x', 4)").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("INSERT OR IGNORE INTO t VALUES (5, 'x', 5), (6, 'w', 6)").Changes.Should().Be(1);
        o.Ok("INSERT OR REPLACE INTO t VALUES (7, 'y', NULL)").Changes.Should().Be(1);
        o.Ok("REPLACE INTO t VALUES (1, 'q', 9)");
        o.Both("INSERT INTO t VALUES (8, 'n', NULL)").Error.Should().Be("NOT NULL constraint failed: t.b");
        o.Both("INSERT INTO t VALUES (1, 'n', 1)").Error.Should().Be("UNIQUE constraint failed: t.id");
        o.AssertSameContents();
    }

    [Fact]
    public void Or_fail_keeps_the_rows_before_the_failure_and_or_abort_undoes_them()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a UNIQUE)");
        o.Ok("INSERT INTO t VALUES (1)");
        o.Both("INSERT OR FAIL INTO t VALUES (2), (3), (1), (4)").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Both("INSERT OR ABORT INTO t VALUES (5), (1)").Error.Should().NotBeNull();
        o.Ok("BEGIN");
        o.Ok("INSERT INTO t VALUES (10)");
        o.Both("INSERT OR ROLLBACK INTO t VALUES (11), (1)").Error.Should().NotBeNull();
        o.Both("COMMIT").Error.Should().Be("cannot commit - no transaction is active");
        o.AssertSameContents();
    }

    [Fact]
    public void Returning_gives_the_rows_as_stored()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b REAL)");
        o.Ok("INSERT INTO t(a, b) VALUES (1, 2), ('x', '3.5') RETURNING *").Rows.Should().HaveCount(2);
        o.Ok("INSERT INTO t(a) VALUES ('y') RETURNING id, a || '!', b IS NULL AS missing, rowid");
        o.AssertSameContents();
    }

    [Fact]
    public void Errors_are_worded_as_sqlite_words_them()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a, b)");
        o.Both("INSERT INTO t VALUES (1)").Error.Should().Be("table t has 2 columns but 1 values were supplied");
        o.Both("INSERT INTO t(a) VALUES (1, 2)").Error.Should().Be("2 values for 1 columns");
        o.Both("INSERT INTO t(c) VALUES (1)").Error.Should().Be("table t has no column named c");
        o.Both("INSERT INTO nosuch VALUES (1)").Error.Should().Be("no such table: nosuch");
        o.Ok("CREATE VIEW v AS SELECT a FROM t");
        o.Both("INSERT INTO v VALUES (1)").Error.Should().Be("cannot modify v because it is a view");
        o.AssertSameContents();
    }
}
