using FluentAssertions;

namespace Sharc.Tests.Sql.Attach;

/// <summary>TEMP views and every TEMP object in sqlite_temp_master, table_list and table_info, against SQLite.</summary>
public class TempSchemaListingTests
{
    [Fact]
    public void Temp_views_are_listed_in_the_temp_schema_table()
    {
        using var o = new AttachOracle();
        o.Ok("CREATE TABLE t(a, b)");
        o.Ok("INSERT INTO t VALUES (1, 'x'), (2, 'y')");
        o.Ok("CREATE TEMP VIEW v AS SELECT a, b FROM t WHERE a > 1");
        o.Ok("CREATE TEMPORARY VIEW IF NOT EXISTS w(n, m) AS SELECT a * 10, b FROM t");
        o.Ok("CREATE VIEW temp.u AS SELECT count(*) AS c FROM v");
        o.Ok("SELECT * FROM v");
        o.Ok("SELECT * FROM w ORDER BY n");
        o.Ok("SELECT * FROM temp.u");
        // A TEMP view may take the name of a main table, which it then hides.
        o.Ok("CREATE TEMP VIEW t AS SELECT 'shadow' AS s");
        o.Ok("SELECT * FROM t");
        o.Ok("SELECT * FROM main.t ORDER BY a");
        o.Ok("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_temp_master ORDER BY name");
        o.Ok("SELECT type, name, tbl_name, rootpage, sql FROM temp.sqlite_schema ORDER BY name");
        o.Ok("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_temp_schema ORDER BY name");
        o.Ok("SELECT name FROM sqlite_master ORDER BY name");
        o.Error("CREATE TEMP VIEW v AS SELECT 1");
        o.Ok("DROP VIEW t");
        o.Ok("DROP VIEW temp.w");
        o.Ok("SELECT type, name FROM sqlite_temp_master ORDER BY name");
        o.Ok("SELECT * FROM t ORDER BY a");
        o.Inner.AssertSameContents();
    }

    [Fact]
    public void Temp_objects_have_root_pages_and_rows_as_sqlite_lists_them()
    {
        using var o = new AttachOracle();
        o.Ok("CREATE TABLE m(a)");
        o.Ok("CREATE TEMP TABLE x(a INTEGER PRIMARY KEY, b UNIQUE)");
        o.Ok("CREATE TEMP TABLE y(c) ");
        o.Ok("CREATE INDEX temp.xi ON x(b, a)");
        o.Ok("CREATE TEMP VIEW xv AS SELECT * FROM x");
        o.Ok("CREATE TEMP TRIGGER xt AFTER INSERT ON x BEGIN INSERT INTO y VALUES (new.b); END");
        o.Ok("CREATE TEMP TRIGGER mt AFTER INSERT ON m BEGIN INSERT INTO x(b) VALUES (new.a); END");
        o.Ok("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_temp_master");
        o.Ok("SELECT type, name, tbl_name, rootpage, sql FROM temp.sqlite_master ORDER BY rowid");
        o.Ok("INSERT INTO m VALUES (5)");
        o.Ok("SELECT * FROM y");
    }

    [Fact]
    public void Table_list_and_table_info_show_temp_tables_and_views()
    {
        using var o = new AttachOracle();
        o.Ok("CREATE TABLE t(a, b)");
        o.Ok("CREATE TEMP TABLE tt(x INTEGER PRIMARY KEY, y) ");
        o.Ok("CREATE TEMP VIEW tv AS SELECT 1 AS one, 'two' AS two");
        o.Ok("ATTACH '{aux}' AS aux");
        o.Ok("CREATE TABLE aux.a(z INT) STRICT");
        o.Ok("SELECT * FROM pragma_table_list ORDER BY schema, name");
        o.Ok("SELECT schema, name, type, ncol FROM pragma_table_list WHERE schema = 'temp' ORDER BY name");
        o.Ok("SELECT * FROM pragma_table_list('tt')");
        o.Ok("SELECT * FROM pragma_table_list('tv')");
        o.Ok("PRAGMA temp.table_info(tv)");
        o.Ok("PRAGMA table_info(tv)");
        o.Ok("PRAGMA temp.table_info(tt)");
        o.Ok("SELECT * FROM pragma_table_info('tv')");
        o.Ok("SELECT * FROM pragma_table_info('tt')");
    }
}
