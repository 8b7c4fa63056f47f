using System.Collections.Concurrent;
using Sharc.Storage.Locking;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Storage.Locking;

public class WriterQueueTests
{
    private static string UniqueKey() => "/writer-queue-test/" + Guid.NewGuid().ToString("N");

    private static void AwaitWaiting(WriterQueue queue, int count)
    {
        // Bounded: a thread that never gets in line fails the assertion after the loop rather than hanging the run.
        for (int i = 0; i < 10_000 && queue.Waiting < count; i++) Thread.Sleep(1);
        queue.Waiting.Should().Be(count);
    }

    [Fact]
    public void The_turn_goes_to_waiters_in_the_order_they_arrived_and_a_newcomer_cannot_jump_the_line()
    {
        var queue = WriterQueue.Join(UniqueKey());
        object holder = new(), first = new(), second = new(), newcomer = new();
        queue.TryEnter(holder).Should().BeTrue();
        var order = new ConcurrentQueue<object>();
        var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(1);
        var t1 = new Thread(() =>
        {
            queue.Enter(first, deadline).Should().BeTrue();
            order.Enqueue(first);
            queue.Exit(first);
        });
        t1.Start();
        AwaitWaiting(queue, 1);
        var t2 = new Thread(() =>
        {
            queue.Enter(second, deadline).Should().BeTrue();
            order.Enqueue(second);
            queue.Exit(second);
        });
        t2.Start();
        AwaitWaiting(queue, 2);

        queue.TryEnter(newcomer).Should().BeFalse("two connections are waiting");
        queue.Exit(holder);
        t1.Join();
        t2.Join();
        order.Should().Equal(first, second);
        queue.TryEnter(newcomer).Should().BeTrue("the line is empty again");
        queue.Exit(newcomer);
        queue.Leave(holder);
    }

    [Fact]
    public void A_waiter_whose_deadline_passes_leaves_the_line_and_the_next_one_gets_the_turn()
    {
        var queue = WriterQueue.Join(UniqueKey());
        object holder = new(), late = new(), patient = new();
        queue.TryEnter(holder).Should().BeTrue();
        queue.Enter(late, DateTime.UtcNow + TimeSpan.FromMilliseconds(20)).Should().BeFalse();
        queue.Waiting.Should().Be(0);

        bool got = false;
        var t = new Thread(() => got = queue.Enter(patient, DateTime.UtcNow + TimeSpan.FromMinutes(1)));
        t.Start();
        AwaitWaiting(queue, 1);
        queue.Exit(holder);
        t.Join();
        got.Should().BeTrue();
        queue.IsHeldBy(patient).Should().BeTrue();
        queue.Exit(late); // not the holder: changes nothing
        queue.IsHeldBy(patient).Should().BeTrue();
        queue.Exit(patient);
        queue.Leave(holder);
    }

    [Fact]
    public void Connections_to_one_file_share_one_line_and_the_last_to_close_removes_it()
    {
        using var dir = new TempDir();
        string path = dir.File("q.db");
        using (var create = SharcDatabase.Create(path)) create.Execute("CREATE TABLE t(x)");
        var writable = new SharcOpenOptions { Writable = true };
        var a = SharcDatabase.Open(path, writable);
        var b = SharcDatabase.Open(Path.Combine(dir.Path, ".", "q.db"), writable);
        a.WritablePager.Writers.Should().NotBeNull();
        a.WritablePager.Writers.Should().BeSameAs(b.WritablePager.Writers);
        var line = a.WritablePager.Writers!;
        a.Dispose();
        using (var c = SharcDatabase.Open(path, writable)) c.WritablePager.Writers.Should().BeSameAs(line);
        b.Dispose();
        using var d = SharcDatabase.Open(path, writable);
        d.WritablePager.Writers.Should().NotBeSameAs(line);
    }

    [Fact]
    public void A_connection_that_commits_and_begins_again_waits_behind_the_connection_already_in_line()
    {
        using var dir = new TempDir();
        string path = dir.File("fair.db");
        using (var create = SharcDatabase.Create(path)) create.Execute("CREATE TABLE log(who TEXT)");
        var writable = new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromMinutes(1) };
        using var a = SharcDatabase.Open(path, writable);
        using var b = SharcDatabase.Open(path, writable);

        var tx = a.BeginTransaction();
        a.Execute("INSERT INTO log VALUES ('a1')");
        var waiter = new Thread(() => b.Execute("INSERT INTO log VALUES ('b')"));
        waiter.Start();
        AwaitWaiting(a.WritablePager.Writers!, 1);
        tx.Commit();
        // Without the line, a's next statement could take RESERVED again before b's next poll.
        a.Execute("INSERT INTO log VALUES ('a2')");
        waiter.Join();

        Oracle.Rows(path, "SELECT who FROM log ORDER BY rowid").Select(r => (string)r[0]!).Should().Equal("a1", "b", "a2");
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void A_reading_connection_does_not_wait_in_line_behind_a_writer_that_needs_its_read_to_end()
    {
        using var dir = new TempDir();
        string path = dir.File("read.db");
        using (var create = SharcDatabase.Create(path))
        {
            create.Execute("CREATE TABLE t(x)");
            create.Execute("INSERT INTO t VALUES (1), (2)");
        }
        var writable = new SharcOpenOptions { Writable = true, BusyTimeout = TimeSpan.FromSeconds(30) };
        using var writer = SharcDatabase.Open(path, writable);
        using var reader = SharcDatabase.Open(path, writable);
        var tx = writer.BeginTransaction();
        writer.Execute("INSERT INTO t VALUES (3)");
        using (var q = reader.Query("SELECT x FROM t"))
        {
            q.Read().Should().BeTrue();
            // Busy at once, not after 30 s: the writer's commit would wait for this read's SHARED lock.
            var act = () => reader.Execute("INSERT INTO t VALUES (4)");
            act.Should().Throw<SharcBusyException>().WithMessage("*this connection is reading*");
        }
        tx.Commit();
        reader.Execute("INSERT INTO t VALUES (4)");
        Oracle.Rows(path, "SELECT count(*) FROM t")[0][0].Should().Be(4L);
    }
}
