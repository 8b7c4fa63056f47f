using System.Buffers.Binary;
using Sharc.BTree.Mutation;
using Sharc.Format;
using Sharc.Schema;
using Sharc.Schema.Parsing;
using Sharc.Storage;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;
using Sharc.Storage.Journal;
using Sharc.Storage.Locking;
using Sharc.Write;

namespace Sharc;

public sealed partial class SharcDatabase
{
    private Pager? _pager;
    private BTreeMutator? _mutator;
    private readonly Dictionary<string, TableWriter> _writers = new(SqlNameComparer.Instance);
    private SharcTransaction? _transaction;
    private bool _schemaDirty;

    /// <summary>True when the database was opened for writing.</summary>
    public bool IsWritable => _pager is { ReadOnly: false };

    /// <summary>Changes whenever this connection commits or rolls back; readers use it to notice that data moved under them.</summary>
    internal long DataVersion => _pager?.DataVersion ?? 0;

    internal Pager WritablePager
    {
        get
        {
            ThrowIfDisposed();
            return _pager is { ReadOnly: false } pager ? pager : throw new SharcReadOnlyException();
        }
    }

    internal BTreeMutator Mutator => _mutator ??= new BTreeMutator(WritablePager, Header.IsAutoVacuum);

    /// <summary>
    /// Creates a new, empty database file (page 1 with the header and an empty sqlite_schema) and opens it for writing.
    /// </summary>
    public static SharcDatabase Create(string path, SharcCreateOptions? options = null) => CreateThrough(path, options, OsStorage.Instance);

    /// <summary>Creates through a given file system (the copies of ExportTo, which tests crash through it).</summary>
    internal static SharcDatabase CreateThrough(string path, SharcCreateOptions? options, IStorageSystem fs)
    {
        ArgumentNullException.ThrowIfNull(path);
        options ??= new SharcCreateOptions();
        int pageSize = options.Key is null ? options.PageSize : (options.Cipher ?? SharcCipherSettings.SqlCipher4).PageSize;
        if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
            throw new ArgumentOutOfRangeException(nameof(options), pageSize, "The page size must be a power of two from 512 to 65536.");
        if (fs.LengthOf(path) > 0 && !options.Overwrite)
            throw new SharcException($"{path} already exists; set SharcCreateOptions.Overwrite to replace it");
        foreach (var side in new[] { path + "-journal", path + "-wal", path + "-shm" })
            if (fs.Exists(side)) fs.Delete(side);

        // The key is stretched here, once: the codec goes on to the open below.
        PageCodec? codec = options.Key is null ? null : PageCodec.Create(options.Key, options.Cipher, default);
        var page1 = new byte[pageSize];
        WriteNewHeader(page1, pageSize, options.TextEncoding, codec?.Reserve ?? 0);
        // File format versions 2/2 mark WAL mode; the -wal file itself appears with the first commit.
        if (options.JournalMode == SharcJournalMode.Wal) page1[18] = page1[19] = 2;
        if (options.AutoVacuum != SharcAutoVacuum.None)
        {
            // Largest root page 1 (only sqlite_schema so far); offset 64 says whether vacuuming is incremental.
            BinaryPrimitives.WriteUInt32BigEndian(page1.AsSpan(52), 1);
            BinaryPrimitives.WriteUInt32BigEndian(page1.AsSpan(64), options.AutoVacuum == SharcAutoVacuum.Incremental ? 1u : 0u);
        }
        try
        {
            using (var os = fs.Open(path, create: true))
            {
                var f = codec is null ? os : new EncryptedFile(os, codec);
                f.SetLength(0);
                f.Write(page1, 0);
                f.Sync();
            }
            var open = options.Open;
            return OpenWritable(path, open.Writable ? open : new SharcOpenOptions
            {
                Writable = true, CachePages = open.CachePages, BusyTimeout = open.BusyTimeout,
                SpillPages = open.SpillPages, WalAutoCheckpoint = open.WalAutoCheckpoint, ForeignKeys = open.ForeignKeys,
            }, fs, codec);
        }
        catch
        {
            codec?.Dispose();
            throw;
        }
    }

    /// <summary>Page 1 of a new database: SQLite's header with the given settings and an empty sqlite_schema leaf.</summary>
    private static void WriteNewHeader(Span<byte> page, int pageSize, SharcTextEncoding encoding, int reserve = 0)
    {
        "SQLite format 3\0"u8.CopyTo(page);
        BinaryPrimitives.WriteUInt16BigEndian(page[16..], (ushort)(pageSize == 65536 ? 1 : pageSize));
        page[18] = 1;
        page[19] = 1;
        page[20] = (byte)reserve;
        page[21] = 64;
        page[22] = 32;
        page[23] = 32;
        BinaryPrimitives.WriteUInt32BigEndian(page[24..], 1);   // change counter
        BinaryPrimitives.WriteUInt32BigEndian(page[28..], 1);   // pages
        BinaryPrimitives.WriteUInt32BigEndian(page[44..], 4);   // schema format
        BinaryPrimitives.WriteUInt32BigEndian(page[56..], (uint)encoding);
        BinaryPrimitives.WriteUInt32BigEndian(page[92..], 1);   // version-valid-for
        BinaryPrimitives.WriteUInt32BigEndian(page[96..], 3046001);
        PageWriter.Initialize(page, 1, BTree.BTreePageType.LeafTable, pageSize - reserve);
    }

    private static SharcDatabase OpenWritable(string path, SharcOpenOptions options) => OpenWritable(path, options, OsStorage.Instance);

    /// <summary>Opens for writing through a given file system (tests inject faults through it).</summary>
    internal static SharcDatabase OpenWritable(string path, SharcOpenOptions options, IStorageSystem fs, PageCodec? codec = null)
    {
        var file = fs.Open(path, create: false);
        try
        {
            string journalPath = path + "-journal";
            if (HotJournal.IsHot(fs, journalPath))
            {
                // A journal is hot only when no connection holds RESERVED (a live writer's journal is not), as in
                // SQLite. A hot one is rolled back on disk under EXCLUSIVE; when other connections hold the file, the
                // first of them to write rolls it back (Pager.BeginWrite checks under RESERVED).
                var recoveryLock = new FileLock(file.Handle);
                try
                {
                    if (recoveryLock.TryLock(LockLevel.Shared) && !recoveryLock.IsReservedByOther()
                        && HotJournal.IsHot(fs, journalPath) && recoveryLock.TryLock(LockLevel.Exclusive))
                        JournalRecovery.RollBack(fs, file, journalPath);
                }
                finally
                {
                    recoveryLock.UnlockTo(LockLevel.None);
                }
            }

            if (codec is null && options.Key is not null)
            {
                // The salt is the file's first 16 bytes (rolled back above, so they are the committed ones).
                Span<byte> start = stackalloc byte[PageCodec.SaltSize];
                int n = file.Read(start, 0);
                codec = PageCodec.Create(options.Key, options.Cipher, start[..n]);
            }
            if (codec is not null) file = new EncryptedFile(file, codec);
            if (file.Length == 0)
            {
                int size = codec?.PageSize ?? 4096;
                var page1 = new byte[size];
                WriteNewHeader(page1, size, SharcTextEncoding.Utf8, codec?.Reserve ?? 0);
                file.Write(page1, 0);
                file.Sync();
            }
            Span<byte> first = stackalloc byte[DatabaseHeader.Size];
            int got = file.Read(first, 0);
            var header = DatabaseHeader.Parse(first[..got]);
            if (codec is not null) CheckCipherLayout(header, codec);
            uint filePages = (uint)((file.Length + header.PageSize - 1) / header.PageSize);
            uint pageCount = header.IsPageCountValid ? header.HeaderPageCount : filePages;
            var pager = new Pager(fs, file, path, header.PageSize, header.UsableSize, pageCount, options.CachePages, options.BusyTimeout, options.SpillPages)
            {
                AutoCheckpoint = options.WalAutoCheckpoint,
                // The shared wal-index is not used with encryption: an encrypted WAL database is its sole user.
                WalSharing = codec is null ? options.WalSharing : SharcWalSharing.Exclusive,
            };
            var db = OpenOnPager(pager, header.IsWal, path);
            db.ForeignKeysEnabled = options.ForeignKeys;
            return db;
        }
        catch
        {
            file.Dispose();
            codec?.Dispose();
            throw;
        }
    }

    /// <summary>
    /// An authenticated page 1 whose header disagrees with the cipher settings. More reserved bytes than the cipher
    /// needs are fine (SQLCipher leaves 80 when a key is set before cipher_compatibility = 3): the b-tree honours the
    /// header's, the codec its own.
    /// </summary>
    private static void CheckCipherLayout(DatabaseHeader header, PageCodec codec)
    {
        if (header.PageSize != codec.PageSize || header.ReservedBytes < codec.Reserve)
            throw new SharcCryptoException($"the decrypted header says {header.PageSize}-byte pages with {header.ReservedBytes} reserved bytes, but the cipher settings need {codec.PageSize} and at least {codec.Reserve}", 1);
    }

    /// <summary>
    /// A database on a pager: in WAL mode the log is taken up first, and page 1 and the schema are read inside a
    /// read session (with the shared wal-index, only a session's read mark makes the log's frames safe to read).
    /// </summary>
    private static SharcDatabase OpenOnPager(Pager pager, bool wal, string path)
    {
        if (wal) pager.UseWal();
        if (!pager.IsWalShared) return new SharcDatabase(pager, ReadHeader(pager), path);
        pager.BeginRead();
        try
        {
            return new SharcDatabase(pager, ReadHeader(pager), path);
        }
        finally
        {
            pager.EndRead();
        }
    }

    /// <summary>
    /// A WAL database opened read-only, on a read-only pager sharing the wal-index, so every read session sees the
    /// newest commit; null where the -shm cannot be shared (the caller reads the snapshot committed at open).
    /// </summary>
    private static SharcDatabase? TryOpenSharedReadOnly(string path, SharcOpenOptions options)
    {
        if (options.WalSharing != SharcWalSharing.Shared || !Storage.Locking.OfdLock.IsSupported) return null;
        var fs = OsStorage.Instance;
        var file = fs.OpenReadOnly(path);
        Pager? pager = null;
        try
        {
            Span<byte> first = stackalloc byte[DatabaseHeader.Size];
            var header = DatabaseHeader.Parse(first[..file.Read(first, 0)]);
            uint filePages = (uint)((file.Length + header.PageSize - 1) / header.PageSize);
            pager = new Pager(fs, file, path, header.PageSize, header.UsableSize, header.IsPageCountValid ? header.HeaderPageCount : filePages,
                options.CachePages, options.BusyTimeout, options.SpillPages)
            {
                ReadOnly = true,
            };
            return OpenOnPager(pager, wal: true, path);
        }
        catch (SharcBusyException) when (pager is not null && !pager.IsWalShared)
        {
            // The -shm could not be mapped or locked here: the caller falls back to a snapshot.
            pager.Dispose();
            return null;
        }
        catch
        {
            if (pager is not null) pager.Dispose();
            else file.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Starts an explicit transaction: nothing is written to the file until <see cref="SharcTransaction.Commit"/>;
    /// disposing without committing rolls everything back. The transaction belongs to the calling thread (or async
    /// flow): while it is open, other threads' writes wait for it (up to the busy timeout) and their reads see only
    /// committed data. One transaction at a time per thread; a second <see cref="BeginTransaction"/> on the same
    /// thread throws <see cref="InvalidOperationException"/>.
    /// </summary>
    /// <exception cref="SharcBusyException">Another thread's transaction did not end within the busy timeout.</exception>
    public SharcTransaction BeginTransaction()
    {
        var pager = WritablePager;
        pager.Concurrency.EnterTransaction(pager.BusyTimeout, Path ?? "the database");
        try
        {
            pager.BeginWrite();
            AfterBegin();
            ForeignKeyState.BeginTransaction();
            _transaction = new SharcTransaction(this);
            return _transaction;
        }
        catch
        {
            if (pager.InTransaction) pager.Rollback();
            pager.Concurrency.Exit();
            throw;
        }
    }

    /// <summary>
    /// True when the calling thread (or async flow) has a write transaction open — begun by
    /// <see cref="BeginTransaction"/>, SQL BEGIN or SAVEPOINT — so that its writes now join that transaction instead
    /// of committing on their own. False on a read-only database and on threads other than the transaction's.
    /// </summary>
    public bool InTransaction => _pager is not null && OwnsTransaction;

    internal void CommitTransaction(SharcTransaction tx)
    {
        if (!ReferenceEquals(tx, _transaction)) throw new InvalidOperationException("this transaction is no longer active");
        // Deferred foreign key violations refuse the commit and leave the transaction open, as in SQLite.
        if (ForeignKeyState.DeferredViolations > 0) throw Write.ForeignKeys.Failed();
        _transaction = null;
        bool committed = false;
        try
        {
            BeforeCommit();
            ChainJoinedCommits();
            WritablePager.Commit();
            committed = true;
        }
        catch
        {
            if (WritablePager.InTransaction) WritablePager.Rollback();
            _schemaDirty = true;
            UnchainJoinedCommits();
            throw;
        }
        finally
        {
            AfterEnd();
            WritablePager.Concurrency.Exit();
            EndJoinedTransactions(committed);
        }
    }

    /// <summary>An unexpected failure inside a transaction: everything is rolled back and the transaction is dead.</summary>
    private void AbandonTransaction()
    {
        bool owned = _transaction is not null;
        _transaction?.MarkFailed();
        _transaction = null;
        try
        {
            if (WritablePager.InTransaction) WritablePager.Rollback();
        }
        finally
        {
            _schemaDirty = true;
            AfterEnd();
            if (owned) WritablePager.Concurrency.Exit();
            EndJoinedTransactions(commit: false);
        }
    }

    internal void RollbackTransaction(SharcTransaction tx)
    {
        if (!ReferenceEquals(tx, _transaction)) return;
        _transaction = null;
        try
        {
            WritablePager.Rollback();
        }
        finally
        {
            _schemaDirty = true; // DDL inside the transaction is undone too
            AfterEnd();
            WritablePager.Concurrency.Exit();
            EndJoinedTransactions(commit: false);
        }
    }

    private SharcSchema? _writersSchema;

    private void AfterBegin()
    {
        if (_pager!.ExternalChange)
        {
            _pager.ExternalChange = false;
            _writers.Clear();
        }
        // Table writers are built from a schema; another thread's committed DDL makes them stale. A schema not read
        // yet has no writers; it is read inside the statement, where a malformed one fails like any other error.
        var schema = State.LoadedSchema;
        if (!ReferenceEquals(_writersSchema, schema))
        {
            _writers.Clear();
            _writersSchema = schema;
        }
    }

    /// <summary>The transaction ended: its header and schema were published with the commit, or are dropped.</summary>
    private void AfterEnd()
    {
        _txState = null;
        if (_schemaDirty)
        {
            _schemaDirty = false;
            _writers.Clear();
        }
    }

    internal void ReloadSchema()
    {
        _schemaDirty = false;
        _writers.Clear();
        SetLoadedState(LoadState(null, reloadSchema: true));
        _writersSchema = Schema;
    }

    internal void MarkSchemaChanged() => _schemaDirty = true;

    /// <summary>auto_vacuum=FULL: every commit leaves no free page behind (pages move down, the file shrinks).</summary>
    private void BeforeCommit()
    {
        if (_mutator is null || !Header.IsAutoVacuum || Header.IncrementalVacuum != 0) return;
        var p = _source.Acquire(1);
        uint free;
        try { free = BinaryPrimitives.ReadUInt32BigEndian(p.Span[36..]); }
        finally { _source.Release(p); }
        if (free > 0) _mutator.Vacuum.Vacuum(0);
    }

    /// <summary>
    /// PRAGMA incremental_vacuum: in an auto_vacuum=INCREMENTAL database, removes up to <paramref name="pages"/> free
    /// pages (all of them when 0) by moving pages from the end of the file and truncating it.
    /// </summary>
    public void IncrementalVacuum(int pages = 0)
    {
        if (!Header.IsAutoVacuum) return;
        RunWrite(pages, static (db, n) => { db.Mutator.Vacuum.Vacuum(n); return 0; });
    }



    /// <summary>
    /// Runs one write operation: inside an explicit transaction as a statement (undone alone if it fails), otherwise
    /// as its own transaction (committed on success, rolled back on failure).
    /// </summary>
    internal T RunWrite<T, TState>(TState state, Func<SharcDatabase, TState, T> op, bool checkedBeforeWriting = false)
    {
        ThrowIfDisposed();
        var entered = EnterWriteStatement();
        try
        {
            return RunWriteOwned(state, op, checkedBeforeWriting);
        }
        finally
        {
            ExitWriteStatement(entered);
        }
    }

    private T RunWriteOwned<T, TState>(TState state, Func<SharcDatabase, TState, T> op, bool checkedBeforeWriting)
    {
        var pager = WritablePager;
        bool foreignKeys = ForeignKeysEnabled;
        if (foreignKeys) checkedBeforeWriting = false; // foreign keys are judged when the statement ends, after its writes
        if (_transaction is not null && checkedBeforeWriting)
        {
            // The operation checks its constraints before it writes anything, so it needs no statement savepoint:
            // a constraint error leaves nothing behind, and any other failure abandons the whole transaction.
            long writesBefore = pager.WriteCount;
            try
            {
                var r = op(this, state);
                pager.SpillIfNeeded();
                return r;
            }
            catch when (pager.WriteCount == writesBefore)
            {
                throw; // failed before touching a page: the transaction goes on
            }
            catch
            {
                AbandonTransaction();
                throw;
            }
        }
        if (_transaction is not null)
        {
            pager.BeginStatement();
            if (foreignKeys) BeginForeignKeyStatement(newTransaction: false);
            try
            {
                var r = op(this, state);
                if (foreignKeys) EndForeignKeyStatement(autocommit: false);
                pager.CommitStatement();
                if (_schemaDirty) ReloadSchema();
                pager.SpillIfNeeded();
                return r;
            }
            catch
            {
                if (foreignKeys) ForeignKeyState.RollbackStatement();
                pager.RollbackStatement();
                if (_schemaDirty) ReloadSchema();
                throw;
            }
        }
        pager.BeginWrite();
        AfterBegin();
        if (foreignKeys) BeginForeignKeyStatement(newTransaction: true);
        try
        {
            var r = op(this, state);
            if (foreignKeys) EndForeignKeyStatement(autocommit: true);
            BeforeCommit();
            pager.Commit();
            AfterEnd();
            return r;
        }
        catch
        {
            if (foreignKeys) ForeignKeyState.RollbackStatement();
            if (pager.InTransaction) pager.Rollback();
            _writers.Clear();
            ReloadSchema();
            throw;
        }
    }

    /// <param name="table">The table.</param>
    /// <param name="changesRows">False for a writer that only builds indexes (its rows stay as they are).</param>
    internal TableWriter WriterFor(string table, bool changesRows = true)
    {
        if (_writers.TryGetValue(table, out var w)) return w;
        var t = Schema.FindTable(table) ?? throw new SharcException($"no such table: {table}");
        if (t.Name.Equals("sqlite_schema", StringComparison.OrdinalIgnoreCase))
            throw new SharcException("table sqlite_schema may not be modified");
        w = new TableWriter(this, Mutator, t);
        _writers[table] = w;
        return w;
    }

    // ---------------------------------------------------------------- rows, the convenient form

    /// <summary>
    /// Inserts a row: one value per column, in declaration order (null for NULL; a null INTEGER PRIMARY KEY asks for
    /// a new rowid). Values may be null, integers, floating point numbers, bool, strings, byte arrays. Returns the rowid.
    /// </summary>
    /// <exception cref="SharcConstraintException">A NOT NULL, UNIQUE or PRIMARY KEY constraint would be broken.</exception>
    public long Insert(string table, params object?[] values)
        => RunWrite((table, values), static (db, s) => db.InsertCore(s.table, null, s.values, replace: false), checkedBeforeWriting: !HasTriggers(table));

    /// <summary>Inserts a row giving only some columns; the others take their DEFAULT. Returns the rowid.</summary>
    public long Insert(string table, string[] columns, object?[] values)
        => RunWrite((table, columns, values), static (db, s) => db.InsertCore(s.table, s.columns, s.values, replace: false), checkedBeforeWriting: !HasTriggers(table));

    /// <summary>
    /// Inserts a row, first deleting any row it conflicts with on the primary key or a UNIQUE constraint
    /// (SQLite's INSERT OR REPLACE). Returns the rowid.
    /// </summary>
    public long Upsert(string table, params object?[] values)
        => RunWrite((table, values), static (db, s) => db.InsertCore(s.table, null, s.values, replace: true));

    /// <summary>Like <see cref="Upsert(string, object?[])"/> for some columns.</summary>
    public long Upsert(string table, string[] columns, object?[] values)
        => RunWrite((table, columns, values), static (db, s) => db.InsertCore(s.table, s.columns, s.values, replace: true));

    private long InsertCore(string table, string[]? columns, object?[] values, bool replace)
    {
        var w = WriterFor(table);
        var t = w.Table;
        var row = new StoredValue[t.Columns.Count];
        var given = new bool[t.Columns.Count];
        var rowId = StoredValue.Null;
        if (columns is null)
        {
            // As INSERT INTO t VALUES(…): one value per column that is not generated.
            int writable = w.WritableColumnCount;
            if (values.Length != writable)
                throw new ArgumentException($"{t.Name} has {writable} columns but {values.Length} values were supplied.");
            for (int i = 0, v = 0; i < t.Columns.Count; i++)
                if (t.Columns[i].Generated == SharcGeneratedKind.None) Set(i, values[v++]);
        }
        else
        {
            if (columns.Length != values.Length) throw new ArgumentException("columns and values differ in length.");
            for (int i = 0; i < columns.Length; i++)
            {
                if (t.FindColumn(columns[i]) is null && !t.IsWithoutRowId && IsRowIdName(columns[i]))
                    rowId = StorageAffinity.FromObject(values[i], SharcAffinity.Integer, TextEncoding);
                else
                {
                    int ordinal = w.Ordinal(columns[i]);
                    w.CheckWritable(ordinal, insert: true);
                    Set(ordinal, values[i]);
                }
            }
        }
        w.FillDefaults(row, given);
        // Insert (no OR clause) lets each constraint's ON CONFLICT clause decide; an ignored row has no rowid: 0.
        if (!replace && t.HasConflictClauses && (!w.ResolveNotNull(row) || !w.ResolveUnique(row, rowId, out replace))) return 0;
        return w.HasTriggers ? Triggers.Insert(w, row, replace, rowId) : w.Insert(row, replace, rowId);

        void Set(int ordinal, object? value)
        {
            var c = t.Columns[ordinal];
            row[ordinal] = StorageAffinity.FromObject(value, c.Affinity, TextEncoding);
            given[ordinal] = true;
        }
    }

    internal static bool IsRowIdName(string name)
        => SqlNameComparer.Instance.Equals(name, "rowid") || SqlNameComparer.Instance.Equals(name, "oid") || SqlNameComparer.Instance.Equals(name, "_rowid_");

    /// <summary>Sets some columns of the row with <paramref name="rowId"/>; false when there is no such row.</summary>
    public bool Update(string table, long rowId, string[] columns, object?[] values)
        => RunWrite((table, rowId, columns, values), static (db, s) =>
        {
            var w = db.WriterFor(s.table);
            if (s.columns.Length != s.values.Length) throw new ArgumentException("columns and values differ in length.");
            var ords = new int[s.columns.Length];
            var vals = new StoredValue[s.columns.Length];
            for (int i = 0; i < ords.Length; i++)
            {
                ords[i] = w.Ordinal(s.columns[i]);
                w.CheckWritable(ords[i], insert: false);
                var c = w.Table.Columns[ords[i]];
                vals[i] = StorageAffinity.FromObject(s.values[i], c.Affinity, db.TextEncoding);
            }
            if (w.HasTriggers) return db.Triggers.Update(w, s.rowId, ords, vals);
            // Constraints that name their own ON CONFLICT algorithm resolve the update as SQL UPDATE does.
            if (w.Table.HasConflictClauses) return w.UpdateRow(s.rowId, ords, vals, null, Sql.Ast.SqlConflictAction.Default, new StoredValue[w.Table.Columns.Count], out _);
            return w.Update(s.rowId, ords, vals);
        });

    /// <summary>
    /// Sets some columns of the row whose primary key is <paramref name="key"/> (WITHOUT ROWID tables, declared
    /// PRIMARY KEYs, or the INTEGER PRIMARY KEY); false when there is no such row.
    /// </summary>
    public bool UpdateByKey(string table, object?[] key, string[] columns, object?[] values)
        => RunWrite((table, key, columns, values), static (db, s) =>
        {
            var w = db.WriterFor(s.table);
            var t = w.Table;
            if (s.columns.Length != s.values.Length) throw new ArgumentException("columns and values differ in length.");
            var keyValues = db.KeyValues(w, s.key);
            var ords = new int[s.columns.Length];
            var vals = new StoredValue[s.columns.Length];
            for (int i = 0; i < ords.Length; i++)
            {
                ords[i] = w.Ordinal(s.columns[i]);
                w.CheckWritable(ords[i], insert: false);
                vals[i] = StorageAffinity.FromObject(s.values[i], t.Columns[ords[i]].Affinity, db.TextEncoding);
            }
            if (w.HasTriggers) return w.RowIdForKey(keyValues) is { } rowId && db.Triggers.Update(w, rowId, ords, vals);
            if (t.HasConflictClauses)
            {
                if (!t.IsWithoutRowId)
                    return w.RowIdForKey(keyValues) is { } id && w.UpdateRow(id, ords, vals, null, Sql.Ast.SqlConflictAction.Default, new StoredValue[t.Columns.Count], out _);
                return w.UpdateByKey(keyValues, ords, vals, Sql.Ast.SqlConflictAction.Default, new StoredValue[t.Columns.Count]);
            }
            return w.UpdateByKey(keyValues, ords, vals);
        });

    private StoredValue[] KeyValues(TableWriter w, object?[] key)
    {
        var t = w.Table;
        if (t.PrimaryKey.Count != key.Length && !(t.RowIdAliasOrdinal >= 0 && key.Length == 1))
            throw new ArgumentException($"{t.Name}'s primary key has {t.PrimaryKey.Count} columns; {key.Length} values were given.");
        var vals = new StoredValue[key.Length];
        for (int i = 0; i < vals.Length; i++)
        {
            var c = t.Columns[t.PrimaryKey.Count > i ? t.PrimaryKey[i] : t.RowIdAliasOrdinal];
            vals[i] = StorageAffinity.FromObject(key[i], c.Affinity, TextEncoding);
        }
        return vals;
    }

    /// <summary>Deletes the row with <paramref name="rowId"/> (and its index entries); false when there is none.</summary>
    public bool Delete(string table, long rowId)
        => RunWrite((table, rowId), static (db, s) =>
        {
            var w = db.WriterFor(s.table);
            return w.HasTriggers ? db.Triggers.Delete(w, s.rowId) : w.DeleteRow(s.rowId);
        });

    /// <summary>
    /// Deletes the row whose primary key equals <paramref name="key"/> (WITHOUT ROWID tables, tables with a declared
    /// PRIMARY KEY, or the INTEGER PRIMARY KEY); false when there is none.
    /// </summary>
    public bool DeleteByKey(string table, params object?[] key)
        => RunWrite((table, key), static (db, s) =>
        {
            var w = db.WriterFor(s.table);
            var key = db.KeyValues(w, s.key);
            if (w.HasTriggers) return w.RowIdForKey(key) is { } rowId && db.Triggers.Delete(w, rowId);
            return w.DeleteByKey(key);
        });

    /// <summary>
    /// Prepares an insert for hot loops: set values on the returned <see cref="PreparedInsert"/> (typed, text as UTF-8
    /// spans) and call <see cref="PreparedInsert.Execute"/>; its buffers are reused, so after warm-up an insert
    /// allocates only what the b-tree needs when a page splits.
    /// </summary>
    public PreparedInsert PrepareInsert(string table, params string[] columns)
    {
        var w = WriterFor(table);
        return new PreparedInsert(this, w.Table, columns);
    }

    /// <summary>True when a trigger is attached to <paramref name="table"/> (its writes then run trigger programs).</summary>
    internal bool HasTriggers(string table)
    {
        var triggers = Schema.Triggers;
        for (int i = 0; i < triggers.Count; i++)
            if (SqlNameComparer.Instance.Equals(triggers[i].TableName, table)) return true;
        return Sql.Writes.TempTriggers.AnyOn(this, table);
    }

    // ---------------------------------------------------------------- sqlite_sequence

    internal long ReadSequence(string table)
    {
        var seq = Schema.FindTable("sqlite_sequence");
        if (seq is null) return 0;
        using var r = CreateReader("sqlite_sequence", "name", "seq");
        while (r.Read())
            if (SqlNameComparer.Instance.Equals(r.GetString(0), table)) return r.GetInt64(1);
        return 0;
    }

    internal void BumpSequence(string table, long rowId)
    {
        var seqTable = Schema.FindTable("sqlite_sequence") ?? throw new SharcCorruptException("sqlite_sequence is missing for an AUTOINCREMENT table");
        long found = -1, current = 0;
        using (var r = CreateReader("sqlite_sequence", "rowid", "name", "seq"))
        {
            while (r.Read())
            {
                if (!SqlNameComparer.Instance.Equals(r.GetString(1), table)) continue;
                found = r.GetInt64(0);
                current = r.GetInt64(2);
                break;
            }
        }
        if (found >= 0 && current >= rowId) return;
        var record = RecordWriter.ToArray([StoredValue.FromText(TextCodec.For(TextEncoding).GetBytes(table)), StoredValue.FromInteger(rowId)]);
        long target = found >= 0 ? found : Mutator.MaxRowId(seqTable.RootPage) + 1;
        Mutator.TableInsert(seqTable.RootPage, target, record);
    }
}
