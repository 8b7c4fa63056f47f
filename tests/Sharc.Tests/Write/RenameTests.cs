using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// ALTER TABLE RENAME TO / RENAME COLUMN rewrite the schema text exactly as SQLite 3.50 does (legacy_alter_table=OFF):
/// sqlite_schema after Sharc's rename equals sqlite_schema after SQLite's.
/// </summary>
public sealed class RenameTests
{
    private const string SchemaRows = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name";

    private static WriteTwin Build(params string[] schema) => new(sqliteSchema: schema);

    [Fact]
    public void Rename_table_follows_into_views_triggers_and_foreign_keys()
    {
        using var twin = Build(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INT CHECK(b > 0))",
            "CREATE INDEX t_a ON t(a)",
            "CREATE TABLE c(x INT REFERENCES t(id), y INT, FOREIGN KEY(y) REFERENCES \"t\")",
            "CREATE VIEW v AS SELECT t.a, b FROM t WHERE t.id > 1",
            "CREATE VIEW v2 AS SELECT count(*) FROM c, t AS tt WHERE tt.id = c.x",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO c VALUES(new.id, NULL); UPDATE t SET b = 1 WHERE id = new.id; END");
        twin.Both("ALTER TABLE t RENAME TO u2", d => d.RenameTable("t", "u2"));
        twin.AssertSame(SchemaRows);
    }

    [Fact]
    public void Rename_table_to_an_existing_name_fails_as_in_sqlite()
    {
        using var twin = Build("CREATE TABLE t(a)", "CREATE TABLE u(b)", "CREATE INDEX u_b ON u(b)");
        twin.Both("ALTER TABLE t RENAME TO u", d => d.RenameTable("t", "u")).Should().Be("there is already another table or index with this name: u");
        twin.Both("ALTER TABLE t RENAME TO u_b", d => d.RenameTable("t", "u_b")).Should().Be("there is already another table or index with this name: u_b");
        twin.AssertSame(SchemaRows);
    }

    [Fact]
    public void Rename_column_follows_into_indexes_checks_references_views_and_triggers()
    {
        using var twin = Build(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INT CHECK(a <> 'x'), g AS (a || b), UNIQUE(a, b))",
            "CREATE INDEX t_a ON t(lower(a)) WHERE a IS NOT NULL",
            "CREATE TABLE c(x INT, a TEXT, FOREIGN KEY(x, a) REFERENCES t(id, a))",
            "CREATE VIEW v AS SELECT a, t.b FROM t WHERE a > 'm'",
            "CREATE VIEW w AS SELECT q.a FROM t q",
            "CREATE TRIGGER tr AFTER UPDATE OF a ON t BEGIN UPDATE c SET a = new.a WHERE a = old.a; END");
        twin.Both("ALTER TABLE t RENAME COLUMN a TO name", d => d.RenameColumn("t", "a", "name"));
        twin.AssertSame(SchemaRows);
    }

    [Fact]
    public void Rename_column_follows_into_trigger_bodies_statement_by_statement()
    {
        using var twin = Build(
            "CREATE TABLE t(a, b, c)",
            "CREATE TABLE log(x, y, a)",
            "CREATE TRIGGER tr AFTER INSERT ON t WHEN new.a > 0 BEGIN INSERT INTO log(x, y) VALUES(new.a, (SELECT count(a) FROM t WHERE a = new.a)); UPDATE t SET b = new.a WHERE a = new.a; DELETE FROM log WHERE a = 1 AND x IN (SELECT a FROM t); END",
            "CREATE TRIGGER tr2 AFTER UPDATE OF a ON t BEGIN DELETE FROM log WHERE x = old.a; SELECT a FROM log; END",
            "CREATE TRIGGER tr3 AFTER INSERT ON log BEGIN UPDATE t SET c = new.x WHERE t.a = new.x; INSERT INTO t(a, b) SELECT x, a FROM log WHERE a > 0; END");
        twin.Both("ALTER TABLE t RENAME COLUMN a TO aa", d => d.RenameColumn("t", "a", "aa"));
        twin.AssertSame(SchemaRows);
        twin.Both("ALTER TABLE log RENAME COLUMN x TO xx", d => d.RenameColumn("log", "x", "xx"));
        twin.AssertSame(SchemaRows);
        twin.Both("ALTER TABLE log RENAME COLUMN a TO \"the a\"", d => d.RenameColumn("log", "a", "the a"));
        twin.AssertSame(SchemaRows);
    }

    [Fact]
    public void Rename_column_errors_match_sqlite()
    {
        using var twin = Build("CREATE TABLE t(a, b)");
        twin.Both("ALTER TABLE t RENAME COLUMN z TO y", d => d.RenameColumn("t", "z", "y")).Should().Be("no such column: \"z\"");
        twin.Both("ALTER TABLE t RENAME COLUMN a TO b", d => d.RenameColumn("t", "a", "b")).Should().Be("error in table t after rename: duplicate column name: b");
        twin.AssertSame(SchemaRows);
    }

    [Fact]
    public void Rename_fails_as_in_sqlite_while_any_view_does_not_resolve()
    {
        using var twin = Build("CREATE TABLE t(a, b)", "CREATE TABLE s(q)", "CREATE VIEW w AS SELECT zz FROM s", "CREATE VIEW x AS SELECT * FROM nosuch");
        twin.Both("ALTER TABLE t RENAME TO u", d => d.RenameTable("t", "u")).Should().Be("error in view w: no such column: zz");
        twin.Both("ALTER TABLE t RENAME COLUMN a TO c", d => d.RenameColumn("t", "a", "c")).Should().Be("error in view w: no such column: zz");
        twin.AssertSame(SchemaRows);
    }

    [Fact]
    public void Rename_names_a_missing_table_with_its_schema_as_sqlite_does()
    {
        using var twin = Build("CREATE TABLE t(a, b)", "CREATE VIEW x AS SELECT * FROM nosuch");
        twin.Both("ALTER TABLE t RENAME TO u", d => d.RenameTable("t", "u")).Should().Be("error in view x: no such table: main.nosuch");
        twin.AssertSame(SchemaRows);
    }
}
