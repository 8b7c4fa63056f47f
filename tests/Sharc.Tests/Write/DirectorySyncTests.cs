using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// A journal or -wal file Sharc creates is only safe once its directory entry is durable: a power failure can
/// otherwise lose the whole file after the database was changed on its strength. SQLite syncs the directory at the
/// first sync of a new journal and of a -wal it opened; so does Sharc, before the database file is touched.
/// </summary>
public class DirectorySyncTests
{
    [Fact]
    public void Each_rollback_commit_syncs_its_new_journal_and_then_its_directory_before_touching_the_database()
    {
        using var dir = new TempDir();
        string path = dir.File("d.db");
        using (var db = SharcDatabase.Create(path)) db.Execute("CREATE TABLE t(x)");
        var fs = new FaultyStorage();
        using (var db = SharcDatabase.OpenWritable(path, new SharcOpenOptions { Writable = true }, fs))
        {
            db.Execute("INSERT INTO t VALUES (1)");
            string first = fs.Trace.ToString();
            first.Should().MatchRegex("^[wt]*sD", "the journal's records are synced, then its directory entry ({0})", first);
            first.Count(c => c == 'D').Should().Be(1);
            db.Execute("INSERT INTO t VALUES (2)");
            fs.Trace.ToString().Count(c => c == 'D').Should().Be(2, "every transaction creates its journal anew (journal_mode=DELETE)");
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Theory]
    [InlineData(SharcWalSharing.Shared)]
    [InlineData(SharcWalSharing.Exclusive)]
    public void A_wal_connection_syncs_the_directory_once_after_the_logs_first_header(SharcWalSharing sharing)
    {
        using var dir = new TempDir();
        string path = dir.File("w.db");
        using (var db = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = SharcJournalMode.Wal }))
        {
            db.Execute("CREATE TABLE t(x)");
            db.Execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
        // Everything is in the database file: the next writer creates the -wal afresh.
        File.Delete(path + "-wal");
        File.Delete(path + "-shm");
        var fs = new FaultyStorage();
        using (var db = SharcDatabase.OpenWritable(path, new SharcOpenOptions { Writable = true, WalAutoCheckpoint = 0, WalSharing = sharing }, fs))
        {
            for (int i = 0; i < 3; i++) db.Execute("INSERT INTO t VALUES (?1)", i);
            string trace = fs.Trace.ToString();
            trace.Should().MatchRegex("^[wt]*sD", "the new log's header is synced, then its directory entry ({0})", trace);
            trace.Count(c => c == 'D').Should().Be(1);
        }
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(3L);
    }
}
