using System.Text;
using Sharc.Schema.Parsing;
using Sharc.Sql.Execution;
using Sharc.Sql.Planning;
using Sharc.Sql.Values;

namespace Sharc;

/// <summary>
/// A statement parsed and planned once, to be executed many times with new parameter values: a SELECT, or an
/// INSERT / UPDATE / DELETE / DDL / PRAGMA whose RETURNING or PRAGMA rows the reader serves. Bind values by slot
/// (1-based, as SQLite numbers parameters) or by name (":a", "@a", "$a", "?3" — or the name without its prefix),
/// then call <see cref="Execute(object?[])"/> and read the reader it returns. The same reader object is returned by
/// every execution and its buffers are reused: after the first run, a filtered scan or a point lookup executes,
/// binds and reads without allocating. Not thread-safe: one thread at a time.
/// </summary>
/// <remarks>
/// Bound values stay bound across executions until rebound or <see cref="ClearBindings"/>. Text and blobs bound
/// from spans are copied into buffers the query keeps. If the schema changes, the next execution plans again.
/// </remarks>
public sealed class PreparedQuery : IDisposable
{
    private readonly SharcDatabase _db;
    private readonly Sql.Writes.PreparedWrite? _write;
    private QueryExecution _execution;
    private SharcDataReader _reader;
    private byte[]?[] _buffers;
    private bool _disposed;

    internal PreparedQuery(SharcDatabase db, QueryPlan plan)
    {
        _db = db;
        _execution = new QueryExecution(db, plan, ownedByReader: false);
        _reader = new SharcDataReader(db, _execution);
        _buffers = new byte[]?[plan.ParameterCount];
    }

    /// <summary>A statement other than SELECT: run by <see cref="Execute(object?[])"/>, whose reader serves its RETURNING or PRAGMA rows.</summary>
    internal PreparedQuery(SharcDatabase db, Sql.Writes.PreparedWrite write)
    {
        _db = db;
        _write = write;
        _execution = write.EmptyRows;
        _reader = new SharcDataReader(db, _execution);
        _buffers = new byte[]?[write.Parameters.Length];
    }

    private SqlValue[] ParameterSlots => _write?.Parameters ?? _execution.Context.Parameters;

    /// <summary>The SQL text.</summary>
    public string Sql => _write?.Sql ?? _execution.Plan.Sql;

    /// <summary>The number of parameter slots (the largest parameter number used).</summary>
    public int ParameterCount => _write?.Parameters.Length ?? _execution.Plan.ParameterCount;

    /// <summary>True for a SELECT (or VALUES, WITH … SELECT): executing it reads and changes nothing.</summary>
    public bool IsSelect => _write is null;

    /// <summary>
    /// True for an INSERT, UPDATE or DELETE: after an execution, <see cref="SharcDatabase.LastChanges"/> is the
    /// number of rows it changed.
    /// </summary>
    public bool ChangesRows => _write?.Statement is Sharc.Sql.Ast.SqlInsertStatement or Sharc.Sql.Ast.SqlUpdateStatement or Sharc.Sql.Ast.SqlDeleteStatement;

    /// <summary>The number of result columns.</summary>
    public int FieldCount => _write is null ? _execution.Columns.Length : _reader.FieldCount;

    /// <summary>The name of parameter slot <paramref name="index"/> (1-based) as written (":a", "?3"), or null for a bare "?".</summary>
    public string? GetParameterName(int index)
    {
        CheckIndex(index);
        var names = _write?.Statement.ParameterNames ?? _execution.Plan.Statement.ParameterNames;
        return index - 1 < names.Count ? names[index - 1] : null;
    }

    /// <summary>
    /// The slot (1-based) of the parameter named <paramref name="name"/>, written with its prefix (":a") or without
    /// it ("a"); 0 when there is none.
    /// </summary>
    public int GetParameterIndex(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var names = _write?.Statement.ParameterNames ?? _execution.Plan.Statement.ParameterNames;
        for (int i = 0; i < names.Count; i++)
            if (names[i] is { } n && string.Equals(n, name, StringComparison.Ordinal)) return i + 1;
        for (int i = 0; i < names.Count; i++)
            if (names[i] is { Length: > 1 } n && n[0] is ':' or '@' or '$' && SqlText.EqualsIgnoreCase(n.AsSpan(1), name)) return i + 1;
        return 0;
    }

    /// <summary>Binds an integer to slot <paramref name="index"/> (1-based).</summary>
    public void Bind(int index, long value) => Slot(index) = SqlValue.Integer(value);

    /// <summary>Binds a floating-point number (NaN binds NULL, as in SQLite).</summary>
    public void Bind(int index, double value) => Slot(index) = SqlValue.Real(value);

    /// <summary>Binds text given as UTF-8 bytes (copied into a buffer the query reuses).</summary>
    public void Bind(int index, ReadOnlySpan<byte> utf8) => Slot(index) = SqlValue.BorrowedText(Copy(index, utf8), 0, utf8.Length);

    /// <summary>Binds text (encoded into a buffer the query reuses); null binds NULL.</summary>
    public void Bind(int index, string? value)
    {
        if (value is null)
        {
            BindNull(index);
            return;
        }
        ref var slot = ref Slot(index);
        var buffer = Buffer(index, Encoding.UTF8.GetMaxByteCount(value.Length));
        int n = Encoding.UTF8.GetBytes(value, buffer);
        slot = SqlValue.BorrowedText(buffer, 0, n);
    }

    /// <summary>Binds a blob (copied into a buffer the query reuses).</summary>
    public void BindBlob(int index, ReadOnlySpan<byte> bytes) => Slot(index) = SqlValue.BorrowedBlob(Copy(index, bytes), 0, bytes.Length);

    /// <summary>Binds NULL.</summary>
    public void BindNull(int index) => Slot(index) = SqlValue.Null;

    /// <summary>Binds a value given as an object: null, an integer, a floating-point number, bool, a string or a byte array.</summary>
    public void Bind(int index, object? value) => Slot(index) = SqlValue.FromObject(value);

    /// <summary>Binds an integer by parameter name.</summary>
    public void Bind(string name, long value) => Bind(IndexOf(name), value);

    /// <summary>Binds a floating-point number by parameter name.</summary>
    public void Bind(string name, double value) => Bind(IndexOf(name), value);

    /// <summary>Binds UTF-8 text by parameter name.</summary>
    public void Bind(string name, ReadOnlySpan<byte> utf8) => Bind(IndexOf(name), utf8);

    /// <summary>Binds text by parameter name.</summary>
    public void Bind(string name, string? value) => Bind(IndexOf(name), value);

    /// <summary>Binds a value given as an object by parameter name.</summary>
    public void Bind(string name, object? value) => Bind(IndexOf(name), value);

    /// <summary>Binds NULL by parameter name.</summary>
    public void BindNull(string name) => BindNull(IndexOf(name));

    /// <summary>Sets every parameter back to NULL.</summary>
    public void ClearBindings() => Array.Clear(ParameterSlots);

    /// <summary>
    /// Runs the query and returns its reader, positioned before the first row. With <paramref name="parameters"/>,
    /// they are bound first, by slot (the first value is slot 1; other slots become NULL); without any, the values
    /// bound so far are used. The reader is the same object every time; a previous run still being read is ended.
    /// Disposing the reader ends the run; the query can still be executed again.
    /// </summary>
    public SharcDataReader Execute(params object?[] parameters)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        ArgumentNullException.ThrowIfNull(parameters);
        _db.ThrowIfDisposed();
        if (_write is not null) return ExecuteWrite(parameters);
        if (!_db.IsCurrent(_execution.Plan)) Replan();
        if (parameters.Length > 0) _execution.BindAll(parameters);
        for (int attempt = 0; !_execution.StartOnPlanSchema() && attempt < QueryExecution.MaxSchemaRetries; attempt++) Replan();
        _reader.RestartQuery();
        return _reader;
    }

    /// <summary>
    /// Runs the prepared INSERT, UPDATE, DELETE, DDL or PRAGMA; the reader returned serves its rows (RETURNING,
    /// PRAGMA) or none. <see cref="SharcDatabase.LastChanges"/> tells how many rows it changed.
    /// </summary>
    private SharcDataReader ExecuteWrite(object?[] parameters)
    {
        var slots = _write!.Parameters;
        if (parameters.Length > slots.Length) ThrowHelper.TooManyParameters(slots.Length, parameters.Length, nameof(parameters));
        if (parameters.Length > 0)
            ThrowHelper.EnsureAllParameters(_write.Statement.ParameterNames, slots.Length, parameters.Length);
        if (parameters.Length > 0)
            for (int i = 0; i < slots.Length; i++) slots[i] = i < parameters.Length ? SqlValue.FromObject(parameters[i]) : SqlValue.Null;
        var outcome = _write.Run();
        if (outcome.Rows is null)
        {
            _execution.Start();
            _reader.RestartQuery();
            return _reader;
        }
        return new SharcDataReader(_db, outcome.Rows);
    }

    /// <summary>
    /// Runs the statement with its parameters bound by name from <paramref name="parameters"/> (see
    /// <see cref="SharcDatabase.Execute(string, IReadOnlyDictionary{string, object?})"/>); every parameter needs a value.
    /// </summary>
    /// <exception cref="ArgumentException">A parameter has no value (its name is in the message).</exception>
    public SharcDataReader Execute(IReadOnlyDictionary<string, object?> parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        ObjectDisposedException.ThrowIf(_disposed, this);
        var names = _write?.Statement.ParameterNames ?? _execution.Plan.Statement.ParameterNames;
        var values = SharcParameters.ToPositional(names, ParameterCount, parameters);
        // No slots: Execute() would mean "the values bound so far", which is the same thing.
        return Execute(values);
    }

    /// <summary>Ends any run and releases the query's readers.</summary>
    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        _reader.Dispose();
        _execution.Dispose();
        _write?.Dispose();
    }

    private void Replan()
    {
        var old = _execution;
        var next = QueryExecution.CreateCurrent(_db, old.Plan.Sql, ownedByReader: false);
        old.Dispose();
        _reader.Dispose();
        _execution = next;
        var from = old.Context.Parameters;
        var to = _execution.Context.Parameters;
        Array.Copy(from, to, Math.Min(from.Length, to.Length));
        if (_buffers.Length != to.Length) Array.Resize(ref _buffers, to.Length);
        _reader = new SharcDataReader(_db, _execution);
    }

    private ref SqlValue Slot(int index)
    {
        CheckIndex(index);
        return ref ParameterSlots[index - 1];
    }

    private void CheckIndex(int index)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (index < 1 || index > ParameterCount)
            throw new ArgumentOutOfRangeException(nameof(index), index, $"parameter slots are numbered 1 to {ParameterCount}");
    }

    private int IndexOf(string name)
    {
        int index = GetParameterIndex(name);
        if (index == 0) throw new ArgumentException($"the statement has no parameter named {name}", nameof(name));
        return index;
    }

    private byte[] Buffer(int index, int size)
    {
        ref var buffer = ref _buffers[index - 1];
        if (buffer is null || buffer.Length < size) buffer = new byte[Math.Max(size, 32)];
        return buffer;
    }

    private byte[] Copy(int index, ReadOnlySpan<byte> bytes)
    {
        CheckIndex(index);
        var buffer = Buffer(index, bytes.Length);
        bytes.CopyTo(buffer);
        return buffer;
    }
}
