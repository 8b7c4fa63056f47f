using System.Data.Common;

namespace Sharc.Data;

/// <summary>
/// Creates Sharc.Data's ADO.NET objects. Every <see cref="SharcConnection"/> reports it, so
/// <see cref="DbProviderFactories.GetFactory(DbConnection)"/> works; <see cref="Register"/> also registers it under
/// <see cref="InvariantName"/> for code that looks providers up by name.
/// </summary>
public sealed class SharcFactory : DbProviderFactory
{
    /// <summary>The provider's invariant name, "Sharc.Data".</summary>
    public const string InvariantName = "Sharc.Data";

    /// <summary>The one instance.</summary>
    public static readonly SharcFactory Instance = new();

    private SharcFactory() { }

    /// <summary>Registers <see cref="Instance"/> with <see cref="DbProviderFactories"/> under <see cref="InvariantName"/>.</summary>
    public static void Register() => DbProviderFactories.RegisterFactory(InvariantName, Instance);

    /// <inheritdoc/>
    public override DbConnection CreateConnection() => new SharcConnection();

    /// <inheritdoc/>
    public override DbCommand CreateCommand() => new SharcCommand();

    /// <inheritdoc/>
    public override DbParameter CreateParameter() => new SharcParameter();

    /// <inheritdoc/>
    public override DbConnectionStringBuilder CreateConnectionStringBuilder() => new SharcConnectionStringBuilder();

    /// <inheritdoc/>
    public override bool CanCreateBatch => true;

    /// <inheritdoc/>
    public override DbBatch CreateBatch() => new SharcBatch();

    /// <inheritdoc/>
    public override DbBatchCommand CreateBatchCommand() => new SharcBatchCommand();

    /// <inheritdoc/>
    public override DbDataSource CreateDataSource(string connectionString) => new SharcDataSource(connectionString);
}
