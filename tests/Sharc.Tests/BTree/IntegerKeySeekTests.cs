using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.BTree;

/// <summary>
/// One-integer key seeks compare the entries' leading integers in place and steer each page's search by
/// interpolation between the keys around it. The answer must not depend on how the keys are spread: seeks over dense,
/// sparse, skewed, duplicated and extreme integers, among entries of other storage classes, in ascending and
/// descending indexes and on small pages (deep trees), land on SQLite's lower bound, from the root and from held pages.
/// </summary>
public sealed class IntegerKeySeekTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    public static TheoryData<string, int> Spreads => new()
    {
        { "dense", 512 }, { "dense", 4096 },
        { "sparse", 512 }, { "sparse", 4096 },
        { "skewed", 512 }, { "skewed", 4096 },
        { "duplicates", 512 }, { "extreme", 512 }, { "mixed", 512 }, { "mixed", 4096 },
    };

    private static object? Value(string spread, int i, Random rng) => spread switch
    {
        "dense" => (long)i,
        "sparse" => rng.NextInt64(-(1L << 40), 1L << 40),
        // Squares of a few, then a long flat run, then wide gaps: an interpolation's worst guesses.
        "skewed" => i < 3000 ? (long)i * i * i : i < 4500 ? 27_000_000_000L + i : 1L << (i % 62),
        "duplicates" => (long)rng.Next(40),
        "extreme" => rng.Next(4) switch
        {
            0 => long.MinValue + rng.Next(50),
            1 => long.MaxValue - rng.Next(50),
            2 => (long)rng.Next(-2, 3), // 0 and 1 are stored as serial types 8 and 9, without content
            _ => rng.NextInt64(long.MinValue, long.MaxValue),
        },
        _ => rng.Next(7) switch
        {
            0 => null,
            1 => rng.NextDouble() * 1000 - 500,
            2 => (double)rng.Next(-500, 500),
            3 => "t" + rng.Next(100),
            4 => new byte[] { (byte)rng.Next(256) },
            _ => (long)rng.Next(-500, 500),
        },
    };

    private static long Key(string spread, List<long> stored, Random rng)
    {
        if (stored.Count > 0 && rng.Next(2) == 0) return stored[rng.Next(stored.Count)] + rng.Next(-1, 2);
        return spread switch
        {
            "dense" => rng.Next(-5, 5100),
            "skewed" => rng.Next(3) == 0 ? rng.NextInt64(0, 27_000_000_000L) : 1L << rng.Next(63),
            "duplicates" => rng.Next(-2, 43),
            "mixed" => rng.Next(-600, 600),
            _ => rng.NextInt64(long.MinValue, long.MaxValue),
        };
    }

    private string Build(string spread, int pageSize, bool descending, out List<long> stored)
    {
        string path = _dir.File($"{spread}-{pageSize}-{descending}.db");
        var rng = new Random(pageSize + spread.Length);
        stored = [];
        using var c = Oracle.Open(path);
        Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
        Oracle.Exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v, pad TEXT)");
        Oracle.Exec(c, descending ? "CREATE INDEX t_v ON t(v DESC, pad)" : "CREATE INDEX t_v ON t(v, pad)");
        Oracle.Exec(c, "BEGIN");
        for (int i = 0; i < 5000; i++)
        {
            var v = Value(spread, i, rng);
            if (v is long l) stored.Add(l);
            // Now and then an entry too long for its page, so that some probes meet spilled records.
            string pad = rng.Next(300) == 0 ? new string('p', pageSize) : "p" + rng.Next(10);
            Oracle.Exec(c, "INSERT INTO t(v, pad) VALUES($v, $p)", ("$v", v), ("$p", pad));
        }
        Oracle.Exec(c, "COMMIT");
        return path;
    }

    private static long? Scalar(SqliteConnection c, string sql, long key)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        cmd.Parameters.AddWithValue("$k", key);
        return cmd.ExecuteScalar() is long l ? l : null;
    }

    [Theory]
    [MemberData(nameof(Spreads))]
    public void IntegerSeeksLandOnSqlitesLowerBoundWhateverTheSpread(string spread, int pageSize)
    {
        foreach (bool descending in new[] { false, true })
        {
            string path = Build(spread, pageSize, descending, out var stored);
            using var oracle = Oracle.Open(path, readOnly: true);
            using var db = SharcDatabase.Open(path);
            using var root = db.PrepareReader("t_v");
            using var nearby = db.PrepareReader("t_v");
            nearby.SeekNearby = true;
            var rng = new Random(pageSize * 7 + spread.Length);
            var keys = Enumerable.Range(0, 400).Select(_ => Key(spread, stored, rng)).ToList();
            // Random order, then ascending: a nearby seek then mostly starts from a held leaf or its parent.
            foreach (long key in keys.Concat(keys.Order()))
            {
                string order = descending ? "v <= $k ORDER BY v DESC, pad, id" : "v >= $k ORDER BY v, pad, id";
                if (descending)
                {
                    // Past every number in a DESC index come NULLs only; text and blobs sort before the numbers.
                    order = "(v <= $k OR v IS NULL) ORDER BY v DESC NULLS LAST, pad, id";
                }
                long? first = Scalar(oracle, $"SELECT id FROM t INDEXED BY t_v WHERE {order} LIMIT 1", key);
                bool equal = Scalar(oracle, "SELECT id FROM t WHERE v = $k LIMIT 1", key) is not null;
                foreach (var r in new[] { root, nearby })
                {
                    bool found = r.SeekKey(key);
                    found.Should().Be(equal, "seek {0} ({1}, page {2}, desc {3})", key, spread, pageSize, descending);
                    long? landed = found ? r.RowId : r.Read() ? r.RowId : null;
                    landed.Should().Be(first, "seek {0} ({1}, page {2}, desc {3})", key, spread, pageSize, descending);
                }
            }
        }
    }

    [Fact]
    public void IntegerSeeksSeeWhatOtherConnectionsCommitBetweenThem()
    {
        string path = Build("dense", 512, descending: false, out _);
        using var db = SharcDatabase.Open(path);
        using var reader = db.PrepareReader("t_v");
        reader.SeekNearby = true;
        using var writer = Oracle.Open(path);
        for (long key = 10_000; key < 10_400; key += 4)
        {
            reader.SeekKey(key).Should().BeFalse("{0} is not in the index yet", key);
            // Keys at both ends of the index: new pages, split leaves and a taller tree under the held path.
            Oracle.Exec(writer, "INSERT INTO t(v, pad) VALUES($v, 'n'), ($w, 'n')", ("$v", key), ("$w", -key));
            reader.SeekKey(key).Should().BeTrue("{0} was committed", key);
            reader.GetString(1).Should().Be("n");
            reader.SeekKey(-key).Should().BeTrue("{0} was committed", -key);
        }
    }

    [Fact]
    public void IntegerSeeksAllocateNothingAfterWarmUp()
    {
        string path = Build("sparse", 4096, descending: false, out var stored);
        using var db = SharcDatabase.Open(path);
        using var reader = db.PrepareReader("t_v");
        int i = 0;
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            if (reader.SeekKey(stored[i++ % stored.Count])) sum += reader.RowId;
        }, 2000);
        allocated.Should().Be(0);
        sum.Should().NotBe(0);
    }
}
