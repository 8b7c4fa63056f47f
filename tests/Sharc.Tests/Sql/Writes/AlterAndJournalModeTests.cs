namespace Sharc.Tests.Sql.Writes;

/// <summary>ALTER TABLE … DROP COLUMN and PRAGMA journal_mode through SQL, compared with SQLite.</summary>
public sealed class AlterAndJournalModeTests
{
    [Fact]
    public void Drop_column_through_sql_rewrites_the_table_as_sqlite_does()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c INT CHECK (c > 0), d)");
        o.Ok("CREATE INDEX t_d ON t(d)");
        o.Ok("INSERT INTO t VALUES (1, 'x', 5, 'keep'), (2, NULL, 7, 'also')");
        o.Ok("ALTER TABLE t DROP COLUMN c");
        o.Ok("ALTER TABLE t DROP COLUMN b");
        o.Both("ALTER TABLE t DROP COLUMN d").Error.Should().NotBeNull();
        o.Both("ALTER TABLE t DROP COLUMN a").Error.Should().NotBeNull();
        o.Both("ALTER TABLE t DROP COLUMN nope").Error.Should().NotBeNull();
        o.Ok("SELECT sql FROM sqlite_schema ORDER BY name");
        o.Ok("SELECT * FROM t ORDER BY a");
        o.AssertSameContents();
    }

    [Fact]
    public void Journal_mode_reports_and_switches_between_delete_and_wal()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("PRAGMA journal_mode").Rows.Should().Equal("text 'delete'");
        o.Ok("PRAGMA journal_mode = WAL").Rows.Should().Equal("text 'wal'");
        o.Ok("INSERT INTO t VALUES (1), (2)");
        o.Ok("PRAGMA journal_mode").Rows.Should().Equal("text 'wal'");
        o.Ok("BEGIN");
        o.Both("PRAGMA journal_mode = DELETE").Error.Should().Be("cannot change out of wal mode from within a transaction");
        o.Ok("COMMIT");
        o.Ok("PRAGMA journal_mode = delete").Rows.Should().Equal("text 'delete'");
        o.Ok("INSERT INTO t VALUES (3)");
        o.AssertSameContents();
    }
}

/// <summary>CREATE TEMP VIEW and DROP VIEW of temp views through SQL: connection-local, not stored, as in SQLite.</summary>
public sealed class TempViewStatementTests
{
    [Fact]
    public void Temp_views_are_connection_local_and_dropped_before_schema_views()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a INT, b TEXT)");
        o.Ok("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
        o.Ok("CREATE TEMP VIEW big(n) AS SELECT a FROM t WHERE a > 1");
        o.Ok("SELECT n FROM big ORDER BY n").Rows.Should().HaveCount(2);
        o.Both("CREATE TEMPORARY VIEW big AS SELECT 1").Error.Should().NotBeNull();
        o.Ok("CREATE TEMP VIEW IF NOT EXISTS big AS SELECT 1");
        o.Ok("SELECT count(*) FROM sqlite_schema WHERE type = 'view'");
        o.Ok("DROP VIEW big");
        o.Both("SELECT * FROM big").Error.Should().NotBeNull();
        o.Both("DROP VIEW big").Error.Should().NotBeNull();
        o.Ok("DROP VIEW IF EXISTS big");
        o.AssertSameContents();
    }
}

/// <summary>WITH before INSERT, UPDATE and DELETE, and writes that read temp views, compared with SQLite.</summary>
public sealed class WithBeforeWriteTests
{
    [Fact]
    public void A_with_clause_names_tables_for_the_statement_that_follows()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, v INT)");
        o.Ok("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 20) INSERT INTO t(v) SELECT n * 3 FROM c");
        o.Ok("WITH big AS (SELECT id FROM t WHERE v > 30) UPDATE t SET v = -v WHERE id IN big");
        o.Ok("WITH odd(k) AS (SELECT id FROM t WHERE id % 2 = 1) DELETE FROM t WHERE id IN (SELECT k FROM odd) RETURNING id");
        o.Ok("WITH x(a) AS (VALUES (100), (200)) INSERT INTO t(v) SELECT a FROM x");
        o.Ok("CREATE TEMP VIEW neg AS SELECT id FROM t WHERE v < 0");
        o.Ok("UPDATE t SET v = 0 WHERE id IN (SELECT id FROM neg)");
        o.Ok("INSERT INTO t(v) SELECT count(*) FROM neg");
        o.Ok("SELECT * FROM t ORDER BY id");
        o.AssertSameContents();
    }
}
