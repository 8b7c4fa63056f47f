namespace Sharc.Tests.Write;

/// <summary>ALTER TABLE DROP COLUMN: the same schema text, rows and refusals as SQLite 3.50.</summary>
public sealed class DropColumnTests
{
    private const string SchemaRows = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name";

    private static WriteTwin Build(params string[] schema) => new(sqliteSchema: schema);

    [Theory]
    [InlineData("a")]
    [InlineData("b")]
    [InlineData("c")]
    public void Dropping_a_column_rewrites_the_definition_and_every_row(string column)
    {
        using var twin = Build(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INT  DEFAULT 5 , c BLOB, CHECK(id > 0), UNIQUE(id))",
            "INSERT INTO t VALUES(1, 'x', 2, x'01'), (2, NULL, NULL, NULL)",
            "ALTER TABLE t ADD COLUMN d TEXT DEFAULT 'dd'",
            "INSERT INTO t VALUES(3, 'y', 3, x'02', 'z')",
            "CREATE INDEX t_d ON t(d)");
        twin.Both($"ALTER TABLE t DROP COLUMN {column}", d => d.DropColumn("t", column));
        twin.AssertSame(SchemaRows, "SELECT * FROM t ORDER BY id");
    }

    [Fact]
    public void Dropping_the_last_column_keeps_table_constraints()
    {
        using var twin = Build("CREATE TABLE t(a INT, b TEXT, z REAL, PRIMARY KEY(a, b)) WITHOUT ROWID", "INSERT INTO t VALUES(1, 'p', 1.5), (2, 'q', NULL)");
        twin.Both("ALTER TABLE t DROP COLUMN z", d => d.DropColumn("t", "z"));
        twin.AssertSame(SchemaRows, "SELECT * FROM t ORDER BY a");
    }

    [Fact]
    public void Refusals_match_sqlites_messages()
    {
        using var twin = Build(
            "CREATE TABLE p(id INTEGER PRIMARY KEY)",
            "CREATE TABLE t(id INTEGER PRIMARY KEY, u TEXT UNIQUE, i INT, e INT, g AS (e + 1), k INT CHECK(k > 0), f INT REFERENCES p, w INT, x INT, m INT, h INT, CHECK(m < 9), FOREIGN KEY(h) REFERENCES p)",
            "CREATE INDEX t_i ON t(i)",
            "CREATE INDEX t_w ON t(x) WHERE w > 0",
            "CREATE TABLE solo(only1)");
        twin.Both("ALTER TABLE t DROP COLUMN nope", d => d.DropColumn("t", "nope")).Should().Be("no such column: \"nope\"");
        twin.Both("ALTER TABLE t DROP COLUMN id", d => d.DropColumn("t", "id")).Should().Be("cannot drop PRIMARY KEY column: \"id\"");
        twin.Both("ALTER TABLE t DROP COLUMN u", d => d.DropColumn("t", "u")).Should().Be("cannot drop UNIQUE column: \"u\"");
        twin.Both("ALTER TABLE t DROP COLUMN i", d => d.DropColumn("t", "i")).Should().Be("error in index t_i after drop column: no such column: i");
        twin.Both("ALTER TABLE t DROP COLUMN w", d => d.DropColumn("t", "w")).Should().Be("error in index t_w after drop column: no such column: w");
        twin.Both("ALTER TABLE t DROP COLUMN e", d => d.DropColumn("t", "e")).Should().StartWith("error in table t after drop column");
        twin.Both("ALTER TABLE t DROP COLUMN m", d => d.DropColumn("t", "m")).Should().Be("error in table t after drop column: no such column: m");
        twin.Both("ALTER TABLE t DROP COLUMN k", d => d.DropColumn("t", "k")).Should().BeNull("a column's own CHECK goes with it");
        twin.Both("ALTER TABLE t DROP COLUMN h", d => d.DropColumn("t", "h")).Should().Be("error in table t after drop column: unknown column \"h\" in foreign key definition");
        twin.Both("ALTER TABLE t DROP COLUMN f", d => d.DropColumn("t", "f")).Should().BeNull("a column's own REFERENCES goes with it");
        twin.Both("ALTER TABLE solo DROP COLUMN only1", d => d.DropColumn("solo", "only1")).Should().Be("cannot drop column \"only1\": no other columns exist");
        twin.Both("ALTER TABLE t DROP COLUMN g", d => d.DropColumn("t", "g"));
        twin.AssertSame(SchemaRows);
    }

    [Fact]
    public void Dropping_a_column_a_view_uses_fails_as_in_sqlite_through_the_api_and_sql()
    {
        using var twin = Build("CREATE TABLE t(a, b, c)", "CREATE VIEW v AS SELECT a FROM t", "CREATE VIEW w AS SELECT x.b FROM t x");
        twin.Both("ALTER TABLE t DROP COLUMN a", d => d.DropColumn("t", "a")).Should().Be("error in view v after drop column: no such column: a");
        twin.Both("ALTER TABLE t DROP COLUMN b", d => d.Execute("ALTER TABLE t DROP COLUMN b")).Should().Be("error in view w after drop column: no such column: x.b");
        twin.Both("ALTER TABLE t DROP COLUMN c", d => d.Execute("ALTER TABLE t DROP COLUMN c"));
        twin.AssertSame(SchemaRows, "SELECT * FROM t");
    }
}
