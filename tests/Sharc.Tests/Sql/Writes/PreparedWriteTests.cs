using FluentAssertions;
using Sharc.Tests.Infrastructure;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>INSERT, UPDATE and DELETE prepared once and run with new parameters; what a warm prepared insert allocates.</summary>
public class PreparedWriteTests(ITestOutputHelper output)
{
    [Fact]
    public void Prepared_insert_update_and_delete_run_again_with_new_parameters()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL)");
        using var insert = o.Db.Prepare("INSERT INTO t(name, score) VALUES (:name, :score)");
        using var update = o.Db.Prepare("UPDATE t SET score = score * 2 WHERE id = ?1 RETURNING score");
        using var delete = o.Db.Prepare("DELETE FROM t WHERE name = @n");
        insert.ParameterCount.Should().Be(2);
        for (int i = 0; i < 20; i++)
        {
            insert.Bind(":name", "n" + (i % 5));
            insert.Bind("score", i * 1.5);
            insert.Execute().Read().Should().BeFalse();
            o.RunSqlite("INSERT INTO t(name, score) VALUES (?1, ?2)", ["n" + (i % 5), i * 1.5]);
        }
        using (var r = update.Execute(3L))
        {
            r.Read().Should().BeTrue();
            r.GetDouble(0).Should().Be(6.0);
        }
        o.RunSqlite("UPDATE t SET score = score * 2 WHERE id = ?1", [3L]);
        delete.Bind("@n", "n2");
        delete.Execute().Dispose();
        o.Db.LastChanges.Should().Be(4);
        o.RunSqlite("DELETE FROM t WHERE name = ?1", ["n2"]);
        o.AssertSameContents();
    }

    [Fact]
    public void A_warm_prepared_insert_allocates_little()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("a.db"));
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL)");
        using var insert = db.Prepare("INSERT INTO t(name, score) VALUES (?1, ?2)");
        using var tx = db.BeginTransaction();
        long i = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            insert.Bind(1, "name"u8);
            insert.Bind(2, ++i * 0.5);
            insert.Execute();
        }, 200);
        long perInsert = allocated / 200;
        output.WriteLine($"{perInsert} bytes per warm prepared INSERT");
        perInsert.Should().BeLessThan(256, "a warm prepared insert reuses its compiled values and buffers");
        tx.Commit();
        Oracle.IntegrityCheck(db.Path!).Should().Be("ok");
    }
}
