using System.Data.Common;

namespace Sharc.Data;

/// <summary>A connection string as a source of connections (ADO.NET's <see cref="DbDataSource"/>).</summary>
public sealed class SharcDataSource : DbDataSource
{
    private readonly string _connectionString;

    /// <summary>A source of connections opened with <paramref name="connectionString"/>.</summary>
    /// <exception cref="ArgumentException">The string has a keyword Sharc does not know.</exception>
    public SharcDataSource(string connectionString)
    {
        _ = new SharcConnectionStringBuilder(connectionString);
        _connectionString = connectionString;
    }

    /// <inheritdoc/>
    public override string ConnectionString => _connectionString;

    /// <summary>A new, closed connection.</summary>
    public new SharcConnection CreateConnection() => new(_connectionString);

    /// <inheritdoc/>
    protected override DbConnection CreateDbConnection() => CreateConnection();
}
