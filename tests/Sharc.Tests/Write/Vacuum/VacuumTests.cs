using Sharc.Tests.Infrastructure;
using Xunit.Abstractions;

namespace Sharc.Tests.Write.Vacuum;

/// <summary>VACUUM compared with SQLite's VACUUM of the same file: same rows and rowids, settings kept, freelist empty.</summary>
public class VacuumTests(ITestOutputHelper output)
{
    private (string sharc, string sqlite, string original) Pair(TempDir dir, int seed, string? prelude = null, int rows = 400, string? after = null)
    {
        string original = dir.File("original.db");
        VacuumFixtures.Build(original, seed, rows, prelude);
        if (after is not null) Oracle.Exec(original, after);
        string sharc = dir.File("sharc.db"), sqlite = dir.File("sqlite.db");
        CrashHarness.CopyDatabase(original, sharc);
        CrashHarness.CopyDatabase(original, sqlite);
        VacuumFixtures.SqliteVacuum(sqlite);
        return (sharc, sqlite, original);
    }

    private void Compare(string sharc, string sqlite, string original)
    {
        Oracle.IntegrityCheck(sharc).Should().Be("ok");
        VacuumFixtures.Content(sharc).ShouldEqual(VacuumFixtures.Content(sqlite), "Sharc's VACUUM keeps what SQLite's keeps");
        VacuumFixtures.Pragma(sharc, "freelist_count").Should().Be(0);
        VacuumFixtures.Pragma(sqlite, "freelist_count").Should().Be(0);
        long before = VacuumFixtures.Pragma(original, "page_count"), ours = VacuumFixtures.Pragma(sharc, "page_count"), theirs = VacuumFixtures.Pragma(sqlite, "page_count");
        output.WriteLine($"page_count: before {before}, Sharc's VACUUM {ours}, SQLite's VACUUM {theirs}");
        ours.Should().BeLessThan(before);
        // The layouts differ (SQLite copies rows into indexes as it goes, Sharc builds indexes bottom-up), so the
        // counts are close rather than equal.
        ((double)ours).Should().BeInRange(theirs * 0.8, theirs * 1.1);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Vacuum_keeps_every_row_rowid_and_setting_and_empties_the_freelist_as_sqlite_does(int seed)
    {
        using var dir = new TempDir();
        var (sharc, sqlite, original) = Pair(dir, seed);
        VacuumFixtures.Pragma(original, "freelist_count").Should().BeGreaterThan(0);
        using (var db = SharcDatabase.Open(sharc, new SharcOpenOptions { Writable = true })) db.Vacuum();
        Compare(sharc, sqlite, original);
    }

    [Theory]
    [InlineData("PRAGMA journal_mode = WAL")]
    [InlineData("PRAGMA auto_vacuum = FULL")]
    [InlineData("PRAGMA auto_vacuum = INCREMENTAL")]
    [InlineData("PRAGMA page_size = 1024")]
    [InlineData("PRAGMA page_size = 65536")]
    [InlineData("PRAGMA encoding = 'UTF-16le'")]
    [InlineData("PRAGMA encoding = 'UTF-16be'")]
    public void The_sql_statement_keeps_the_files_settings(string prelude)
    {
        using var dir = new TempDir();
        var (sharc, sqlite, original) = Pair(dir, 7, prelude, rows: 250);
        using (var db = SharcDatabase.Open(sharc, new SharcOpenOptions { Writable = true })) db.Execute("VACUUM");
        Compare(sharc, sqlite, original);
    }

    [Fact]
    public void The_database_goes_on_after_vacuum_with_new_root_pages_and_sequences()
    {
        using var dir = new TempDir();
        var (sharc, sqlite, _) = Pair(dir, 4, rows: 200);
        using (var db = SharcDatabase.Open(sharc, new SharcOpenOptions { Writable = true }))
        {
            db.Query("SELECT count(*) FROM t").Read().Should().BeTrue();
            db.Execute("VACUUM main");
            db.Execute("INSERT INTO seq(v) VALUES ('after'); INSERT INTO t(name) VALUES ('after'); DELETE FROM plain WHERE rowid < 50");
        }
        using (var c = Oracle.Open(sqlite))
            Oracle.Exec(c, "INSERT INTO seq(v) VALUES ('after'); INSERT INTO t(name) VALUES ('after'); DELETE FROM plain WHERE rowid < 50");
        Oracle.IntegrityCheck(sharc).Should().Be("ok");
        VacuumFixtures.Content(sharc).ShouldEqual(VacuumFixtures.Content(sqlite));
    }

    [Fact]
    public void Vacuum_inside_a_transaction_is_refused_with_sqlites_words()
    {
        using var dir = new TempDir();
        string path = dir.File("t.db");
        VacuumFixtures.Build(path, 5, rows: 20);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        db.Execute("BEGIN");
        db.Invoking(d => d.Execute("VACUUM")).Should().Throw<SharcSqlException>().WithMessage("*cannot VACUUM from within a transaction*");
        db.Invoking(d => d.Execute("VACUUM INTO ?", dir.File("copy.db"))).Should().Throw<SharcSqlException>().WithMessage("*cannot VACUUM from within a transaction*");
        db.Invoking(d => d.Vacuum()).Should().Throw<InvalidOperationException>().WithMessage("cannot VACUUM from within a transaction");
        db.Execute("ROLLBACK");
        db.Invoking(d => d.Execute("VACUUM nosuch")).Should().Throw<SharcSqlException>().WithMessage("*unknown database nosuch*");
        File.Exists(dir.File("copy.db")).Should().BeFalse();
    }

    [Fact]
    public void Vacuum_of_an_attached_database_compacts_that_file()
    {
        using var dir = new TempDir();
        var (aux, sqlite, original) = Pair(dir, 8, rows: 200);
        string main = dir.File("main.db");
        using (var db = SharcDatabase.Create(main))
        {
            db.Execute("ATTACH ? AS aux", aux);
            db.Execute("VACUUM aux");
            db.Execute("VACUUM temp");
        }
        Compare(aux, sqlite, original);
    }

    [Fact]
    public void An_encrypted_database_stays_encrypted_under_the_same_key()
    {
        using var dir = new TempDir();
        string path = dir.File("enc.db");
        var options = new SharcCreateOptions { Key = SharcEncryptionKey.FromPassphrase("vacuum"), Cipher = Encryption.EncryptionFixtures.Fast };
        List<object?[]> before;
        uint pagesBefore;
        using (var db = SharcDatabase.Create(path, options))
        {
            foreach (var sql in Encryption.EncryptionFixtures.Workload(3, 150)) db.Execute(sql);
            db.Execute("DELETE FROM t WHERE id % 2 = 0");
            before = SharcRows.All(db, "t");
            pagesBefore = db.PageCount;
            db.Execute("VACUUM");
            db.PageCount.Should().BeLessThan(pagesBefore);
            SharcRows.All(db, "t").ShouldEqual(before);
        }
        using var reopened = SharcDatabase.Open(path, new SharcOpenOptions { Key = SharcEncryptionKey.FromPassphrase("vacuum"), Cipher = Encryption.EncryptionFixtures.Fast });
        reopened.IsEncrypted.Should().BeTrue();
        reopened.CheckIntegrity().Should().BeEmpty();
        SharcRows.All(reopened, "t").ShouldEqual(before);
        reopened.Header.FreelistPageCount.Should().Be(0u);
    }
    [Theory]
    [InlineData(null, "PRAGMA auto_vacuum = FULL")]
    [InlineData(null, "PRAGMA auto_vacuum = INCREMENTAL")]
    [InlineData("PRAGMA auto_vacuum = FULL", "PRAGMA auto_vacuum = NONE")]
    public void A_pending_auto_vacuum_change_is_applied_by_vacuum_as_sqlite_applies_it(string? prelude, string change)
    {
        using var dir = new TempDir();
        string original = dir.File("original.db");
        VacuumFixtures.Build(original, 9, 200, prelude);
        string sharc = dir.File("sharc.db"), sqlite = dir.File("sqlite.db");
        CrashHarness.CopyDatabase(original, sharc);
        CrashHarness.CopyDatabase(original, sqlite);
        using (var c = Oracle.Open(sqlite)) Oracle.Exec(c, change + "; VACUUM");
        using (var db = SharcDatabase.Open(sharc, new SharcOpenOptions { Writable = true })) db.Execute(change + "; VACUUM");
        VacuumFixtures.Pragma(sharc, "auto_vacuum").Should().Be(VacuumFixtures.Pragma(sqlite, "auto_vacuum"));
        Compare(sharc, sqlite, original);
    }

    [Fact]
    public void A_pending_page_size_is_taken_by_vacuum_into_as_sqlite_takes_it()
    {
        using var dir = new TempDir();
        string original = dir.File("original.db");
        VacuumFixtures.Build(original, 10, 200);
        string ours = dir.File("ours.db"), theirs = dir.File("theirs.db");
        using (var c = Oracle.Open(original)) Oracle.Exec(c, $"PRAGMA page_size = 8192; VACUUM INTO '{theirs}'");
        using (var db = SharcDatabase.Open(original, new SharcOpenOptions { Writable = true }))
        {
            db.Execute("PRAGMA page_size = 8192");
            db.Execute("VACUUM INTO ?", ours);
            db.PageSize.Should().Be(4096, "the database itself keeps its page size");
        }
        VacuumFixtures.Pragma(ours, "page_size").Should().Be(8192);
        Oracle.IntegrityCheck(ours).Should().Be("ok");
        VacuumFixtures.Content(ours).ShouldEqual(VacuumFixtures.Content(theirs));
    }
    [Theory]
    [InlineData(null, "PRAGMA page_size = 8192")]
    [InlineData(null, "PRAGMA page_size = 1024")]
    [InlineData(null, "PRAGMA page_size = 1024; PRAGMA auto_vacuum = FULL")]
    [InlineData("PRAGMA journal_mode = WAL", "PRAGMA page_size = 8192")]
    public void A_pending_page_size_is_applied_by_vacuum_in_rollback_mode_and_forgotten_in_wal_mode(string? prelude, string change)
    {
        using var dir = new TempDir();
        string original = dir.File("original.db");
        VacuumFixtures.Build(original, 13, 200, prelude);
        string sharc = dir.File("sharc.db"), sqlite = dir.File("sqlite.db");
        CrashHarness.CopyDatabase(original, sharc);
        CrashHarness.CopyDatabase(original, sqlite);
        using (var c = Oracle.Open(sqlite)) Oracle.Exec(c, change + "; VACUUM");
        using (var db = SharcDatabase.Open(sharc, new SharcOpenOptions { Writable = true }))
        {
            db.Execute(change + "; VACUUM");
            db.PageSize.Should().Be((int)VacuumFixtures.Pragma(sqlite, "page_size"));
            // The connection goes on at the new size.
            db.Execute("INSERT INTO t(name) VALUES ('after'); DELETE FROM plain WHERE rowid < 40");
        }
        using (var c = Oracle.Open(sqlite)) Oracle.Exec(c, "INSERT INTO t(name) VALUES ('after'); DELETE FROM plain WHERE rowid < 40");
        Oracle.IntegrityCheck(sharc).Should().Be("ok");
        VacuumFixtures.Content(sharc).ShouldEqual(VacuumFixtures.Content(sqlite));
    }
    [Fact]
    public void Analyzes_statistics_are_copied_as_sqlite_copies_them()
    {
        using var dir = new TempDir();
        var (sharc, sqlite, original) = Pair(dir, 14, rows: 200, after: "ANALYZE");
        Oracle.Rows(original, "SELECT count(*) FROM sqlite_stat1")[0][0].Should().NotBe(0L);
        string copy = dir.File("copy.db");
        using (var db = SharcDatabase.Open(sharc, new SharcOpenOptions { Writable = true }))
        {
            db.VacuumInto(copy);
            db.Vacuum();
        }
        Compare(sharc, sqlite, original);
        Oracle.Rows(copy, "SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx").ShouldEqual(Oracle.Rows(original, "SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx"));
    }
}
