using Sharc.Storage;
using Sharc.Storage.IO;
using Sharc.Storage.Pool;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage.Pool;

/// <summary>The pool is process-wide: these tests run alone, so no other test's opens evict or take their entries.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class FilePoolCollection
{
    public const string Name = "file pool";
}

/// <summary>
/// A closed read-only database's handle and cache serve the next open of the same file, and never a different or
/// changed file: each test changes the file between close and reopen the way another connection or process would.
/// </summary>
[Collection(FilePoolCollection.Name)]
public class FilePoolTests
{
    private static string MakeDb(TempDir dir, string name = "pool.db", int rows = 50)
    {
        string path = dir.File(name);
        Oracle.Exec(path, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, n INT)");
        using var c = Oracle.Open(path);
        using var tx = c.BeginTransaction();
        for (int i = 1; i <= rows; i++) Oracle.Exec(c, "INSERT INTO t VALUES($i, $v, $n)", ("$i", (long)i), ("$v", "v" + i), ("$n", (long)i));
        tx.Commit();
        return path;
    }

    private static string ReadV(string path, long id, SharcOpenOptions? options = null)
    {
        using var db = SharcDatabase.Open(path, options);
        using var r = db.CreateReader("t", "v");
        r.Seek(id).Should().BeTrue();
        return r.GetString(0)!;
    }

    private static IPageSource SourceAfterReading(string path)
    {
        using var db = SharcDatabase.Open(path);
        using var r = db.CreateReader("t", "v");
        r.Seek(1).Should().BeTrue();
        return db.Source;
    }

    private static bool Pooling => FileIdentity.IsSupported;

    [Fact]
    public void ReopeningAClosedReadOnlyFileTakesItsPooledHandleAndCache()
    {
        if (!Pooling) return;
        using var dir = new TempDir();
        string path = MakeDb(dir);
        var first = SourceAfterReading(path);
        using var db = SharcDatabase.Open(path);
        db.Source.Should().BeSameAs(first);
        ((FilePageSource)db.Source).Misses.Should().BeGreaterThan(0);
        long missesBefore = ((FilePageSource)db.Source).Misses;
        using (var r = db.CreateReader("t", "v"))
        {
            r.Seek(1).Should().BeTrue();
            r.GetString(0).Should().Be("v1");
        }
        // Nobody changed the file: the pages came from the pooled cache.
        ((FilePageSource)db.Source).Misses.Should().Be(missesBefore);
    }

    [Fact]
    public void TurnedOffNothingIsPooled()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        IPageSource first;
        var off = new SharcOpenOptions { PoolFiles = false };
        using (var db = SharcDatabase.Open(path, off)) first = db.Source;
        using var again = SharcDatabase.Open(path, off);
        again.Source.Should().NotBeSameAs(first);
        using var other = SharcDatabase.Open(path);
        other.Source.Should().NotBeSameAs(first);
    }

    [Fact]
    public void AFileAnotherConnectionCommittedToIsReadFresh()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        ReadV(path, 7).Should().Be("v7");
        Oracle.Exec(path, "UPDATE t SET v = 'changed' WHERE id = 7");
        ReadV(path, 7).Should().Be("changed");
        Oracle.Exec(path, "DELETE FROM t WHERE id > 10", "INSERT INTO t VALUES(500, 'late', 0)");
        ReadV(path, 500).Should().Be("late");
        using var db = SharcDatabase.Open(path);
        using var r = db.CreateReader("t", "id");
        int n = 0;
        while (r.Read()) n++;
        n.Should().Be(11);
    }

    [Fact]
    public void ASchemaChangedBetweenCloseAndReopenIsSeen()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        ReadV(path, 1).Should().Be("v1");
        // New root pages: the pooled cache and the cached schema must both go.
        Oracle.Exec(path, "DROP TABLE t", "CREATE TABLE u(x)", "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, n INT)",
            "INSERT INTO t VALUES(1, 'rebuilt', 1)", "INSERT INTO u VALUES(1)");
        ReadV(path, 1).Should().Be("rebuilt");
        using var db = SharcDatabase.Open(path);
        db.Schema.Tables.Select(t => t.Name).Should().Contain("u");
    }

    [Fact]
    public void ASchemaChangedBetweenOpenAndTheFirstReadFailsTheReaderWithATypedError()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        ReadV(path, 1).Should().Be("v1");
        using var db = SharcDatabase.Open(path);
        // The schema comes from page 1 as read at open (no lock session of its own); the reader's session sees the commit.
        Oracle.Exec(path, "DROP TABLE t", "CREATE TABLE t(id INTEGER PRIMARY KEY, w TEXT, v TEXT)", "INSERT INTO t VALUES(1, 'other', 'rebuilt')");
        using var r = db.CreateReader("t", "v");
        var seek = () => r.Seek(1);
        seek.Should().Throw<SharcException>().WithMessage("*schema changed*");
        using var again = db.CreateReader("t", "v");
        again.Seek(1).Should().BeTrue();
        again.GetString(0).Should().Be("rebuilt");
    }

    [Fact]
    public void ATableRebuiltWithTheSameDefinitionBetweenOpenAndTheFirstReadIsReadAsRebuilt()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        ReadV(path, 1).Should().Be("v1");
        using var db = SharcDatabase.Open(path);
        // Another cookie, but the same sqlite_schema bytes (the same CREATE at the same root page): the plan still fits.
        Oracle.Exec(path, "DROP TABLE t", "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, n INT)", "INSERT INTO t VALUES(1, 'rebuilt', 1)");
        using var r = db.CreateReader("t", "v");
        r.Seek(1).Should().BeTrue();
        r.GetString(0).Should().Be("rebuilt");
        r.Seek(2).Should().BeFalse();
    }

    [Fact]
    public void AFileRewrittenInPlaceWithTheSameChangeCounterIsReadFresh()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        string twin = MakeDb(dir, "twin.db");
        Oracle.Exec(twin, "UPDATE t SET v = 'twin' WHERE id = 3");
        // Make the twin's change counter equal to the original's: only the content stamp tells them apart.
        byte[] original = File.ReadAllBytes(path), image = File.ReadAllBytes(twin);
        original.AsSpan(24, 4).CopyTo(image.AsSpan(24));
        original.AsSpan(92, 4).CopyTo(image.AsSpan(92));
        ReadV(path, 3).Should().Be("v3");
        using (var fs = new FileStream(path, FileMode.Open, FileAccess.Write, FileShare.ReadWrite))
        {
            fs.Write(image);
            fs.SetLength(image.Length);
        }
        ReadV(path, 3).Should().Be("twin");
    }

    [Fact]
    public void AFileReplacedByARenameIsNotServedFromThePool()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        string replacement = MakeDb(dir, "next.db");
        Oracle.Exec(replacement, "UPDATE t SET v = 'replacement' WHERE id = 2");
        var pooled = SourceAfterReading(path);
        File.Move(replacement, path, overwrite: true);
        using var db = SharcDatabase.Open(path);
        db.Source.Should().NotBeSameAs(pooled);
        using var r = db.CreateReader("t", "v");
        r.Seek(2).Should().BeTrue();
        r.GetString(0).Should().Be("replacement");
    }

    [Fact]
    public void ADeletedFileFailsToOpenAsWithoutThePool()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        ReadV(path, 1).Should().Be("v1");
        File.Delete(path);
        var open = () => SharcDatabase.Open(path);
        open.Should().Throw<FileNotFoundException>();
        // A new file at the same path (perhaps with the old inode number once freed) is its own database.
        string fresh = MakeDb(dir, "fresh.db");
        Oracle.Exec(fresh, "UPDATE t SET v = 'new file' WHERE id = 1");
        File.Move(fresh, path);
        ReadV(path, 1).Should().Be("new file");
    }

    [Fact]
    public void AFileSwitchedToWalModeIsOpenedInFull()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        ReadV(path, 4).Should().Be("v4");
        using var writer = Oracle.Open(path);
        Oracle.Exec(writer, "PRAGMA journal_mode=WAL");
        Oracle.Exec(writer, "PRAGMA wal_autocheckpoint=0");
        Oracle.Exec(writer, "UPDATE t SET v = 'in the log' WHERE id = 4");
        ReadV(path, 4).Should().Be("in the log");
    }

    [Fact]
    public void PooledHandlesHoldNoLockAnotherConnectionNeeds()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        for (int i = 0; i < 3; i++) ReadV(path, 5).Should().Be("v5");
        // SQLite's classic locks conflict with Sharc's OFD locks in this process: EXCLUSIVE fails at once if any
        // pooled handle kept even a SHARED lock.
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "PRAGMA busy_timeout=0");
            Oracle.Exec(c, "BEGIN EXCLUSIVE");
            Oracle.Exec(c, "UPDATE t SET v = 'exclusive' WHERE id = 5");
            Oracle.Exec(c, "COMMIT");
        }
        ReadV(path, 5).Should().Be("exclusive");
    }

    [NeedsSqlite3ShellFact]
    public void AnotherProcessTakesExclusiveAndCommitsWhileHandlesArePooled()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        for (int i = 0; i < 3; i++) ReadV(path, 6).Should().Be("v6");
        var (_, stderr) = Sqlite3Shell.RunLogged(path, "PRAGMA busy_timeout=0; BEGIN EXCLUSIVE; UPDATE t SET v = 'other process' WHERE id = 6; COMMIT;");
        stderr.Should().NotContain("locked");
        Oracle.Rows(path, "SELECT v FROM t WHERE id = 6")[0][0].Should().Be("other process");
        ReadV(path, 6).Should().Be("other process");
    }

    [Fact]
    public void AClosedDatabaseNeverKeepsAnExclusiveOpenOfItsFileFromSucceeding()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        ReadV(path, 1).Should().Be("v1");
        // .NET emulates FileShare with flock: a pooled handle must have given its shared flock up.
        using (var exclusive = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None))
        {
            // And while someone holds the file so, opening it fails as it would without the pool.
            var open = () => SharcDatabase.Open(path);
            open.Should().Throw<IOException>();
        }
        ReadV(path, 1).Should().Be("v1");
    }

    [Fact]
    public void AReaderStillOpenAtCloseKeepsTheFileOutOfThePool()
    {
        using var dir = new TempDir();
        string path = MakeDb(dir);
        IPageSource source;
        SharcDataReader reader;
        using (var db = SharcDatabase.Open(path))
        {
            source = db.Source;
            reader = db.CreateReader("t", "v");
            reader.Read().Should().BeTrue();
        }
        using var again = SharcDatabase.Open(path);
        again.Source.Should().NotBeSameAs(source);
        // The stale reader fails rather than reading through another database's source.
        var next = () => { while (reader.Read()) { } };
        next.Should().Throw<Exception>();
        reader.Dispose();
    }

    [Fact]
    public void TheBoundEvictsTheLeastRecentlyClosedFile()
    {
        if (!Pooling) return;
        using var dir = new TempDir();
        SharcDatabase.ClearFilePool();
        var paths = Enumerable.Range(0, FilePool.Capacity + 1).Select(i => MakeDb(dir, $"f{i}.db", 3)).ToArray();
        var sources = paths.Select(SourceAfterReading).ToArray();
        FilePool.Count.Should().Be(FilePool.Capacity);
        using (var newest = SharcDatabase.Open(paths[^1])) newest.Source.Should().BeSameAs(sources[^1]);
        using (var oldest = SharcDatabase.Open(paths[0])) oldest.Source.Should().NotBeSameAs(sources[0]);
        SharcDatabase.ClearFilePool();
        FilePool.Count.Should().Be(0);
    }

    [Fact]
    public void ThreadsOpeningAndClosingOneFileWhileItIsWrittenReadWholeCommits()
    {
        using var dir = new TempDir();
        string path = dir.File("pair.db");
        Oracle.Exec(path, "CREATE TABLE p(id INTEGER PRIMARY KEY, a INT, b INT)", "INSERT INTO p VALUES(1, 0, 0)");
        using var stop = new CancellationTokenSource();
        long commits = 0;
        var writer = Task.Run(() =>
        {
            using var c = Oracle.Open(path);
            Oracle.Exec(c, "PRAGMA busy_timeout=10000");
            for (int i = 1; i <= 150; i++)
            {
                Oracle.Exec(c, "UPDATE p SET a = $i, b = $i WHERE id = 1", ("$i", (long)i));
                Interlocked.Increment(ref commits);
            }
        });
        var options = new SharcOpenOptions { BusyTimeout = TimeSpan.FromSeconds(10) };
        var readers = Enumerable.Range(0, 3).Select(_ => Task.Run(() =>
        {
            long last = 0;
            int opens = 0;
            bool done;
            do
            {
                // Read once more after the writer finished: that open must see the last commit.
                done = writer.IsCompleted && opens >= 20;
                using var db = SharcDatabase.Open(path, options);
                using var r = db.CreateReader("p", "a", "b");
                r.Seek(1).Should().BeTrue();
                long a = r.GetInt64(0), b = r.GetInt64(1);
                a.Should().Be(b, "a read sees one commit");
                a.Should().BeGreaterThanOrEqualTo(last, "a later open never sees an older commit");
                last = a;
                opens++;
            }
            while (!done);
            return last;
        })).ToArray();
        writer.Wait();
        Task.WaitAll(readers);
        foreach (var r in readers) r.Result.Should().Be(150);
    }
}
