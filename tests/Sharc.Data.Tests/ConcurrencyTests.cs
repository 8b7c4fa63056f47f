using System.Collections.Concurrent;
using System.Data.Common;
using Dapper;
using Microsoft.Data.Sqlite;
using Sharc.Data;

namespace Sharc.Data.Tests;

/// <summary>
/// The way a web application uses a database: a connection opened per request on many threads at once, each
/// request a short transaction or a query, Dapper on top. A bank invariant (100 accounts, money only moves) is
/// checked by every query; the run ends with SQLite's integrity_check and a ledger entry for every commit that
/// reported success. Bounded by a number of requests per thread, never by time.
/// </summary>
public class ConcurrencyTests : IDisposable
{
    private const int Accounts = 100;
    private const long Total = 100_000;
    private readonly Providers _files = new();

    public void Dispose() => _files.Dispose();

    private static void CreateBank(string path, string journalMode)
    {
        using var c = new SqliteConnection($"Data Source={path};Pooling=False");
        c.Open();
        c.Execute($"PRAGMA journal_mode={journalMode}");
        c.Execute("CREATE TABLE account(id INTEGER PRIMARY KEY, balance INT NOT NULL)");
        c.Execute("CREATE TABLE ledger(id INTEGER PRIMARY KEY, src INT NOT NULL, dst INT NOT NULL, amount INT NOT NULL, tag TEXT NOT NULL UNIQUE)");
        c.Execute("CREATE INDEX ledger_src ON ledger(src, amount)");
        c.Execute("CREATE TABLE stats(transfers INT NOT NULL)");
        c.Execute("INSERT INTO stats VALUES (0)");
        using var tx = c.BeginTransaction();
        for (int i = 1; i <= Accounts; i++) c.Execute("INSERT INTO account VALUES (@i, @b)", new { i, b = Total / Accounts }, tx);
        tx.Commit();
    }

    [Theory]
    [InlineData("DELETE")]
    [InlineData("WAL")]
    public void Connections_per_request_on_many_threads_keep_every_commit_and_the_invariant(string journalMode)
    {
        string path = _files.File($"bank-{journalMode}.db");
        CreateBank(path, journalMode);
        string cs = $"Data Source={path};Default Timeout=60";
        const int Writers = 6, Readers = 3, RequestsPerWriter = 40;
        var failures = new ConcurrentQueue<string>();
        long committed = 0, checks = 0;
        int writersLeft = Writers;

        var threads = new List<Thread>();
        for (int w = 0; w < Writers; w++)
        {
            int id = w;
            threads.Add(new Thread(() =>
            {
                var rnd = new Random(100 + id);
                try
                {
                    for (int i = 0; i < RequestsPerWriter; i++)
                    {
                        long from = rnd.Next(1, Accounts + 1), to = rnd.Next(1, Accounts + 1), amount = rnd.Next(1, 50);
                        if (from == to) to = from % Accounts + 1;
                        try
                        {
                            using var conn = new SharcConnection(cs);
                            conn.Open();
                            using var tx = conn.BeginTransaction();
                            conn.Execute("UPDATE account SET balance = balance - @amount WHERE id = @from", new { amount, from }, tx);
                            // The request reads its own change before finishing, as application code does.
                            long seen = conn.ExecuteScalar<long>("SELECT sum(balance) FROM account", transaction: tx);
                            if (seen != Total - amount) failures.Enqueue($"writer {id} read {seen} inside its transaction");
                            conn.Execute("UPDATE account SET balance = balance + @amount WHERE id = @to", new { amount, to }, tx);
                            conn.Execute("INSERT INTO ledger(src, dst, amount, tag) VALUES (@from, @to, @amount, @tag)", new { from, to, amount, tag = $"w{id}-{i}" }, tx);
                            conn.Execute("UPDATE stats SET transfers = transfers + 1", transaction: tx);
                            tx.Commit();
                            Interlocked.Increment(ref committed);
                        }
                        catch (Exception e)
                        {
                            failures.Enqueue($"writer {id} request {i}: {e.GetType().Name}: {e.Message}");
                        }
                    }
                }
                finally
                {
                    Interlocked.Decrement(ref writersLeft);
                }
            }));
        }
        for (int r = 0; r < Readers; r++)
        {
            int id = r;
            threads.Add(new Thread(() =>
            {
                do
                {
                    try
                    {
                        using var conn = new SharcConnection(cs);
                        conn.Open();
                        var row = conn.QuerySingle<(long Sum, long Count)>("SELECT sum(balance), count(*) FROM account");
                        if (row.Sum != Total || row.Count != Accounts) failures.Enqueue($"reader {id} saw sum {row.Sum}, count {row.Count}");
                        // One statement over two tables sees one commit of both.
                        var (entries, counted) = conn.QuerySingle<(long, long)>("SELECT (SELECT count(*) FROM ledger), (SELECT transfers FROM stats)");
                        if (entries != counted) failures.Enqueue($"reader {id} saw {entries} ledger entries but a count of {counted}");
                        Interlocked.Increment(ref checks);
                    }
                    catch (Exception e)
                    {
                        failures.Enqueue($"reader {id}: {e.GetType().Name}: {e.Message}");
                    }
                }
                while (Volatile.Read(ref writersLeft) > 0);
            }));
        }
        foreach (var t in threads) t.Start();
        foreach (var t in threads) t.Join();

        failures.Should().BeEmpty();
        committed.Should().Be(Writers * RequestsPerWriter);
        checks.Should().BeGreaterThan(0);
        using var oracle = new SqliteConnection($"Data Source={path};Pooling=False");
        oracle.Open();
        oracle.ExecuteScalar<string>("PRAGMA integrity_check").Should().Be("ok");
        oracle.QuerySingle<(long, long, long, long)>("SELECT sum(balance), count(*), (SELECT count(*) FROM ledger), (SELECT transfers FROM stats) FROM account")
            .Should().Be((Total, (long)Accounts, committed, committed));
    }

    [Fact]
    public void Sharc_and_SQLite_connections_writing_the_same_file_from_threads_lose_nothing()
    {
        string path = _files.File("mixed.db");
        CreateBank(path, "WAL");
        const int PerThread = 40;
        var failures = new ConcurrentQueue<string>();
        long committed = 0;

        void Worker(int id, Func<DbConnection> open)
        {
            var rnd = new Random(id);
            for (int i = 0; i < PerThread; i++)
            {
                long from = rnd.Next(1, Accounts + 1), to = from % Accounts + 1, amount = rnd.Next(1, 50);
                try
                {
                    using var conn = open();
                    using var tx = conn.BeginTransaction();
                    conn.Execute("UPDATE account SET balance = balance - @amount WHERE id = @from", new { amount, from }, tx);
                    conn.Execute("UPDATE account SET balance = balance + @amount WHERE id = @to", new { amount, to }, tx);
                    conn.Execute("INSERT INTO ledger(src, dst, amount, tag) VALUES (@from, @to, @amount, @tag)", new { from, to, amount, tag = $"{id}-{i}" }, tx);
                    tx.Commit();
                    Interlocked.Increment(ref committed);
                }
                catch (Exception e)
                {
                    failures.Enqueue($"worker {id} request {i}: {e.GetType().Name}: {e.Message}");
                }
            }
        }

        DbConnection OpenSharc()
        {
            var c = new SharcConnection($"Data Source={path};Default Timeout=60");
            c.Open();
            return c;
        }
        DbConnection OpenSqlite()
        {
            var c = new SqliteConnection($"Data Source={path};Pooling=False;Default Timeout=60");
            c.Open();
            return c;
        }

        var threads = new[]
        {
            new Thread(() => Worker(1, OpenSharc)), new Thread(() => Worker(2, OpenSharc)), new Thread(() => Worker(3, OpenSharc)),
            new Thread(() => Worker(4, OpenSqlite)), new Thread(() => Worker(5, OpenSqlite)),
        };
        foreach (var t in threads) t.Start();
        foreach (var t in threads) t.Join();

        failures.Should().BeEmpty();
        committed.Should().Be(5 * PerThread);
        using var oracle = new SqliteConnection($"Data Source={path};Pooling=False");
        oracle.Open();
        oracle.ExecuteScalar<string>("PRAGMA integrity_check").Should().Be("ok");
        oracle.QuerySingle<(long, long, long)>("SELECT sum(balance), count(*), (SELECT count(*) FROM ledger) FROM account")
            .Should().Be((Total, (long)Accounts, committed));
        using var sharc = OpenSharc();
        sharc.QuerySingle<(long, long)>("SELECT sum(balance), (SELECT count(*) FROM ledger) FROM account").Should().Be((Total, committed));
    }
}
