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
