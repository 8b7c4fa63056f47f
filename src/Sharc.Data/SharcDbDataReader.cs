using System.Collections;
using System.Data;
using System.Data.Common;

namespace Sharc.Data;

/// <summary>
/// The result sets of a <see cref="SharcCommand"/>: one per statement that returns columns (SELECT, RETURNING,
/// PRAGMA), in order. Statements between them run as the reader reaches them, and those after the last are run
/// when the reader is closed, as Microsoft.Data.Sqlite does. Getters convert as Microsoft.Data.Sqlite's do and refuse
/// NULL with its <see cref="InvalidOperationException"/> (check <see cref="IsDBNull"/> first).
/// </summary>
public sealed partial class SharcDbDataReader : DbDataReader
{
    private readonly SharcCommand _command;
    private readonly SharcDatabase _db;
    private readonly int _statementCount;
    private readonly CommandBehavior _behavior;
    private int _next;
    private SharcDataReader? _current;
    // The first row is read when a result set starts (so HasRows and the field types of that row are known): the
    // first Read() then only reports it.
    private bool _firstPending;
    private bool _hasRows;
    private bool _onRow;
    private int _recordsAffected = -1;
    private bool _closed;

    internal SharcDbDataReader(SharcCommand command, SharcDatabase db, int statementCount, CommandBehavior behavior)
    {
        _command = command;
        _db = db;
        _statementCount = statementCount;
        _behavior = behavior;
    }

    /// <summary>Runs statements up to the first that returns columns.</summary>
    internal void Start() => Advance();

    /// <summary>The Sharc reader of the current result set, for Sharc's own getters (null when there is none).</summary>
    public SharcDataReader? Inner => _current;

    /// <inheritdoc/>
    public override int Depth => 0;

    /// <summary>The number of columns of the current result set (0 when there is none).</summary>
    public override int FieldCount => _closed ? throw Closed() : _current?.FieldCount ?? 0;

    /// <inheritdoc/>
    public override bool HasRows => _hasRows;

    /// <inheritdoc/>
    public override bool IsClosed => _closed;

    /// <summary>Rows changed by the INSERT, UPDATE and DELETE statements run so far; -1 when only queries ran.</summary>
    public override int RecordsAffected => _recordsAffected;

    /// <inheritdoc/>
    public override object this[int ordinal] => GetValue(ordinal);

    /// <inheritdoc/>
    public override object this[string name] => GetValue(GetOrdinal(name));

    /// <inheritdoc/>
    public override bool Read()
    {
        if (_closed) throw Closed();
        if (_current is null) return false;
        if (_firstPending)
        {
            _firstPending = false;
            return _onRow;
        }
        _onRow = _current.Read();
        if (!_onRow) _command.Running = false;
        return _onRow;
    }

    /// <inheritdoc/>
    public override bool NextResult()
    {
        if (_closed) throw Closed();
        EndCurrent();
        return Advance();
    }

    private bool Advance()
    {
        while (_next < _statementCount)
        {
            var statement = _command.Statement(_db, _next++);
            var values = _command.Parameters.ValuesFor(statement);
            _command.Running = true;
            SharcDataReader rows;
            try
            {
                rows = statement.Execute(values);
            }
            catch
            {
                _command.Running = false;
                throw;
            }
            if (!statement.IsSelect) _recordsAffected = Math.Max(_recordsAffected, 0);
            if (statement.ChangesRows) _recordsAffected += _db.LastChanges;
            if (rows.FieldCount == 0)
            {
                rows.Dispose();
                continue;
            }
            _current = rows;
            _onRow = rows.Read();
            _hasRows = _onRow;
            _firstPending = true;
            if (!_onRow) _command.Running = false;
            return true;
        }
        _command.Running = false;
        return false;
    }

    private void EndCurrent()
    {
        _current?.Dispose();
        _current = null;
        _onRow = false;
        _hasRows = false;
        _firstPending = false;
    }

    /// <summary>Runs the statements not reached yet, then closes (and with CommandBehavior.CloseConnection, closes the connection).</summary>
    public override void Close()
    {
        if (_closed) return;
        try
        {
            EndCurrent();
            while (Advance()) EndCurrent();
        }
        finally
        {
            _closed = true;
            _command.Running = false;
            _command.ReaderClosed(this);
            if ((_behavior & CommandBehavior.CloseConnection) != 0) _command.Connection?.Close();
        }
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        if (disposing) Close();
        base.Dispose(disposing);
    }

    /// <inheritdoc/>
    public override IEnumerator GetEnumerator() => new DbEnumerator(this, closeReader: false);

    private static InvalidOperationException Closed() => new("The reader is closed.");
}
