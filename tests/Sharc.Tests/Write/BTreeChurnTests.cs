using System.Text;
using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// SQLite's btree01 in spirit: blobs of growing sizes, some spilling over several overflow pages, inserted into
/// tables on small pages, shrunk and regrown, and deleted until pages empty — run on Sharc and SQLite side by side.
/// Between steps SQLite's integrity_check of Sharc's file says ok, Sharc's check says ok of both files (also in the
/// middle of a transaction, where freed pages are on a freelist the committed header does not know yet), and the
/// contents agree.
/// </summary>
public class BTreeChurnTests
{
    public static IEnumerable<object[]> Cases()
    {
        int seed = 100;
        foreach (int pageSize in new[] { 512, 1024 })
        foreach (int autoVacuum in new[] { 0, 1, 2 })
        foreach (string layout in new[] { "plain", "indexed", "without rowid" })
            yield return [pageSize, autoVacuum, layout, seed++];
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void RandomChurnLeavesEveryPageAccountedFor(int pageSize, int autoVacuum, string layout, int seed)
    {
        using var twin = new Twin(pageSize, autoVacuum);
        twin.Run(layout switch
        {
            "without rowid" => "CREATE TABLE t1(a INTEGER PRIMARY KEY, b BLOB, c TEXT) WITHOUT ROWID",
            _ => "CREATE TABLE t1(a INTEGER PRIMARY KEY, b BLOB, c TEXT)",
        });
        // Index keys carry the blobs and texts themselves, so index cells (interior ones too) overflow.
        if (layout != "plain") twin.Run("CREATE INDEX t1_c ON t1(c, b)");
        if (layout == "indexed") twin.Run("CREATE UNIQUE INDEX t1_b ON t1(b)");

        var rng = new Random(seed);
        for (int step = 0; step < 60; step++)
        {
            bool transaction = rng.Next(3) == 0;
            if (transaction) twin.Run("BEGIN");
            int n = transaction ? rng.Next(2, 6) : 1;
            for (int i = 0; i < n; i++)
            {
                twin.Run(RandomStatement(rng, pageSize));
                if (transaction) twin.Db.CheckIntegrity().Should().BeEmpty("Sharc's check inside a transaction (step {0}, seed {1})", step, seed);
            }
            if (transaction) twin.Run(rng.Next(4) == 0 ? "ROLLBACK" : "COMMIT");
            twin.AssertSound($"step {step}, seed {seed}");
        }
        twin.Run("DELETE FROM t1");
        twin.AssertSound("after deleting every row");
    }

    /// <summary>btree01's own sequences (30 rows of blobs near a tenth of a page, shrunk, one grown to most of a page
    /// or several), scaled to the page size, for every row in turn as the one that grows.</summary>
    [Theory]
    [InlineData(512, 0)]
    [InlineData(1024, 1)]
    [InlineData(65536, 0)]
    public void Btree01SequencesLeaveEveryPageAccountedFor(int pageSize, int autoVacuum)
    {
        using var twin = new Twin(pageSize, autoVacuum);
        twin.Run("CREATE TABLE t1(a INTEGER PRIMARY KEY, b BLOB)");
        int Scaled(int n) => Math.Max(1, (int)((long)n * pageSize / 65536));
        int[][] sequences =
        [
            [30, 6500, 3000, 64000], [30, 6500, 2000, 64000], [30, 6542, 2331, 65496],
            [30, 6542, 2332, 65496], [30, 6500, 1, 65000], [31, 6500, 4000, 65000],
        ];
        foreach (var s in sequences)
        {
            for (int i = 1; i <= s[0]; i += pageSize == 65536 ? 7 : 1)
            {
                twin.Run("DELETE FROM t1");
                twin.Run($"WITH RECURSIVE c(i) AS (VALUES(1) UNION ALL SELECT i+1 FROM c WHERE i<{s[0]}) " +
                         $"INSERT INTO t1(a,b) SELECT i, zeroblob({Scaled(s[1])}) FROM c");
                twin.Run($"UPDATE t1 SET b=zeroblob({Scaled(s[2])})");
                twin.Run($"UPDATE t1 SET b=zeroblob({Scaled(s[3])} * 4) WHERE a={i}");
                twin.AssertSound($"sequence {string.Join(",", s)}, row {i}");
            }
        }
    }

    private static string RandomStatement(Random rng, int pageSize)
    {
        int a = rng.Next(1, 200);
        switch (rng.Next(9))
        {
            case 0 or 1 or 2:
                return $"INSERT OR IGNORE INTO t1 VALUES({a}, {Blob(rng, GrowingSize(rng, pageSize))}, {Text(rng, pageSize)})";
            case 3:
                return $"REPLACE INTO t1 VALUES({a}, {Blob(rng, GrowingSize(rng, pageSize))}, {Text(rng, pageSize)})";
            case 4:
                return $"UPDATE t1 SET b = zeroblob({GrowingSize(rng, pageSize)}) WHERE a % {rng.Next(2, 9)} = 0";
            case 5:
                return $"DELETE FROM t1 WHERE a % {rng.Next(2, 6)} = {rng.Next(2)}";
            case 6:
            {
                int from = rng.Next(1, 200);
                return $"DELETE FROM t1 WHERE a BETWEEN {from} AND {from + rng.Next(60)}";
            }
            case 7:
                return $"INSERT OR IGNORE INTO t1 SELECT a + {rng.Next(1, 50)}, b, c || 'x' FROM t1 WHERE a % 3 = {rng.Next(3)}";
            default:
                return $"DELETE FROM t1 WHERE a = {a}";
        }
    }

    /// <summary>Mostly small, sometimes up to several pages (btree01's blobs grow past a page).</summary>
    private static int GrowingSize(Random rng, int pageSize) => rng.Next(4) switch
    {
        0 => rng.Next(0, 40),
        1 => rng.Next(pageSize / 8, pageSize / 2),
        2 => rng.Next(pageSize / 2, pageSize * 2),
        _ => rng.Next(pageSize * 2, pageSize * 5),
    };

    private static string Blob(Random rng, int size)
    {
        var bytes = new byte[size];
        rng.NextBytes(bytes);
        return "X'" + Convert.ToHexString(bytes) + "'";
    }

    private static string Text(Random rng, int pageSize)
    {
        var sb = new StringBuilder("'");
        int length = rng.Next(3) == 0 ? rng.Next(pageSize / 4, pageSize * 2) : rng.Next(1, 20);
        for (int i = 0; i < length; i++) sb.Append((char)('a' + rng.Next(26)));
        return sb.Append('\'').ToString();
    }

    /// <summary>A Sharc database and a SQLite one with the same page size and auto_vacuum, given the same SQL.</summary>
    private sealed class Twin : IDisposable
    {
        private readonly TempDir _dir = new();
        private readonly string _sharcPath, _sqlitePath;
        private readonly SqliteConnection _sqlite;
        private readonly int _autoVacuum;

        public Twin(int pageSize, int autoVacuum)
        {
            _autoVacuum = autoVacuum;
            _sharcPath = _dir.File("sharc.db");
            _sqlitePath = _dir.File("sqlite.db");
            Db = SharcDatabase.Create(_sharcPath, new SharcCreateOptions { PageSize = pageSize, AutoVacuum = (SharcAutoVacuum)autoVacuum });
            _sqlite = Oracle.Open(_sqlitePath);
            Oracle.Exec(_sqlite, $"PRAGMA page_size={pageSize}");
            Oracle.Exec(_sqlite, $"PRAGMA auto_vacuum={autoVacuum}");
        }

        public SharcDatabase Db { get; }

        /// <summary>Runs the statement in both; both succeed or both fail.</summary>
        public void Run(string sql)
        {
            string? expected = null, actual = null;
            try { Oracle.Exec(_sqlite, sql); }
            catch (SqliteException e) { expected = e.Message; }
            try { Db.Execute(sql); }
            catch (SharcException e) { actual = e.Message; }
            (actual is null).Should().Be(expected is null, "{0} gives {1} in SQLite and {2} in Sharc", sql[..Math.Min(sql.Length, 120)], expected, actual);
        }

        public void AssertSound(string when)
        {
            Oracle.IntegrityCheck(_sharcPath).Should().Be("ok", "SQLite's check of Sharc's file {0}", when);
            Db.CheckIntegrity().Should().BeEmpty("Sharc's check of its own file {0}", when);
            using (var theirs = SharcDatabase.Open(_sqlitePath))
                theirs.CheckIntegrity().Should().BeEmpty("Sharc's check of SQLite's file {0}", when);
            Oracle.Rows(_sharcPath, "SELECT * FROM t1 ORDER BY a")
                .ShouldEqual(Oracle.Rows(_sqlite, "SELECT * FROM t1 ORDER BY a"), when);
            // Page layouts differ between the engines' balancers, so page counts may too; not so a full vacuum's.
            if (_autoVacuum == 1)
                Oracle.Rows(_sharcPath, "PRAGMA freelist_count")[0][0].Should().Be(0L, "auto_vacuum=FULL leaves no free page {0}", when);
        }

        public void Dispose()
        {
            Db.Dispose();
            _sqlite.Dispose();
            _dir.Dispose();
        }
    }
}
