using System.Collections;
using System.Data;
using System.Data.Common;
using System.Diagnostics.CodeAnalysis;

namespace Sharc.Data;

/// <summary>
/// Several commands run in one call (ADO.NET's <see cref="DbBatch"/>): their result sets follow each other in one
/// reader, and <see cref="DbBatchCommand.RecordsAffected"/> tells each command's changed rows after the run.
/// </summary>
public sealed class SharcBatch : DbBatch
{
    private readonly SharcBatchCommandCollection _commands = new();
    private SharcCommand? _running;

    /// <summary>The commands, in order.</summary>
    public new SharcBatchCommandCollection BatchCommands => _commands;

    /// <inheritdoc/>
    protected override DbBatchCommandCollection DbBatchCommands => _commands;

    /// <inheritdoc/>
    public override int Timeout { get; set; } = 30;

    /// <summary>The connection the batch runs on.</summary>
    public new SharcConnection? Connection { get; set; }

    /// <inheritdoc/>
    protected override DbConnection? DbConnection
    {
        get => Connection;
        set => Connection = (SharcConnection?)value;
    }

    /// <summary>Informational: commands run in the connection's open transaction either way.</summary>
    public new SharcDbTransaction? Transaction { get; set; }

    /// <inheritdoc/>
    protected override DbTransaction? DbTransaction
    {
        get => Transaction;
        set => Transaction = (SharcDbTransaction?)value;
    }

    /// <summary>Runs every command; returns the total of their changed rows.</summary>
    public override int ExecuteNonQuery()
    {
        int total = -1;
        foreach (var c in _commands.Items)
        {
            using var cmd = CommandFor(c);
            int n = cmd.ExecuteNonQuery();
            c.Affected = n;
            if (n >= 0) total = Math.Max(total, 0) + n;
        }
        return total;
    }

    /// <summary>The first column of the first row the batch returns, or null.</summary>
    public override object? ExecuteScalar()
    {
        object? first = null;
        bool found = false;
        foreach (var c in _commands.Items)
        {
            using var cmd = CommandFor(c);
            using var reader = cmd.ExecuteReader();
            do
            {
                if (!found && reader.FieldCount > 0 && reader.Read())
                {
                    first = reader.GetValue(0);
                    found = true;
                }
            } while (reader.NextResult());
            reader.Close();
            c.Affected = reader.RecordsAffected;
        }
        return first;
    }

    /// <summary>
    /// Runs the commands as one script and returns a reader over all their result sets. The commands are joined
    /// with ';', so each command's parameters must have names that do not collide with another command's.
    /// </summary>
    protected override DbDataReader ExecuteDbDataReader(CommandBehavior behavior)
    {
        var cmd = new SharcCommand(string.Join(";\n", _commands.Items.Select(c => c.CommandText)), Connection);
        foreach (var c in _commands.Items)
            foreach (SharcParameter p in c.Parameters) cmd.Parameters.Add(new SharcParameter(p.ParameterName, p.Value) { Size = p.Size });
        _running = cmd;
        return cmd.ExecuteReader(behavior);
    }

    /// <inheritdoc/>
    protected override Task<DbDataReader> ExecuteDbDataReaderAsync(CommandBehavior behavior, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested) return Task.FromCanceled<DbDataReader>(cancellationToken);
        using var registration = cancellationToken.Register(Cancel);
        try
        {
            return Task.FromResult(ExecuteDbDataReader(behavior));
        }
        catch (Exception e)
        {
            return Task.FromException<DbDataReader>(e);
        }
    }

    /// <inheritdoc/>
    public override Task<int> ExecuteNonQueryAsync(CancellationToken cancellationToken = default)
        => Run(ExecuteNonQuery, cancellationToken);

    /// <inheritdoc/>
    public override Task<object?> ExecuteScalarAsync(CancellationToken cancellationToken = default)
        => Run(ExecuteScalar, cancellationToken);

    private Task<T> Run<T>(Func<T> run, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested) return Task.FromCanceled<T>(cancellationToken);
        using var registration = cancellationToken.Register(Cancel);
        try
        {
            return Task.FromResult(run());
        }
        catch (Exception e)
        {
            return Task.FromException<T>(e);
        }
    }

    /// <summary>Parses and plans every command's statements now.</summary>
    public override void Prepare()
    {
        foreach (var c in _commands.Items)
        {
            using var cmd = CommandFor(c);
            cmd.Prepare();
        }
    }

    /// <inheritdoc/>
    public override Task PrepareAsync(CancellationToken cancellationToken = default)
        => Run(() => { Prepare(); return true; }, cancellationToken);

    /// <summary>Stops the command running (see <see cref="SharcCommand.Cancel"/>).</summary>
    public override void Cancel() => _running?.Cancel();

    /// <inheritdoc/>
    protected override DbBatchCommand CreateDbBatchCommand() => new SharcBatchCommand();

    private SharcCommand CommandFor(SharcBatchCommand c)
    {
        var cmd = new SharcCommand(c.CommandText, Connection);
        foreach (SharcParameter p in c.Parameters) cmd.Parameters.Add(p);
        _running = cmd;
        return cmd;
    }
}

/// <summary>One command of a <see cref="SharcBatch"/>.</summary>
public sealed class SharcBatchCommand : DbBatchCommand
{
    private string _text = "";

    /// <inheritdoc/>
    [AllowNull]
    public override string CommandText
    {
        get => _text;
        set => _text = value ?? "";
    }

    /// <summary>Only <see cref="CommandType.Text"/> is supported.</summary>
    public override CommandType CommandType
    {
        get => CommandType.Text;
        set
        {
            if (value != CommandType.Text) throw new ArgumentException($"The CommandType '{value}' is not supported.", nameof(value));
        }
    }

    /// <summary>Rows the command changed in the last run (-1 when it changed none through INSERT, UPDATE or DELETE).</summary>
    public override int RecordsAffected => Affected;

    internal int Affected { get; set; } = -1;

    /// <summary>The parameters.</summary>
    public new SharcParameterCollection Parameters { get; } = new();

    /// <inheritdoc/>
    protected override DbParameterCollection DbParameterCollection => Parameters;

    /// <inheritdoc/>
    public override bool CanCreateParameter => true;

    /// <inheritdoc/>
    public override DbParameter CreateParameter() => new SharcParameter();
}

/// <summary>The commands of a <see cref="SharcBatch"/>.</summary>
public sealed class SharcBatchCommandCollection : DbBatchCommandCollection
{
    internal List<SharcBatchCommand> Items { get; } = [];

    /// <inheritdoc/>
    public override int Count => Items.Count;

    /// <inheritdoc/>
    public override bool IsReadOnly => false;

    /// <inheritdoc/>
    public override void Add(DbBatchCommand item) => Items.Add(Cast(item));

    /// <inheritdoc/>
    public override void Clear() => Items.Clear();

    /// <inheritdoc/>
    public override bool Contains(DbBatchCommand item) => item is SharcBatchCommand c && Items.Contains(c);

    /// <inheritdoc/>
    public override void CopyTo(DbBatchCommand[] array, int arrayIndex)
    {
        foreach (var c in Items) array[arrayIndex++] = c;
    }

    /// <inheritdoc/>
    public override IEnumerator<DbBatchCommand> GetEnumerator() => Items.GetEnumerator();

    /// <inheritdoc/>
    public override int IndexOf(DbBatchCommand item) => item is SharcBatchCommand c ? Items.IndexOf(c) : -1;

    /// <inheritdoc/>
    public override void Insert(int index, DbBatchCommand item) => Items.Insert(index, Cast(item));

    /// <inheritdoc/>
    public override bool Remove(DbBatchCommand item) => item is SharcBatchCommand c && Items.Remove(c);

    /// <inheritdoc/>
    public override void RemoveAt(int index) => Items.RemoveAt(index);

    /// <inheritdoc/>
    protected override DbBatchCommand GetBatchCommand(int index) => Items[index];

    /// <inheritdoc/>
    protected override void SetBatchCommand(int index, DbBatchCommand batchCommand) => Items[index] = Cast(batchCommand);

    private static SharcBatchCommand Cast(DbBatchCommand c)
        => c as SharcBatchCommand ?? throw new InvalidCastException($"A SharcBatch holds SharcBatchCommand objects, not {c?.GetType().Name ?? "null"}.");
}
