using FluentAssertions;
using Sharc.Tests.Infrastructure;
using Xunit.Abstractions;

namespace Sharc.Tests.Write;

/// <summary>
/// What one auto-commit INSERT, UPDATE and DELETE of the row API allocate on an indexed table once warm (the Writes
/// suite's single-statement rows): each used to cost 26–36 KB (a fresh cursor per row load, a journal record buffer
/// per transaction, comparer arrays per index switch); SQLite's prepared statements take about 1.5 KB.
/// </summary>
public class RowApiAllocationTests(ITestOutputHelper output)
{
    // "A few KB": the transaction's own journal file handle and commit bookkeeping remain.
    private const long BytesPerStatementBound = 6 * 1024;
    private const int Iterations = 40;

    [Fact]
    public void Auto_commit_insert_update_and_delete_allocate_a_few_kilobytes()
    {
        using var dir = new TempDir();
        string path = dir.File("rows.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE item(id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, qty INT, price REAL, note TEXT);" +
                       "CREATE INDEX item_qty ON item(qty); CREATE INDEX item_note ON item(note, price)");
            var ins = db.PrepareInsert("item", "id", "sku", "qty", "price", "note");
            using (var tx = db.BeginTransaction())
            {
                for (int i = 1; i <= 2000; i++) Insert(ins, i);
                tx.Commit();
            }
            long nextInsert = 10_000, nextUpdate = 1, nextDelete = 1001;
            string[] columns = ["qty", "note"];
            object?[] values = [7L, "changed"];
            long insert = AllocationFixture.Measure(() => Insert(ins, nextInsert++), Iterations) / Iterations;
            int found = 0;
            long update = AllocationFixture.Measure(() => found += db.Update("item", nextUpdate++, columns, values) ? 1 : 0, Iterations) / Iterations;
            long delete = AllocationFixture.Measure(() => found += db.Delete("item", nextDelete++) ? 1 : 0, Iterations) / Iterations;
            found.Should().Be(8 * Iterations, "every updated and deleted row existed");
            output.WriteLine($"per statement: INSERT {insert} B, UPDATE {update} B, DELETE {delete} B");
            insert.Should().BeLessThan(BytesPerStatementBound);
            update.Should().BeLessThan(BytesPerStatementBound);
            delete.Should().BeLessThan(BytesPerStatementBound);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    private static void Insert(PreparedInsert ins, long id)
    {
        ins.SetInt64(0, id);
        ins.SetText(1, "SKU-" + id);
        ins.SetInt64(2, id % 97);
        ins.SetDouble(3, id / 4.0);
        ins.SetText(4, "note " + (id % 31));
        ins.Execute();
    }
}
