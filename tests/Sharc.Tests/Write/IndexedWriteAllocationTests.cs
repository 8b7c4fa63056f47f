using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Rows with random keys into a table with two secondary indexes split and merge index pages on most operations.
/// Balancing works on reused scratch, so what a row costs is its share of new page buffers, not copies of every
/// cell of the pages it rebalanced (which came to about 8 KB per insert and 17 KB per delete). The files stay what SQLite accepts.
/// </summary>
public class IndexedWriteAllocationTests
{
    // Generous against the page buffers a growing file needs (under 100 bytes a row here), far below cell copying.
    private const long BytesPerRowBound = 1024;

    // A delete first loads the row through a fresh cursor (about 1.6 KB, with or without indexes); the balancing that
    // follows used to add some 17 KB more.
    private const long BytesPerDeleteBound = 4096;

    [Fact]
    public void Random_key_inserts_into_two_indexes_allocate_little_per_row()
    {
        using var dir = new TempDir();
        string path = dir.File("indexed.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c INTEGER); CREATE INDEX t_ab ON t(a, b); CREATE INDEX t_ca ON t(c, a)");
            var ins = db.PrepareInsert("t", "a", "b", "c");
            string[] kinds = ["alpha", "beta", "gamma", "delta"];
            var rng = new Random(7);
            int i = 0;
            using var tx = db.BeginTransaction();
            const int perRound = 2000;
            long allocated = AllocationFixture.Measure(() =>
            {
                ins.SetInt64(0, rng.NextInt64());
                ins.SetText(1, kinds[i++ & 3]);
                ins.SetInt64(2, rng.Next());
                ins.Execute();
            }, perRound);
            tx.Commit();
            (allocated / perRound).Should().BeLessThan(BytesPerRowBound);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var c = Oracle.Open(path);
        Oracle.Scalar(c, "SELECT count(*) FROM t").Should().Be(4L * 2000);
    }

    [Fact]
    public void Random_deletes_from_two_indexes_allocate_little_per_row()
    {
        using var dir = new TempDir();
        string path = dir.File("indexed.db");
        const int rows = 12_000, perRound = 2000;
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c INTEGER); CREATE INDEX t_ab ON t(a, b); CREATE INDEX t_ca ON t(c, a)");
            var ins = db.PrepareInsert("t", "a", "b", "c");
            var rng = new Random(11);
            using (var load = db.BeginTransaction())
            {
                for (int r = 0; r < rows; r++)
                {
                    ins.SetInt64(0, rng.NextInt64());
                    ins.SetText(1, "k" + (r & 7));
                    ins.SetInt64(2, rng.Next());
                    ins.Execute();
                }
                load.Commit();
            }
            // Rowids 1..rows in a random order, so deletes land all over both indexes.
            var order = Enumerable.Range(1, rows).Select(r => (long)r).ToArray();
            rng.Shuffle(order);
            int next = 0;
            using var tx = db.BeginTransaction();
            int deleted = 0;
            long allocated = AllocationFixture.Measure(() =>
            {
                if (db.Delete("t", order[next++])) deleted++;
            }, perRound);
            tx.Commit();
            (allocated / perRound).Should().BeLessThan(BytesPerDeleteBound);
            deleted.Should().Be(4 * perRound);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using var c = Oracle.Open(path);
        Oracle.Scalar(c, "SELECT count(*) FROM t").Should().Be(rows - 4L * perRound);
    }
}
