using Microsoft.Data.Sqlite;
using Sharc.Schema;

namespace Sharc.Tests.Schema;

/// <summary>
/// Damaged sqlite_schema tables, made with SQLite's writable_schema: Sharc must refuse exactly the ones SQLite
/// refuses, with SQLite's message (Sharc may add a reason where SQLite gives none).
/// </summary>
public class SchemaBuilderCorruptionTests
{
    public static TheoryData<string, string> Cases => new()
    {
        { "CREATE TABLE t(a); CREATE TABLE u(b)", "UPDATE sqlite_schema SET rootpage = 1 WHERE name = 'u'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET type = 'index' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE main.t(a)' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a); @@ garbage \"' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'create temp table if not exists t(a)' WHERE name = 't'" },
        { "CREATE TABLE t(a UNIQUE)", "UPDATE sqlite_schema SET name = 'sqlite_autoindex_x_1' WHERE type = 'index'" },
        { "CREATE TABLE t(a UNIQUE)", "UPDATE sqlite_schema SET rootpage = 1 WHERE type = 'index'" },
        { "CREATE TABLE t(a UNIQUE)", "UPDATE sqlite_schema SET rootpage = 99 WHERE type = 'index'" },
        { "CREATE TABLE t(a); CREATE TABLE u(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(b)' WHERE name = 'u'" },
        { "CREATE TABLE t(a); CREATE TABLE u(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(b)', name = 't', tbl_name = 't' WHERE name = 'u'" },
        { "CREATE TABLE t(a); CREATE VIEW v AS SELECT 1", "UPDATE sqlite_schema SET sql = 'CREATE VIEW t AS SELECT 1', name = 't', tbl_name = 't' WHERE name = 'v'" },
        { "CREATE TABLE t(a); CREATE INDEX i ON t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE i(b)', type = 'table', tbl_name = 'i' WHERE name = 'i'" },
        { "CREATE VIEW v AS SELECT 1", "UPDATE sqlite_schema SET rootpage = 5 WHERE name = 'v'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'DROP TABLE t' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET name = 'x' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET tbl_name = 'x' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET rootpage = 99 WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a default (abc))' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = ' CREATE TABLE t(a)' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = '' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a) extra' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a b(' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a, a)' WHERE name = 't'" },
        { "CREATE TABLE t(a)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a'' x)' WHERE name = 't'" },
        { "CREATE TABLE t(a); CREATE INDEX i ON t(a)", "UPDATE sqlite_schema SET sql = 'CREATE INDEX i ON zz(a)', tbl_name = 'zz' WHERE name = 'i'" },
        { "CREATE TABLE t(a); CREATE INDEX i ON t(a)", "UPDATE sqlite_schema SET sql = 'CREATE INDEX i ON t(zz)' WHERE name = 'i'" },
        { "CREATE TABLE t(a); CREATE INDEX i ON t(a); CREATE INDEX j ON t(a)", "UPDATE sqlite_schema SET sql = 'CREATE INDEX i ON t(a)', name = 'i' WHERE name = 'j'" },
        { "CREATE TABLE t(a); CREATE INDEX i ON t(a); CREATE INDEX j ON t(a)", "UPDATE sqlite_schema SET rootpage = (SELECT rootpage FROM sqlite_schema WHERE name = 'i') WHERE name = 'j'" },
        { "CREATE TABLE t(a); CREATE INDEX i ON t(a)", "UPDATE sqlite_schema SET rootpage = (SELECT rootpage FROM sqlite_schema WHERE name = 't') WHERE name = 'i'" },
        { "CREATE TABLE t(a PRIMARY KEY, b) WITHOUT ROWID; CREATE INDEX i ON t(b)", "UPDATE sqlite_schema SET rootpage = (SELECT rootpage FROM sqlite_schema WHERE name = 't') WHERE name = 'i'" },
        { "CREATE TABLE t(a); CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END", "UPDATE sqlite_schema SET sql = 'CREATE TRIGGER tr AFTER INSERT ON zz BEGIN SELECT 1; END', tbl_name = 'zz' WHERE name = 'tr'" },
        { "CREATE TABLE t(a); CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END", "UPDATE sqlite_schema SET sql = 'CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;' WHERE name = 'tr'" },
        { "CREATE TABLE t(a); CREATE VIRTUAL TABLE r USING rtree(id, x0, x1)", "UPDATE sqlite_schema SET rootpage = 5 WHERE name = 'r'" },
        { "CREATE TABLE t(a PRIMARY KEY) WITHOUT ROWID", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a) WITHOUT ROWID' WHERE name = 't'" },
        { "CREATE TABLE t(a INT)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a VARCHAR) STRICT' WHERE name = 't'" },
        { "CREATE TABLE t(a, b)", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a, b UNIQUE)' WHERE name = 't'" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Sharc_refuses_exactly_the_schemas_sqlite_refuses(string setup, string damage)
    {
        var (sqliteError, rows, pageCount) = Damage(setup, damage);
        var act = () => SchemaBuilder.Build(rows, pageCount);
        if (sqliteError is null)
        {
            act.Should().NotThrow();
            return;
        }
        var e = act.Should().Throw<SharcCorruptException>().Which;
        e.Message.Should().StartWith("database disk image is malformed: " + sqliteError);
    }

    [Fact]
    public void A_table_with_root_page_zero_is_refused_although_sqlite_only_fails_when_reading_it()
    {
        var rows = new List<SchemaRow> { new("table", "t", "t", 0, "CREATE TABLE t(a)") };
        var act = () => SchemaBuilder.Build(rows, 10);
        act.Should().Throw<SharcCorruptException>().WithMessage("*malformed database schema (t) - invalid rootpage");
    }

    [Fact]
    public void An_index_before_its_table_is_accepted_although_sqlite_reads_rows_in_order()
    {
        var rows = new List<SchemaRow>
        {
            new("index", "i", "t", 3, "CREATE INDEX i ON t(a)"),
            new("table", "t", "t", 2, "CREATE TABLE t(a)"),
        };
        SchemaBuilder.Build(rows, 3).GetTable("t").Indexes.Single().Name.Should().Be("i");
    }

    [Fact]
    public void A_constraint_index_without_its_row_is_left_out()
    {
        var rows = new List<SchemaRow> { new("table", "t", "t", 2, "CREATE TABLE t(a UNIQUE, b UNIQUE)"), new("index", "sqlite_autoindex_t_2", "t", 3, null) };
        var t = SchemaBuilder.Build(rows, 3).GetTable("t");
        t.Indexes.Select(i => i.Name).Should().Equal("sqlite_autoindex_t_2");
    }

    [Fact]
    public void A_page_count_of_zero_skips_the_upper_root_page_check()
        => SchemaBuilder.Build([new("table", "t", "t", 1000, "CREATE TABLE t(a)")], 0).GetTable("t").RootPage.Should().Be(1000u);

    /// <summary>Creates a database with <paramref name="setup"/>, damages sqlite_schema, and reopens it with SQLite.</summary>
    private static (string? SqliteError, List<SchemaRow> Rows, uint PageCount) Damage(string setup, string damage)
    {
        string path = Path.Combine(Path.GetTempPath(), $"sharc-schema-{Guid.NewGuid():N}.db");
        try
        {
            using (var c = Open(path))
            {
                Exec(c, setup);
                Exec(c, "PRAGMA writable_schema = ON");
                Exec(c, damage);
            }
            string? error = null;
            using (var c = Open(path))
            {
                try
                {
                    Exec(c, "SELECT count(*) FROM sqlite_schema");
                }
                catch (SqliteException e)
                {
                    error = e.Message[(e.Message.IndexOf('\'') + 1)..e.Message.LastIndexOf('\'')];
                }
            }
            using var raw = Open(path);
            Exec(raw, "PRAGMA writable_schema = ON"); // lets the damaged rows be read back
            var rows = new List<SchemaRow>();
            using (var cmd = raw.CreateCommand())
            {
                cmd.CommandText = "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY rowid";
                using var r = cmd.ExecuteReader();
                while (r.Read()) rows.Add(new SchemaRow(r.GetString(0), r.GetString(1), r.GetString(2), r.GetInt64(3), r.IsDBNull(4) ? null : r.GetString(4)));
            }
            uint pages = (uint)new FileInfo(path).Length / 4096;
            return (error, rows, pages);
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            File.Delete(path);
        }
    }

    private static SqliteConnection Open(string path)
    {
        var c = new SqliteConnection($"Data Source={path};Pooling=False");
        c.Open();
        return c;
    }

    private static void Exec(SqliteConnection c, string sql)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }
}
