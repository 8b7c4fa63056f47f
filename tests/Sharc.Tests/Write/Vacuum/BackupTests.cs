using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write.Vacuum;

/// <summary>The online backup: page copies of one snapshot in steps, with progress and cancellation.</summary>
public class BackupTests
{
    /// <summary>Reports on the calling thread, in order (Progress&lt;T&gt; would post them elsewhere).</summary>
    private sealed class Recorder : IProgress<SharcBackupProgress>
    {
        public List<SharcBackupProgress> Reports { get; } = new();
        public Action<SharcBackupProgress>? OnReport { get; init; }

        public void Report(SharcBackupProgress value)
        {
            Reports.Add(value);
            OnReport?.Invoke(value);
        }
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void Progress_rises_step_by_step_to_the_total_and_the_copy_is_the_database(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        using var db = BankFixture.Create(dir.File("bank.db"), mode);
        var recorder = new Recorder();
        string target = dir.File("backup.db");
        db.BackupTo(target, new SharcBackupOptions { PagesPerStep = 3, Progress = recorder });
        recorder.Reports.Should().NotBeEmpty();
        recorder.Reports.Select(r => r.PagesCopied).Should().BeInAscendingOrder().And.OnlyHaveUniqueItems();
        recorder.Reports.Should().OnlyContain(r => r.TotalPages == db.PageCount);
        recorder.Reports[^1].PagesCopied.Should().Be(db.PageCount);
        recorder.Reports[^1].Remaining.Should().Be(0);
        recorder.Reports.Count.Should().Be((int)((db.PageCount + 2) / 3));
        Oracle.IntegrityCheck(target).Should().Be("ok");
        BankFixture.Total(target).Should().Be(BankFixture.ExpectedTotal);
        Oracle.Rows(target, "SELECT * FROM account ORDER BY id").ShouldEqual(SharcRows.All(db, "account"));
    }

    [Fact]
    public void A_cancelled_backup_leaves_no_file_and_an_existing_target_as_it_was()
    {
        using var dir = new TempDir();
        using var db = BankFixture.Create(dir.File("bank.db"), SharcJournalMode.Delete);
        using var cts = new CancellationTokenSource();
        var options = new SharcBackupOptions { PagesPerStep = 2, Progress = new Recorder { OnReport = _ => cts.Cancel() }, CancellationToken = cts.Token };
        string fresh = dir.File("fresh.db"), existing = dir.File("existing.db");
        db.Invoking(d => d.BackupTo(fresh, options)).Should().Throw<OperationCanceledException>();
        File.Exists(fresh).Should().BeFalse();
        File.Exists(fresh + ".sharc-copy").Should().BeFalse();
        File.WriteAllText(existing, "old");
        db.Invoking(d => d.BackupTo(existing, options)).Should().Throw<OperationCanceledException>();
        File.ReadAllText(existing).Should().Be("old");
        using var destination = SharcDatabase.Create(dir.File("dest.db"), new SharcCreateOptions { PageSize = 1024 });
        destination.Execute("CREATE TABLE keep(x); INSERT INTO keep VALUES (1)");
        using var cts2 = new CancellationTokenSource();
        db.Invoking(d => d.BackupTo(destination, new SharcBackupOptions { PagesPerStep = 2, Progress = new Recorder { OnReport = _ => cts2.Cancel() }, CancellationToken = cts2.Token }))
            .Should().Throw<OperationCanceledException>();
        destination.Query("SELECT x FROM keep").Read().Should().BeTrue("the cancelled backup rolled back");
        destination.IsIntact().Should().BeTrue();
    }

    [Theory]
    [InlineData(SharcJournalMode.Delete)]
    [InlineData(SharcJournalMode.Wal)]
    public void A_writer_commits_while_the_backup_runs_and_the_copy_is_the_state_it_began_from(SharcJournalMode mode)
    {
        using var dir = new TempDir();
        using var db = BankFixture.Create(dir.File("bank.db"), mode);
        var before = SharcRows.All(db, "account");
        bool wrote = false;
        var recorder = new Recorder
        {
            OnReport = r =>
            {
                if (wrote) return;
                wrote = true;
                // Handshake: another thread commits a transfer in the middle of the copy, and must not wait for it.
                var t = new Thread(() =>
                {
                    using var tx = db.BeginTransaction();
                    db.Execute("UPDATE account SET balance = balance - 500 WHERE id = 1");
                    db.Execute("UPDATE account SET balance = balance + 500 WHERE id = 2");
                    tx.Commit();
                });
                t.Start();
                t.Join(TimeSpan.FromSeconds(60)).Should().BeTrue("the writer is not blocked by the backup");
            },
        };
        string target = dir.File("backup.db");
        db.BackupTo(target, new SharcBackupOptions { PagesPerStep = 4, Progress = recorder });
        wrote.Should().BeTrue();
        Oracle.IntegrityCheck(target).Should().Be("ok");
        Oracle.Rows(target, "SELECT * FROM account ORDER BY id").ShouldEqual(before, "the copy is the snapshot the backup began from");
        ((long)Oracle.Rows(target, "SELECT balance FROM account WHERE id = 1")[0][0]!).Should().Be(1000);
        SharcRows.All(db, "account").Should().NotBeEquivalentTo(before);
    }

    [Fact]
    public void Backup_into_an_open_database_replaces_its_content_in_one_transaction()
    {
        using var dir = new TempDir();
        string source = dir.File("source.db");
        VacuumFixtures.Build(source, 21, rows: 150, prelude: "PRAGMA page_size = 1024");
        using var src = SharcDatabase.Open(source);
        using var destination = SharcDatabase.Create(dir.File("dest.db"), new SharcCreateOptions { PageSize = 1024, JournalMode = SharcJournalMode.Wal });
        destination.Execute("CREATE TABLE old(x); INSERT INTO old VALUES (1)");
        var recorder = new Recorder();
        src.BackupTo(destination, new SharcBackupOptions { PagesPerStep = 10, Progress = recorder });
        recorder.Reports[^1].PagesCopied.Should().Be(src.PageCount);
        destination.Schema.FindTable("old").Should().BeNull();
        destination.Execute("INSERT INTO seq(v) VALUES ('more')");
        destination.JournalMode.Should().Be(SharcJournalMode.Wal);
        destination.Dispose();
        Oracle.IntegrityCheck(dir.File("dest.db")).Should().Be("ok");
        var expected = VacuumFixtures.Content(source);
        Oracle.Exec(source, "INSERT INTO seq(v) VALUES ('more')");
        var want = VacuumFixtures.Content(source);
        var got = VacuumFixtures.Content(dir.File("dest.db"));
        // The destination keeps its journal mode.
        got.Where(r => !(r.Length == 2 && Equals(r[0], "journal_mode"))).ToList()
            .ShouldEqual(want.Where(r => !(r.Length == 2 && Equals(r[0], "journal_mode"))).ToList());
        expected.Should().NotBeEmpty();
    }

    [Fact]
    public void A_page_layout_that_differs_is_refused_before_anything_is_written()
    {
        using var dir = new TempDir();
        using var src = BankFixture.Create(dir.File("bank.db"), SharcJournalMode.Delete);
        using var destination = SharcDatabase.Create(dir.File("dest.db"), new SharcCreateOptions { PageSize = 4096 });
        src.Invoking(s => s.BackupTo(destination)).Should().Throw<InvalidOperationException>().WithMessage("*4096-byte pages*");
        src.Invoking(s => s.BackupTo(src)).Should().Throw<InvalidOperationException>();
        src.Invoking(s => s.BackupTo(dir.File("x.db"), new SharcBackupOptions { PagesPerStep = 0 })).Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public async Task The_async_backup_copies_an_encrypted_database_under_its_key()
    {
        using var dir = new TempDir();
        string path = dir.File("enc.db");
        var key = SharcEncryptionKey.FromPassphrase("backup");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = key, Cipher = Encryption.EncryptionFixtures.Fast });
        foreach (var sql in Encryption.EncryptionFixtures.Workload(5, 60)) db.Execute(sql);
        string target = dir.File("enc-backup.db");
        await db.BackupToAsync(target, new SharcBackupOptions { PagesPerStep = 5 });
        using var copy = SharcDatabase.Open(target, new SharcOpenOptions { Key = SharcEncryptionKey.FromPassphrase("backup"), Cipher = Encryption.EncryptionFixtures.Fast });
        copy.IsEncrypted.Should().BeTrue();
        copy.CheckIntegrity().Should().BeEmpty();
        SharcRows.All(copy, "t").ShouldEqual(SharcRows.All(db, "t"));
        File.ReadAllBytes(target).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeFalse("the copy is encrypted");
    }
}
