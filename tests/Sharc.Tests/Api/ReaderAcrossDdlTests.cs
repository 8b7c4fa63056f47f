using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// Cursor readers kept for a long time (a server's prepared readers) while the schema changes under them: DDL on
/// other tables, ANALYZE, and VACUUM moving root pages must not break them — they plan the same read again, as
/// SQLite re-prepares — and only a change to what they read (their table or index dropped, their columns moved)
/// fails them, with a typed error.
/// </summary>
public class ReaderAcrossDdlTests
{
    private static SharcDatabase Create(TempDir dir)
    {
        var db = SharcDatabase.Create(dir.File("r.db"));
        db.Execute("CREATE TABLE filler(x)");
        db.Execute("INSERT INTO filler VALUES (randomblob(9000))");
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score INT)");
        db.Execute("CREATE INDEX t_name ON t(name)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 1; i <= 400; i++) db.Execute("INSERT INTO t VALUES (?1, ?2, ?3)", i, "n" + i.ToString("D4"), i * 3);
            tx.Commit();
        }
        return db;
    }

    /// <summary>Drops the table in front of t's pages and vacuums: t and its index move to other root pages.</summary>
    private static void MoveRoots(SharcDatabase db)
    {
        uint before = db.Schema.GetTable("t").RootPage;
        db.Execute("DROP TABLE filler");
        db.Execute("VACUUM");
        db.Schema.GetTable("t").RootPage.Should().NotBe(before, "the test needs VACUUM to move t");
    }

    [Fact]
    public void A_prepared_reader_seeks_and_scans_on_after_vacuum_moved_its_table()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        using var reader = db.PrepareReader("t", "name", "score");
        reader.Seek(7).Should().BeTrue();
        reader.GetString(0).Should().Be("n0007");
        MoveRoots(db);
        reader.Seek(250).Should().BeTrue();
        reader.GetString(0).Should().Be("n0250");
        reader.GetInt64(1).Should().Be(750);
        reader.Reset();
        long sum = 0;
        while (reader.Read()) sum += reader.GetInt64(1);
        sum.Should().Be(3L * 400 * 401 / 2);
        Oracle.IntegrityCheck(dir.File("r.db")).Should().Be("ok");
    }

    [Fact]
    public void An_index_reader_and_a_seek_through_an_index_follow_the_index_to_its_new_root()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        using var entries = db.PrepareReader("t_name");
        using var rows = db.PrepareReader("t", "id", "score");
        rows.SeekIndex("t_name", "n0100").Should().BeTrue();
        entries.SeekKey("n0100").Should().BeTrue();
        MoveRoots(db);
        db.Execute("ANALYZE");
        db.Execute("CREATE TABLE other(a)");
        rows.SeekIndex("t_name", "n0321").Should().BeTrue();
        rows.GetInt64(0).Should().Be(321);
        rows.GetInt64(1).Should().Be(963);
        entries.SeekKey("n0321").Should().BeTrue();
        entries.GetString(0).Should().Be("n0321");
        entries.GetInt64(1).Should().Be(321);
    }

    [Fact]
    public void A_filtered_prepared_reader_plans_again_and_keeps_its_bound_values()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        using var reader = db.PrepareReader("t", SharcFilter.Column("score").Gt(SharcFilter.Parameter("min")), "id");
        reader.Bind("min", 1190L);
        reader.Reset();
        Ids(reader).Should().Equal(397, 398, 399, 400);
        // An index on the filtered column makes a better plan; VACUUM moves everything.
        db.Execute("CREATE INDEX t_score ON t(score)");
        MoveRoots(db);
        reader.Reset(); // the value bound before the change still holds
        Ids(reader).Should().Equal(397, 398, 399, 400);
        reader.Bind("min", 1196L);
        reader.Reset();
        Ids(reader).Should().Equal(399, 400);
    }

    [Fact]
    public void A_column_added_does_not_change_a_reader_of_all_columns()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        using var reader = db.PrepareReader("t");
        reader.FieldCount.Should().Be(3);
        db.Execute("ALTER TABLE t ADD COLUMN extra TEXT DEFAULT 'x'");
        reader.Seek(5).Should().BeTrue();
        reader.FieldCount.Should().Be(3, "the reader keeps the shape it was created with");
        reader.GetString(1).Should().Be("n0005");
    }

    [Fact]
    public void Dropping_what_a_reader_reads_fails_it_with_a_typed_error_that_says_so()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        using var byName = db.PrepareReader("t", "score");
        using var table = db.PrepareReader("t", "name");
        using var throughIndex = db.PrepareReader("t", "id");
        byName.Seek(1).Should().BeTrue();
        table.Seek(1).Should().BeTrue();
        throughIndex.SeekIndex("t_name", "n0001").Should().BeTrue();

        // DROP COLUMN name moves score to another record field.
        db.Execute("DROP INDEX t_name");
        db.Execute("ALTER TABLE t DROP COLUMN name");
        var seek = () => byName.Seek(2);
        seek.Should().Throw<SharcException>().WithMessage("*schema changed*no longer reads*");
        var seekDropped = () => table.Seek(2);
        seekDropped.Should().Throw<SharcException>().WithMessage("*schema changed*");
        var throughDropped = () => throughIndex.SeekIndex("t_name", "n0002");
        throughDropped.Should().Throw<SharcException>().WithMessage("*t_name*");

        // A reader made now reads the table as it is.
        using var fresh = db.PrepareReader("t", "score");
        fresh.Seek(2).Should().BeTrue();
        fresh.GetInt64(0).Should().Be(6);
    }

    [Fact]
    public void Another_connections_vacuum_to_a_new_page_size_fails_a_reader_with_a_typed_error_instead_of_misreading()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        using var reader = db.PrepareReader("t", "name");
        reader.Seek(3).Should().BeTrue();
        reader.Reset();
        // Another connection (this one refuses while its own readers are open) vacuums to a new page size.
        using (var other = SharcDatabase.Open(dir.File("r.db"), new SharcOpenOptions { Writable = true }))
        {
            other.Execute("PRAGMA page_size = 1024");
            other.Execute("VACUUM");
            other.Header.PageSize.Should().Be(1024, "VACUUM applies a new page size, as in SQLite");
        }
        var seek = () => reader.Seek(4);
        seek.Should().Throw<SharcException>().WithMessage("*another page size*");
        using var reopened = SharcDatabase.Open(dir.File("r.db"));
        using var fresh = reopened.PrepareReader("t", "name");
        fresh.Seek(4).Should().BeTrue();
        fresh.GetString(0).Should().Be("n0004");
    }

    [Fact]
    public void A_reader_on_a_snapshot_keeps_reading_the_old_version_after_vacuum()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        using var snapshot = db.CreateSnapshot();
        using var reader = db.PrepareReader("t", "name");
        reader.UseSnapshot(snapshot);
        reader.Seek(1).Should().BeTrue(); // the snapshot takes its version at its first read
        MoveRoots(db);
        db.Execute("UPDATE t SET name = 'changed' WHERE id = 9");
        reader.Seek(9).Should().BeTrue();
        reader.GetString(0).Should().Be("n0009");
        reader.SeekIndex("t_name", "n0010").Should().BeTrue();
        reader.GetString(0).Should().Be("n0010");
        reader.UseSnapshot(null);
        reader.Seek(9).Should().BeTrue();
        reader.GetString(0).Should().Be("changed");
    }

    [Fact]
    public void Readers_shared_with_threads_running_ddl_and_vacuum_never_fail_or_misread()
    {
        using var dir = new TempDir();
        using var db = Create(dir);
        int stop = 0;
        var failures = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var ddl = new Thread(() =>
        {
            try
            {
                for (int i = 0; i < 25; i++)
                {
                    db.Execute($"CREATE TABLE x{i}(a INTEGER PRIMARY KEY, b)");
                    db.Execute($"INSERT INTO x{i}(b) VALUES (randomblob(5000))");
                    db.Execute($"CREATE INDEX x{i}_b ON x{i}(b)");
                    if (i % 3 == 0) db.Execute("VACUUM");
                    if (i % 4 == 1) db.Execute("ANALYZE");
                    if (i > 0 && i % 2 == 0) db.Execute($"DROP TABLE x{i - 1}");
                }
            }
            catch (Exception e)
            {
                failures.Enqueue("ddl: " + e);
            }
            finally
            {
                Volatile.Write(ref stop, 1);
            }
        });
        var readers = Enumerable.Range(0, 2).Select(k => new Thread(() =>
        {
            var rnd = new Random(k);
            using var rows = db.PrepareReader("t", "name", "score");
            using var entries = db.PrepareReader("t_name");
            try
            {
                while (Volatile.Read(ref stop) == 0)
                {
                    int id = rnd.Next(1, 401);
                    if (!rows.Seek(id) || rows.GetString(0) != "n" + id.ToString("D4") || rows.GetInt64(1) != id * 3) failures.Enqueue($"seek {id}");
                    if (!rows.SeekIndex("t_name", "n" + id.ToString("D4")) || rows.GetInt64(1) != id * 3) failures.Enqueue($"index seek {id}");
                    if (!entries.SeekKey("n" + id.ToString("D4")) || entries.GetInt64(1) != id) failures.Enqueue($"entry {id}");
                }
            }
            catch (Exception e)
            {
                failures.Enqueue($"reader {k}: {e}");
            }
        })).ToList();
        ddl.Start();
        readers.ForEach(t => t.Start());
        ddl.Join();
        readers.ForEach(t => t.Join());
        failures.Should().BeEmpty();
        Oracle.IntegrityCheck(dir.File("r.db")).Should().Be("ok");
    }

    private static List<long> Ids(SharcDataReader reader)
    {
        var ids = new List<long>();
        while (reader.Read()) ids.Add(reader.GetInt64(0));
        ids.Sort();
        return ids;
    }
}
