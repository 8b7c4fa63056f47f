using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Values;
using Sharc.Sql.Writes;

namespace Sharc;

public sealed partial class SharcDatabase
{
    private SharcTransaction? _sqlTransaction;

    /// <summary>
    /// Runs one SQL statement, or a script of several separated by ';', and returns how many rows the last INSERT,
    /// UPDATE or DELETE of the script changed, counted as sqlite3_changes counts them (rows deleted by REPLACE are not
    /// counted; a script without DML returns 0). Every statement kind runs: SELECT (its rows are read and dropped),
    /// INSERT / UPDATE / DELETE with their conflict clauses, UPSERT and RETURNING, CREATE / DROP / ALTER, BEGIN /
    /// COMMIT / ROLLBACK / SAVEPOINT / RELEASE, PRAGMA, REINDEX. Parameters are bound by slot number (the first
    /// value is slot 1) to every statement of the script.
    /// </summary>
    /// <remarks>
    /// Outside a transaction each statement is its own transaction. Inside one (SQL BEGIN, or
    /// <see cref="BeginTransaction"/>) a failing statement is undone alone and the transaction stays open, as in
    /// SQLite; SQL COMMIT and ROLLBACK end the open transaction whichever way it was started. Statements before a
    /// failing one in a script keep their effect (as sqlite3_exec).
    /// </remarks>
    /// <exception cref="SharcSqlException">The SQL does not parse or compile, or uses something not supported.</exception>
    /// <exception cref="SharcConstraintException">A constraint failed (message as SQLite words it).</exception>
    public int Execute(string sql, params object?[] parameters)
    {
        ArgumentNullException.ThrowIfNull(sql);
        ArgumentNullException.ThrowIfNull(parameters);
        ThrowIfDisposed();
        var values = new SqlValue[parameters.Length];
        for (int i = 0; i < values.Length; i++) values[i] = SqlValue.FromObject(parameters[i]);
        return SqlScript.Run(this, sql, new ScriptParameters(values, null), rows: null);
    }

    /// <summary>
    /// Runs SQL like <see cref="Execute(string, object?[])"/>, binding parameters by name: ":a", "@a", "$a" (or the
    /// name without its prefix) take the value of that key (<see cref="SharcParameters.From"/> makes one from an
    /// object's properties). A parameter without a value is an error naming it.
    /// </summary>
    /// <exception cref="ArgumentException">A parameter has no value in <paramref name="parameters"/>.</exception>
    public int Execute(string sql, IReadOnlyDictionary<string, object?> parameters)
    {
        ArgumentNullException.ThrowIfNull(sql);
        ArgumentNullException.ThrowIfNull(parameters);
        ThrowIfDisposed();
        return SqlScript.Run(this, sql, new ScriptParameters([], parameters), rows: null);
    }

    // Per thread: on a database shared by threads, "the last statement" is the calling thread's own.
    private readonly ThreadLocal<SqlSession> _session = new(static () => new SqlSession());

    /// <summary>The calling thread's statement counters (changes(), total_changes(), last_insert_rowid()).</summary>
    internal SqlSession Session => _owner?.Session ?? _session.Value!;

    /// <summary>
    /// The rows changed by the most recent INSERT, UPDATE or DELETE the calling thread ran through SQL on this
    /// database (<see cref="Execute(string, object?[])"/>, <see cref="Query(string, object?[])"/> or a prepared statement), counted as
    /// sqlite3_changes counts them — SQL's changes(). Other threads' statements do not change it.
    /// </summary>
    public int LastChanges
    {
        get => Session.Changes;
        internal set => Session.Changes = value;
    }

    /// <summary>
    /// The rowid of the last row an INSERT statement run by the calling thread through SQL added to a rowid table
    /// (0 before the first) — SQL's last_insert_rowid(). Rows inserted by triggers, and through
    /// <see cref="Insert(string, object?[])"/> (which returns its rowid), do not change it.
    /// </summary>
    public long LastInsertRowId => Session.LastInsertRowId;

    /// <summary>True while a transaction is open (SQL BEGIN or SAVEPOINT, or <see cref="BeginTransaction"/>).</summary>
    internal bool InExplicitTransaction => OwnsTransaction;

    internal void SqlBegin()
    {
        if (OwnsTransaction) throw SqlScript.Positionless("cannot start a transaction within a transaction");
        _sqlTransaction = BeginTransaction();
    }

    /// <summary>COMMIT / END: ends the open transaction, however it was begun.</summary>
    internal void SqlCommit() => EndSqlTransaction(commit: true);

    /// <summary>ROLLBACK: discards the open transaction, however it was begun.</summary>
    internal void SqlRollback() => EndSqlTransaction(commit: false);

    private void EndSqlTransaction(bool commit)
    {
        if (!OwnsTransaction)
            throw SqlScript.Positionless($"cannot {(commit ? "commit" : "rollback")} - no transaction is active");
        var tx = _transaction!;
        _sqlTransaction = null;
        _savepoints.Clear();
        if (commit) tx.Commit();
        else tx.Rollback();
    }

    /// <summary>Rolls back a transaction left open by SQL (the CLI does so at exit, as the sqlite3 shell does).</summary>
    internal void RollbackOpenSqlTransaction()
    {
        if (OwnsTransaction && ReferenceEquals(_transaction, _sqlTransaction)) SqlRollback();
    }

    /// <summary>
    /// Runs one SQL write statement with SQLite's conflict semantics: outside a transaction it is a transaction of
    /// its own; inside one it is a statement undone alone when it fails (ABORT). A constraint failure under FAIL keeps
    /// what the statement did before it; under ROLLBACK it ends the whole transaction.
    /// </summary>
    internal T RunSqlStatement<T>(Func<T> op, SqlConflictAction onConstraint = SqlConflictAction.Abort)
        => RunSqlStatement(op, static f => f(), onConstraint);

    /// <summary>As <see cref="RunSqlStatement{T}(Func{T}, SqlConflictAction)"/>, with state instead of a closure (prepared statements allocate less).</summary>
    internal T RunSqlStatement<T, TState>(TState state, Func<TState, T> op, SqlConflictAction onConstraint = SqlConflictAction.Abort)
    {
        ThrowIfDisposed();
        if (_pager is not { ReadOnly: false }) throw new SharcReadOnlyException();
        var entered = EnterWriteStatement();
        try
        {
            return RunSqlStatementOwned(state, op, onConstraint);
        }
        finally
        {
            ExitWriteStatement(entered);
        }
    }

    private T RunSqlStatementOwned<T, TState>(TState state, Func<TState, T> op, SqlConflictAction onConstraint)
    {
        var pager = _pager!;
        if (TriggerDepth > 0)
        {
            // A trigger's statement is part of the statement that fired the trigger: no savepoint of its own, and its
            // conflict action travels with its error to decide the fate of the firing statement.
            try
            {
                return op(state);
            }
            catch (SharcConstraintException e) when (!e.Data.Contains(Sql.Intent.IntentCompiler.ConflictActionKey))
            {
                e.Data[Sql.Intent.IntentCompiler.ConflictActionKey] = onConstraint;
                throw;
            }
        }
        bool foreignKeys = ForeignKeysEnabled;
        if (_transaction is not null)
        {
            pager.BeginStatement();
            if (foreignKeys) BeginForeignKeyStatement(newTransaction: false);
            try
            {
                var r = op(state);
                if (foreignKeys) EndForeignKeyStatement(autocommit: false);
                pager.CommitStatement();
                if (_schemaDirty) ReloadSchema();
                // As the C# API's writes do (RunWriteOwned): without this, a transaction of SQL statements never
                // spilled and kept every changed page in memory, whatever SpillPages said.
                pager.SpillIfNeeded();
                return r;
            }
            catch (SharcConstraintException e) when (ActionOf(e, onConstraint) == SqlConflictAction.Fail)
            {
                // The rows changed before the failure stay, and so do the violations they counted.
                pager.CommitStatement();
                _writers.Clear();
                if (_schemaDirty) ReloadSchema();
                throw;
            }
            catch (SharcConstraintException e) when (ActionOf(e, onConstraint) == SqlConflictAction.Rollback)
            {
                pager.CommitStatement();
                SqlRollback();
                throw;
            }
            catch
            {
                if (foreignKeys) ForeignKeyState.RollbackStatement();
                pager.RollbackStatement();
                _writers.Clear();
                ReloadSchema();
                throw;
            }
        }
        pager.BeginWrite();
        AfterBegin();
        if (foreignKeys) BeginForeignKeyStatement(newTransaction: true);
        try
        {
            var r = op(state);
            if (foreignKeys) EndForeignKeyStatement(autocommit: true);
            BeforeCommit();
            pager.Commit();
            AfterEnd();
            return r;
        }
        catch (SharcConstraintException e) when (ActionOf(e, onConstraint) == SqlConflictAction.Fail)
        {
            // FAIL keeps the statement's earlier changes: commit them, then report the failure.
            _writers.Clear();
            BeforeCommit();
            pager.Commit();
            AfterEnd();
            throw;
        }
        catch
        {
            if (pager.InTransaction) pager.Rollback();
            _writers.Clear();
            ReloadSchema();
            throw;
        }
    }

    /// <summary>FOREIGN KEY bookkeeping for a statement of the C# API or of SQL (and its transaction, when it opens one).</summary>
    private void BeginForeignKeyStatement(bool newTransaction)
    {
        if (newTransaction) ForeignKeyState.BeginTransaction();
        ForeignKeyState.BeginStatement();
    }

    /// <summary>
    /// SQLite checks immediate FOREIGN KEY violations when a statement ends (and deferred ones too in autocommit
    /// mode); the failure always aborts the statement, whatever its own conflict clause says.
    /// </summary>
    private void EndForeignKeyStatement(bool autocommit)
    {
        try
        {
            ForeignKeyState.EndStatement(autocommit);
        }
        catch (SharcConstraintException e)
        {
            e.Data[Sql.Intent.IntentCompiler.ConflictActionKey] = SqlConflictAction.Abort;
            throw;
        }
    }

    private TriggerRunner? _triggers;

    /// <summary>Fires this connection's triggers (created on first use; it follows schema changes by itself).</summary>
    internal TriggerRunner TriggerRunner => _triggers ??= new TriggerRunner(this);

    /// <summary>The same runner, as the C# API's writes see it.</summary>
    internal Write.ITriggerHook Triggers => TriggerRunner;

    /// <summary>How many trigger programs are running: statements inside one run as part of the statement that fired it.</summary>
    internal int TriggerDepth { get; set; }

    /// <summary>
    /// The conflict action that decides what a constraint error does to the statement: the one recorded by the
    /// innermost statement that failed (a trigger's statement, or RAISE), else the failing statement's own.
    /// </summary>
    private static SqlConflictAction ActionOf(SharcConstraintException e, SqlConflictAction own)
        => e.Data[Sql.Intent.IntentCompiler.ConflictActionKey] is SqlConflictAction a ? a : own;

    /// <summary>
    /// For <see cref="Query(string, object?[])"/>: a statement other than SELECT (INSERT … RETURNING, PRAGMA, any other) is run here
    /// and its rows, if any, are returned; null for a SELECT, which the plan cache serves. A statement already in the
    /// plan cache is a SELECT, so the cached path parses nothing.
    /// </summary>
    private SharcDataReader? RunUnlessSelect(string sql, object?[] parameters)
    {
        ArgumentNullException.ThrowIfNull(sql);
        lock (_planLock)
        {
            if (_plans.ContainsKey(sql)) return null;
        }
        var statement = Sql.Parsing.SqlParser.ParseStatement(sql);
        if (statement is SqlSelectStatement) return null;
        if (parameters.Length > statement.ParameterCount) ThrowHelper.TooManyParameters(statement.ParameterCount, parameters.Length, nameof(parameters));
        ThrowHelper.EnsureAllParameters(statement.ParameterNames, statement.ParameterCount, parameters.Length);
        var values = new SqlValue[parameters.Length];
        for (int i = 0; i < values.Length; i++) values[i] = SqlValue.FromObject(parameters[i]);
        var outcome = SqlScript.RunStatement(this, sql, statement, values);
        return new SharcDataReader(this, outcome.Rows ?? new Sql.Execution.QueryExecution([], []));
    }

    /// <summary>For <see cref="Prepare"/>: a statement other than SELECT becomes a prepared write; null for a SELECT.</summary>
    private PreparedQuery? PrepareUnlessSelect(string sql)
    {
        ArgumentNullException.ThrowIfNull(sql);
        lock (_planLock)
        {
            if (_plans.ContainsKey(sql)) return null;
        }
        var statement = Sql.Parsing.SqlParser.ParseStatement(sql);
        return statement is SqlSelectStatement ? null : new PreparedQuery(this, new PreparedWrite(this, sql, statement));
    }
}
