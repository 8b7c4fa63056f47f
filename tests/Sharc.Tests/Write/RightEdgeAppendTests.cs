using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Rows appended in rowid order take shortcuts: the remembered right-edge path (no walk from the root) and new
/// right-most pages at every level instead of rebalancing full pages. Small pages make the tree deep quickly, so
/// these tests cross many leaf and interior splits; real SQLite then checks the file and reads every row back.
/// </summary>
public class RightEdgeAppendTests
{
    private static string Value(long id) => $"value {id:D6}";

    private static void AssertRows(string path, string table, IReadOnlyList<long> ids)
    {
        Oracle.IntegrityCheck(path).Should().Be("ok");
        var rows = Oracle.Rows(path, $"SELECT id, v FROM {table} ORDER BY id");
        rows.Should().HaveCount(ids.Count);
        for (int i = 0; i < ids.Count; i++)
        {
            rows[i][0].Should().Be(ids[i]);
            rows[i][1].Should().Be(Value(ids[i]));
        }
    }

    private static SharcDatabase Create(string path, SharcAutoVacuum vacuum = SharcAutoVacuum.None)
    {
        var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 512, AutoVacuum = vacuum });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        db.CreateTable("CREATE TABLE u(id INTEGER PRIMARY KEY, v TEXT)");
        return db;
    }

    private static void Append(PreparedInsert ins, long id)
    {
        ins.SetInt64(0, id);
        ins.SetText(1, Value(id));
        ins.Execute();
    }

    [Theory]
    [InlineData(SharcAutoVacuum.None)]
    [InlineData(SharcAutoVacuum.Full)]
    public void ManyAscendingRowsInOneTransactionMakeADeepValidTree(SharcAutoVacuum vacuum)
    {
        using var dir = new TempDir();
        string path = dir.File("deep.db");
        var ids = new List<long>();
        using (var db = Create(path, vacuum))
        {
            var ins = db.PrepareInsert("t", "id", "v");
            using var tx = db.BeginTransaction();
            for (long id = 1; id <= 30_000; id++)
            {
                Append(ins, id);
                ids.Add(id);
            }
            tx.Commit();
        }
        AssertRows(path, "t", ids);
        Oracle.Rows(path, "SELECT v FROM t WHERE id = 12345")[0][0].Should().Be(Value(12345));
    }

    [Fact]
    public void AppendsInterleavedWithOtherWritesStayInOrder()
    {
        using var dir = new TempDir();
        string path = dir.File("mixed.db");
        var t = new SortedSet<long>();
        var u = new List<long>();
        using (var db = Create(path))
        {
            var insT = db.PrepareInsert("t", "id", "v");
            var insU = db.PrepareInsert("u", "id", "v");
            var rng = new Random(7);
            using (var tx = db.BeginTransaction())
            {
                long next = 1;
                for (int i = 0; i < 8000; i++)
                {
                    // Mostly appends with gaps; now and then a row in the middle, a delete, or a row of the other table.
                    int pick = rng.Next(20);
                    if (pick == 0 && t.Count > 0)
                    {
                        long victim = t.ElementAt(rng.Next(t.Count));
                        db.Delete("t", victim).Should().BeTrue();
                        t.Remove(victim);
                    }
                    else if (pick == 1)
                    {
                        long mid = rng.NextInt64(1, next);
                        if (t.Add(mid)) Append(insT, mid);
                    }
                    else if (pick == 2)
                    {
                        Append(insU, u.Count + 1);
                        u.Add(u.Count + 1);
                    }
                    else
                    {
                        next += rng.Next(1, 4);
                        Append(insT, next);
                        t.Add(next);
                    }
                }
                tx.Commit();
            }

            // A rolled-back batch leaves nothing behind, and the next batch appends from the committed end.
            long last = t.Max;
            using (var tx = db.BeginTransaction())
            {
                for (long id = last + 1; id <= last + 3000; id++) Append(insT, id);
                tx.Rollback();
            }
            using (var tx = db.BeginTransaction())
            {
                for (long id = last + 1; id <= last + 2000; id++)
                {
                    Append(insT, id);
                    t.Add(id);
                }
                tx.Commit();
            }

            // A rowid at or below the last one must not be taken for an append.
            using (var tx = db.BeginTransaction())
            {
                Action again = () => Append(insT, t.Max);
                again.Should().Throw<SharcConstraintException>();
                Append(insT, t.Max + 10);
                t.Add(t.Max + 10);
                tx.Commit();
            }
        }
        AssertRows(path, "t", t.ToList());
        AssertRows(path, "u", u);
    }
}
