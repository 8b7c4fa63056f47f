using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Writes;

/// <summary>PRAGMA page_size / encoding / auto_vacuum before the first table rewrite the empty database, as on a new SQLite file.</summary>
public class PragmaRecreateTests
{
    private static string Setting(string path, string pragma) => Convert.ToString(Oracle.Rows(path, "PRAGMA " + pragma)[0][0])!;

    /// <summary>Sets page size, encoding and auto-vacuum on both databases and compares what they report.</summary>
    private static void SetAllThree(WriteOracle o)
    {
        foreach (var sql in new[] { "PRAGMA page_size = 8192", "PRAGMA encoding = 'UTF-16le'", "PRAGMA auto_vacuum = FULL", "PRAGMA page_size", "PRAGMA encoding", "PRAGMA auto_vacuum" })
            o.Ok(sql);
    }

    [Fact]
    public void All_three_before_the_first_table_give_the_file_sqlite_would_make()
    {
        using var o = new WriteOracle();
        SetAllThree(o);
        o.Ok("PRAGMA user_version = 7");
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)");
        for (int i = 0; i < 200; i++) o.Ok("INSERT INTO t(s) VALUES (?1)", new string('é', i % 50) + i);
        o.Ok("DELETE FROM t WHERE id % 3 = 0");
        o.AssertSameContents();
        o.Db.PageSize.Should().Be(8192);
        o.Db.TextEncoding.Should().Be(SharcTextEncoding.Utf16LE);
        o.Db.Header.AutoVacuumMode.Should().Be(1);
        Setting(o.SharcPath, "page_size").Should().Be("8192");
        Setting(o.SharcPath, "encoding").Should().Be("UTF-16le");
        Setting(o.SharcPath, "auto_vacuum").Should().Be("1");
        Setting(o.SharcPath, "user_version").Should().Be("7");
        Oracle.IntegrityCheck(o.SharcPath).Should().Be("ok");
    }

    [Fact]
    public void One_script_sets_them_before_creating_and_filling_a_table()
    {
        using var dir = new TempDir();
        string path = dir.File("s.db");
        using (var db = SharcDatabase.Create(path))
            db.Execute("PRAGMA page_size=8192; PRAGMA encoding='UTF-16le'; PRAGMA auto_vacuum=FULL; CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 'one'), (2, 'two');");
        Setting(path, "page_size").Should().Be("8192");
        Setting(path, "encoding").Should().Be("UTF-16le");
        Setting(path, "auto_vacuum").Should().Be("1");
        Oracle.IntegrityCheck(path).Should().Be("ok");
        Oracle.Rows(path, "SELECT a, b FROM t ORDER BY a").Select(r => $"{r[0]} {r[1]}").Should().Equal("1 one", "2 two");
    }

    [Theory]
    [InlineData("PRAGMA page_size = 512", "page_size", "512")]
    [InlineData("PRAGMA page_size = 65536", "page_size", "65536")]
    [InlineData("PRAGMA encoding = 'UTF-16be'", "encoding", "UTF-16be")]
    [InlineData("PRAGMA encoding = 'UTF-16'", "encoding", "UTF-16le")]
    [InlineData("PRAGMA auto_vacuum = INCREMENTAL", "auto_vacuum", "2")]
    public void Each_setting_alone_before_the_first_table_agrees_with_sqlite(string pragma, string name, string expected)
    {
        using var o = new WriteOracle();
        o.Ok(pragma);
        o.Ok("PRAGMA " + name);
        o.Ok("CREATE TABLE t(a TEXT, b)");
        o.Ok("CREATE INDEX t_a ON t(a)");
        for (int i = 0; i < 100; i++) o.Ok("INSERT INTO t VALUES (?1, ?2)", "text " + i, i);
        o.AssertSameContents();
        Setting(o.SharcPath, name).Should().Be(expected);
        Oracle.IntegrityCheck(o.SharcPath).Should().Be("ok");
    }

    [Fact]
    public void Settings_made_earlier_survive_and_auto_vacuum_can_be_turned_off_again()
    {
        // SQLite would ignore these here (its file already has page 1); Sharc honours them on any empty database.
        using var dir = new TempDir();
        string path = dir.File("a.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { AutoVacuum = SharcAutoVacuum.Full, PageSize = 1024 }))
        {
            db.Execute("PRAGMA user_version = 7; PRAGMA application_id = 99; PRAGMA auto_vacuum = NONE; PRAGMA page_size = 2048");
            db.Execute("CREATE TABLE t(a); INSERT INTO t VALUES (1)");
            db.PageSize.Should().Be(2048);
        }
        Setting(path, "auto_vacuum").Should().Be("0");
        Setting(path, "page_size").Should().Be("2048");
        Setting(path, "user_version").Should().Be("7");
        Setting(path, "application_id").Should().Be("99");
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void After_the_first_table_new_values_are_ignored_as_in_sqlite()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(a)");
        SetAllThree(o);
        o.AssertSameContents();
    }

    [Theory]
    [InlineData("PRAGMA page_size = 1000")]
    [InlineData("PRAGMA page_size = 256")]
    [InlineData("PRAGMA page_size = 131072")]
    [InlineData("PRAGMA page_size = -4096")]
    public void Invalid_page_sizes_are_ignored_as_in_sqlite(string pragma)
    {
        using var o = new WriteOracle();
        o.Ok(pragma);
        o.Ok("PRAGMA page_size");
        o.Db.PageSize.Should().Be(4096);
    }

    [Fact]
    public void An_unknown_encoding_is_an_error()
    {
        using var o = new WriteOracle();
        Assert.Throws<SharcSqlException>(() => o.Db.Execute("PRAGMA encoding = 'latin1'")).SqliteMessage.Should().Be("unsupported encoding: latin1");
    }

    [Fact]
    public void Inside_a_transaction_the_rewrite_is_refused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("t.db"));
        db.Execute("BEGIN");
        Assert.Throws<SharcSqlException>(() => db.Execute("PRAGMA page_size = 8192")).SqliteMessage
            .Should().Be("PRAGMA page_size = 8192 inside a transaction is not supported (it rewrites the empty database)");
        db.Execute("ROLLBACK");
        db.PageSize.Should().Be(4096);
    }

    [Fact]
    public void In_wal_mode_the_rewrite_is_refused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("w.db"), new SharcCreateOptions { JournalMode = SharcJournalMode.Wal });
        Assert.Throws<SharcSqlException>(() => db.Execute("PRAGMA encoding = 'UTF-16le'")).SqliteMessage
            .Should().Be("PRAGMA encoding = UTF-16le in WAL mode is not supported (set it before PRAGMA journal_mode = WAL)");
    }

    [Fact]
    public void With_a_reader_open_the_rewrite_is_refused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("r.db"));
        // An empty database has no rows to hold a reader mid-scan: start the session a reader's first row starts.
        db.Source.BeginRead();
        Assert.Throws<SharcSqlException>(() => db.Execute("PRAGMA page_size = 1024")).SqliteMessage.Should().Contain("reader").And.EndWith("is not supported");
        db.Source.EndRead();
        db.Execute("PRAGMA page_size = 1024");
        db.PageSize.Should().Be(1024);
    }

    [Fact]
    public void On_a_read_only_database_the_rewrite_is_refused()
    {
        using var dir = new TempDir();
        string path = dir.File("ro.db");
        SharcDatabase.Create(path).Dispose();
        using var db = SharcDatabase.Open(path);
        Assert.Throws<SharcReadOnlyException>(() => db.Execute("PRAGMA auto_vacuum = FULL")).Message.Should().StartWith("attempt to write a readonly database");
    }

    public static IEnumerable<object[]> Rewrites() =>
    [
        ["PRAGMA page_size = 8192", false], ["PRAGMA page_size = 8192", true], ["PRAGMA page_size = 512", true],
        ["PRAGMA encoding = 'UTF-16be'", true], ["PRAGMA auto_vacuum = INCREMENTAL", true],
    ];

    [Theory]
    [MemberData(nameof(Rewrites))]
    public void A_crash_at_any_write_or_sync_of_the_rewrite_leaves_before_or_after(string pragma, bool tear)
    {
        using var dir = new TempDir();
        string seed = dir.File("seed.db");
        using (var db = SharcDatabase.Create(seed)) db.Execute("PRAGMA user_version = 7");
        static List<object?[]> Content(string path)
            => [[Setting(path, "page_size"), Setting(path, "encoding"), Setting(path, "auto_vacuum"), Setting(path, "user_version"), Setting(path, "page_count")]];
        static List<object?[]> SharcContent(SharcDatabase db)
        {
            string encoding = db.TextEncoding switch { SharcTextEncoding.Utf16LE => "UTF-16le", SharcTextEncoding.Utf16BE => "UTF-16be", _ => "UTF-8" };
            return [[db.PageSize.ToString(), encoding, db.Header.AutoVacuumMode.ToString(), db.Header.UserVersion.ToString(), db.PageCount.ToString()]];
        }
        int total = CrashHarness.EveryCrashPoint(dir, seed, Content, SharcContent, db => db.Execute(pragma),
            new SharcOpenOptions { Writable = true }, tear);
        total.Should().BeGreaterThan(3);
    }
}
