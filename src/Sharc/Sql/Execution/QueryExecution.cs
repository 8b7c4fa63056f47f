using Sharc.Sql.Planning;
using Sharc.Storage.Concurrency;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// One runnable instance of a <see cref="QueryPlan"/>: its operators, compiled expressions, b-tree readers and
/// parameter values. A reader in query mode pulls rows from it; a prepared query keeps one and runs it again with
/// new parameters, which after the first run allocates nothing for scans and seeks.
/// </summary>
internal sealed class QueryExecution
{
    private readonly QueryPipeline _pipeline;
    private readonly List<SharcDataReader> _readers;
    private readonly StatementSnapshot? _snapshot;
    // Readers of the connection's other databases (temp, attached) share one snapshot per database.
    private List<StatementSnapshot>? _otherSnapshots;

    private StatementSnapshot OtherSnapshot(SharcDatabase db)
    {
        _otherSnapshots ??= [];
        foreach (var s in _otherSnapshots)
            if (ReferenceEquals(s.Database, db)) return s;
        var snapshot = new StatementSnapshot(db);
        _otherSnapshots.Add(snapshot);
        return snapshot;
    }
    private bool _open;
    private bool _active;
    private bool _disposed;
    // A run that failed may have left operators half-way: such an execution is not handed to the next caller.
    private bool _faulted;
    // Made by Rent for Query: only those go back to their plan's idle slot.
    private bool _pooled;

    /// <param name="db">The database.</param>
    /// <param name="plan">The plan to run.</param>
    /// <param name="ownedByReader">
    /// True when the reader over this execution is its only user (Query): disposing that reader, or reading it to
    /// the end, then releases the b-tree readers. A prepared query keeps them for its next execution.
    /// </param>
    public QueryExecution(SharcDatabase db, QueryPlan plan, bool ownedByReader)
    {
        Plan = plan;
        OwnedByReader = ownedByReader;
        Context = new ExecContext(plan.Statement.FrameCount, plan.ParameterCount) { Interruption = db.Interruption, Database = db };
        var builder = new PipelineBuilder(db, plan.Levels);
        _pipeline = builder.Build(plan.Statement.Query);
        _readers = builder.Readers;
        _snapshot = new StatementSnapshot(db);
        foreach (var r in _readers)
        {
            if (ReferenceEquals(r.Database, db)) r.JoinStatement(_snapshot);
            else r.JoinStatement(OtherSnapshot(r.Database));
        }
        Columns = plan.Columns;
    }

    /// <summary>
    /// An execution over rows already computed (RETURNING, PRAGMA results): a reader serves them like a query's.
    /// <see cref="Plan"/> is null then.
    /// </summary>
    public QueryExecution(ColumnSource[] columns, IReadOnlyList<SqlValue[]> rows)
    {
        Plan = null!;
        OwnedByReader = true;
        Columns = columns;
        Context = new ExecContext(0, 0);
        _pipeline = new QueryPipeline(new RowListOperator(rows), null, null, null, null);
        _readers = [];
    }

    public bool OwnedByReader { get; }

    public QueryPlan Plan { get; }

    public ExecContext Context { get; }

    /// <summary>The result columns (names and declared types).</summary>
    public ColumnSource[] Columns { get; }

    /// <summary>The current row; only the first <see cref="Columns"/>.Length values are results.</summary>
    public SqlValue[] Current => _pipeline.Current;

    /// <summary>Prepares a new run; it starts with the first <see cref="MoveNext"/>.</summary>
    public void Start()
    {
        Close();
        Context.NextGeneration();
    }

    /// <summary>
    /// Prepares a new run and begins its read session now, so that the plan is checked against the schema of the
    /// version the run will read. False when that schema is not the plan's — another thread or connection committed
    /// DDL (or a VACUUM) after the plan was made: the caller plans again and retries, as SQLite re-prepares a statement
    /// that meets SQLITE_SCHEMA at its first step, instead of failing the statement.
    /// </summary>
    public bool StartOnPlanSchema()
    {
        Start();
        // A statement that reads no table (SELECT 1, a VALUES list) has no pages to misread and takes no lock, as in SQLite.
        if (_snapshot is null || _readers.Count == 0 || ReferenceEquals(_snapshot.EnterSchema(), Plan.Schema)) return true;
        _snapshot.End();
        return false;
    }

    /// <summary>
    /// A new execution of the current plan of <paramref name="sql"/>. Its readers are made by name: when an index or
    /// table the plan chose was dropped by another thread meanwhile, the statement is planned again.
    /// </summary>
    public static QueryExecution CreateCurrent(SharcDatabase db, string sql, bool ownedByReader)
    {
        for (int attempt = 0; ; attempt++)
        {
            var plan = db.GetPlan(sql);
            try
            {
                return new QueryExecution(db, plan, ownedByReader);
            }
            catch (SharcException) when (attempt < MaxSchemaRetries && !db.IsCurrent(plan))
            {
            }
        }
    }

    /// <summary>How many times a statement is planned again for schema changes that keep racing it (SQLite's SQLITE_MAX_SCHEMA_RETRY).</summary>
    public const int MaxSchemaRetries = 50;

    public bool MoveNext()
    {
        if (_disposed) return false;
        try
        {
            if (!_open)
            {
                _open = true;
                // A statement counts as running from its first row until it ends, fails, is reset or disposed.
                _active = true;
                Context.Interruption.Enter();
                _pipeline.Open(Context);
            }
            return _pipeline.MoveNext(Context);
        }
        catch
        {
            _faulted = true;
            EndStatement();
            throw;
        }
    }

    /// <summary>Ends the run, releasing read sessions.</summary>
    public void Close()
    {
        if (!_open)
        {
            // StartOnPlanSchema may have begun the session of a run that never read a row.
            _snapshot?.End();
            return;
        }
        _open = false;
        EndStatement();
        try
        {
            _pipeline.Close();
        }
        finally
        {
            _snapshot?.End();
            if (_otherSnapshots is not null)
                foreach (var s in _otherSnapshots) s.End();
        }
    }

    private void EndStatement()
    {
        if (!_active) return;
        _active = false;
        Context.Interruption.Exit();
    }

    /// <summary>
    /// A <c>Query</c> execution from <paramref name="plan"/>'s idle slot, or a new one when another caller (or thread)
    /// holds it. Thread-safe: the slot is taken atomically, so no two callers ever run the same execution.
    /// </summary>
    public static QueryExecution Rent(SharcDatabase db, QueryPlan plan)
        => Interlocked.Exchange(ref plan.IdleExecution, null) ?? new QueryExecution(db, plan, ownedByReader: true) { _pooled = true };

    /// <summary>
    /// Ends the run of a reader-owned execution and puts it in its plan's idle slot for the next caller; disposes
    /// it instead when it failed, was disposed, or the slot is taken. Called once per rent.
    /// </summary>
    public void Release()
    {
        Close();
        if (_pooled && !_disposed && !_faulted && Interlocked.CompareExchange(ref Plan.IdleExecution, this, null) is null) return;
        Dispose();
    }

    /// <summary>Ends the run and releases the b-tree readers and the pages they pin.</summary>
    public void Dispose()
    {
        if (_disposed) return;
        Close();
        _disposed = true;
        foreach (var r in _readers) r.Dispose();
    }

    /// <summary>Binds values positionally (slot i from <paramref name="values"/>[i]); other slots become NULL.</summary>
    public void BindAll(object?[] values)
    {
        var p = Context.Parameters;
        if (values.Length > p.Length) ThrowHelper.TooManyParameters(p.Length, values.Length, nameof(values));
        ThrowHelper.EnsureAllParameters(Plan.Statement.ParameterNames, p.Length, values.Length);
        for (int i = 0; i < p.Length; i++) p[i] = i < values.Length ? SqlValue.FromObject(values[i]) : SqlValue.Null;
    }
}
