using FluentAssertions;

namespace Sharc.Tests.Sql.Attach;

/// <summary>ATTACH / DETACH, schema-qualified names and PRAGMA database_list, against SQLite running the same statements.</summary>
public class AttachTests
{
    [Fact]
    public void An_attached_file_is_read_and_written_through_qualified_and_unqualified_names()
    {
        using var o = new AttachOracle();
        o.Ok("CREATE TABLE t(a, b)");
        o.Ok("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
        o.Ok("ATTACH DATABASE '{aux}' AS aux");
        o.Ok("CREATE TABLE aux.u(a INTEGER PRIMARY KEY, c TEXT)");
        o.Ok("CREATE INDEX aux.u_c ON u(c)");
        o.Ok("INSERT INTO aux.u VALUES (1, 'x'), (2, 'y'), (3, 'z')");
        o.Ok("INSERT INTO u(c) SELECT b FROM t");
        o.Ok("SELECT * FROM u ORDER BY a");
        o.Ok("SELECT t.b, aux.u.c FROM main.t JOIN aux.u ON t.a = u.a ORDER BY 1");
        o.Ok("SELECT a, (SELECT count(*) FROM aux.u WHERE u.a > t.a) FROM t ORDER BY a");
        o.Ok("UPDATE aux.u SET c = upper(c) WHERE a IN (SELECT a FROM t) RETURNING a, c");
        o.Ok("DELETE FROM aux.u WHERE c = 'z'");
        o.Ok("SELECT c FROM aux.u WHERE c > 'a' ORDER BY c");
        o.Ok("SELECT name, tbl_name, sql FROM aux.sqlite_master ORDER BY name");
        o.Ok("SELECT name FROM sqlite_master ORDER BY name");
        o.Ok("PRAGMA aux.table_info(u)");
        o.Ok("PRAGMA table_info(u)");
        o.Ok("PRAGMA aux.index_list(u)");
        o.Ok("PRAGMA aux.user_version = 7");
        o.Ok("PRAGMA aux.user_version");
        o.Ok("PRAGMA user_version");
        o.Ok("ALTER TABLE aux.u ADD COLUMN d DEFAULT 5");
        o.Ok("ALTER TABLE u RENAME TO u2");
        o.Ok("SELECT * FROM aux.u2 ORDER BY a");
        o.Ok("CREATE VIEW aux.v AS SELECT a, c FROM u2 WHERE a > 1");
        o.Ok("SELECT * FROM aux.v ORDER BY a");
        o.Ok("DROP VIEW aux.v");
        o.Ok("DROP INDEX aux.u_c");
        o.SameFileContents("aux", "u2");
        o.Ok("DETACH DATABASE aux");
        o.Both("SELECT * FROM aux.u2").Error.Should().Be("no such table: aux.u2");
        o.Both("SELECT * FROM u2").Error.Should().Be("no such table: u2");
        o.Inner.AssertSameContents();
    }

    [Fact]
    public void Names_resolve_in_temp_then_main_then_attached_order()
    {
        using var o = new AttachOracle();
        o.Ok("ATTACH '{aux}' AS aux");
        o.Ok("ATTACH ':memory:' AS mem");
        o.Ok("CREATE TABLE aux.t(x)");
        o.Ok("CREATE TABLE mem.t(y)");
        o.Ok("INSERT INTO t VALUES ('aux')");
        o.Ok("SELECT * FROM t");
        o.Ok("SELECT * FROM mem.t");
        o.Ok("CREATE TABLE t(z)");
        o.Ok("INSERT INTO t VALUES ('main')");
        o.Ok("SELECT * FROM t");
        o.Ok("CREATE TEMP TABLE t(w)");
        o.Ok("INSERT INTO t VALUES ('temp')");
        o.Ok("SELECT * FROM t");
        o.Ok("SELECT * FROM main.t");
        o.Ok("SELECT * FROM aux.t");
        o.Ok("SELECT temp.t.w, main.t.z FROM temp.t, main.t");
        o.Both("SELECT main.t.w FROM t").Error.Should().Be("no such column: main.t.w");
        o.Ok("DROP TABLE t");
        o.Ok("SELECT * FROM t");
        o.Ok("DROP TABLE t");
        o.Ok("SELECT * FROM t");
    }

    [Fact]
    public void Database_list_shows_temp_once_made_and_attachments_in_order()
    {
        using var o = new AttachOracle();
        // Paths differ between the engines: compare seq and name, and that the file column names the file.
        o.Ok("ATTACH '' AS e");
        o.Ok("ATTACH '{aux}' AS aux");
        var rows = new List<string>();
        using (var r = o.Db.Query("PRAGMA database_list"))
            while (r.Read()) rows.Add($"{r.GetInt64(0)} {r.GetString(1)} {r.GetString(2)}");
        rows.Should().Equal("0 main " + o.Inner.SharcPath, "2 e ", "3 aux " + o.SharcFile("aux"));
        o.Ok("CREATE TEMP TABLE x(a)");
        o.Ok("DETACH e");
        rows.Clear();
        using (var r = o.Db.Query("PRAGMA database_list"))
            while (r.Read()) rows.Add($"{r.GetInt64(0)} {r.GetString(1)}");
        rows.Should().Equal("0 main", "1 temp", "2 aux");
    }

    [Fact]
    public void Attach_and_detach_errors_match_sqlite()
    {
        using var o = new AttachOracle();
        o.Ok("ATTACH '{aux}' AS aux");
        o.Error("ATTACH '{aux2}' AS aux").Should().Be("database aux is already in use");
        o.Error("ATTACH '{aux2}' AS AUX").Should().Be("database AUX is already in use");
        o.Error("ATTACH '{aux2}' AS main").Should().Be("database main is already in use");
        o.Error("ATTACH '{aux2}' AS temp").Should().Be("database temp is already in use");
        o.Error("DETACH main").Should().Be("cannot detach database main");
        o.Error("DETACH temp").Should().Be("no such database: temp");
        o.Ok("CREATE TEMP TABLE x(a)");
        o.Error("DETACH temp").Should().Be("cannot detach database temp");
        o.Error("DETACH nosuch").Should().Be("no such database: nosuch");
        for (int i = 0; i < 9; i++) o.Ok($"ATTACH '' AS m{i}");
        o.Error("ATTACH '' AS m9").Should().Be("too many attached databases - max 10");
        o.Error("SELECT * FROM nosuch.t").Should().Be("no such table: nosuch.t");
        o.Error("SELECT * FROM m1.t").Should().Be("no such table: m1.t");
        o.Error("INSERT INTO nosuch.t VALUES (1)").Should().Be("no such table: nosuch.t");
        o.Error("CREATE TABLE nosuch.t(a)").Should().Be("unknown database nosuch");
        o.Error("CREATE TEMP TABLE main.t(a)").Should().Be("temporary table name must be unqualified");
        o.Ok("DETACH m0");
        o.Ok("ATTACH ? AS m0".Replace("?", "'' || ''", StringComparison.Ordinal));
        o.Ok("DETACH 'm0'");
        o.Ok("ATTACH '' AS 'quoted name'");
        o.Ok("CREATE TABLE \"quoted name\".t(a)");
        o.Ok("SELECT * FROM \"quoted name\".t");
    }

    [Fact]
    public void Detach_is_refused_while_a_transaction_has_written_the_database()
    {
        using var o = new AttachOracle();
        o.Ok("ATTACH '{aux}' AS aux");
        o.Ok("CREATE TABLE aux.t(a)");
        o.Ok("BEGIN");
        o.Ok("DETACH aux");
        o.Ok("ATTACH '{aux}' AS aux");
        o.Ok("INSERT INTO aux.t VALUES (1)");
        o.Error("DETACH aux").Should().Be("database aux is locked");
        o.Ok("COMMIT");
        o.Ok("DETACH aux");
    }

    [Fact]
    public void A_transaction_spans_main_and_attached_files()
    {
        using var o = new AttachOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("ATTACH '{aux}' AS aux");
        o.Ok("CREATE TABLE aux.u(b)");
        o.Ok("BEGIN");
        o.Ok("INSERT INTO t VALUES (1)");
        o.Ok("INSERT INTO aux.u VALUES (1)");
        o.Ok("ROLLBACK");
        o.Ok("SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM u)");
        o.Ok("BEGIN");
        o.Ok("INSERT INTO t VALUES (2)");
        o.Ok("SAVEPOINT s1");
        o.Ok("INSERT INTO aux.u VALUES (2)");
        o.Ok("SAVEPOINT s2");
        o.Ok("INSERT INTO aux.u VALUES (3)");
        o.Ok("INSERT INTO t VALUES (3)");
        o.Ok("ROLLBACK TO s2");
        o.Ok("SELECT (SELECT group_concat(a) FROM t), (SELECT group_concat(b) FROM u)");
        o.Ok("RELEASE s1");
        o.Ok("COMMIT");
        o.Ok("SELECT (SELECT group_concat(a) FROM t), (SELECT group_concat(b) FROM u)");
        o.Ok("SAVEPOINT outer1");
        o.Ok("INSERT INTO aux.u VALUES (4)");
        o.Ok("RELEASE outer1");
        o.SameFileContents("aux", "u");
        o.Inner.AssertSameContents();
    }

    [Fact]
    public void A_transaction_begun_through_the_api_commits_the_attached_file_too()
    {
        using var dir = new Infrastructure.TempDir();
        string main = dir.File("m.db"), aux = dir.File("a.db");
        using (var db = SharcDatabase.Create(main))
        {
            db.Execute($"ATTACH '{aux}' AS aux; CREATE TABLE aux.u(b)");
            using (var tx = db.BeginTransaction())
            {
                db.Execute("INSERT INTO aux.u VALUES (1)");
                tx.Commit();
            }
            using (var tx = db.BeginTransaction())
            {
                db.Execute("INSERT INTO aux.u VALUES (2)");
                // Disposed without commit: rolled back in both files.
            }
        }
        Infrastructure.Oracle.Rows(aux, "SELECT b FROM u").Select(r => r[0]).Should().Equal(1L);
        Infrastructure.Oracle.IntegrityCheck(aux).Should().Be("ok");
    }

    [Fact]
    public void A_read_only_database_attaches_read_only()
    {
        using var dir = new Infrastructure.TempDir();
        string main = dir.File("m.db"), aux = dir.File("a.db");
        Infrastructure.Oracle.Exec(main, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");
        Infrastructure.Oracle.Exec(aux, "CREATE TABLE u(b)", "INSERT INTO u VALUES (2)");
        using var db = SharcDatabase.Open(main);
        db.Execute($"ATTACH '{aux}' AS aux");
        using (var r = db.Query("SELECT a, b FROM t, aux.u"))
        {
            r.Read().Should().BeTrue();
            r.GetInt64(1).Should().Be(2);
        }
        ((Action)(() => db.Execute("INSERT INTO aux.u VALUES (3)"))).Should().Throw<SharcException>();
        ((Action)(() => db.Execute($"ATTACH '{dir.File("missing.db")}' AS nope"))).Should().Throw<SharcSqlException>()
            .Which.SqliteMessage.Should().StartWith("unable to open database");
    }

    [Fact]
    public void Every_thread_of_the_database_sees_attachments_and_temp_tables()
    {
        using var dir = new Infrastructure.TempDir();
        using var db = SharcDatabase.Create(dir.File("m.db"));
        db.Execute("ATTACH ':memory:' AS mem; CREATE TABLE mem.t(a); INSERT INTO mem.t VALUES (1); CREATE TEMP TABLE tt(b); INSERT INTO tt VALUES (2)");
        long seen = 0;
        var thread = new Thread(() =>
        {
            using var r = db.Query("SELECT (SELECT a FROM mem.t) + (SELECT b FROM tt)");
            r.Read();
            seen = r.GetInt64(0);
            db.Execute("INSERT INTO tt VALUES (5)");
        });
        thread.Start();
        thread.Join();
        seen.Should().Be(3);
        using var q = db.Query("SELECT sum(b) FROM temp.tt");
        q.Read().Should().BeTrue();
        q.GetInt64(0).Should().Be(7);
    }

    [Fact]
    public void A_plan_cached_before_an_attached_schema_change_is_made_again()
    {
        using var dir = new Infrastructure.TempDir();
        using var db = SharcDatabase.Create(dir.File("m.db"));
        db.Execute("ATTACH '' AS e; CREATE TABLE e.t(a); INSERT INTO e.t VALUES (1)");
        using (var r = db.Query("SELECT * FROM t")) r.FieldCount.Should().Be(1);
        db.Execute("ALTER TABLE e.t ADD COLUMN b DEFAULT 2");
        using (var r = db.Query("SELECT * FROM t")) r.FieldCount.Should().Be(2);
        db.Execute("DETACH e");
        ((Action)(() => db.Query("SELECT * FROM t").Dispose())).Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be("no such table: t");
    }
}
