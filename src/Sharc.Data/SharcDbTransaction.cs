using System.Data;
using System.Data.Common;

namespace Sharc.Data;

/// <summary>
/// A transaction on a <see cref="SharcConnection"/> (SQLite's serializable transaction). Commands on the connection
/// run inside it whether or not their <see cref="DbCommand.Transaction"/> is set, as with Microsoft.Data.Sqlite.
/// Disposing it without <see cref="Commit"/> rolls it back.
/// </summary>
public sealed class SharcDbTransaction : DbTransaction
{
    private readonly SharcConnection _connection;
    private SharcTransaction? _inner;

    internal SharcDbTransaction(SharcConnection connection, SharcTransaction inner)
    {
        _connection = connection;
        _inner = inner;
    }

    /// <summary>The connection, or null once the transaction has ended.</summary>
    public new SharcConnection? Connection => _inner is null ? null : _connection;

    /// <inheritdoc/>
    protected override DbConnection? DbConnection => Connection;

    /// <summary>Always <see cref="IsolationLevel.Serializable"/>.</summary>
    public override IsolationLevel IsolationLevel => IsolationLevel.Serializable;

    /// <summary>Makes the transaction's changes durable.</summary>
    /// <exception cref="InvalidOperationException">The transaction has already ended.</exception>
    public override void Commit()
    {
        var tx = End();
        tx.Commit();
    }

    /// <summary>Discards the transaction's changes.</summary>
    /// <exception cref="InvalidOperationException">The transaction has already ended.</exception>
    public override void Rollback()
    {
        var tx = End();
        tx.Rollback();
    }

    private SharcTransaction End()
    {
        var tx = _inner ?? throw new InvalidOperationException("This SharcDbTransaction has completed; it is no longer usable.");
        _inner = null;
        if (ReferenceEquals(_connection.Transaction, this)) _connection.Transaction = null;
        return tx;
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        if (disposing && _inner is not null)
        {
            var tx = End();
            tx.Dispose();
        }
        base.Dispose(disposing);
    }
}
