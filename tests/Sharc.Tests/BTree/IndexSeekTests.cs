using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.BTree;

/// <summary>
/// Index seeks land where SQLite's own ordering says the first entry not less than the key is: over untyped values
/// of every storage class (integers of every width, reals equal to integers, short and spilled text, blobs, NULLs)
/// and over a two-column index seeked by prefix and by full key, at page sizes where many records spill.
/// </summary>
public sealed class IndexSeekTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    public static TheoryData<int> PageSizes => new() { 512, 4096 };

    private static object? RandomValue(Random rng, int pageSize)
    {
        switch (rng.Next(9))
        {
            case 0: return null;
            case 1: return (long)rng.Next(-300, 300);
            case 2: return rng.NextInt64(-(1L << 40), 1L << 40);
            case 3: return rng.Next(2) == 0 ? long.MaxValue - rng.Next(3) : long.MinValue + rng.Next(3);
            case 4: return rng.Next(4) == 0 ? (double)rng.Next(-300, 300) : (rng.NextDouble() - 0.5) * 1e6;
            case 5: return Text(rng, 1 + rng.Next(12));
            case 6: return Text(rng, 1 + rng.Next(pageSize / 2));
            case 7: return Text(rng, 1 + rng.Next(3)) + Text(rng, pageSize / 3);
            default:
                var b = new byte[rng.Next(0, 40)];
                rng.NextBytes(b);
                return b;
        }
    }

    private static string Text(Random rng, int n)
    {
        var cs = new char[n];
        for (int i = 0; i < n; i++) cs[i] = (char)('a' + rng.Next(4));
        return new string(cs);
    }

    private static SqliteCommand Command(SqliteConnection c, string sql, params object?[] ps)
    {
        var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        for (int i = 0; i < ps.Length; i++) cmd.Parameters.AddWithValue("$p" + i, ps[i] ?? DBNull.Value);
        return cmd;
    }

    private static long? FirstRowId(SqliteConnection c, string sql, params object?[] ps)
    {
        using var cmd = Command(c, sql, ps);
        var v = cmd.ExecuteScalar();
        return v is null or DBNull ? null : (long)v;
    }

    /// <summary>Seeks, then reports whether the key was equal and which row's entry the reader stands on.</summary>
    private static (bool Equal, long? RowId) Land(PreparedReader r, params object?[] key)
    {
        bool equal = r.SeekKey(key);
        if (equal) return (true, r.RowId);
        return (false, r.Read() ? r.RowId : null);
    }

    [Theory]
    [MemberData(nameof(PageSizes))]
    public void SingleColumnSeekLandsOnSqlitesLowerBound(int pageSize)
    {
        string path = _dir.File($"one{pageSize}.db");
        var rng = new Random(pageSize);
        var values = new List<object?>();
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
            Oracle.Exec(c, "CREATE TABLE t(v)");
            Oracle.Exec(c, "CREATE INDEX t_v ON t(v)");
            Oracle.Exec(c, "BEGIN");
            for (int i = 0; i < 2500; i++)
            {
                var v = RandomValue(rng, pageSize);
                values.Add(v);
                Oracle.Exec(c, "INSERT INTO t(v) VALUES($v)", ("$v", v));
            }
            Oracle.Exec(c, "COMMIT");
        }

        using var oracle = Oracle.Open(path, readOnly: true);
        using var db = SharcDatabase.Open(path);
        using var r = db.PrepareReader("t_v");
        for (int i = 0; i < 600; i++)
        {
            var key = i % 2 == 0 ? values[rng.Next(values.Count)] ?? 0L : RandomValue(rng, pageSize) ?? 1.5;
            long? first = FirstRowId(oracle, "SELECT rowid FROM t WHERE v >= $p0 ORDER BY v, rowid LIMIT 1", key);
            bool equal = FirstRowId(oracle, "SELECT rowid FROM t WHERE v = $p0 LIMIT 1", key) is not null;
            Land(r, key).Should().Be((equal, first), "seek {0} of a {1}", i, key?.GetType().Name);
        }
    }

    [Theory]
    [MemberData(nameof(PageSizes))]
    public void TwoColumnSeekByPrefixAndByFullKeyLandsOnSqlitesLowerBound(int pageSize)
    {
        string path = _dir.File($"two{pageSize}.db");
        var rng = new Random(pageSize + 1);
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
            Oracle.Exec(c, "CREATE TABLE t(a INTEGER, b TEXT)");
            Oracle.Exec(c, "CREATE INDEX t_ab ON t(a, b)");
            Oracle.Exec(c, "BEGIN");
            for (int i = 0; i < 3000; i++)
                Oracle.Exec(c, "INSERT INTO t(a, b) VALUES($a, $b)", ("$a", (long)rng.Next(400) * 1000), ("$b", Text(rng, 1 + rng.Next(rng.Next(10) == 0 ? pageSize : 8))));
            Oracle.Exec(c, "COMMIT");
        }

        using var oracle = Oracle.Open(path, readOnly: true);
        using var db = SharcDatabase.Open(path);
        using var r = db.PrepareReader("t_ab");
        for (int i = 0; i < 500; i++)
        {
            long a = (long)rng.Next(-2, 402) * 1000 + (rng.Next(5) == 0 ? 1 : 0);
            long? first = FirstRowId(oracle, "SELECT rowid FROM t WHERE a >= $p0 ORDER BY a, b, rowid LIMIT 1", a);
            bool equal = FirstRowId(oracle, "SELECT rowid FROM t WHERE a = $p0 LIMIT 1", a) is not null;
            Land(r, a).Should().Be((equal, first), "prefix seek {0}", a);

            string b = Text(rng, 1 + rng.Next(6));
            first = FirstRowId(oracle, "SELECT rowid FROM t WHERE a > $p0 OR (a = $p0 AND b >= $p1) ORDER BY a, b, rowid LIMIT 1", a, b);
            equal = FirstRowId(oracle, "SELECT rowid FROM t WHERE a = $p0 AND b = $p1 LIMIT 1", a, b) is not null;
            Land(r, a, b).Should().Be((equal, first), "full seek ({0}, {1})", a, b);
        }
    }
}
