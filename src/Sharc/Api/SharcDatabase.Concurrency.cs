using Sharc.Format;
using Sharc.Schema;
using Sharc.Storage;
using Sharc.Storage.Concurrency;

namespace Sharc;

/// <summary>
/// How a database shared by threads hands out its state: the header and schema of the latest committed version to
/// every flow but the writer, the writer's own (changed by its DDL) to the writer; and read sessions over snapshots.
/// The rules themselves live in <see cref="ConcurrencyControl"/>.
/// </summary>
public sealed partial class SharcDatabase
{
    /// <summary>
    /// The header and schema of one version of the database, published with the version. The schema is read from
    /// sqlite_schema on first use (open reads page 1 only) into a slot that versions with the same schema cookie
    /// share: SQLite changes the cookie with every schema change, so equal cookies mean equal schemas.
    /// </summary>
    internal sealed class DatabaseState
    {
        private readonly SchemaSlot _slot;

        public DatabaseState(DatabaseHeader header, SharcSchema schema) : this(header, new SchemaSlot(schema))
        {
        }

        private DatabaseState(DatabaseHeader header, SchemaSlot slot)
        {
            Header = header;
            _slot = slot;
        }

        /// <summary>A state whose schema is read on first use (<see cref="LoadSchema"/>).</summary>
        public static DatabaseState Deferred(DatabaseHeader header) => new(header, new SchemaSlot(null));

        /// <summary>A newer version's state with the same schema cookie: it shares this one's schema, read or not.</summary>
        public DatabaseState WithHeader(DatabaseHeader header) => new(header, _slot);

        public DatabaseHeader Header { get; }

        /// <summary>The schema once read, else null.</summary>
        public SharcSchema? LoadedSchema => Volatile.Read(ref _slot.Schema);

        /// <summary>
        /// Reads the schema through <paramref name="source"/>, which must show this version's pages (or a later
        /// version's with the same cookie). One thread parses; the others wait for and share its immutable result.
        /// A malformed schema is not kept: each use reports it again, as SQLite does per statement.
        /// </summary>
        public SharcSchema LoadSchema(IPageSource source)
        {
            lock (_slot)
            {
                if (_slot.Schema is { } loaded) return loaded;
                var schema = SchemaLoader.Load(source, Header);
                Volatile.Write(ref _slot.Schema, schema);
                return schema;
            }
        }

        /// <summary>Takes a schema found for this version's page 1 (see <see cref="SchemaLoader.FindByPage1"/>), unless one is set.</summary>
        public SharcSchema Adopt(SharcSchema schema)
        {
            lock (_slot)
            {
                if (_slot.Schema is { } loaded) return loaded;
                Volatile.Write(ref _slot.Schema, schema);
                return schema;
            }
        }

        private sealed class SchemaSlot(SharcSchema? schema)
        {
            public SharcSchema? Schema = schema;
        }
    }

    // A read-only database has one state; a writable one publishes its committed state with each version.
    private DatabaseState _readOnlyState = null!;
    // The writer's, while its open transaction has a header or schema of its own.
    private DatabaseState? _txState;

    private DatabaseState State
    {
        get
        {
            var pager = _pager;
            if (pager is null) return _readOnlyState;
            if (_txState is { } own && pager.Concurrency.CurrentFlowOwnsWrite) return own;
            return (DatabaseState)pager.Concurrency.LatestState!;
        }
    }

    /// <summary>The database header (from the newest committed page 1; inside a transaction, the transaction's own).</summary>
    public DatabaseHeader Header
    {
        get
        {
            ThrowIfDisposed();
            return State.Header;
        }
    }

    /// <summary>The schema read from sqlite_schema (inside a transaction, as the transaction changed it).</summary>
    public SharcSchema Schema
    {
        get
        {
            ThrowIfDisposed();
            var state = State;
            var schema = state.LoadedSchema ?? LoadSchema(state);
            // SQLite refuses every statement that reads a schema whose generated columns name unknown columns.
            if (!schema.ExpressionsChecked) Sql.Intent.SchemaExpressions.Check(schema);
            if (schema.ExpressionProblem is { } problem) throw new SharcCorruptException(problem);
            return schema;
        }
    }

    /// <summary>
    /// The schema and the cookie of the one committed version it belongs to. Read apart, a DDL commit by another
    /// thread between the two would pair an old schema's root pages with the new cookie, and a reader checking only
    /// the cookie would then read moved pages (after a VACUUM) as its table.
    /// </summary>
    internal SharcSchema SchemaAndCookie(out uint cookie)
    {
        for (int attempt = 0; ; attempt++)
        {
            var state = State;
            var schema = Schema;
            if (ReferenceEquals(state.LoadedSchema, schema) || attempt == 10)
            {
                cookie = state.Header.SchemaCookie;
                return schema;
            }
        }
    }

    /// <summary>
    /// The first use of a version's schema reads sqlite_schema, through pages that version (or one with the same
    /// schema cookie) shows: the writer's own view inside its transaction, else a read session (SQLite's SHARED
    /// lock, and on a writable database a snapshot), so no other connection's commit can tear what is read.
    /// </summary>
    private SharcSchema LoadSchema(DatabaseState state)
    {
        if (_pager is null)
        {
            // A schema this process built from the very page 1 read at open needs no lock session of its own: the
            // reader's first session checks the change counter under the SHARED lock anyway, and a schema changed
            // meanwhile fails that reader with a typed error (CheckSchema), as a change between CreateReader and
            // its first read always could. One lock session per open → read → close instead of two.
            if (_source is FilePageSource && SchemaLoader.FindByPage1(_source, state.Header) is { } known)
                return state.Adopt(known);
            if (_source.BeginRead()) ReloadReadOnlyState();
            try
            {
                state = _readOnlyState;
                return state.LoadedSchema ?? state.LoadSchema(_source);
            }
            finally
            {
                _source.EndRead();
            }
        }
        if (InOwnTransaction) return state.LoadSchema(_source);
        var view = new PageView(_pager);
        var session = BeginReadSession(view);
        try
        {
            // The session's version may be newer than the state asked for: it is the latest either way.
            return session.LoadedSchema ?? session.LoadSchema(view);
        }
        finally
        {
            EndReadSession(view);
        }
    }

    private void InitializeState(DatabaseState state)
    {
        _readOnlyState = state;
        if (_pager is { } pager) pager.Concurrency.Initialize(pager.PageCount, state);
    }

    /// <summary>Wires a writable pager to this database: it publishes our header and schema with every version.</summary>
    private void AttachPager(Pager pager)
    {
        _pager = pager;
        _source = pager;
        pager.CommittedState = LoadStateForPublication;
    }

    /// <summary>
    /// Reads header and schema through the writer's view (at a commit: the pages being committed; when another
    /// connection's commit is noticed: the new committed pages, no transaction being open).
    /// </summary>
    private object LoadStateForPublication()
        => LoadState(_txState ?? (DatabaseState?)_pager!.Concurrency.LatestState, reloadSchema: _schemaDirty || _pager!.ExternalChange);

    /// <summary>
    /// Page 1 and, when it changed (or <paramref name="reloadSchema"/>), sqlite_schema, read through the database's
    /// own source; the schema of <paramref name="current"/> is kept when its cookie still matches.
    /// </summary>
    private DatabaseState LoadState(DatabaseState? current, bool reloadSchema)
    {
        var header = ReadHeader(_source);
        bool same = !reloadSchema && current is not null && current.Header.SchemaCookie == header.SchemaCookie;
        return same ? current!.WithHeader(header) : new DatabaseState(header, SchemaLoader.Load(_source, header, temp: _owner is not null && _schemaName == "temp"));
    }

    /// <summary>True when the calling flow owns the open write transaction (it reads its own uncommitted pages).</summary>
    private bool InOwnTransaction => _pager is { InTransaction: true } pager && pager.Concurrency.CurrentFlowOwnsWrite;

    /// <summary>Re-reads header (and schema) as this flow sees them: the transaction's own state, or the committed one.</summary>
    private void SetLoadedState(DatabaseState state)
    {
        if (_pager is null)
        {
            _readOnlyState = state;
            return;
        }
        if (_pager.InTransaction) _txState = state;
        else
        {
            _txState = null;
            _pager.Concurrency.ReplaceLatestState(state);
        }
    }

    /// <summary>
    /// A snapshot for readers to read one committed version together (see <see cref="SharcSnapshot"/>); it takes
    /// the version at its first read.
    /// </summary>
    public SharcSnapshot CreateSnapshot()
    {
        ThrowIfDisposed();
        return new SharcSnapshot(this);
    }

    /// <summary>The page source a new reader's cursors use: a view of its own on a writable database.</summary>
    internal IPageSource ReaderSource() => _pager is null ? Source : new PageView(_pager);

    /// <summary>
    /// Starts a read session for a reader whose cursors read through <paramref name="view"/> (null on a read-only
    /// database): SQLite's file lock, then the snapshot — the writer's own view inside its transaction, else the
    /// latest committed version. Returns the state the session reads.
    /// </summary>
    internal DatabaseState BeginReadSession(PageView? view)
    {
        var source = Source;
        if (view is null)
        {
            if (source.BeginRead()) ReloadReadOnlyState();
            return _readOnlyState;
        }
        var pager = _pager!;
        pager.BeginRead();
        try
        {
            if (InOwnTransaction)
            {
                view.SetWriterView();
                return State;
            }
            var snapshot = pager.Concurrency.BeginSnapshot(pager.BusyTimeout);
            view.SetSnapshot(snapshot);
            return (DatabaseState)snapshot.State!;
        }
        catch
        {
            pager.EndRead();
            throw;
        }
    }

    /// <summary>
    /// A reader positioned again (a new seek) reads the latest commit: when its snapshot is older, it moves to the
    /// latest. Returns the new state, or null when the view was current.
    /// </summary>
    internal DatabaseState? RefreshReadSession(PageView view)
    {
        bool writer = InOwnTransaction;
        if (view.IsWriterView ? writer : !writer && _pager!.Concurrency.LatestVersion == view.Version) return null;
        EndReadSession(view);
        return BeginReadSession(view);
    }

    internal void EndReadSession(PageView? view)
    {
        if (view is not null && !view.IsWriterView) _pager!.Concurrency.EndSnapshot(view.Version);
        view?.SetWriterView();
        _source.EndRead();
    }

    private void ReloadReadOnlyState() => _readOnlyState = LoadState(_readOnlyState, reloadSchema: false);

    // ---------------------------------------------------------------- write ownership

    /// <summary>
    /// Takes the write lock for one statement unless this flow holds it (its transaction, whose tasks then take turns,
    /// or an enclosing statement); hand the result to <see cref="ExitWriteStatement"/>.
    /// </summary>
    private ConcurrencyControl.Entry EnterWriteStatement()
    {
        var pager = WritablePager;
        return pager.Concurrency.EnterStatement(pager.BusyTimeout, Path ?? "the database");
    }

    private void ExitWriteStatement(ConcurrencyControl.Entry entry) => _pager?.Concurrency.ExitStatement(entry);

    /// <summary>
    /// Runs a read that goes to the pages directly rather than through a reader (integrity check, PRAGMAs reading
    /// page 1): on a writable database it holds the write lock meanwhile, so that outside this flow's transaction
    /// what it reads is the latest commit and nothing changes under it.
    /// </summary>
    internal T UnderWriteLock<T>(Func<SharcDatabase, T> read) => UnderWriteLock(read, static (db, r) => r(db));

    /// <summary><see cref="UnderWriteLock{T}(Func{SharcDatabase, T})"/> with state instead of a closure.</summary>
    internal T UnderWriteLock<TState, T>(TState state, Func<SharcDatabase, TState, T> op)
    {
        if (_pager is null) return op(this, state);
        if (_pager.ReadOnly)
        {
            // A read-only connection on a shared log reads its pages inside a session, whose read mark protects them.
            _pager.BeginRead();
            try
            {
                return op(this, state);
            }
            finally
            {
                _pager.EndRead();
            }
        }
        var entered = EnterWriteStatement();
        try
        {
            return op(this, state);
        }
        finally
        {
            ExitWriteStatement(entered);
        }
    }

    /// <summary>True when the calling flow owns the open transaction.</summary>
    private bool OwnsTransaction => _transaction is not null && _pager!.Concurrency.CurrentFlowOwnsWrite;
}
