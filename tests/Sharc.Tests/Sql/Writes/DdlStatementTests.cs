using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>CREATE / DROP / ALTER / REINDEX through SQL: sqlite_schema must hold exactly what SQLite stores.</summary>
public class DdlStatementTests
{
    [Fact]
    public void Views_and_triggers_are_stored_as_sqlite_stores_them()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t1( x INTEGER, y VARCHAR(8) )");
        o.Ok("CREATE VIEW IF NOT EXISTS main.view1 AS SELECT x FROM t1 WHERE x>0");
        o.Ok("CREATE VIEW v2(a, b) AS   SELECT x, y FROM t1   ");
        o.Ok("CREATE VIEW IF NOT EXISTS view1 AS SELECT 1");
        o.Ok("CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END");
        o.Ok("CREATE TRIGGER IF NOT EXISTS t1r2 AFTER INSERT ON t1 FOR EACH ROW WHEN new.x > 0 BEGIN UPDATE t1 SET y = 'p' WHERE x = new.x; END");
        o.Ok("SELECT x FROM view1");
        o.AssertSameContents();
    }

    [Fact]
    public void Object_errors_are_worded_as_sqlite_words_them()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("CREATE VIEW v AS SELECT a FROM t");
        o.Both("CREATE VIEW v AS SELECT 1").Error.Should().Be("view v already exists");
        o.Both("CREATE VIEW t AS SELECT 1").Error.Should().Be("table t already exists");
        o.Both("CREATE TABLE v(x)").Error.Should().Be("view v already exists");
        o.Both("DROP VIEW t").Error.Should().Be("use DROP TABLE to delete table t");
        o.Both("DROP TABLE v").Error.Should().Be("use DROP VIEW to delete view v");
        o.Both("DROP VIEW nosuch").Error.Should().Be("no such view: nosuch");
        o.Both("DROP TRIGGER nosuch").Error.Should().Be("no such trigger: nosuch");
        o.Both("DROP INDEX nosuch").Error.Should().Be("no such index: nosuch");
        o.Both("DROP TABLE nosuch").Error.Should().Be("no such table: nosuch");
        o.Both("CREATE TRIGGER tr AFTER INSERT ON nosuch BEGIN SELECT 1; END").Error.Should().Be("no such table: main.nosuch");
        o.Both("CREATE TRIGGER tr BEFORE INSERT ON v BEGIN SELECT 1; END").Error.Should().Be("cannot create BEFORE trigger on view: v");
        o.Both("REINDEX nosuch").Error.Should().Be("unable to identify the object to be reindexed");
        o.Ok("DROP VIEW IF EXISTS nosuch");
        o.Ok("DROP TRIGGER IF EXISTS nosuch");
        o.AssertSameContents();
    }

    [Fact]
    public void Drop_removes_views_triggers_and_a_tables_triggers_with_it()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a, b)");
        o.Ok("CREATE INDEX t_a ON t(a)");
        o.Ok("CREATE VIEW v AS SELECT a FROM t");
        o.Ok("CREATE TRIGGER tr1 AFTER DELETE ON t BEGIN SELECT 1; END");
        o.Ok("DROP VIEW v");
        o.Ok("CREATE TRIGGER tr2 AFTER DELETE ON t BEGIN SELECT 1; END");
        o.Ok("DROP TRIGGER tr1");
        o.Ok("DROP TABLE t");
        o.Both("DROP TRIGGER tr2").Error.Should().Be("no such trigger: tr2");
        o.AssertSameContents();
    }

    [Fact]
    public void Alter_table_and_reindex_run_through_sql()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        o.Ok("CREATE INDEX t_b ON t(b COLLATE NOCASE)");
        o.Ok("INSERT INTO t(b) VALUES ('x'), ('Y'), ('z')");
        o.Ok("ALTER TABLE t ADD COLUMN c INT DEFAULT 4");
        o.Ok("ALTER TABLE t RENAME COLUMN b TO bb");
        o.Ok("ALTER TABLE t RENAME TO u");
        o.Ok("REINDEX u");
        o.Ok("REINDEX t_b");
        o.Ok("REINDEX NOCASE");
        o.Ok("REINDEX");
        o.Ok("INSERT INTO u(bb) VALUES ('w')");
        o.AssertSameContents();
    }

    [Fact]
    public void Create_table_as_select_types_columns_by_affinity_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE s(i INTEGER, t TEXT, r REAL, n NUMERIC, b BLOB, x)");
        o.Ok("INSERT INTO s VALUES (1, 'a', 1.5, 2, x'01', 'q'), (2, 'b', 2.5, 3.5, NULL, 4)");
        o.Ok("CREATE TABLE c AS SELECT i, t, r, n, b, x, i + 1, CAST(x AS TEXT) AS tx, i AS i FROM s");
        o.Ok("CREATE TABLE IF NOT EXISTS c AS SELECT 1");
        o.Ok("CREATE TABLE \"odd name\" AS SELECT t AS \"select\", r AS \"a b\" FROM s WHERE i > 1");
        o.AssertSameContents();
    }

    [Fact]
    public void Unsupported_statements_say_so()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        foreach (var sql in new[] { "CREATE VIRTUAL TABLE v USING fts5(a)" })
        {
            var e = Assert.Throws<SharcSqlException>(() => o.Db.Execute(sql));
            // The verdict follows the statement's name directly; a note, if any, comes after it in parentheses.
            e.SqliteMessage.Should().MatchRegex(@"^[A-Z][A-Z ]* is not supported( \(.+\))?$", sql);
        }
    }
}
