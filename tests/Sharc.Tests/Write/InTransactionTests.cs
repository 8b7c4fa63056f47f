using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

public class InTransactionTests
{
    [Fact]
    public void TrueOnlyOnTheFlowThatOpenedTheTransactionAndUntilItEnds()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("t.db"));
        db.Execute("CREATE TABLE t(a)");
        db.InTransaction.Should().BeFalse();
        using (var tx = db.BeginTransaction())
        {
            db.InTransaction.Should().BeTrue();
            bool elsewhere = true;
            var other = new Thread(() => elsewhere = db.InTransaction);
            // A thread started here would carry this flow's execution context, and with it the transaction.
            using (ExecutionContext.SuppressFlow()) other.Start();
            other.Join();
            elsewhere.Should().BeFalse("another flow's writes do not join this transaction");
            tx.Commit();
            db.InTransaction.Should().BeFalse();
        }
        using (db.BeginTransaction()) db.InTransaction.Should().BeTrue();
        db.InTransaction.Should().BeFalse("disposing rolls back and ends the transaction");
    }

    [Fact]
    public void SqlBeginAndSavepointCountAsTransactions()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("t.db"));
        db.Execute("CREATE TABLE t(a)");
        db.Execute("BEGIN");
        db.InTransaction.Should().BeTrue();
        db.Execute("COMMIT");
        db.InTransaction.Should().BeFalse();
        db.Execute("SAVEPOINT s");
        db.InTransaction.Should().BeTrue();
        db.Execute("RELEASE s");
        db.InTransaction.Should().BeFalse();
    }

    [Fact]
    public void FalseOnAReadOnlyDatabase()
    {
        using var dir = new TempDir();
        string path = dir.File("t.db");
        using (var w = SharcDatabase.Create(path)) w.Execute("CREATE TABLE t(a)");
        using var db = SharcDatabase.Open(path);
        db.InTransaction.Should().BeFalse();
    }
}
