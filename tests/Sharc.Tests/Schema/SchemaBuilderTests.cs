using Sharc.Schema;

namespace Sharc.Tests.Schema;

public class SchemaBuilderTests
{
    private static readonly string[] Database =
    [
        "CREATE TABLE users(id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL UNIQUE COLLATE NOCASE, name TEXT)",
        "CREATE TABLE tags(user_id INT REFERENCES users(id), tag TEXT, PRIMARY KEY(user_id, tag)) WITHOUT ROWID",
        "CREATE INDEX users_name ON users(name DESC) WHERE name IS NOT NULL",
        "CREATE INDEX tags_tag ON tags(tag)",
        "CREATE VIEW active AS SELECT id, email FROM users WHERE name IS NOT NULL",
        "CREATE VIEW named(a, b) AS SELECT 1, 2",
        "CREATE TRIGGER users_ins AFTER INSERT ON users BEGIN INSERT INTO tags VALUES (new.id, 'new'); END",
        "CREATE TRIGGER active_del INSTEAD OF DELETE ON active BEGIN DELETE FROM users WHERE id = old.id; END",
        "CREATE VIRTUAL TABLE docs USING fts5(title, body)",
        "CREATE VIRTUAL TABLE boxes USING rtree(id, x0, x1)",
        "CREATE TABLE \"Mixed Case\"(x UNIQUE, y UNIQUE, UNIQUE(x, y))",
        "INSERT INTO users(email) VALUES ('a@b')",
    ];

    [Fact]
    public void Sqlite_schema_is_found_by_name_with_sqlites_column_types_but_not_listed()
    {
        using var db = SchemaOracle.Create();
        var schema = db.Build();
        var t = schema.FindTable("sqlite_master")!;
        schema.Tables.Should().NotContain(t);
        (t.Name, t.RootPage, t.IsVirtual, t.Indexes.Count).Should().Be(("sqlite_schema", 1u, false, 0));
        var expected = db.TableXInfo("sqlite_schema");
        t.Columns.Select(c => (c.Name, c.DeclaredType)).Should().Equal(expected.Select(e => (e.Name, e.Type)));
        t.Columns.Select(c => c.Affinity).Should().Equal(SharcAffinity.Text, SharcAffinity.Text, SharcAffinity.Text, SharcAffinity.Integer, SharcAffinity.Text);
        schema.FindTable("SQLITE_SCHEMA").Should().BeSameAs(t);
    }

    [Fact]
    public void An_empty_database_lists_no_tables()
    {
        var schema = SchemaBuilder.Build([], 1);
        schema.Tables.Should().BeEmpty();
        schema.FindTable("sqlite_schema").Should().NotBeNull();
        (schema.Indexes.Count, schema.Views.Count, schema.Triggers.Count).Should().Be((0, 0, 0));
    }

    [Fact]
    public void Tables_views_triggers_and_indexes_are_listed_in_sqlite_schema_order()
    {
        using var db = SchemaOracle.Create(Database);
        var schema = db.Build();
        var rows = db.SchemaRows();

        schema.Tables.Select(t => t.Name).Should().Equal(rows.Where(r => r.Type == "table").Select(r => r.Name));
        schema.Views.Select(v => v.Name).Should().Equal(rows.Where(r => r.Type == "view").Select(r => r.Name));
        schema.Triggers.Select(t => (t.Name, t.TableName)).Should().Equal(rows.Where(r => r.Type == "trigger").Select(r => (r.Name, r.TableName)));
        // A WITHOUT ROWID key index has no row: it is listed where its table is.
        var expectedIndexes = new List<string>();
        foreach (var r in rows)
        {
            if (r.Type == "index") expectedIndexes.Add(r.Name);
            else if (r.Type == "table" && schema.GetTable(r.Name).IsWithoutRowId)
                expectedIndexes.Add(db.IndexList(r.Name).Single(i => i.Origin == "pk").Name);
        }
        expectedIndexes.Should().Contain(["sqlite_autoindex_tags_1", "sqlite_autoindex_docs_idx_1"]);
        schema.Indexes.Select(i => i.Name).Should().Equal(expectedIndexes);
    }

    [Fact]
    public void Every_table_lists_the_indexes_pragma_index_list_reports()
    {
        using var db = SchemaOracle.Create(Database);
        var schema = db.Build();
        foreach (var table in schema.Tables)
        {
            table.Indexes.Select(i => i.Name).Should().BeEquivalentTo(db.IndexList(table.Name).Select(i => i.Name), table.Name);
            table.Indexes.All(i => SqlName(i.TableName) == SqlName(table.Name)).Should().BeTrue();
            foreach (var index in table.Indexes) schema.FindIndex(index.Name).Should().BeSameAs(index);
        }
    }

    private static string SqlName(string s) => s.ToUpperInvariant();

    [Fact]
    public void Root_pages_come_from_the_rows_and_virtual_tables_have_none()
    {
        using var db = SchemaOracle.Create(Database);
        var schema = db.Build();
        foreach (var row in db.SchemaRows().Where(r => r.Type is "table" or "index"))
        {
            uint root = row.Type == "table" ? schema.GetTable(row.Name).RootPage : schema.GetIndex(row.Name).RootPage;
            root.Should().Be((uint)row.RootPage, row.Name);
        }
        schema.GetTable("docs").IsVirtual.Should().BeTrue();
        schema.GetTable("boxes").Columns.Should().BeEmpty();
        var pk = schema.GetIndex("sqlite_autoindex_tags_1");
        (pk.IsPrimaryKey, pk.IsAutoIndex, pk.RootPage, pk.Sql).Should().Be((true, true, schema.GetTable("tags").RootPage, (string?)null));
    }

    [Fact]
    public void Views_keep_their_sql_select_and_column_names()
    {
        using var db = SchemaOracle.Create(Database);
        var schema = db.Build();
        var active = schema.FindView("ACTIVE")!;
        active.SelectSql.Should().Be("SELECT id, email FROM users WHERE name IS NOT NULL");
        active.Sql.Should().StartWith("CREATE VIEW active");
        schema.FindView("named")!.ColumnNames.Should().Equal("a", "b");
        schema.FindTable("active").Should().BeNull();
    }

    [Fact]
    public void Internal_tables_such_as_sqlite_sequence_are_ordinary_tables()
    {
        using var db = SchemaOracle.Create(Database);
        var seq = db.Build().GetTable("sqlite_sequence");
        seq.Columns.Select(c => c.Name).Should().Equal("name", "seq");
        db.Build().GetTable("users").IsAutoIncrement.Should().BeTrue();
    }

    [Fact]
    public void Index_columns_use_the_table_columns_collation_unless_the_index_names_one()
    {
        using var db = SchemaOracle.Create(
            "CREATE TABLE t(a TEXT COLLATE NOCASE, b)",
            "CREATE INDEX i1 ON t(a, b)",
            "CREATE INDEX i2 ON t(A COLLATE BINARY, B COLLATE rtrim)");
        var schema = db.Build();
        schema.GetIndex("i1").Columns.Select(c => c.Collation).Should().Equal("NOCASE", "BINARY");
        var i2 = schema.GetIndex("i2").Columns;
        i2.Select(c => (c.Name, c.TableOrdinal, c.Collation)).Should().Equal(("a", 0, "BINARY"), ("b", 1, "rtrim"));
    }

    [Fact]
    public void A_rowid_key_in_an_old_index_means_the_rowid_or_its_alias()
    {
        // SQLite 3.50 no longer creates such indexes; files holding them are read leniently.
        var rows = new List<SchemaRow>
        {
            new("table", "t", "t", 2, "CREATE TABLE t(a)"),
            new("index", "i", "t", 3, "CREATE INDEX i ON t(rowid, a)"),
            new("table", "u", "u", 4, "CREATE TABLE u(id INTEGER PRIMARY KEY, a)"),
            new("index", "j", "u", 5, "CREATE INDEX j ON u(_ROWID_ DESC)"),
        };
        var schema = SchemaBuilder.Build(rows, 5);
        schema.GetIndex("i").Columns[0].TableOrdinal.Should().Be(-1);
        var j = schema.GetIndex("j").Columns[0];
        (j.TableOrdinal, j.Name, j.IsDescending).Should().Be((0, "id", true));
    }

    [Fact]
    public void Names_match_case_insensitively_for_ascii_letters_only()
    {
        var rows = new List<SchemaRow>
        {
            new("table", "Été", "Été", 2, "CREATE TABLE Été(a)"),
            new("table", "éTÉ", "éTÉ", 3, "CREATE TABLE éTÉ(a)"),
            new("index", "i", "ÉTÉ", 4, "CREATE INDEX i ON ÉTÉ(A)"),
        };
        var act = () => SchemaBuilder.Build(rows, 4);
        // "ÉTÉ" is neither of the two tables for SQLite, whose case folding only covers ASCII letters.
        act.Should().Throw<SharcCorruptException>().WithMessage("*(i) - no such table: main.ÉTÉ");
    }

    [Fact]
    public void Errors_name_the_row_and_keep_sqlites_parser_message()
    {
        var rows = new List<SchemaRow> { new("table", "t1", "t1", 2, "CREATE TABLE t1(a b c NOT)") };
        var act = () => SchemaBuilder.Build(rows, 2);
        act.Should().Throw<SharcCorruptException>()
            .WithMessage("database disk image is malformed: malformed database schema (t1) - near \")\": syntax error");
    }
}
