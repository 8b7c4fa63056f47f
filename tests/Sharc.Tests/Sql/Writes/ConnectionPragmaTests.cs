using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// The connection PRAGMAs servers, shells and migration tools run beyond the common settings: wal_checkpoint,
/// wal_autocheckpoint, foreign_key_list, collation_list, the settings that change nothing Sharc does, and the flags
/// Sharc supports only at their default — each answered as SQLite 3.53.3 answers it, or refused by name.
/// </summary>
public sealed class ConnectionPragmaTests
{
    [Theory]
    [InlineData("journal_size_limit", new[] { "100", "-1", "-7", "0", "4096" })]
    [InlineData("mmap_size", new[] { "4096", "0", "268435456" })]
    [InlineData("threads", new[] { "2", "4", "-1", "0" })]
    [InlineData("analysis_limit", new[] { "10", "0", "-3", "400" })]
    [InlineData("soft_heap_limit", new[] { "0" })]
    [InlineData("cell_size_check", new[] { "1", "off", "yes", "0" })]
    [InlineData("fullfsync", new[] { "1", "0" })]
    [InlineData("checkpoint_fullfsync", new[] { "on", "off" })]
    [InlineData("read_uncommitted", new[] { "1", "0" })]
    [InlineData("wal_autocheckpoint", new[] { "50", "0", "-4", "1000" })]
    [InlineData("locking_mode", new[] { "normal", "NORMAL" })]
    [InlineData("legacy_alter_table", new[] { "0", "off" })]
    [InlineData("reverse_unordered_selects", new[] { "0" })]
    [InlineData("defer_foreign_keys", new[] { "false" })]
    [InlineData("count_changes", new[] { "0" })]
    [InlineData("query_only", new[] { "0" })]
    [InlineData("trusted_schema", new[] { "1", "on" })]
    [InlineData("secure_delete", new[] { "0", "off" })]
    public void Connection_settings_are_answered_and_read_back_as_sqlite_does(string pragma, string[] values)
    {
        using var o = new WriteOracle();
        o.Ok($"PRAGMA {pragma}");
        foreach (var v in values)
        {
            o.Ok($"PRAGMA {pragma} = {v}");
            o.Ok($"PRAGMA {pragma}");
        }
    }

    [Theory]
    [InlineData("PRAGMA locking_mode = EXCLUSIVE")]
    [InlineData("PRAGMA legacy_alter_table = 1")]
    [InlineData("PRAGMA reverse_unordered_selects = on")]
    [InlineData("PRAGMA defer_foreign_keys = 1")]
    [InlineData("PRAGMA count_changes = 1")]
    [InlineData("PRAGMA query_only = 1")]
    [InlineData("PRAGMA trusted_schema = 0")]
    [InlineData("PRAGMA secure_delete = 1")]
    [InlineData("PRAGMA secure_delete = FAST")]
    [InlineData("PRAGMA max_page_count = 100")]
    public void A_setting_that_would_change_results_sharc_does_not_change_is_refused_by_name(string sql)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("r.db"));
        db.Invoking(d => d.Execute(sql)).Should().Throw<SharcSqlException>().WithMessage("PRAGMA * is not supported*");
    }

    [Fact]
    public void Max_page_count_reads_as_sqlite_reports_it()
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA max_page_count");
    }

    [Fact]
    public void Foreign_key_list_numbers_keys_and_columns_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA foreign_keys = ON");
        o.Ok("CREATE TABLE p(a INTEGER PRIMARY KEY, b, c, UNIQUE(b, c))");
        o.Ok("CREATE TABLE c(x REFERENCES p ON DELETE CASCADE, y, z, w REFERENCES p(a) ON UPDATE SET NULL ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED, "
             + "FOREIGN KEY(y, z) REFERENCES p(b, c) ON UPDATE CASCADE ON DELETE SET DEFAULT, FOREIGN KEY (z) REFERENCES missing(q))");
        o.Ok("PRAGMA foreign_key_list(c)");
        o.Ok("PRAGMA main.foreign_key_list(c)");
        o.Ok("PRAGMA foreign_key_list(p)");
        o.Ok("PRAGMA foreign_key_list(nosuch)");
        o.Ok("PRAGMA foreign_key_list");
        o.Ok("SELECT * FROM pragma_foreign_key_list('c') ORDER BY id DESC, seq");
        o.Ok("SELECT m.name, f.\"table\", f.\"from\" FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f ORDER BY 1, f.id, f.seq");
    }

    [Fact]
    public void Collation_list_lists_registered_collations_newest_first_then_sqlites_own()
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA collation_list");
        o.Ok("SELECT name FROM pragma_collation_list ORDER BY seq");
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("c.db"));
        db.CreateCollation("first", string.CompareOrdinal);
        db.CreateCollation("second", (a, b) => string.CompareOrdinal(b, a));
        using var r = db.Query("PRAGMA collation_list");
        var names = new List<string>();
        while (r.Read()) names.Add(r.GetString(1));
        names.Should().Equal("second", "first", "RTRIM", "NOCASE", "BINARY");
    }

    [Fact]
    public void Wal_checkpoint_answers_busy_log_and_checkpointed_and_empties_the_log_when_truncating()
    {
        using var dir = new TempDir();
        string path = dir.File("w.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = SharcJournalMode.Wal }))
        {
            db.Execute("PRAGMA wal_autocheckpoint = 0");
            db.Execute("CREATE TABLE t(a)");
            for (int i = 0; i < 5; i++) db.Execute("INSERT INTO t VALUES (?1)", i);
            using (var r = db.Query("PRAGMA wal_checkpoint"))
            {
                r.GetName(0).Should().Be("busy");
                r.GetName(1).Should().Be("log");
                r.GetName(2).Should().Be("checkpointed");
                r.Read().Should().BeTrue();
                r.GetInt64(0).Should().Be(0);
                r.GetInt64(1).Should().BeGreaterThan(0);
                r.GetInt64(2).Should().Be(r.GetInt64(1));
            }
            using (var r = db.Query("PRAGMA wal_checkpoint(TRUNCATE)"))
            {
                r.Read().Should().BeTrue();
                r.GetInt64(0).Should().Be(0);
                r.GetInt64(1).Should().Be(0);
            }
            new FileInfo(path + "-wal").Length.Should().Be(0);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(5L);
    }

    [Fact]
    public void Wal_checkpoint_on_a_rollback_journal_database_answers_as_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        o.Ok("PRAGMA wal_checkpoint");
        o.Ok("PRAGMA wal_checkpoint(FULL)");
        o.Ok("PRAGMA wal_autocheckpoint");
    }

    [Fact]
    public void Shrink_memory_is_accepted_and_answers_nothing()
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA shrink_memory");
    }
}
