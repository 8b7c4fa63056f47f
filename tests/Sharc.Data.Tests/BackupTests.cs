using Sharc.Data;

namespace Sharc.Data.Tests;

/// <summary>SharcConnection.BackupDatabase, in Microsoft.Data.Sqlite's shape.</summary>
public class BackupTests : IDisposable
{
    private readonly Providers _providers = new();

    public void Dispose() => _providers.Dispose();

    [Fact]
    public void BackupDatabaseCopiesIntoAClosedDestinationAndClosesItAgain()
    {
        using var source = new SharcConnection("Data Source=" + _providers.File("source.db"));
        source.Open();
        using (var cmd = source.CreateCommand())
        {
            cmd.CommandText = "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t(v) VALUES ('a'), ('b'), ('c')";
            cmd.ExecuteNonQuery();
        }
        using var destination = new SharcConnection("Data Source=" + _providers.File("dest.db"));
        source.BackupDatabase(destination);
        destination.State.Should().Be(System.Data.ConnectionState.Closed);
        destination.Open();
        using var read = destination.CreateCommand();
        read.CommandText = "SELECT group_concat(v, ',') FROM t";
        read.ExecuteScalar().Should().Be("a,b,c");
        FluentActions.Invoking(() => source.BackupDatabase(destination, "main", "aux")).Should().Throw<NotSupportedException>();
        using var closed = new SharcConnection("Data Source=" + _providers.File("closed.db"));
        FluentActions.Invoking(() => closed.BackupDatabase(destination)).Should().Throw<InvalidOperationException>().WithMessage("BackupDatabase can only be called when the connection is open.");
    }
}
