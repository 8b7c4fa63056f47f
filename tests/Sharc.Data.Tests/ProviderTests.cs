using System.Data;
using System.Data.Common;
using Sharc.Data;

namespace Sharc.Data.Tests;

/// <summary>What ADO.NET code expects of a provider beyond results: factory, connection strings, cancellation, batches.</summary>
public class ProviderTests : IDisposable
{
    private readonly Providers _providers = new();

    public void Dispose() => _providers.Dispose();

    private SharcConnection Open()
    {
        var c = new SharcConnection("Data Source=" + _providers.File(Guid.NewGuid().ToString("N") + ".db"));
        c.Open();
        return c;
    }

    [Fact]
    public void TheFactoryIsFoundFromAConnectionAndByName()
    {
        using var c = Open();
        DbProviderFactories.GetFactory(c).Should().BeSameAs(SharcFactory.Instance);
        SharcFactory.Register();
        DbProviderFactories.GetFactory(SharcFactory.InvariantName).Should().BeSameAs(SharcFactory.Instance);
        SharcFactory.Instance.CreateConnection().Should().BeOfType<SharcConnection>();
        SharcFactory.Instance.CreateDataSource("Data Source=x.db").ConnectionString.Should().Be("Data Source=x.db");
    }

    [Fact]
    public void ConnectionStringsUseMicrosoftDataSqlitesKeywordsAndRejectOthersByName()
    {
        var b = new SharcConnectionStringBuilder("Filename=x.db;Mode=ReadOnly;Foreign Keys=True;Default Timeout=5;Pooling=False");
        (b.DataSource, b.Mode, b.ForeignKeys, b.DefaultTimeout, b.Pooling).Should().Be(("x.db", SharcOpenMode.ReadOnly, true, 5, false));
        FluentActions.Invoking(() => new SharcConnectionStringBuilder("Data Source=x;Bogus=1")).Should().Throw<ArgumentException>().WithMessage("*Bogus*");
        FluentActions.Invoking(() => new SharcConnection("Mode=Sideways")).Should().Throw<ArgumentException>().WithMessage("*Sideways*");
    }

    [Fact]
    public void ModesOpenCreateOrRefuseAsTheySay()
    {
        string missing = _providers.File("missing.db");
        FluentActions.Invoking(() => new SharcConnection($"Data Source={missing};Mode=ReadWrite").Open()).Should().Throw<SharcException>();
        using (var create = new SharcConnection($"Data Source={missing}"))
        {
            create.Open();
            create.CreateCommand().Also(c => c.CommandText = "CREATE TABLE t(x)").ExecuteNonQuery();
        }
        using var ro = new SharcConnection($"Data Source={missing};Mode=ReadOnly");
        ro.Open();
        var insert = ro.CreateCommand();
        insert.CommandText = "INSERT INTO t VALUES(1)";
        insert.Invoking(i => i.ExecuteNonQuery()).Should().Throw<SharcReadOnlyException>();
        using var memory = new SharcConnection("Data Source=:memory:");
        memory.Open();
        memory.CreateCommand().Also(c => c.CommandText = "CREATE TABLE m(x); INSERT INTO m VALUES(1)").ExecuteNonQuery().Should().Be(1);
    }

    [Fact]
    public void CancelStopsARunningStatementFromAnotherThread()
    {
        using var c = Open();
        using var cmd = c.CreateCommand();
        cmd.CommandText = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r";
        bool done = false;
        // Cancel does nothing until the statement runs, so it is repeated until the statement has stopped.
        var canceller = new Thread(() =>
        {
            while (!Volatile.Read(ref done))
            {
                cmd.Cancel();
                Thread.Sleep(20);
            }
        });
        canceller.Start();
        cmd.Invoking(x => x.ExecuteScalar()).Should().Throw<SharcInterruptedException>();
        Volatile.Write(ref done, true);
        canceller.Join();
        cmd.CommandText = "SELECT 1";
        cmd.ExecuteScalar().Should().Be(1L, "the connection goes on after an interruption");
    }

    [Fact]
    public async Task AsyncMethodsHonourTheirCancellationToken()
    {
        using var c = Open();
        using var cmd = c.CreateCommand();
        cmd.CommandText = "SELECT 1";
        (await cmd.ExecuteScalarAsync()).Should().Be(1L);
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();
        await cmd.Invoking(x => x.ExecuteScalarAsync(cancelled.Token)).Should().ThrowAsync<OperationCanceledException>();
        using var soon = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));
        cmd.CommandText = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r";
        await cmd.Invoking(x => x.ExecuteScalarAsync(soon.Token)).Should().ThrowAsync<SharcInterruptedException>();
    }

    [Fact]
    public void BatchesRunEveryCommandAndCountEach()
    {
        using var c = Open();
        var batch = c.CreateBatch();
        foreach (var sql in new[] { "CREATE TABLE b(x)", "INSERT INTO b VALUES(1), (2)", "UPDATE b SET x = x + 1" })
        {
            var bc = batch.CreateBatchCommand();
            bc.CommandText = sql;
            batch.BatchCommands.Add(bc);
        }
        batch.ExecuteNonQuery().Should().Be(4);
        batch.BatchCommands[1].RecordsAffected.Should().Be(2);
        using var source = SharcFactory.Instance.CreateDataSource(c.ConnectionString);
        using var other = source.OpenConnection();
        other.CreateCommand().Also(x => x.CommandText = "SELECT sum(x) FROM b").ExecuteScalar().Should().Be(5L);
    }

    [Fact]
    public void PreparedCommandsAreReusedWithNewValues()
    {
        using var c = Open();
        using var create = c.CreateCommand();
        create.CommandText = "CREATE TABLE p(id INTEGER PRIMARY KEY, v)";
        create.ExecuteNonQuery();
        using var insert = c.CreateCommand();
        insert.CommandText = "INSERT INTO p(v) VALUES($v)";
        var p = insert.Parameters.AddWithValue("v", 0);
        insert.Prepare();
        for (int i = 0; i < 10; i++)
        {
            p.Value = i;
            insert.ExecuteNonQuery().Should().Be(1);
        }
        using var sum = c.CreateCommand();
        sum.CommandText = "SELECT sum(v) FROM p";
        sum.ExecuteScalar().Should().Be(45L);
    }

    [Fact]
    public void SchemaCollectionsListTablesAndColumns()
    {
        using var c = Open();
        c.CreateCommand().Also(x => x.CommandText = "CREATE TABLE s(id INTEGER PRIMARY KEY, name TEXT NOT NULL)").ExecuteNonQuery();
        c.GetSchema().Rows.Cast<DataRow>().Select(r => (string)r[0]).Should().Contain(["MetaDataCollections", "Tables", "Columns"]);
        c.GetSchema("Tables").Rows.Cast<DataRow>().Select(r => (string)r["TABLE_NAME"]).Should().Equal("s");
        c.GetSchema("Columns", ["s"]).Rows.Cast<DataRow>().Select(r => $"{r["COLUMN_NAME"]} {r["DATA_TYPE"]} {r["IS_NULLABLE"]}").Should().Equal("id INTEGER True", "name TEXT False");
        c.Invoking(x => x.GetSchema("Nope")).Should().Throw<ArgumentException>();
    }
}

internal static class Fluent
{
    public static T Also<T>(this T value, Action<T> action)
    {
        action(value);
        return value;
    }
}
