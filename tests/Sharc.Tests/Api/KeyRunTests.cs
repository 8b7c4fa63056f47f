using Microsoft.Data.Sqlite;
using Sharc.Testing;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// <see cref="SharcDataReader.ReadKeyRunInt64(int, Span{long}, Span{long})"/>: after a key seek, the integers of one
/// column of every entry matching the key, read from the pages in index order, across leaves, interior entries and
/// spilled records, a buffer at a time; the reader then rests on the entry after the run. Checked against the index
/// order SQLite reports for the same file.
/// </summary>
public class KeyRunTests
{
    private sealed record Entry(long A, object? C, long RowId);

    /// <summary>
    /// t(a, c, pad) with an index on (a, c, pad): a few hundred a values, c mostly integers with some NULL, real and
    /// text values (passed over by the run), and now and then a pad long enough to spill the entry to overflow pages.
    /// Returns the index's entries in SQLite's order.
    /// </summary>
    private static (string Path, List<Entry> Order) Build(TempDir dir, int rows, int seed)
    {
        string path = dir.File("runs.db");
        var rng = new Random(seed);
        using var conn = new SqliteConnection($"Data Source={path};Pooling=False");
        conn.Open();
        using (var ddl = conn.CreateCommand())
        {
            ddl.CommandText = "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, c, pad TEXT); CREATE INDEX t_acp ON t(a, c, pad)";
            ddl.ExecuteNonQuery();
        }
        using (var tx = conn.BeginTransaction())
        {
            using var insert = conn.CreateCommand();
            insert.Transaction = tx;
            insert.CommandText = "INSERT INTO t(a, c, pad) VALUES ($a, $c, $p)";
            var a = insert.Parameters.Add("$a", SqliteType.Integer);
            var c = insert.Parameters.Add(new SqliteParameter { ParameterName = "$c" });
            var p = insert.Parameters.Add("$p", SqliteType.Text);
            for (int i = 0; i < rows; i++)
            {
                // Skewed: some keys have one entry, some hundreds (a run over several leaves).
                a.Value = rng.Next(10) == 0 ? rng.Next(5) : rng.Next(rows / 4);
                int kind = rng.Next(20);
                c.Value = kind switch
                {
                    0 => DBNull.Value,
                    1 => rng.Next(100) + 0.5,
                    2 => "t" + rng.Next(100),
                    _ => (object)(rng.NextInt64(-100_000, 100_000) * (kind == 3 ? 1_000_000_000L : 1)),
                };
                p.Value = rng.Next(150) == 0 ? new string('x', 2000 + rng.Next(4000)) : "p" + rng.Next(10);
                insert.ExecuteNonQuery();
            }
            tx.Commit();
        }
        var order = new List<Entry>();
        using var q = conn.CreateCommand();
        q.CommandText = "SELECT a, c, id FROM t INDEXED BY t_acp ORDER BY a, c, pad, id";
        using var r = q.ExecuteReader();
        while (r.Read()) order.Add(new Entry(r.GetInt64(0), r.IsDBNull(1) ? null : r.GetValue(1), r.GetInt64(2)));
        return (path, order);
    }

    private static int LowerBound(List<Entry> order, long key)
    {
        int lo = 0, hi = order.Count;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (order[mid].A < key) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    [Theory]
    [InlineData(1, false)]
    [InlineData(2, true)]
    [InlineData(3, true)]
    public void Runs_yield_the_integer_column_of_every_matching_entry_in_index_order_and_rest_after_the_run(int seed, bool nearby)
    {
        using var dir = new TempDir();
        var (path, order) = Build(dir, 12_000, seed);
        using var db = SharcDatabase.Open(path);
        using var reader = db.PrepareReader("t_acp");
        reader.SeekNearby = nearby;
        int c = reader.GetOrdinal("c");
        var rng = new Random(seed);
        long max = order[^1].A;
        var keys = Enumerable.Range(0, 1500).Select(_ => rng.NextInt64(-2, max + 3)).ToList();
        if (nearby) keys.Sort();
        var values = new long[16];
        var rowIds = new long[16];
        foreach (long key in keys)
        {
            int lower = LowerBound(order, key), end = lower;
            while (end < order.Count && order[end].A == key) end++;
            var expected = order.Skip(lower).Take(end - lower).Where(e => e.C is long).ToList();

            bool found = reader.SeekKey(key);
            found.Should().Be(end > lower, $"seek {key}");
            // Buffers of random sizes, so that runs end on a full buffer as well as short of it.
            var got = new List<(long C, long RowId)>();
            int size = rng.Next(1, values.Length + 1);
            while (true)
            {
                int n = reader.ReadKeyRunInt64(c, values.AsSpan(0, size), rowIds.AsSpan(0, size));
                for (int i = 0; i < n; i++) got.Add((values[i], rowIds[i]));
                if (n < size) break;
            }
            got.Should().Equal(expected.Select(e => ((long)e.C!, e.RowId)), $"run of {key}");
            if (!found) continue;
            // The next read is the first entry after the run, as after reading the run row by row.
            if (end < order.Count)
            {
                reader.Read().Should().BeTrue($"the entry after the run of {key}");
                reader.RowId.Should().Be(order[end].RowId, $"the entry after the run of {key}");
            }
            else
            {
                reader.Read().Should().BeFalse("the run reached the end of the index");
            }
        }
    }

    [Fact]
    public void A_two_part_key_bounds_the_run_by_both_parts()
    {
        using var dir = new TempDir();
        var (path, order) = Build(dir, 6_000, 4);
        using var db = SharcDatabase.Open(path);
        using var reader = db.PrepareReader("t_acp");
        int c = reader.GetOrdinal("c");
        var values = new long[8];
        foreach (var group in order.Where(e => e.C is long).GroupBy(e => (e.A, (long)e.C!)).Take(400))
        {
            reader.SetKeyPart(0, group.Key.A);
            reader.SetKeyPart(1, group.Key.Item2);
            reader.SeekKeyParts(2).Should().BeTrue();
            int total = 0, n;
            do
            {
                n = reader.ReadKeyRunInt64(c, values);
                values.AsSpan(0, n).ToArray().Should().OnlyContain(v => v == group.Key.Item2);
                total += n;
            }
            while (n == values.Length);
            total.Should().Be(group.Count(), $"entries of ({group.Key.A}, {group.Key.Item2})");
        }
    }

    [Fact]
    public void A_run_read_under_a_snapshot_ignores_rows_another_connection_commits_meanwhile()
    {
        using var dir = new TempDir();
        string path = dir.File("snap.db");
        using (var create = SharcDatabase.Create(path, new SharcCreateOptions { JournalMode = SharcJournalMode.Wal }))
        {
            create.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, c INTEGER)");
            create.Execute("CREATE INDEX t_ac ON t(a, c)");
            using var tx = create.BeginTransaction();
            for (long i = 0; i < 3000; i++) create.Execute("INSERT INTO t(a, c) VALUES (?, ?)", i % 3 == 0 ? 7L : i + 10, i);
            tx.Commit();
        }
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        using var other = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        using var snapshot = db.CreateSnapshot();
        using var reader = db.PrepareReader("t_ac");
        reader.UseSnapshot(snapshot);
        int c = reader.GetOrdinal("c");
        var values = new long[100];
        var seen = new List<long>();

        reader.SeekKey(7L).Should().BeTrue();
        seen.AddRange(values.AsSpan(0, reader.ReadKeyRunInt64(c, values)).ToArray());
        // Mid-run, another connection adds entries of the same key on every leaf of the run and deletes some.
        using (var tx = other.BeginTransaction())
        {
            for (long i = 0; i < 3000; i += 2) other.Execute("INSERT INTO t(a, c) VALUES (7, ?)", i + 100_000);
            other.Execute("DELETE FROM t WHERE a = 7 AND c < 100000 AND c % 9 = 0");
            tx.Commit();
        }
        int n;
        do
        {
            n = reader.ReadKeyRunInt64(c, values);
            seen.AddRange(values.AsSpan(0, n).ToArray());
        }
        while (n == values.Length);
        seen.Should().Equal(Enumerable.Range(0, 1000).Select(i => i * 3L), "the run reads the snapshot's commit");

        snapshot.Release();
        reader.UseSnapshot(snapshot);
        reader.SeekKey(7L).Should().BeTrue();
        int total = 0;
        do total += n = reader.ReadKeyRunInt64(c, values);
        while (n == values.Length);
        total.Should().Be(1000 - 334 + 1500, "released, the next seek reads the latest commit");
    }

    [Fact]
    public void Runs_refuse_readers_and_arguments_that_cannot_serve_them()
    {
        using var dir = new TempDir();
        var (path, _) = Build(dir, 500, 5);
        using var db = SharcDatabase.Open(path);
        using var table = db.PrepareReader("t");
        table.Seek(1);
        var values = new long[4];
        FluentActions.Invoking(() => table.ReadKeyRunInt64(0, values)).Should().Throw<InvalidOperationException>().WithMessage("*over t *");
        using var index = db.PrepareReader("t_acp");
        FluentActions.Invoking(() => index.ReadKeyRunInt64(1, values)).Should().Throw<InvalidOperationException>().WithMessage("*not sought*");
        index.SeekKey(1L);
        FluentActions.Invoking(() => index.ReadKeyRunInt64(1, values, new long[2])).Should().Throw<ArgumentException>().WithMessage("*rowIds*");
        FluentActions.Invoking(() => index.ReadKeyRunInt64(99, values)).Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void Seek_and_run_allocate_nothing_after_warm_up()
    {
        using var dir = new TempDir();
        var (path, order) = Build(dir, 6_000, 6);
        using var db = SharcDatabase.Open(path);
        using var reader = db.PrepareReader("t_acp");
        reader.SeekNearby = true;
        int c = reader.GetOrdinal("c");
        var values = new long[8];
        var rowIds = new long[8];
        long max = order[^1].A, key = 0, read = 0;
        long allocated = AllocationMeasure.Measure(() =>
        {
            key = key >= max ? 0 : key + 1;
            if (!reader.SeekKey(key)) return;
            int n;
            do read += n = reader.ReadKeyRunInt64(c, values, rowIds);
            while (n == values.Length);
        }, 1000);
        allocated.Should().Be(0);
        read.Should().BeGreaterThan(0);
    }
}
