using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// <see cref="SharcDatabase.Interrupt"/> as sqlite3_interrupt: a statement running on another thread — an endless
/// recursive CTE, a huge cross join, a sort, a write — stops with <see cref="SharcInterruptedException"/>; a write so
/// stopped leaves nothing of itself (SQLite's integrity_check agrees); statements started afterwards run normally.
/// The worker is interrupted again and again until it ends, so no timing is assumed.
/// </summary>
public sealed class InterruptTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly string _path;

    public InterruptTests()
    {
        _path = _dir.File("i.db");
        Oracle.Exec(_path,
            "CREATE TABLE t1(a INTEGER, b TEXT)",
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200) INSERT INTO t1 SELECT x, 'v' || x FROM c",
            "CREATE TABLE t(a)",
            "CREATE TABLE log(x)",
            "INSERT INTO t VALUES (1), (2)",
            "CREATE TRIGGER endless AFTER INSERT ON t BEGIN INSERT INTO log SELECT x FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c); END");
    }

    public void Dispose() => _dir.Dispose();

    /// <summary>Runs <paramref name="work"/> on a thread, interrupting until it ends; what it threw.</summary>
    private static Exception? RunInterrupted(SharcDatabase db, Action work)
    {
        Exception? caught = null;
        using var started = new ManualResetEventSlim();
        var worker = new Thread(() =>
        {
            started.Set();
            try
            {
                work();
            }
            catch (Exception e)
            {
                caught = e;
            }
        });
        worker.Start();
        started.Wait();
        while (!worker.Join(5)) db.Interrupt();
        return caught;
    }

    private static long Count(SharcDatabase db, string sql)
    {
        using var r = db.Query(sql);
        r.Read().Should().BeTrue();
        return r.GetInt64(0);
    }

    [Theory]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")]
    [InlineData("SELECT count(*) FROM t1 AS a, t1 AS b, t1 AS c, t1 AS d, t1 AS e, t1 AS f")]
    [InlineData("SELECT count(*) FROM t1 AS a, t1 AS b, t1 AS c, t1 AS d, t1 AS e WHERE a.b = b.b || '' AND c.a > 0")]
    [InlineData("SELECT a.a FROM t1 AS a, t1 AS b, t1 AS c, t1 AS d ORDER BY a.b || d.b LIMIT 1")]
    public void An_endless_query_on_another_thread_stops_with_an_interrupted_error(string sql)
    {
        using var db = SharcDatabase.Open(_path);
        var e = RunInterrupted(db, () =>
        {
            using var r = db.Query(sql);
            while (r.Read()) { }
        });
        e.Should().BeOfType<SharcInterruptedException>().Which.Message.Should().Be("interrupted");
        Count(db, "SELECT count(*) FROM t1").Should().Be(200, "a statement started after the interrupted one ended runs normally");
    }

    [Fact]
    public void An_interrupted_write_leaves_nothing_of_itself_and_an_intact_file()
    {
        using (var db = SharcDatabase.Open(_path, new SharcOpenOptions { Writable = true }))
        {
            // The trigger runs for ever after the first row went in: the statement must take that row back out.
            var e = RunInterrupted(db, () => db.Execute("INSERT INTO t VALUES (3), (4)"));
            e.Should().BeOfType<SharcInterruptedException>();
            Count(db, "SELECT count(*) FROM t").Should().Be(2);
            db.Execute("INSERT INTO t1 VALUES (201, 'after')").Should().Be(1);
        }
        Oracle.IntegrityCheck(_path).Should().Be("ok");
        Oracle.Rows(_path, "SELECT count(*) FROM t")[0][0].Should().Be(2L);
        Oracle.Rows(_path, "SELECT count(*) FROM log")[0][0].Should().Be(0L);
        Oracle.Rows(_path, "SELECT count(*) FROM t1")[0][0].Should().Be(201L);
    }

    [Fact]
    public void An_interrupted_write_inside_a_transaction_undoes_only_itself()
    {
        using (var db = SharcDatabase.Open(_path, new SharcOpenOptions { Writable = true }))
        {
            db.Execute("BEGIN");
            db.Execute("INSERT INTO t1 VALUES (300, 'kept')");
            db.Execute("UPDATE t1 SET b = 'changed'");
            var e = RunInterrupted(db, () => db.Execute("INSERT INTO t VALUES (5)"));
            e.Should().BeOfType<SharcInterruptedException>();
            db.Execute("COMMIT");
        }
        Oracle.IntegrityCheck(_path).Should().Be("ok");
        Oracle.Rows(_path, "SELECT count(*), sum(b = 'changed') FROM t1")[0].Should().Equal(201L, 201L);
        Oracle.Rows(_path, "SELECT count(*) FROM t")[0][0].Should().Be(2L);
    }

    [Fact]
    public void An_interrupt_with_nothing_running_does_not_touch_the_next_statement()
    {
        using var db = SharcDatabase.Open(_path);
        db.Interrupt();
        Count(db, "SELECT count(*) FROM t1 AS a, t1 AS b").Should().Be(40_000);
    }

    [Fact]
    public void A_cancellation_token_registered_on_interrupt_stops_the_statement()
    {
        using var db = SharcDatabase.Open(_path);
        using var cts = new CancellationTokenSource();
        using var registration = cts.Token.Register(db.Interrupt);
        Exception? caught = null;
        using var started = new ManualResetEventSlim();
        var worker = new Thread(() =>
        {
            try
            {
                using var r = db.Query("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c");
                r.Read();
                started.Set();
                while (r.Read()) { }
            }
            catch (Exception e)
            {
                caught = e;
                started.Set();
            }
        });
        worker.Start();
        started.Wait();
        cts.Cancel();
        worker.Join();
        caught.Should().BeOfType<SharcInterruptedException>();
    }
}
