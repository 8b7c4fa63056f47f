using Microsoft.Data.Sqlite;
using Sharc.Testing;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// Open reads page 1 only; sqlite_schema is read at first use, once, and shared by the threads of one database.
/// Errors in the schema come at first use, as SQLite gives them at the first statement rather than at open.
/// </summary>
public class LazySchemaTests : IDisposable
{
    private const int Tables = 12;
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    /// <summary>A file with <see cref="Tables"/> tables t0..t11(id, v), each holding id 1..20 with v = table * 1000 + id.</summary>
    private string ManyTables()
    {
        string path = _dir.File("many.db");
        using var c = Oracle.Open(path);
        using var tx = c.BeginTransaction();
        for (int t = 0; t < Tables; t++)
        {
            Oracle.Exec(c, $"CREATE TABLE t{t}(id INTEGER PRIMARY KEY, v INT, note TEXT)");
            Oracle.Exec(c, $"CREATE INDEX t{t}_v ON t{t}(v)");
            for (int id = 1; id <= 20; id++) Oracle.Exec(c, $"INSERT INTO t{t} VALUES ({id}, {t * 1000 + id}, 'n{id}')");
        }
        tx.Commit();
        return path;
    }

    private string MalformedSchema()
    {
        string path = _dir.File("bad.db");
        Oracle.Exec(path, "CREATE TABLE good(a)", "CREATE TABLE t(a, b)", "INSERT INTO good VALUES (1)");
        using var c = Oracle.Open(path);
        Oracle.Exec(c, "PRAGMA writable_schema = ON");
        Oracle.Exec(c, "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a, b' WHERE name = 't'");
        return path;
    }

    private static SharcOpenOptions Writable => new() { Writable = true, BusyTimeout = TimeSpan.FromSeconds(30) };

    [Fact]
    public void A_malformed_schema_opens_and_fails_at_first_use_with_sqlites_message_as_sqlite_does()
    {
        string path = MalformedSchema();
        string sqliteError;
        using (var c = new SqliteConnection($"Data Source={path};Pooling=False"))
        {
            c.Open(); // SQLite opens it too: the schema is read by the first statement
            var e = ((Action)(() => Oracle.Scalar(c, "SELECT count(*) FROM good"))).Should().Throw<SqliteException>().Which;
            sqliteError = e.Message;
        }
        sqliteError.Should().Contain("malformed database schema (t)");

        using var db = SharcDatabase.Open(path);
        db.PageSize.Should().Be(4096);
        // Not kept as a result: every use reports it again, as SQLite does for every statement.
        for (int i = 0; i < 2; i++)
        {
            var act = () => db.Schema;
            act.Should().Throw<SharcCorruptException>().WithMessage("*malformed database schema (t)*");
            var read = () => db.CreateReader("good");
            read.Should().Throw<SharcCorruptException>().WithMessage("*malformed database schema (t)*");
        }
    }

    [Theory]
    [InlineData("CREATE TABLE t1(a, b AS (unknown + 1))", "no such column: unknown")]
    [InlineData("CREATE TABLE t1(a, b AS (a + 1) STORED, c AS (upper(zz)))", "no such column: zz")]
    [InlineData("CREATE TABLE t1(a, b AS (t9.a))", "no such column: t9.a")]
    public void A_generated_column_naming_an_unknown_column_makes_the_schema_malformed_as_in_sqlite(string badSql, string reason)
    {
        string path = _dir.File("gen.db");
        Oracle.Exec(path, "CREATE TABLE t0(z)", "CREATE TABLE t1(a, b AS (a + 1))", "INSERT INTO t1(a) VALUES (1)");
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "PRAGMA writable_schema = ON");
            Oracle.Exec(c, "UPDATE sqlite_schema SET sql = $sql WHERE name = 't1'", ("$sql", badSql));
        }
        string expected = $"malformed database schema (t1) - {reason}";
        using (var c = new SqliteConnection($"Data Source={path};Pooling=False"))
        {
            c.Open();
            ((Action)(() => Oracle.Scalar(c, "SELECT count(*) FROM t0"))).Should().Throw<SqliteException>().Which.Message.Should().Contain(expected);
        }
        using var db = SharcDatabase.Open(path);
        for (int i = 0; i < 2; i++)
        {
            var act = () => db.Query("SELECT count(*) FROM t0").Read();
            act.Should().Throw<SharcCorruptException>().WithMessage("*" + expected + "*");
        }
        db.CheckIntegrity().Should().ContainSingle().Which.Should().EndWith(expected);
    }

    [Fact]
    public void Generated_columns_naming_their_own_columns_leave_the_schema_sound()
    {
        string path = _dir.File("gen-ok.db");
        Oracle.Exec(path, "CREATE TABLE t1(a, \"b c\", d AS (a + \"b c\"), e AS (lower('x')) STORED)", "INSERT INTO t1(a, \"b c\") VALUES (1, 2)");
        using var db = SharcDatabase.Open(path);
        using var r = db.Query("SELECT d, e FROM t1");
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(3);
        db.CheckIntegrity().Should().BeEmpty();
    }

    [Fact]
    public void A_writable_open_of_a_malformed_schema_fails_each_write_the_same_way_and_holds_no_transaction()
    {
        string path = MalformedSchema();
        using var db = SharcDatabase.Open(path, Writable);
        for (int i = 0; i < 2; i++)
        {
            var act = () => db.Execute("INSERT INTO good VALUES (2)");
            act.Should().Throw<SharcCorruptException>().WithMessage("*malformed database schema (t)*");
        }
        // Nothing was left locked: SQLite (told to overlook the schema) can still write the file.
        using var c = Oracle.Open(path);
        Oracle.Exec(c, "PRAGMA writable_schema = ON");
        Oracle.Exec(c, "INSERT INTO good VALUES (3)");
        Oracle.Scalar(c, "SELECT count(*) FROM good").Should().Be(2L);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Threads_first_using_a_fresh_database_at_once_share_one_schema_and_read_every_table_correctly(bool writable)
    {
        string path = ManyTables();
        for (int round = 0; round < 5; round++)
        {
            using var db = writable ? SharcDatabase.Open(path, Writable) : SharcDatabase.Open(path);
            int threads = Math.Max(4, Environment.ProcessorCount * 2);
            var schemas = new SharcSchema[threads];
            var errors = new List<string>();
            using var start = new Barrier(threads);
            var workers = Enumerable.Range(0, threads).Select(n => new Thread(() =>
            {
                try
                {
                    start.SignalAndWait();
                    int t = (n + round) % Tables;
                    long sum = 0;
                    // Half the threads come in through the reader API, half through SQL, some through the index.
                    if (n % 3 == 0)
                    {
                        using var r = db.CreateReader($"t{t}", "v");
                        while (r.Read()) sum += r.GetInt64(0);
                    }
                    else if (n % 3 == 1)
                    {
                        using var r = db.Query($"SELECT sum(v) FROM t{t}");
                        r.Read();
                        sum = r.GetInt64(0);
                    }
                    else
                    {
                        using var r = db.Query($"SELECT v FROM t{t} WHERE v >= ?", t * 1000L);
                        while (r.Read()) sum += r.GetInt64(0);
                    }
                    long expected = 20L * t * 1000 + 210;
                    if (sum != expected) lock (errors) errors.Add($"t{t}: {sum} != {expected}");
                    schemas[n] = db.Schema;
                }
                catch (Exception e)
                {
                    lock (errors) errors.Add(e.ToString());
                }
            })).ToList();
            workers.ForEach(w => w.Start());
            workers.ForEach(w => w.Join());
            errors.Should().BeEmpty();
            // One parse, published once: every thread holds the same immutable schema.
            schemas.Should().OnlyContain(s => ReferenceEquals(s, schemas[0]));
            schemas[0].Tables.Should().HaveCount(Tables);
            schemas[0].Indexes.Should().HaveCount(Tables);
        }
    }

    [Fact]
    public void A_reader_keeps_its_snapshot_and_schema_while_another_thread_changes_the_schema_of_a_lazily_opened_database()
    {
        string path = ManyTables();
        using var db = SharcDatabase.Open(path, Writable);
        using var reader = db.CreateReader("t0", "id", "v");
        reader.Read().Should().BeTrue();
        var before = db.Schema;

        // DDL and rows committed by another thread while the reader is mid-scan.
        Exception? failure = null;
        var ddl = new Thread(() =>
        {
            try
            {
                db.Execute("CREATE TABLE added(x)");
                db.Execute("INSERT INTO added VALUES (7)");
                db.Execute("INSERT INTO t0 VALUES (21, 99, 'new')");
            }
            catch (Exception e)
            {
                failure = e;
            }
        });
        ddl.Start();
        ddl.Join();
        failure.Should().BeNull();

        var ids = new List<long> { reader.GetInt64(0) };
        while (reader.Read()) ids.Add(reader.GetInt64(0));
        ids.Should().Equal(Enumerable.Range(1, 20).Select(i => (long)i), "the reader's snapshot predates the other thread's commits");

        // The schema object a caller already holds never changes; the database's is the new one.
        before.FindTable("added").Should().BeNull();
        db.Schema.FindTable("added").Should().NotBeNull();
        db.Schema.Should().NotBeSameAs(before);
        using var q = db.Query("SELECT x FROM added");
        q.Read().Should().BeTrue();
        q.GetInt64(0).Should().Be(7);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void A_schema_changed_by_another_connection_before_first_use_is_read_as_changed()
    {
        string path = ManyTables();
        using var readOnly = SharcDatabase.Open(path);
        using var writable = SharcDatabase.Open(path, Writable);
        // Both opened before the change, neither has read the schema yet.
        Oracle.Exec(path, "CREATE TABLE later(y)", "INSERT INTO later VALUES (5)", "DROP TABLE t2");
        foreach (var db in new[] { readOnly, writable })
        {
            db.Schema.FindTable("later").Should().NotBeNull();
            db.Schema.FindTable("t2").Should().BeNull();
            using var r = db.CreateReader("later", "y");
            r.Read().Should().BeTrue();
            r.GetInt64(0).Should().Be(5);
        }
    }

    [Fact]
    public void Reopening_a_file_whose_schema_fits_in_page_1_reuses_the_schema_built_before()
    {
        string path = ManyTables();
        SharcSchema first;
        using (var db = SharcDatabase.Open(path)) first = db.Schema;
        using (var again = SharcDatabase.Open(path))
            again.Schema.Should().BeSameAs(first, "page 1 is byte for byte the same, so the schema is");
        using (var fromMemory = SharcDatabase.OpenMemory(File.ReadAllBytes(path)))
            fromMemory.Schema.Should().BeSameAs(first);

        // Any change to sqlite_schema is a change to page 1's bytes: the schema is read anew, and right.
        Oracle.Exec(path, "CREATE TABLE extra(z)");
        using var changed = SharcDatabase.Open(path);
        changed.Schema.Should().NotBeSameAs(first);
        changed.Schema.FindTable("extra").Should().NotBeNull();
        first.FindTable("extra").Should().BeNull();
    }

    [Fact]
    public void A_schema_spilling_out_of_page_1_is_reused_while_its_records_are_the_same_and_read_anew_when_they_change()
    {
        string path = _dir.File("long.db");
        // A CREATE statement longer than a page overflows page 1: the cache's key is then the rows' records.
        string columns = string.Join(", ", Enumerable.Range(0, 600).Select(i => $"column_number_{i} INT"));
        Oracle.Exec(path, $"CREATE TABLE wide({columns})");
        SharcSchema first;
        using (var db = SharcDatabase.Open(path)) first = db.Schema;
        first.GetTable("wide").Columns.Should().HaveCount(600);
        using (var again = SharcDatabase.Open(path))
            again.Schema.Should().BeSameAs(first, "the records of sqlite_schema are byte for byte the same");

        // Only the overflowing statement changes (same length, one letter): the key sees it.
        Oracle.Exec(path, "PRAGMA writable_schema = ON",
            "UPDATE sqlite_schema SET sql = replace(sql, 'column_number_599 INT', 'column_number_599 TXT') WHERE name = 'wide'");
        using var changed = SharcDatabase.Open(path);
        changed.Schema.Should().NotBeSameAs(first);
        changed.Schema.GetTable("wide").Columns[599].DeclaredType.Should().Be("TXT");
        first.GetTable("wide").Columns[599].DeclaredType.Should().Be("INT");
    }

    /// <summary>A file with 200 tables (sqlite_schema over several pages) plus users(id, name) holding one row.</summary>
    private string TwoHundredTables()
    {
        string path = _dir.File("wide-schema.db");
        using var c = Oracle.Open(path);
        using var tx = c.BeginTransaction();
        for (int t = 0; t < 200; t++)
            Oracle.Exec(c, $"CREATE TABLE t{t}(id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, age INT, score REAL, note TEXT COLLATE NOCASE)");
        Oracle.Exec(c, "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)");
        Oracle.Exec(c, "INSERT INTO users VALUES (7, 'seven')");
        tx.Commit();
        return path;
    }

    [Fact]
    public void A_schema_of_200_tables_is_parsed_once_per_process_and_a_change_by_sqlite_is_seen_at_the_next_open()
    {
        string path = TwoHundredTables();
        SharcSchema first;
        using (var db = SharcDatabase.Open(path)) first = db.Schema;
        first.Tables.Should().HaveCount(201);
        using (var again = SharcDatabase.Open(path)) again.Schema.Should().BeSameAs(first);

        // Reopening costs the walk over sqlite_schema's pages, not a parse of 200 CREATE statements (about 1.4 MB).
        long bytes = AllocationMeasure.Measure(() =>
        {
            using var db = SharcDatabase.Open(path);
            using var r = db.CreateReader("users", "name");
            if (!r.Seek(7)) throw new InvalidOperationException("row 7 not found");
        }, 20) / 20;
        bytes.Should().BeLessThan(120_000);

        Oracle.Exec(path, "ALTER TABLE t150 ADD COLUMN extra INT");
        using var changed = SharcDatabase.Open(path);
        changed.Schema.Should().NotBeSameAs(first);
        changed.Schema.GetTable("t150").Columns.Should().HaveCount(7);
        first.GetTable("t150").Columns.Should().HaveCount(6);
    }

    [Fact]
    public void Files_with_the_same_schema_text_but_other_root_pages_get_their_own_schema()
    {
        string a = _dir.File("a.db"), b = _dir.File("b.db");
        Oracle.Exec(a, "CREATE TABLE t(x)", "CREATE TABLE u(y)");
        Oracle.Exec(b, "CREATE TABLE u(y)", "CREATE TABLE t(x)");
        using var da = SharcDatabase.Open(a);
        using var db = SharcDatabase.Open(b);
        da.Schema.GetTable("t").RootPage.Should().Be(2u);
        db.Schema.GetTable("t").RootPage.Should().Be(3u);
    }

    [Fact]
    public void Open_reads_page_1_only_and_allocates_a_few_kilobytes()
    {
        string path = ManyTables();
        // Before: 50 KB for a 6-table schema parsed at open. Now one page buffer and the database's own objects.
        long bytes = AllocationMeasure.Measure(() =>
        {
            using var db = SharcDatabase.Open(path);
            _ = db.PageSize;
        }, 50) / 50;
        bytes.Should().BeLessThan(10_000);

        // Open, read a row, close: the schema comes from the process's cache, so a reader's page buffers dominate.
        long withRead = AllocationMeasure.Measure(() =>
        {
            using var db = SharcDatabase.Open(path);
            using var r = db.CreateReader("t5", "v");
            if (!r.Seek(10)) throw new InvalidOperationException("row 10 not found");
        }, 50) / 50;
        withRead.Should().BeLessThan(32_000);
    }
}
