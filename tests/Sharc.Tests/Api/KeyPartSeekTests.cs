using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>SetKeyPart + SeekKeyParts: multi-column key seeks without a params array, equal to SeekKey(object[]).</summary>
public class KeyPartSeekTests
{
    private static string Build(TempDir dir, string encoding)
    {
        string path = dir.File("kp.db");
        using var conn = new SqliteConnection($"Data Source={path};Pooling=False");
        conn.Open();
        using (var pragma = conn.CreateCommand())
        {
            pragma.CommandText = $"PRAGMA encoding = '{encoding}'; CREATE TABLE t(a INTEGER, b TEXT, c REAL); CREATE INDEX t_abc ON t(a, b, c)";
            pragma.ExecuteNonQuery();
        }
        using var tx = conn.BeginTransaction();
        using var insert = conn.CreateCommand();
        insert.Transaction = tx;
        insert.CommandText = "INSERT INTO t VALUES ($a, $b, $c)";
        var a = insert.Parameters.Add("$a", SqliteType.Integer);
        var b = insert.Parameters.Add("$b", SqliteType.Text);
        var c = insert.Parameters.Add("$c", SqliteType.Real);
        var rng = new Random(17);
        for (int i = 0; i < 3000; i++)
        {
            a.Value = rng.Next(50);
            b.Value = rng.Next(4) == 0 ? DBNull.Value : "k" + rng.Next(8);
            c.Value = rng.Next(5) / 2.0;
            insert.ExecuteNonQuery();
        }
        tx.Commit();
        return path;
    }

    [Theory]
    [InlineData("UTF-8")]
    [InlineData("UTF-16le")]
    public void StagedPartsSeekWhereTheObjectKeySeeks(string encoding)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(Build(dir, encoding));
        using var staged = db.PrepareReader("t_abc");
        using var boxed = db.PrepareReader("t_abc");
        var rng = new Random(3);
        for (int i = 0; i < 500; i++)
        {
            long a = rng.Next(-2, 53);
            string? b = rng.Next(5) == 0 ? null : "k" + rng.Next(9);
            double c = rng.Next(6) / 2.0;
            int count = rng.Next(1, 4);
            object?[] key = new object?[] { a, b, c }[..count];
            staged.SetKeyPart(0, a);
            if (b is null) staged.SetKeyPartNull(1);
            else staged.SetKeyPart(1, System.Text.Encoding.UTF8.GetBytes(b));
            staged.SetKeyPart(2, c);
            staged.SeekKeyParts(count).Should().Be(boxed.SeekKey(key), $"key ({string.Join(", ", key)})");
            for (int step = 0; step < 3; step++)
            {
                bool more = staged.HasRow || staged.Read();
                (boxed.HasRow || boxed.Read()).Should().Be(more);
                if (!more) break;
                staged.RowId.Should().Be(boxed.RowId);
                staged.Read();
                boxed.Read();
            }
        }
    }

    [Fact]
    public void StagedSeekAllocatesNothingAfterWarmUp()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(Build(dir, "UTF-8"));
        using var reader = db.PrepareReader("t_abc");
        byte[][] texts = Enumerable.Range(0, 8).Select(i => System.Text.Encoding.UTF8.GetBytes("k" + i)).ToArray();
        int n = 0;
        long hits = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            reader.SetKeyPart(0, (long)(n % 50));
            reader.SetKeyPart(1, texts[n++ % texts.Length]);
            if (reader.SeekKeyParts(2)) hits += reader.RowId;
        }, 1000);
        allocated.Should().Be(0);
        hits.Should().BeGreaterThan(0);
    }

    [Fact]
    public void RowIdTablesAndOutOfRangePartsAreRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(Build(dir, "UTF-8"));
        using var table = db.PrepareReader("t");
        var onTable = () => table.SetKeyPart(0, 1L);
        onTable.Should().Throw<InvalidOperationException>();
        using var index = db.PrepareReader("t_abc");
        var tooFar = () => index.SetKeyPart(4, 1L); // three columns and the rowid
        tooFar.Should().Throw<ArgumentException>();
    }
}
