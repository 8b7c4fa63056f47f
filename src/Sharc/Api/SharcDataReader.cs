using System.Runtime.CompilerServices;
using Sharc.BTree;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Storage;
using Sharc.Storage.Concurrency;

namespace Sharc;

/// <summary>
/// A forward cursor over the rows of a table (or the entries of an index), with seeks. Values are decoded lazily
/// from the stored record: columns you do not read are never decoded, and span getters return the stored bytes
/// without allocating. One reader must be used by one thread at a time.
/// </summary>
public partial class SharcDataReader : IDisposable
{
    private enum State : byte
    {
        BeforeFirst,
        OnRow,
        /// <summary>Positioned on a row that the next Read() returns (after a seek that found no exact match).</summary>
        Pending,
        AfterEnd,
    }

    private readonly SharcDatabase _db;
    private ReaderPlan _plan;
    private ColumnSource[] _columns;
    private readonly BTreeCursor _cursor;
    private readonly RecordLayout _layout;
    private readonly SharcTextEncoding _encoding;
    private State _state;
    private bool _disposed;
    private long _version;
    private bool _session;
    // Owner-view sessions only: the writer's own pages can change under the reader.
    private bool _checkVersion;
    private readonly IPageSource _pages;
    private readonly PageView? _view;
    private StatementSnapshot? _statement;
    // Set when _statement came from UseSnapshot (a user's snapshot) rather than a SQL statement's execution.
    private bool _ownsSnapshotSlot;
    /// <summary>Set by the executor's backward walks: reads go to the previous entry in key order.</summary>
    private bool _backward;

    internal SharcDataReader(SharcDatabase db, ReaderPlan plan)
    {
        _db = db;
        _plan = plan;
        _columns = plan.Columns;
        _encoding = db.TextEncoding;
        _pages = db.ReaderSource();
        _view = _pages as PageView;
        _cursor = new BTreeCursor(_pages, plan.Root, db.Header.UsableSize, isIndex: plan.Mode != ReaderMode.RowIdTable);
        _layout = new RecordLayout(plan.FieldCountHint + 1);
    }

    /// <summary>The number of columns the reader returns.</summary>
    public int FieldCount => _columns.Length;

    /// <summary>The table (or index) being read.</summary>
    public string SourceName => _plan.Name;

    /// <summary>The name of column <paramref name="ordinal"/>.</summary>
    public string GetName(int ordinal) => Column(ordinal).Name;

    /// <summary>
    /// The ordinal of the column named <paramref name="name"/>: the first exact match, else the first match ignoring
    /// ASCII case (as ADO.NET readers look names up).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">No column has that name (as Microsoft.Data.Sqlite throws); use <see cref="TryGetOrdinal"/> to test.</exception>
    public int GetOrdinal(string name)
    {
        if (!TryGetOrdinal(name, out int ordinal)) ThrowHelper.NoSuchColumn(name);
        return ordinal;
    }

    /// <summary>The ordinal of the column named <paramref name="name"/> as <see cref="GetOrdinal"/> finds it; false when there is none.</summary>
    public bool TryGetOrdinal(string name, out int ordinal)
    {
        ArgumentNullException.ThrowIfNull(name);
        for (int i = 0; i < _columns.Length; i++)
            if (string.Equals(_columns[i].Name, name, StringComparison.Ordinal)) return Found(i, out ordinal);
        for (int i = 0; i < _columns.Length; i++)
            if (SqlNameComparer.Instance.Equals(_columns[i].Name, name)) return Found(i, out ordinal);
        ordinal = -1;
        return false;
    }

    private static bool Found(int i, out int ordinal)
    {
        ordinal = i;
        return true;
    }

    /// <summary>The declared type of column <paramref name="ordinal"/> ("" for index fields and the rowid).</summary>
    public string GetDeclaredType(int ordinal) => Column(ordinal).Column?.DeclaredType ?? "";

    /// <summary>
    /// The affinity of column <paramref name="ordinal"/>'s declared type, by SQLite's rules; <see cref="SharcAffinity.Blob"/>
    /// when it has none (an expression, an index field, the rowid).
    /// </summary>
    public SharcAffinity GetDeclaredAffinity(int ordinal) => Column(ordinal).Column?.Affinity ?? SharcAffinity.Blob;

    /// <summary>True when positioned on a row (after a successful <see cref="Read"/> or <see cref="Seek"/>).</summary>
    public bool HasRow => _state == State.OnRow;

    /// <summary>Advances to the next row; false when there are no more.</summary>
    public bool Read()
    {
        // The scan's steady state first: a forward table walk on a row, with nothing else to consider.
        if (_state == State.OnRow && _indexCursor is null && !_backward && _query is null)
        {
            CheckVersion();
            return Land(_cursor.MoveNext());
        }
        if (_query is not null) return QueryRead();
        switch (_state)
        {
            case State.BeforeFirst:
                BeginSession();
                if (_backward) return Land(_indexCursor is null ? _cursor.MoveLast() : _indexCursor.MoveLast() && FollowIndex());
                return Land(_indexCursor is null ? _cursor.MoveFirst() : _indexCursor.MoveFirst() && FollowIndex());
            case State.Pending:
                CheckVersion();
                _state = State.OnRow;
                _layout.Reset(RowCursor.PayloadSize, RowCursor.CurrentPage);
                return true;
            case State.OnRow:
                CheckVersion();
                if (_backward) return Land(_indexCursor is null ? _cursor.MovePrevious() : _indexCursor.MovePrevious() && FollowIndex());
                return Land(_indexCursor is null ? _cursor.MoveNext() : _indexCursor.MoveNext() && FollowIndex());
            default:
                ThrowIfDisposed();
                return false;
        }
    }

    /// <summary>
    /// Positions on the row with this rowid and returns true. When there is none, returns false and the next
    /// <see cref="Read"/> returns the first row with a larger rowid. Only for rowid tables.
    /// </summary>
    public bool Seek(long rowId)
    {
        ThrowIfDisposed();
        if (_plan.Mode != ReaderMode.RowIdTable)
            throw new InvalidOperationException($"{_plan.Name} has no rowid: seek it by key with SeekKey");
        _indexCursor = null;
        _backward = false;
        BeginSession();
        bool found = _cursor.SeekRowId(rowId);
        SettleAfterSeek(found);
        return found;
    }

    /// <summary>The rowid of the current row (of the table row, when reading a rowid table or through an index).</summary>
    public long RowId
    {
        get
        {
            EnsureRow();
            if (_query is not null) throw new InvalidOperationException("the rows of a query have no rowid: select the rowid as a column");
            if (_plan.Mode == ReaderMode.RowIdTable) return _cursor.RowId;
            if (_plan.Mode == ReaderMode.Index && !_plan.Table!.IsWithoutRowId) return ReadLastFieldAsInteger();
            throw new InvalidOperationException($"{_plan.Name} belongs to a WITHOUT ROWID table: rows have no rowid");
        }
    }

    private BTreeCursor RowCursor
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _cursor;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CheckVersion()
    {
        if (_checkVersion && _db.DataVersion != _version) DataChanged();
    }

    private static void DataChanged()
        => throw new SharcReaderInvalidatedException("this thread's transaction wrote the database since this reader was positioned: Seek again, or Reset a prepared reader, to read the new state");

    private bool Land(bool positioned)
    {
        if (positioned)
        {
            _state = State.OnRow;
            _layout.Reset(RowCursor.PayloadSize, RowCursor.CurrentPage);
            return true;
        }
        _state = State.AfterEnd;
        EndSession();
        return false;
    }

    /// <summary>
    /// Every positioning from scratch (first read, seek) goes through here. The reader's read session (SHARED lock,
    /// and on a writable database its snapshot) starts with the first; a later one on a writable database moves
    /// the snapshot to the latest commit. Readers of one statement share the statement's snapshot instead.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void BeginSession()
    {
        if (_session)
        {
            if (_view is not null) RefreshSession();
            return;
        }
        StartSession();
    }

    private void StartSession()
    {
        SharcDatabase.DatabaseState state;
        if (_statement is not null) state = _statement.Enter(_view!);
        else state = _db.BeginReadSession(_view);
        _session = true;
        _checkVersion = _view is { IsWriterView: true };
        _version = _db.DataVersion;
        CheckSchema(state);
    }

    private void RefreshSession()
    {
        _version = _db.DataVersion;
        SharcDatabase.DatabaseState? state;
        // A statement's reader may stay positioned between runs: each positioning takes the run's snapshot.
        if (_statement is not null) state = _statement.Enter(_view);
        else
        {
            try
            {
                state = _db.RefreshReadSession(_view!);
            }
            catch
            {
                // The old session was ended before the new one failed to begin (busy): nothing is left to end. Left
                // set, a later EndSession would end the session of another reader of this database (its SHARED lock).
                _session = false;
                throw;
            }
        }
        if (state is null) return;
        _checkVersion = _view!.IsWriterView;
        CheckSchema(state);
    }

    /// <summary>
    /// A session reading another schema than the reader was planned for (another thread's DDL, VACUUM or ANALYZE
    /// committed) plans the same read over that schema, as SQLite prepares a statement again: the reader carries on
    /// when its object still reads the same way there, perhaps at another root page; otherwise the session ends with a
    /// typed error.
    /// </summary>
    private void CheckSchema(SharcDatabase.DatabaseState state)
    {
        if (_plan.SchemaCookie == state.Header.SchemaCookie) return;
        var schema = state.LoadedSchema ?? state.LoadSchema(_view ?? _pages);
        if (_plan.Schema is { } planned && ReferenceEquals(planned, schema)) return;
        if (_query is null && state.Header.UsableSize == _cursor.UsableSize && _plan.Replan(schema, state.Header.SchemaCookie) is { } next
            && ReplanIndex(schema))
        {
            _plan = next;
            _columns = next.Columns;
            _cursor.Reroot(next.Root);
            return;
        }
        EndSession();
        throw new SharcException($"the schema changed since the reader over {_plan.Name} was created, and {_plan.Name} no longer reads as it did (dropped, or its columns or key changed): create the reader again");
    }

    private void EndSession()
    {
        if (!_session) return;
        _session = false;
        if (_statement is null) _db.EndReadSession(_view);
    }

    /// <summary>Makes this reader read through <paramref name="statement"/>'s snapshot (the readers of one query execution).</summary>
    internal void JoinStatement(StatementSnapshot statement) => _statement = statement;

    /// <summary>
    /// Makes this reader read the committed version <paramref name="snapshot"/> holds (null: its own, the latest
    /// commit at each positioning). The reader goes back to before its first row; positioned again, it reads the
    /// snapshot's version, taking it if no reader has yet.
    /// </summary>
    /// <exception cref="ArgumentException">The snapshot is of another database.</exception>
    /// <exception cref="InvalidOperationException">This reader belongs to a SQL statement, which has its own snapshot.</exception>
    public void UseSnapshot(SharcSnapshot? snapshot)
    {
        ThrowIfDisposed();
        if (snapshot is not null && !ReferenceEquals(snapshot.Database, _db))
            throw new ArgumentException("the snapshot is of another database than this reader's", nameof(snapshot));
        if (_statement is not null && !_ownsSnapshotSlot)
            throw new InvalidOperationException("this reader belongs to a SQL statement, which reads its own snapshot");
        Rewind();
        _statement = snapshot?.Statement;
        _ownsSnapshotSlot = snapshot is not null;
    }

    /// <summary>The database this reader reads (a statement over several databases has readers of each).</summary>
    internal SharcDatabase Database => _db;

    private void SettleAfterSeek(bool found)
    {
        if (found)
        {
            _state = State.OnRow;
            _layout.Reset(RowCursor.PayloadSize, RowCursor.CurrentPage);
        }
        else
        {
            _state = RowCursor.IsValid ? State.Pending : State.AfterEnd;
            if (_state == State.AfterEnd) EndSession();
        }
    }

    /// <summary>Goes back to before the first row, keeping every buffer for reuse.</summary>
    private protected void Rewind()
    {
        ThrowIfDisposed();
        _indexCursor = null;
        _backward = false;
        _state = State.BeforeFirst;
        EndSession();
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ColumnSource Column(int ordinal)
    {
        if ((uint)ordinal >= (uint)_columns.Length) ThrowHelper.ColumnOutOfRange(ordinal, _columns.Length);
        return _columns[ordinal];
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EnsureRow()
    {
        if (_state != State.OnRow) NotOnRow();
    }

    private void NotOnRow()
    {
        ThrowIfDisposed();
        ThrowHelper.NoCurrentRow();
    }

    private void ThrowIfDisposed()
    {
        if (_disposed) ThrowHelper.Disposed(GetType().Name);
    }

    /// <summary>Releases the pages the reader holds.</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Releases the reader's pages.</summary>
    protected virtual void Dispose(bool disposing)
    {
        if (_disposed) return;
        _disposed = true;
        EndSession();
        _cursor?.Dispose();
        _indexCursorStore?.Dispose();
        DisposeQuery();
        _state = State.AfterEnd;
    }
}
