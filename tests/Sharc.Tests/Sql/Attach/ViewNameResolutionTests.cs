using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Attach;

/// <summary>
/// Names inside a view stored in main (or an attached database) belong to that database: SQLite fixes them there when
/// it reads the CREATE VIEW, so a TEMP table or view of the same name never changes what the view reads. A TEMP view
/// searches temp, then main, then the attached databases, as any statement does.
/// </summary>
public class ViewNameResolutionTests
{
    [Fact]
    public void A_main_view_reads_main_objects_even_when_temp_ones_hide_their_names()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("INSERT INTO t VALUES (1), (2)");
        o.Ok("CREATE VIEW w AS SELECT 7 AS a");
        o.Ok("CREATE VIEW v AS SELECT a FROM t UNION ALL SELECT a FROM w");
        o.Ok("CREATE VIEW nested AS SELECT (SELECT max(a) FROM t) AS m, (SELECT count(*) FROM v) AS n, x.a FROM (SELECT a FROM t) AS x");
        o.Ok("CREATE TEMP VIEW t AS SELECT 99 AS a");
        o.Ok("CREATE TEMP TABLE w(a)");
        o.Ok("INSERT INTO w VALUES (8)");
        o.Both("SELECT * FROM v ORDER BY a");
        o.Both("SELECT * FROM nested ORDER BY a");
        o.Both("SELECT * FROM t");
        o.Both("SELECT * FROM main.t ORDER BY a");
        o.Ok("CREATE TEMP VIEW tv AS SELECT a FROM t UNION ALL SELECT a FROM w");
        o.Both("SELECT * FROM tv ORDER BY a");
    }

    [Fact]
    public void A_main_view_whose_table_exists_only_in_temp_names_main_in_its_error()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE gone(a)");
        o.Ok("CREATE VIEW v AS SELECT a FROM gone");
        o.Ok("CREATE TEMP TABLE keep(a)");
        o.Ok("DROP TABLE gone");
        o.Ok("CREATE TEMP TABLE gone(a)");
        o.Both("SELECT * FROM v");
    }

    [Fact]
    public void A_main_view_keeps_its_own_common_table_expressions()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("INSERT INTO t VALUES (1)");
        o.Ok("CREATE VIEW v AS WITH c AS (SELECT a + 10 AS a FROM t) SELECT a FROM c");
        o.Ok("CREATE TEMP TABLE c(a)");
        o.Ok("INSERT INTO c VALUES (5)");
        o.Ok("CREATE TEMP TABLE t(a)");
        o.Ok("INSERT INTO t VALUES (7)");
        o.Both("SELECT * FROM v");
    }
}
