using System.Data;
using System.Data.Common;
using System.Diagnostics.CodeAnalysis;

namespace Sharc.Data;

/// <summary>
/// An ADO.NET connection to a SQLite database file, read and written by Sharc (no native SQLite). Connection strings
/// use Microsoft.Data.Sqlite's keywords (see <see cref="SharcConnectionStringBuilder"/>); one connection is one
/// <see cref="Sharc.SharcDatabase"/>, which <see cref="Database"/>'s sibling <see cref="SharcDatabase"/> exposes.
/// </summary>
public sealed partial class SharcConnection : DbConnection
{
    private string _connectionString = "";
    private SharcConnectionStringBuilder _settings = new();
    private SharcDatabase? _db;
    private string? _temporaryFile;
    private ConnectionState _state = ConnectionState.Closed;

    /// <summary>A closed connection with no connection string yet.</summary>
    public SharcConnection() { }

    /// <summary>A closed connection to open with <paramref name="connectionString"/>.</summary>
    /// <exception cref="ArgumentException">The string has a keyword Sharc does not know.</exception>
    public SharcConnection(string? connectionString) => ConnectionString = connectionString;

    /// <inheritdoc/>
    [AllowNull]
    public override string ConnectionString
    {
        get => _connectionString;
        set
        {
            if (_state != ConnectionState.Closed) throw new InvalidOperationException("The connection string cannot be changed while the connection is open.");
            _settings = new SharcConnectionStringBuilder(value);
            _connectionString = value ?? "";
        }
    }

    /// <summary>Always "main", the name SQLite gives the opened database.</summary>
    public override string Database => "main";

    /// <summary>The file name from the connection string (empty for a private in-memory database).</summary>
    public override string DataSource => _settings.DataSource;

    /// <summary>The version of SQLite whose behaviour Sharc follows (its oracle), as tools that check features expect.</summary>
    public override string ServerVersion => "3.53.3";

    /// <inheritdoc/>
    public override ConnectionState State => _state;

    /// <summary>The default command timeout in seconds (<c>Default Timeout</c>).</summary>
    public int DefaultTimeout => _settings.DefaultTimeout;

    /// <summary>The Sharc database this connection opened, for Sharc's own API next to ADO.NET.</summary>
    /// <exception cref="InvalidOperationException">The connection is not open.</exception>
    public SharcDatabase SharcDatabase => _db ?? (_keyPending ? OpenDatabase(nameof(SharcDatabase)) : throw new InvalidOperationException("The connection is not open: call Open() first."));

    /// <summary>The transaction begun with <see cref="BeginTransaction(IsolationLevel)"/> and not yet ended, if any.</summary>
    internal SharcDbTransaction? Transaction { get; set; }

    /// <inheritdoc/>
    protected override DbProviderFactory DbProviderFactory => SharcFactory.Instance;

    /// <summary>True: <see cref="SharcBatch"/> runs several commands in one call.</summary>
    public override bool CanCreateBatch => true;

    private SharcEncryptionKey? _key;

    /// <summary>
    /// Opens the database as the connection string says. <c>Mode=Memory</c> and <c>Data Source=:memory:</c> (or no
    /// data source) give a private database, kept in a temporary file deleted when the connection closes.
    /// </summary>
    /// <exception cref="SharcException">The file cannot be opened (missing in ReadWrite or ReadOnly mode, not a database…).</exception>
    /// <exception cref="NotSupportedException">The connection string asks for something Sharc does not do (a shared cache).</exception>
    /// <exception cref="SharcCryptoException">The Password does not open the encrypted database (wrong key, or not encrypted).</exception>
    public override void Open()
    {
        if (_state == ConnectionState.Open) return;
        if (_settings.Cache.Equals("Shared", StringComparison.OrdinalIgnoreCase)) throw new NotSupportedException("Sharc has no shared cache: use Cache=Default or Private.");
        // A password is a SQLCipher key, read as SQLCipher's PRAGMA key reads it (a passphrase, or x'hex' for a raw key).
        _key?.Dispose();
        _key = _settings.Password.Length > 0 ? SharcEncryptionKey.Parse(_settings.Password) : null;
        // An encrypted or new file waits for the first statement: it may be PRAGMA key, or cipher settings that go with
        // the key (SharcConnection.Key.cs), so a wrong Password is reported there, as by SQLCipher under Microsoft.Data.Sqlite.
        _cipher = null;
        _keyPending = KeyMayFollow();
        if (!_keyPending) OpenFile();
        _state = ConnectionState.Open;
        OnStateChange(new StateChangeEventArgs(ConnectionState.Closed, ConnectionState.Open));
    }

    /// <summary>Opens the file with the key known now (none, the Password, or a first PRAGMA key).</summary>
    private void OpenFile()
    {
        var mode = _settings.Mode;
        string path = _settings.DataSource;
        bool memory = mode == SharcOpenMode.Memory || path.Length == 0 || path == ":memory:";
        var open = new SharcOpenOptions
        {
            Key = _key,
            Cipher = _cipher,
            Writable = mode != SharcOpenMode.ReadOnly,
            ForeignKeys = _settings.ForeignKeys ?? false,
            BusyTimeout = TimeSpan.FromSeconds(_settings.DefaultTimeout),
        };
        if (memory)
        {
            _temporaryFile = Path.Combine(Path.GetTempPath(), "sharc-memory-" + Guid.NewGuid().ToString("N") + ".db");
            _db = SharcDatabase.Create(_temporaryFile, new SharcCreateOptions { Open = open, Key = _key, Cipher = _cipher });
        }
        else if (mode == SharcOpenMode.ReadWriteCreate && !File.Exists(path))
            _db = SharcDatabase.Create(path, new SharcCreateOptions { Open = open, Key = _key, Cipher = _cipher });
        else if (!File.Exists(path))
            throw new SharcException($"unable to open database file: {path} does not exist (Mode={mode} does not create it)");
        else
            _db = SharcDatabase.Open(path, open);
        ApplyRegistrations(_db);
        _keyPending = false;
    }

    /// <summary>Opens the database; completes synchronously (file opening is not asynchronous in Sharc), honouring <paramref name="cancellationToken"/> before it starts.</summary>
    public override Task OpenAsync(CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested) return Task.FromCanceled(cancellationToken);
        try
        {
            Open();
            return Task.CompletedTask;
        }
        catch (Exception e)
        {
            return Task.FromException(e);
        }
    }

    /// <summary>Rolls back an open transaction, closes the file and deletes a private in-memory database.</summary>
    public override void Close()
    {
        if (_state == ConnectionState.Closed) return;
        Transaction?.Dispose();
        Transaction = null;
        _db?.Dispose();
        _db = null;
        _unopened?.Dispose();
        _unopened = null;
        _keyPending = false;
        _key?.Dispose();
        _key = null;
        _cipher = null;
        if (_temporaryFile is not null)
        {
            foreach (var f in new[] { _temporaryFile, _temporaryFile + "-journal", _temporaryFile + "-wal", _temporaryFile + "-shm" })
                try { File.Delete(f); } catch (IOException) { } catch (UnauthorizedAccessException) { }
            _temporaryFile = null;
        }
        _state = ConnectionState.Closed;
        OnStateChange(new StateChangeEventArgs(ConnectionState.Open, ConnectionState.Closed));
    }

    /// <summary>Not supported: a connection has one database, "main".</summary>
    public override void ChangeDatabase(string databaseName) => throw new NotSupportedException("Sharc connections have one database, main.");

    /// <summary>A command on this connection.</summary>
    public new SharcCommand CreateCommand() => new() { Connection = this, CommandTimeout = DefaultTimeout };

    /// <inheritdoc/>
    protected override DbCommand CreateDbCommand() => CreateCommand();

    /// <inheritdoc/>
    protected override DbBatch CreateDbBatch() => new SharcBatch { Connection = this };

    /// <summary>Begins a transaction (serializable, as every SQLite transaction is).</summary>
    public new SharcDbTransaction BeginTransaction() => BeginTransaction(IsolationLevel.Unspecified);

    /// <summary>
    /// Begins a transaction. Unspecified, ReadUncommitted, ReadCommitted, RepeatableRead and Serializable all give
    /// SQLite's serializable transaction; Snapshot and Chaos are refused. There is one transaction at a time.
    /// </summary>
    /// <exception cref="InvalidOperationException">The connection is closed, or a transaction is already open.</exception>
    /// <exception cref="ArgumentException">The isolation level is Snapshot or Chaos.</exception>
    public new SharcDbTransaction BeginTransaction(IsolationLevel isolationLevel)
    {
        var db = OpenDatabase(nameof(BeginTransaction));
        if (isolationLevel is IsolationLevel.Snapshot or IsolationLevel.Chaos)
            throw new ArgumentException($"The IsolationLevel '{isolationLevel}' is not supported.", nameof(isolationLevel));
        if (Transaction is not null) throw new InvalidOperationException("SharcConnection does not support nested transactions.");
        Transaction = new SharcDbTransaction(this, db.BeginTransaction());
        return Transaction;
    }

    /// <inheritdoc/>
    protected override DbTransaction BeginDbTransaction(IsolationLevel isolationLevel) => BeginTransaction(isolationLevel);

    /// <summary>The open database, or the error Microsoft.Data.Sqlite gives when <paramref name="operation"/> meets a closed connection.</summary>
    internal SharcDatabase OpenDatabase(string operation)
    {
        // No PRAGMA key came first: the file opens without a key (an encrypted one then fails as it would have on Open).
        if (_db is null && _keyPending) OpenFile();
        return _db ?? throw new InvalidOperationException($"{operation} can only be called when the connection is open.");
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        if (disposing) Close();
        base.Dispose(disposing);
    }
}
