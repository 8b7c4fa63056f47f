using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>PRAGMAs through SQL: names, values and storage classes as SQLite returns them.</summary>
public class PragmaTests
{
    [Fact]
    public void Header_pragmas_read_and_write_as_sqlite()
    {
        using var o = new WriteOracle(new SharcCreateOptions { PageSize = 1024 });
        o.Ok("CREATE TABLE t(a)");
        o.Ok("PRAGMA user_version = 42");
        o.Ok("PRAGMA user_version").Rows.Should().Equal("int 42");
        o.Ok("PRAGMA application_id(-7)");
        o.Ok("PRAGMA application_id");
        o.Ok("PRAGMA main.page_size");
        o.Ok("PRAGMA page_size = 4096");
        o.Ok("PRAGMA page_size");
        o.Ok("PRAGMA encoding");
        o.Ok("PRAGMA auto_vacuum");
        o.Ok("PRAGMA freelist_count");
        o.Ok("PRAGMA journal_mode");
        o.Ok("PRAGMA foreign_keys = ON");
        o.Ok("PRAGMA foreign_keys");
        o.Db.ForeignKeysEnabled.Should().BeTrue();
        o.Ok("PRAGMA integrity_check");
        o.Ok("PRAGMA quick_check");
        o.Ok("PRAGMA no_such_pragma");
        o.Ok("PRAGMA no_such_pragma = 3");
        o.AssertSameContents();
    }

    [Fact]
    public void Schema_pragmas_list_columns_and_indexes_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT NOT NULL DEFAULT 'x', b VARCHAR(8) UNIQUE, c, UNIQUE(a, c))");
        o.Ok("CREATE INDEX t_c ON t(c DESC, a COLLATE NOCASE)");
        o.Ok("CREATE TABLE w(k, n, v, PRIMARY KEY(n, k)) WITHOUT ROWID");
        o.Ok("CREATE INDEX w_v ON w(v)");
        foreach (var sql in new[]
        {
            "PRAGMA table_info(t)", "PRAGMA table_xinfo('t')", "PRAGMA index_list(t)", "PRAGMA index_info(t_c)",
            "PRAGMA index_xinfo(t_c)", "PRAGMA index_list(w)", "PRAGMA index_xinfo(w_v)", "PRAGMA table_info(nosuch)",
            "PRAGMA index_info(sqlite_autoindex_t_1)", "PRAGMA index_xinfo(sqlite_autoindex_t_2)",
        })
            o.Ok(sql);
    }

    [Fact]
    public void Pragmas_sqlite_has_but_sharc_does_not_run_say_so()
    {
        using var o = new WriteOracle();
        var e = Assert.Throws<SharcSqlException>(() => o.Db.Execute("PRAGMA module_list"));
        e.SqliteMessage.Should().Be("PRAGMA module_list is not supported");
        Assert.Throws<SharcSqlException>(() => o.Db.Execute("PRAGMA journal_mode = TRUNCATE")).SqliteMessage
            .Should().Be("PRAGMA journal_mode = TRUNCATE is not supported (Sharc writes the DELETE and WAL journal modes)");
    }
}
