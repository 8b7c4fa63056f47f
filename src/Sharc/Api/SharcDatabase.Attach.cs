using Sharc.Schema.Parsing;
using Sharc.Sql;
using Sharc.Storage.IO;

namespace Sharc;

/// <summary>
/// The other databases of a connection: the temp schema and those added by ATTACH. Each is a <see cref="SharcDatabase"/>
/// of its own (its own pager, journal, locks and schema) owned by the main one, which names them to the SQL compiler
/// through its <see cref="TempViews"/> catalog. SQLite keeps them per connection; a <see cref="SharcDatabase"/> is the
/// connection here, so every thread that uses it sees the same temp objects and attachments.
/// </summary>
public sealed partial class SharcDatabase
{
    /// <summary>SQLite's default SQLITE_MAX_ATTACHED.</summary>
    internal const int MaxAttached = 10;

    private SharcDatabase? _owner;
    private string _schemaName = "main";
    private readonly Lock _attachLock = new();

    /// <summary>The name the connection knows this database by: "main", "temp" or an ATTACH name.</summary>
    internal string SchemaName => _schemaName;

    /// <summary>The main database of the connection this one belongs to (itself for a main database).</summary>
    internal SharcDatabase Connection => _owner ?? this;

    /// <summary>The connection's temp database, made (in memory) the first time a TEMP object needs it.</summary>
    internal SharcDatabase TempDatabase
    {
        get
        {
            if (_owner is not null) return _owner.TempDatabase;
            lock (_attachLock)
            {
                if (_tempViews.FindDatabase("temp") is { } existing) return existing;
                var temp = OpenInMemory("temp");
                lock (_viewLock) _tempViews = _tempViews.WithDatabase(new AttachedDatabase("temp", temp, ""));
                return temp;
            }
        }
    }

    /// <summary>The database the connection calls <paramref name="name"/> ("main", "temp" even before it exists, or an ATTACH name), or null.</summary>
    internal SharcDatabase? FindDatabase(string name)
    {
        var connection = Connection;
        if (SqlNameComparer.Instance.Equals(name, "main")) return connection;
        if (SqlNameComparer.Instance.Equals(name, "temp")) return connection.TempDatabase;
        return connection._tempViews.FindDatabase(name);
    }

    /// <summary>The databases PRAGMA database_list shows: seq, name, file.</summary>
    internal IReadOnlyList<(int Seq, string Name, string File)> DatabaseList()
    {
        var connection = Connection;
        var list = new List<(int, string, string)> { (0, "main", connection.Path is null ? "" : System.IO.Path.GetFullPath(connection.Path)) };
        int seq = 2;
        foreach (var a in connection._tempViews.Databases)
        {
            if (SqlNameComparer.Instance.Equals(a.Name, "temp")) list.Insert(1, (1, "temp", ""));
            else list.Add((seq++, a.Name, a.File));
        }
        return list;
    }

    /// <summary>
    /// ATTACH DATABASE <paramref name="file"/> AS <paramref name="name"/>: ':memory:' and '' give a new private database
    /// in memory; a file opens with this database's open options (read-only when main is), and is created when
    /// missing if main is writable, as SQLite creates it.
    /// </summary>
    internal void AttachDatabase(string file, string name, string? key = null)
    {
        var connection = Connection;
        if (!ReferenceEquals(connection, this))
        {
            connection.AttachDatabase(file, name, key);
            return;
        }
        lock (_attachLock)
        {
            if (SqlNameComparer.Instance.Equals(name, "main") || SqlNameComparer.Instance.Equals(name, "temp") || _tempViews.FindDatabase(name) is not null)
                throw new SharcException($"database {name} is already in use");
            int attached = _tempViews.Databases.Count(d => !SqlNameComparer.Instance.Equals(d.Name, "temp"));
            if (attached >= MaxAttached) throw new SharcException($"too many attached databases - max {MaxAttached}");
            SharcDatabase db;
            string shown;
            if (file.Length == 0 || file == ":memory:")
            {
                db = OpenInMemory(name);
                shown = "";
            }
            else
            {
                shown = System.IO.Path.GetFullPath(file);
                db = OpenSibling(file, name, key);
            }
            lock (_viewLock) _tempViews = _tempViews.WithDatabase(new AttachedDatabase(name, db, shown));
        }
    }

    /// <summary>DETACH <paramref name="name"/>: refused for main and temp, and while the database has a transaction or an open reader.</summary>
    internal void DetachDatabase(string name)
    {
        var connection = Connection;
        if (!ReferenceEquals(connection, this))
        {
            connection.DetachDatabase(name);
            return;
        }
        lock (_attachLock)
        {
            // temp exists for SQLite only once a temp object was made; before that it is no database at all.
            if (SqlNameComparer.Instance.Equals(name, "main") || (SqlNameComparer.Instance.Equals(name, "temp") && _tempViews.FindDatabase("temp") is not null))
                throw new SharcException($"cannot detach database {name}");
            var db = _tempViews.FindDatabase(name) ?? throw new SharcException($"no such database: {name}");
            // As SQLite: a database that a transaction has written, or a statement is reading, stays attached.
            if (db._transaction is not null || db.HasOpenReaders)
                throw new SharcException($"database {name} is locked");
            lock (_viewLock) _tempViews = _tempViews.WithoutDatabase(name);
            db.Dispose();
        }
    }

    private SharcDatabase OpenInMemory(string name)
    {
        var db = OpenWritable(name, new SharcOpenOptions { Writable = true, ForeignKeys = ForeignKeysEnabled }, new MemoryStorage());
        db._owner = this;
        db._schemaName = name;
        return db;
    }

    /// <summary>
    /// Opens an attached file. <paramref name="keyText"/> is ATTACH's KEY as SQLCipher reads it ('' for plaintext);
    /// without one, an encrypted main database lends its key and cipher settings, as in SQLCipher.
    /// </summary>
    private SharcDatabase OpenSibling(string file, string name, string? keyText)
    {
        SharcDatabase db;
        using var given = keyText is { Length: > 0 } ? SharcEncryptionKey.Parse(keyText) : null;
        var key = keyText is null ? Codec?.Key : given;
        var cipher = key is null ? null : Codec?.Settings;
        if (_pager is { } pager)
        {
            if (!pager.Storage.Exists(file)) pager.Storage.Open(file, create: true).Dispose();
            db = OpenWritable(file, new SharcOpenOptions { Writable = true, BusyTimeout = pager.BusyTimeout, ForeignKeys = ForeignKeysEnabled, Key = key, Cipher = cipher }, pager.Storage);
        }
        else
        {
            if (!File.Exists(file)) throw new SharcException("unable to open database: " + file);
            db = Open(file, new SharcOpenOptions { Key = key, Cipher = cipher });
        }
        if (db.TextEncoding != TextEncoding)
        {
            db.Dispose();
            throw new SharcException("attached databases must use the same text encoding as main database");
        }
        db._owner = this;
        db._schemaName = name;
        return db;
    }

    /// <summary>Closes the temp and attached databases with the connection.</summary>
    private void DisposeAttached()
    {
        foreach (var a in _tempViews.Databases) a.Database.Dispose();
    }
}

public sealed partial class SharcDatabase
{
    /// <summary>
    /// Before a statement writes this temp or attached database inside the connection's transaction, this database
    /// joins it: a transaction of its own, with the connection's savepoints taken now (nothing was written here
    /// since they were set), so that ROLLBACK TO, RELEASE, COMMIT and ROLLBACK reach it too.
    /// </summary>
    internal void JoinConnectionTransaction()
    {
        var connection = Connection;
        if (ReferenceEquals(connection, this) || _pager is null || OwnsTransaction || !connection.OwnsTransaction) return;
        SqlBegin();
        foreach (var (name, _) in connection._savepoints) _savepoints.Add((name, WritablePager.TakeSnapshot()));
    }

    /// <summary>The temp and attached databases that joined the calling thread's transaction.</summary>
    private List<SharcDatabase> JoinedDatabases()
    {
        var joined = new List<SharcDatabase>();
        if (_owner is not null) return joined;
        foreach (var d in _tempViews.Databases)
            if (d.Database._pager is not null && d.Database.OwnsTransaction) joined.Add(d.Database);
        return joined;
    }

    /// <summary>
    /// Ends the joined databases' transactions with the connection's. Each file commits atomically on its own; a crash
    /// between two files' commits can leave one committed (Sharc writes no super-journal).
    /// </summary>
    private void EndJoinedTransactions(bool commit)
    {
        List<Exception>? errors = null;
        foreach (var joined in JoinedDatabases())
        {
            try
            {
                if (commit) joined.SqlCommit();
                else joined.SqlRollback();
            }
            catch (Exception e) when (commit)
            {
                (errors ??= []).Add(e);
            }
        }
        if (errors is not null) throw errors[0];
    }
}

public sealed partial class SharcDatabase
{
    private string? _superJournal;

    /// <summary>
    /// When the transaction wrote attached files as well as main, commits them as SQLite does (atomiccommit.html,
    /// "multi-file commit"): a super-journal listing every journal is made durable first; each journal then names it
    /// before its file is written; once every file is written and synced the super-journal is deleted — the commit
    /// point — and only then the journals. A crash before that point leaves every journal hot (all files roll back);
    /// after it, no journal is hot (all keep the commit). Memory databases (temp, ':memory:') take no part.
    /// </summary>
    private void ChainJoinedCommits()
    {
        _superJournal = null;
        if (_owner is not null || _pager is not { IsWal: false } pager || Path is null) return;
        var files = new List<SharcDatabase>();
        foreach (var d in JoinedDatabases())
            if (d._pager is { IsWal: false } p && p.Storage is not MemoryStorage) files.Add(d);
        if (files.Count == 0) return;

        var fs = pager.Storage;
        string super = System.IO.Path.GetFullPath(Path) + "-mj" + Random.Shared.Next().ToString("X8", System.Globalization.CultureInfo.InvariantCulture);
        var names = new System.Text.StringBuilder();
        names.Append(System.IO.Path.GetFullPath(pager.JournalPath)).Append('\0');
        foreach (var d in files) names.Append(System.IO.Path.GetFullPath(d._pager!.JournalPath)).Append('\0');
        using (var f = fs.Open(super, create: true))
        {
            f.SetLength(0);
            f.Write(System.Text.Encoding.UTF8.GetBytes(names.ToString()), 0);
            f.Sync();
        }
        _superJournal = super;

        // main's commit point commits the first attached file, whose commit point commits the next, … and the last
        // one's deletes the super-journal; the journals then go in reverse order as each commit returns.
        Action next = () => fs.Delete(super);
        for (int i = files.Count - 1; i >= 0; i--)
        {
            var d = files[i];
            var after = next;
            d._pager!.SuperJournal = super;
            next = () =>
            {
                d._pager!.CommitPoint = after;
                d.SqlCommit();
            };
        }
        pager.SuperJournal = super;
        pager.CommitPoint = next;
    }

    /// <summary>After a failed commit: no file keeps a pending commit point, and the super-journal goes once no journal needs it.</summary>
    private void UnchainJoinedCommits()
    {
        if (_superJournal is not { } super) return;
        _superJournal = null;
        var fs = _pager!.Storage;
        bool needed = Storage.Journal.HotJournal.IsHot(fs, _pager.JournalPath);
        foreach (var d in _tempViews.Databases)
        {
            if (d.Database._pager is not { } p) continue;
            p.SuperJournal = null;
            p.CommitPoint = null;
            needed |= p.Storage == fs && Storage.Journal.HotJournal.IsHot(fs, p.JournalPath);
        }
        try
        {
            // A journal still hot after the failure names the super-journal: deleting it would make that file keep a
            // half-done commit. Left on disk, the next opener rolls the journal back.
            if (!needed && fs.Exists(super)) fs.Delete(super);
        }
        catch (IOException)
        {
        }
    }
}
