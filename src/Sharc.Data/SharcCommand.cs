using System.Data;
using System.Data.Common;
using System.Diagnostics.CodeAnalysis;

namespace Sharc.Data;

/// <summary>
/// A SQL command: one statement or a script of several. Statements are prepared once per command text and reused
/// by later executions (<see cref="Prepare"/> does it ahead of time). Parameters bind by name with or without their
/// prefix (@, $, :), and bare "?" slots take the unnamed parameters in order; a parameter without a value is an
/// error naming it. Async methods complete synchronously (as Microsoft.Data.Sqlite's do) but honour their
/// <see cref="CancellationToken"/>: cancelling it, or calling <see cref="Cancel"/> from another thread, stops the
/// running statement with <see cref="SharcInterruptedException"/>.
/// </summary>
public sealed class SharcCommand : DbCommand
{
    private string _commandText = "";
    private SharcConnection? _connection;
    private IReadOnlyList<string>? _texts;
    private PreparedQuery?[]? _prepared;
    private SharcDatabase? _preparedFor;
    private volatile bool _running;

    /// <summary>A command with no text or connection.</summary>
    public SharcCommand() { }

    /// <summary>A command with text, on a connection.</summary>
    public SharcCommand(string? commandText, SharcConnection? connection = null)
    {
        CommandText = commandText;
        Connection = connection;
    }

    /// <inheritdoc/>
    [AllowNull]
    public override string CommandText
    {
        get => _commandText;
        set
        {
            if (OpenReader is not null) throw new InvalidOperationException("An open reader is associated with this command: close it before changing the text.");
            if (value != _commandText) Unprepare();
            _commandText = value ?? "";
        }
    }

    /// <summary>Seconds; informational (Sharc does not stop statements by time: use a CancellationToken).</summary>
    public override int CommandTimeout { get; set; } = 30;

    /// <summary>Only <see cref="CommandType.Text"/> is supported.</summary>
    public override CommandType CommandType
    {
        get => CommandType.Text;
        set
        {
            if (value != CommandType.Text) throw new ArgumentException($"The CommandType '{value}' is not supported.", nameof(value));
        }
    }

    /// <inheritdoc/>
    public override bool DesignTimeVisible { get; set; }

    /// <inheritdoc/>
    public override UpdateRowSource UpdatedRowSource { get; set; }

    /// <summary>The connection the command runs on.</summary>
    public new SharcConnection? Connection
    {
        get => _connection;
        set
        {
            if (!ReferenceEquals(value, _connection)) Unprepare();
            _connection = value;
        }
    }

    /// <inheritdoc/>
    protected override DbConnection? DbConnection
    {
        get => Connection;
        set => Connection = (SharcConnection?)value;
    }

    /// <summary>The parameters.</summary>
    public new SharcParameterCollection Parameters { get; } = new();

    /// <inheritdoc/>
    protected override DbParameterCollection DbParameterCollection => Parameters;

    /// <summary>The transaction (informational: commands run in the connection's open transaction either way).</summary>
    public new SharcDbTransaction? Transaction { get; set; }

    /// <inheritdoc/>
    protected override DbTransaction? DbTransaction
    {
        get => Transaction;
        set => Transaction = (SharcDbTransaction?)value;
    }

    /// <summary>The reader of the last execution while it is open.</summary>
    internal SharcDbDataReader? OpenReader { get; set; }

    /// <summary>A new parameter.</summary>
    public new SharcParameter CreateParameter() => new();

    /// <inheritdoc/>
    protected override DbParameter CreateDbParameter() => CreateParameter();

    /// <summary>
    /// Stops the statement this command is running (on another thread) with <see cref="SharcInterruptedException"/>;
    /// does nothing when it is not running. Other statements running on the same connection at that moment are
    /// stopped too (the interruption is the connection's, as sqlite3_interrupt's is).
    /// </summary>
    public override void Cancel()
    {
        if (_running && _connection?.State == ConnectionState.Open) _connection.SharcDatabase.Interrupt();
    }

    /// <summary>Parses and plans the command's statements now, for reuse by every execution.</summary>
    /// <exception cref="InvalidOperationException">The connection is not open.</exception>
    /// <exception cref="SharcSqlException">The text does not parse or names unknown tables or columns.</exception>
    public override void Prepare()
    {
        var db = Texts(nameof(Prepare));
        for (int i = 0; i < _texts!.Count; i++) Statement(db, i);
    }

    /// <summary>Runs the command and returns a reader over its result sets.</summary>
    public new SharcDbDataReader ExecuteReader() => ExecuteReader(CommandBehavior.Default);

    /// <summary>Runs the command and returns a reader over its result sets; with <see cref="CommandBehavior.CloseConnection"/>, closing the reader closes the connection.</summary>
    public new SharcDbDataReader ExecuteReader(CommandBehavior behavior)
    {
        if (OpenReader is not null) throw new InvalidOperationException("An open reader is already associated with this command. Close it before opening a new one.");
        var db = Texts(nameof(ExecuteReader));
        var reader = new SharcDbDataReader(this, db, _texts!.Count, behavior);
        OpenReader = reader;
        try
        {
            reader.Start();
        }
        catch
        {
            reader.Dispose();
            throw;
        }
        return reader;
    }

    /// <inheritdoc/>
    protected override DbDataReader ExecuteDbDataReader(CommandBehavior behavior) => ExecuteReader(behavior);

    /// <summary>Runs every statement; returns the rows changed by its INSERTs, UPDATEs and DELETEs (-1 when it has none of those nor any other write).</summary>
    public override int ExecuteNonQuery()
    {
        using var reader = ExecuteReader();
        while (reader.NextResult()) { }
        reader.Close();
        return reader.RecordsAffected;
    }

    /// <summary>The first column of the first row of the first result set (<see cref="DBNull.Value"/> for NULL), or null when there is none; every statement runs.</summary>
    public override object? ExecuteScalar()
    {
        using var reader = ExecuteReader();
        return reader.Read() ? reader.GetValue(0) : null;
    }

    /// <summary>Marks the command as running a statement, so <see cref="Cancel"/> knows to interrupt.</summary>
    internal bool Running
    {
        get => _running;
        set => _running = value;
    }

    internal void ReaderClosed(SharcDbDataReader reader)
    {
        if (ReferenceEquals(OpenReader, reader)) OpenReader = null;
    }

    /// <summary>
    /// Splits the text into statements once per text and connection; each statement is prepared when it first runs
    /// (a script may create the table its next statement uses) and kept for later executions.
    /// </summary>
    private SharcDatabase Texts(string operation)
    {
        var connection = _connection ?? throw new InvalidOperationException($"{operation} requires the command to have a connection.");
        // A key and cipher settings alone are answered before the file opens (SharcConnection.Key.cs).
        string? unopened = connection.KeyFrom(_commandText);
        var db = unopened is null ? connection.OpenDatabase(operation) : connection.Unopened;
        if (_texts is not null && ReferenceEquals(_preparedFor, db)) return db;
        Unprepare();
        if (string.IsNullOrWhiteSpace(_commandText)) throw new InvalidOperationException($"{operation} requires the command text to be set.");
        _texts = SharcDatabase.SplitStatements(unopened ?? _commandText);
        _prepared = new PreparedQuery?[_texts.Count];
        _preparedFor = db;
        return db;
    }

    /// <summary>Statement <paramref name="index"/>, prepared on first use.</summary>
    internal PreparedQuery Statement(SharcDatabase db, int index) => _prepared![index] ??= db.Prepare(_texts![index]);

    private void Unprepare()
    {
        if (_prepared is not null)
            foreach (var p in _prepared) p?.Dispose();
        _prepared = null;
        _texts = null;
        _preparedFor = null;
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            OpenReader?.Dispose();
            Unprepare();
        }
        base.Dispose(disposing);
    }
}
