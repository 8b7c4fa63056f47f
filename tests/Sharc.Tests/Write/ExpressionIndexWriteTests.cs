using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Expression and partial indexes are maintained on every write as SQLite maintains them; SQLite's integrity_check
/// (which recomputes every expression key and every partial WHERE) passes after each test.
/// </summary>
public sealed class ExpressionIndexWriteTests
{
    private const string All = "SELECT rowid, * FROM t ORDER BY rowid";

    [Fact]
    public void Expression_index_keys_follow_inserts_updates_and_deletes()
    {
        using var twin = new WriteTwin();
        twin.Schema(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INT, c REAL)",
            "CREATE INDEX t_lower ON t(lower(a))",
            "CREATE INDEX t_sum ON t(b + c DESC, id * 2)",
            "CREATE INDEX t_sub ON t(substr(a, 2, 3) COLLATE NOCASE, length(a))");
        twin.Both("INSERT INTO t VALUES(1, 'Hello', 5, 1.5)", d => d.Insert("t", 1, "Hello", 5, 1.5));
        twin.Both("INSERT INTO t VALUES(2, NULL, NULL, 2)", d => d.Insert("t", 2, null, null, 2));
        twin.Both("INSERT INTO t VALUES(3, 'xYZw', '7', 'abc')", d => d.Insert("t", 3, "xYZw", "7", "abc"));
        twin.Both("UPDATE t SET a = 'Bye', b = 9 WHERE id = 1", d => d.Update("t", 1, ["a", "b"], ["Bye", 9]));
        twin.Both("DELETE FROM t WHERE id = 2", d => d.Delete("t", 2));
        twin.Both("INSERT INTO t VALUES(4, 'ABC', 1, 1)", d => d.Insert("t", 4, "ABC", 1, 1));
        twin.AssertSame(All, "SELECT lower(a) FROM t INDEXED BY t_lower ORDER BY lower(a)");
    }

    [Fact]
    public void Unique_expression_index_refuses_duplicates_with_sqlites_message()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, email TEXT)", "CREATE UNIQUE INDEX t_email ON t(lower(email))");
        twin.Both("INSERT INTO t VALUES(1, 'A@x.org')", d => d.Insert("t", 1, "A@x.org"));
        twin.Both("INSERT INTO t VALUES(2, 'a@X.org')", d => d.Insert("t", 2, "a@X.org"))
            .Should().Be("UNIQUE constraint failed: index 't_email'");
        twin.Both("INSERT OR REPLACE INTO t VALUES(3, 'a@X.ORG')", d => d.Upsert("t", 3, "a@X.ORG"));
        twin.AssertSame(All);
    }

    [Fact]
    public void Partial_index_holds_only_rows_its_where_admits()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, status TEXT, n INT)", "CREATE INDEX t_open ON t(n) WHERE status = 'open'");
        twin.Both("INSERT INTO t VALUES(1, 'open', 5)", d => d.Insert("t", 1, "open", 5));
        twin.Both("INSERT INTO t VALUES(2, 'closed', 6)", d => d.Insert("t", 2, "closed", 6));
        twin.Both("UPDATE t SET status = 'open' WHERE id = 2", d => d.Update("t", 2, ["status"], ["open"]));
        twin.Both("UPDATE t SET status = 'done' WHERE id = 1", d => d.Update("t", 1, ["status"], ["done"]));
        twin.Both("DELETE FROM t WHERE id = 1", d => d.Delete("t", 1));
        twin.AssertSame(All, "SELECT n FROM t INDEXED BY t_open WHERE status = 'open' ORDER BY n");
    }

    [Fact]
    public void Partial_unique_index_ignores_rows_outside_its_where()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, deleted INT)", "CREATE UNIQUE INDEX t_live ON t(name) WHERE deleted = 0");
        twin.Both("INSERT INTO t VALUES(1, 'x', 0)", d => d.Insert("t", 1, "x", 0));
        twin.Both("INSERT INTO t VALUES(2, 'x', 1)", d => d.Insert("t", 2, "x", 1));
        twin.Both("INSERT INTO t VALUES(3, 'x', 1)", d => d.Insert("t", 3, "x", 1));
        twin.Both("INSERT INTO t VALUES(4, 'x', 0)", d => d.Insert("t", 4, "x", 0)).Should().Be("UNIQUE constraint failed: t.name");
        twin.Both("UPDATE t SET deleted = 0 WHERE id = 2", d => d.Update("t", 2, ["deleted"], [0])).Should().NotBeNull();
        twin.Both("UPDATE t SET deleted = 1 WHERE id = 1", d => d.Update("t", 1, ["deleted"], [1]));
        twin.Both("UPDATE t SET deleted = 0 WHERE id = 2", d => d.Update("t", 2, ["deleted"], [0]));
        twin.AssertSame(All);
    }

    [Fact]
    public void Create_index_over_existing_rows_computes_keys_and_where()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, n INT)");
        for (int i = 1; i <= 300; i++)
        {
            int id = i;
            twin.Both($"INSERT INTO t VALUES({id}, 'v{id % 37}', {id % 11})", d => d.Insert("t", id, "v" + (id % 37), id % 11));
        }
        twin.Schema("CREATE INDEX t_x ON t(upper(a), n * 3 DESC) WHERE n > 4", "CREATE INDEX t_y ON t(n) WHERE a LIKE 'v1%'");
        twin.Both("CREATE UNIQUE INDEX t_z ON t(a) WHERE n < 3", d => d.CreateIndex("CREATE UNIQUE INDEX t_z ON t(a) WHERE n < 3"))
            .Should().Be("UNIQUE constraint failed: t.a");
        twin.AssertSame(All, "SELECT name, sql FROM sqlite_schema ORDER BY name");
    }

    [Fact]
    public void Without_rowid_table_keeps_expression_and_partial_indexes()
    {
        using var twin = new WriteTwin();
        twin.Schema("CREATE TABLE w(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID", "CREATE INDEX w_e ON w(v % 3, k) WHERE v IS NOT NULL");
        twin.Both("INSERT INTO w VALUES('a', 5)", d => d.Insert("w", "a", 5));
        twin.Both("INSERT INTO w VALUES('b', NULL)", d => d.Insert("w", "b", null));
        twin.Both("INSERT OR REPLACE INTO w VALUES('a', 7)", d => d.Upsert("w", "a", 7));
        twin.Both("UPDATE w SET v = 1 WHERE k = 'b'", d => d.UpdateByKey("w", ["b"], ["v"], [1]));
        twin.Both("DELETE FROM w WHERE k = 'a'", d => d.DeleteByKey("w", "a"));
        twin.AssertSame("SELECT * FROM w ORDER BY k");
    }

    [Fact]
    public void Utf16_database_computes_expression_keys_from_its_text()
    {
        using var dir = new Sharc.Tests.Infrastructure.TempDir();
        string path = dir.File("u16.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { TextEncoding = SharcTextEncoding.Utf16LE }))
        {
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)");
            db.CreateIndex("CREATE INDEX t_a ON t(a || '!' COLLATE NOCASE) WHERE length(a) > 1");
            db.Insert("t", 1, "héllo");
            db.Insert("t", 2, "x");
            db.Insert("t", 3, "Ωmega");
            db.Update("t", 3, ["a"], ["zz"]);
        }
        Sharc.Tests.Infrastructure.Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}
