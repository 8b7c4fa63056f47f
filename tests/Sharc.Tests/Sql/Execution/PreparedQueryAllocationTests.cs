using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// A prepared query executed again with new parameter values allocates nothing after warm-up — filtered scans,
/// point lookups by rowid and by index, range seeks — measured with GC.GetAllocatedBytesForCurrentThread around
/// the loop, as ZeroAllocationTests does for readers. File- and memory-backed, UTF-8 and UTF-16 databases.
/// </summary>
public sealed class PreparedQueryAllocationTests
{

    /// <summary>
    /// The fixture's databases above are opened read-only; a writable open reads through snapshots, and in WAL mode
    /// each execution's read session takes a read mark in the shared wal-index: both are measured here too.
    /// </summary>
    [Theory]
    [InlineData("delete")]
    [InlineData("wal")]
    public void A_point_lookup_on_a_writable_open_allocates_nothing(string journalMode)
    {
        using var dir = new TempDir();
        string path = AllocationFixture.Build(dir, "UTF-8", 3000);
        using (var c = Oracle.Open(path)) Oracle.Exec(c, $"PRAGMA journal_mode={journalMode}");
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
        using var query = db.Prepare("SELECT name, age FROM users WHERE id = ?");
        var rng = new Random(3);
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, (long)rng.Next(1, 3001));
            var r = query.Execute();
            while (r.Read()) sum += r.GetUtf8Span(0).Length + r.GetInt64(1);
        }, 2000);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_point_lookup_by_rowid_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        using var query = db.Prepare("SELECT name, score, age FROM users WHERE id = ?");
        db.Explain(query.Sql).Should().Contain("SEARCH users USING INTEGER PRIMARY KEY");
        var rng = new Random(1);
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, (long)rng.Next(1, 3001));
            var r = query.Execute();
            while (r.Read()) sum += r.GetUtf8Span(0).Length + (long)r.GetDouble(1) + r.GetInt64(2);
        }, 2000);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_point_lookup_by_text_index_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        using var query = db.Prepare("SELECT id, score FROM users WHERE name = :name");
        db.Explain(query.Sql).Should().Contain("USING INDEX users_name");
        var names = Enumerable.Range(1, 3000).Select(i => Encoding.UTF8.GetBytes("user" + i)).ToArray();
        // Touch every index page once, so the page cache has a buffer for each before measuring.
        foreach (var name in names)
        {
            query.Bind(1, name);
            var warm = query.Execute();
            while (warm.Read()) { }
        }
        var rng = new Random(2);
        long found = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(":name", names[rng.Next(names.Length)]);
            var r = query.Execute();
            while (r.Read()) found += r.GetInt64(0);
        }, 2000);
        allocated.Should().Be(0);
        found.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_point_lookup_by_primary_key_of_a_without_rowid_table_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        using var query = db.Prepare("SELECT v FROM kv WHERE k = ?1");
        db.Explain(query.Sql).Should().Contain("SEARCH kv USING PRIMARY KEY");
        var keys = Enumerable.Range(1, 3000).Select(i => "key" + i).ToArray();
        var rng = new Random(3);
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, keys[rng.Next(keys.Length)]);
            var r = query.Execute();
            while (r.Read()) sum += r.GetInt64(0);
        }, 2000);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_filtered_scan_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        // Neither predicate can use an index: every row is read and filtered, text compared without strings.
        using var query = db.Prepare("SELECT id, name FROM users WHERE score > ? AND bio LIKE 'sh%' AND name <> ?");
        db.Explain(query.Sql).Should().StartWith("SCAN users");
        var rng = new Random(4);
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, rng.Next(0, 4000) * 1.0);
            query.Bind(2, "user7"u8);
            var r = query.Execute();
            while (r.Read()) rows += r.GetInt64(0) > 0 ? 1 : 0;
        }, 20);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_row_value_filter_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        // Keyset pagination's predicate, element by element over each row, plus a row-value IN over a kept subquery.
        using var query = db.Prepare("SELECT id, name FROM users WHERE (score, name) > (?, ?) AND (id, name) NOT IN (SELECT 1, 'x') LIMIT 50");
        var rng = new Random(5);
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, rng.Next(0, 4000) * 1.0);
            query.Bind(2, "user7"u8);
            var r = query.Execute();
            while (r.Read()) rows += r.GetInt64(0) > 0 ? 1 : 0;
        }, 20);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_hashed_in_list_rebuilt_from_parameters_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        // Both lists are long enough to be hashed; the TEXT column renders the numbers of the second list as text.
        using var query = db.Prepare("SELECT id FROM users WHERE +name IN (?, ?, ?, ?, ?, ?, 'user9') OR +name IN (1, 2.5, 3, 4, 5, 6) OR +age IN ('7', 8, 9.0, 10, 11, 12)");
        var names = Enumerable.Range(1, 3000).Select(i => Encoding.UTF8.GetBytes("user" + i)).ToArray();
        var rng = new Random(6);
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            for (int p = 1; p <= 6; p++) query.Bind(p, names[rng.Next(names.Length)]);
            var r = query.Execute();
            while (r.Read()) rows += r.GetInt64(0) > 0 ? 1 : 0;
        }, 20);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void An_index_range_seek_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        using var query = db.Prepare("SELECT id, age FROM users WHERE age BETWEEN ?1 AND ?1 + 2");
        db.Explain(query.Sql).Should().Contain("USING COVERING INDEX users_age");
        var rng = new Random(5);
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, (long)rng.Next(0, 90));
            var r = query.Execute();
            while (r.Read()) rows += r.GetInt64(1) >= 0 ? 1 : 0;
        }, 200);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_backward_index_walk_with_limit_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        // Top-N without a sort: the index is walked from its last entry, through the table for each row.
        using var query = db.Prepare("SELECT id, name, age FROM users WHERE age < ?1 ORDER BY age DESC LIMIT 10");
        db.Explain(query.Sql).Should().Contain("USING INDEX users_age").And.Contain("WALKED BACKWARD");
        using var top = db.Prepare("SELECT id, age FROM users ORDER BY age DESC LIMIT 10");
        db.Explain(top.Sql).Should().Contain("SCAN users USING COVERING INDEX users_age").And.Contain("WALKED BACKWARD");
        var rng = new Random(6);
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, (long)rng.Next(0, 90));
            var r = query.Execute();
            while (r.Read()) rows += r.GetInt64(2) >= 0 ? 1 : 0;
            var t = top.Execute();
            while (t.Read()) rows += t.GetInt64(1) >= 0 ? 1 : 0;
        }, 500);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_sorted_top_n_keeps_its_rows_without_allocating(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        // ORDER BY an unindexed column with LIMIT: a heap of kept rows, text included, refilled on every run.
        using var query = db.Prepare("SELECT id, name, score FROM users WHERE age > ?1 ORDER BY score DESC, name LIMIT 10");
        db.Explain(query.Sql).Should().Contain("USE TOP-N HEAP FOR ORDER BY");
        var rng = new Random(5);
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            query.Bind(1, (long)rng.Next(0, 60));
            var r = query.Execute();
            while (r.Read()) rows += r.GetUtf8Span(1).Length > 0 ? 1 : 0;
        }, 300);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void A_top_n_whose_scan_drops_rows_on_their_bytes_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        // No WHERE: the scan's only record test is the top-N's bar on score, raised as the heap fills.
        using var query = db.Prepare("SELECT id, name, score FROM users ORDER BY score LIMIT 10");
        db.Explain(query.Sql).Should().Contain("USE TOP-N HEAP FOR ORDER BY");
        long rows = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            var r = query.Execute();
            while (r.Read()) rows += r.GetUtf8Span(1).Length > 0 ? 1 : 0;
        }, 300);
        allocated.Should().Be(0);
        rows.Should().BeGreaterThan(0);
    }
}
