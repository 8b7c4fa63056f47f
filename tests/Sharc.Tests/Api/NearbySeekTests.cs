using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>
/// SeekNearby: a seek that starts from the pages the reader holds must land where a seek from the root lands, for
/// ascending, clustered, random and descending keys, across leaves, interior entries and spilled records.
/// </summary>
public class NearbySeekTests
{
    private sealed record Entry(long A, string B, long RowId);

    /// <summary>An index on (a, b) deep enough for interior levels: duplicate a values, some b spilled to overflow pages.</summary>
    private static (string Path, List<Entry> Sorted) Build(TempDir dir, int rows, int seed)
    {
        string path = dir.File("nearby.db");
        var rng = new Random(seed);
        var entries = new List<Entry>();
        using var conn = new SqliteConnection($"Data Source={path};Pooling=False");
        conn.Open();
        using (var ddl = conn.CreateCommand())
        {
            ddl.CommandText = "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b TEXT NOT NULL); CREATE INDEX t_ab ON t(a, b)";
            ddl.ExecuteNonQuery();
        }
        using var tx = conn.BeginTransaction();
        using var insert = conn.CreateCommand();
        insert.Transaction = tx;
        insert.CommandText = "INSERT INTO t VALUES ($id, $a, $b)";
        var id = insert.Parameters.Add("$id", SqliteType.Integer);
        var a = insert.Parameters.Add("$a", SqliteType.Integer);
        var b = insert.Parameters.Add("$b", SqliteType.Text);
        for (int i = 1; i <= rows; i++)
        {
            long key = rng.Next(rows / 3) * 2; // even keys only, so odd keys are sought between entries
            string text = "v" + rng.Next(1000) + (rng.Next(200) == 0 ? new string('x', 3000 + rng.Next(3000)) : "");
            id.Value = i;
            a.Value = key;
            b.Value = text;
            insert.ExecuteNonQuery();
            entries.Add(new Entry(key, text, i));
        }
        tx.Commit();
        entries.Sort((x, y) =>
        {
            int c = x.A.CompareTo(y.A);
            if (c == 0) c = string.CompareOrdinal(x.B, y.B);
            return c != 0 ? c : x.RowId.CompareTo(y.RowId);
        });
        return (path, entries);
    }

    private static IEnumerable<long> Keys(string workload, int count, long max, Random rng)
    {
        var keys = Enumerable.Range(0, count).Select(_ => rng.NextInt64(-3, max + 4)).ToList();
        return workload switch
        {
            "ascending" => keys.Order(),
            "descending" => keys.OrderDescending(),
            // Runs of nearby keys starting at random places: forward, backward and repeated moves within a leaf.
            "clustered" => keys.Take(count / 8).SelectMany(k => Enumerable.Range(0, 8).Select(i => k + rng.Next(-6, 7))),
            _ => keys,
        };
    }

    [Theory]
    [InlineData("ascending", 1)]
    [InlineData("clustered", 2)]
    [InlineData("random", 3)]
    [InlineData("descending", 4)]
    public void NearbySeeksLandWhereTheReferenceLowerBoundIs(string workload, int seed)
    {
        using var dir = new TempDir();
        var (path, sorted) = Build(dir, 20_000, seed);
        using var db = SharcDatabase.Open(path);
        using var reader = db.PrepareReader("t_ab");
        reader.SeekNearby = true;
        var rng = new Random(seed);
        long max = sorted[^1].A;
        foreach (long key in Keys(workload, 3000, max, rng))
        {
            int lower = LowerBound(sorted, key);
            bool found = reader.SeekKey(key);
            found.Should().Be(lower < sorted.Count && sorted[lower].A == key, $"seek {key} ({workload})");
            // The lower bound, then a few entries on: reads after a nearby seek climb the tree as after any seek.
            int steps = rng.Next(1, 5);
            for (int i = lower; i < Math.Min(lower + steps, sorted.Count); i++)
            {
                (reader.HasRow || reader.Read()).Should().BeTrue($"entry {i} after seeking {key}");
                reader.GetInt64(0).Should().Be(sorted[i].A);
                reader.RowId.Should().Be(sorted[i].RowId, $"entry {i} after seeking {key} ({workload})");
                reader.Read();
            }
            // Now and then the reader runs off the end, and the next seek starts from that state.
            if (rng.Next(50) == 0) while (reader.Read()) { }
        }
    }

    [Fact]
    public void NearbySeeksOnTwoPartKeysMatchSeeksFromTheRoot()
    {
        using var dir = new TempDir();
        var (path, sorted) = Build(dir, 20_000, 9);
        using var db = SharcDatabase.Open(path);
        using var nearby = db.PrepareReader("t_ab");
        using var root = db.PrepareReader("t_ab");
        nearby.SeekNearby = true;
        var rng = new Random(9);
        var keys = Enumerable.Range(0, 2000).Select(_ => sorted[rng.Next(sorted.Count)])
            .Select(e => (e.A + rng.Next(-1, 2), rng.Next(3) == 0 ? e.B : "v" + rng.Next(1000)))
            .OrderBy(k => k.Item1).ThenBy(k => k.Item2, StringComparer.Ordinal).ToList();
        foreach (var (a, b) in keys)
        {
            byte[] text = System.Text.Encoding.UTF8.GetBytes(b);
            nearby.SetKeyPart(0, a);
            nearby.SetKeyPart(1, text);
            root.SetKeyPart(0, a);
            root.SetKeyPart(1, text);
            nearby.SeekKeyParts(2).Should().Be(root.SeekKeyParts(2), $"seek ({a}, {b})");
            bool more = nearby.HasRow || nearby.Read();
            (root.HasRow || root.Read()).Should().Be(more);
            if (more) nearby.RowId.Should().Be(root.RowId, $"seek ({a}, {b})");
        }
    }

    [Fact]
    public void NearbySeeksSeeRowsCommittedSinceTheLastSeek()
    {
        using var dir = new TempDir();
        var (path, _) = Build(dir, 5_000, 5);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        using var reader = db.PrepareReader("t_ab");
        reader.SeekNearby = true;
        for (long key = 1; key < 400; key += 2)
        {
            reader.SeekKey(key).Should().BeFalse("odd keys are not in the index yet");
            db.Execute("INSERT INTO t(a, b) VALUES (?, 'new')", key);
            reader.SeekKey(key).Should().BeTrue($"key {key} was just inserted");
            reader.GetString(1).Should().Be("new");
        }
    }

    [Fact]
    public void NearbySeekAllocatesNothingAfterWarmUp()
    {
        using var dir = new TempDir();
        var (path, sorted) = Build(dir, 5_000, 6);
        using var db = SharcDatabase.Open(path);
        using var reader = db.PrepareReader("t_ab");
        reader.SeekNearby = true;
        long max = sorted[^1].A, key = 0, hits = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            key = key >= max ? 0 : key + 3;
            if (reader.SeekKey(key)) hits++;
        }, 1000);
        allocated.Should().Be(0);
        hits.Should().BeGreaterThan(0);
    }

    private static int LowerBound(List<Entry> sorted, long key)
    {
        int lo = 0, hi = sorted.Count;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid].A < key) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
