using System.Buffers.Binary;
using Sharc.Storage;
using Sharc.Storage.Concurrency;
using Sharc.Storage.IO;

namespace Sharc;

/// <summary>VACUUM and VACUUM INTO: a compact image rebuilt from one consistent state of the database.</summary>
public sealed partial class SharcDatabase
{
    internal const string VacuumInTransactionMessage = "cannot VACUUM from within a transaction";

    /// <summary>An auto_vacuum mode set (PRAGMA auto_vacuum) while the database had content: the next VACUUM applies it.</summary>
    internal SharcAutoVacuum? PendingAutoVacuum { get; set; }

    /// <summary>
    /// A page size set (PRAGMA page_size) while the database had content: the next VACUUM applies it in rollback-journal
    /// mode, and VACUUM INTO's copy takes it, as in SQLite.
    /// </summary>
    internal int? PendingPageSize { get; set; }

    /// <summary>
    /// Rebuilds the database compactly, as SQLite's VACUUM does: every table, index, view and trigger is copied into a
    /// new image (rowids kept, sqlite_sequence and the header's user_version, application_id, page size, text
    /// encoding and auto_vacuum mode kept), which then overwrites the file in one transaction, journaled (or logged
    /// in WAL mode) like any commit: a crash at any point leaves either the old database or the new one. Afterwards
    /// the freelist is empty and the file holds only the pages its content needs. The image is built in memory, so
    /// the database must fit in memory. An encrypted database stays encrypted under the same key. After
    /// <c>PRAGMA page_size</c> (in rollback-journal mode) or <c>PRAGMA auto_vacuum</c> changed on a database with
    /// content, VACUUM applies the new setting, as SQLite does.
    /// </summary>
    /// <exception cref="SharcReadOnlyException">The database was not opened for writing.</exception>
    /// <exception cref="InvalidOperationException">A transaction is open (SQLite: "cannot VACUUM from within a transaction").</exception>
    public void Vacuum()
    {
        ThrowIfDisposed();
        if (_pager is not { ReadOnly: false }) throw new SharcReadOnlyException();
        if (InTransaction) throw new InvalidOperationException(VacuumInTransactionMessage);
        // As SQLite: a pending page size is applied in rollback-journal mode, and forgotten in WAL mode.
        if (PendingPageSize is int size && size != PageSize && Codec is null && JournalMode != SharcJournalMode.Wal)
        {
            VacuumAtPageSize(size);
            return;
        }
        RunWrite(0, static (db, _) =>
        {
            db.VacuumInTransaction();
            return 0;
        });
    }

    /// <summary>
    /// Writes a compact copy of the database to <paramref name="path"/>, as SQLite's <c>VACUUM INTO</c>: built from one
    /// read snapshot, so it is one committed state however other threads write meanwhile (they are not blocked), and
    /// written beside the target then renamed onto it once synced, so a crash leaves no partial copy under that name.
    /// The copy of an encrypted database is encrypted under the same key. The copy is built in memory first.
    /// </summary>
    /// <exception cref="SharcException">The target exists and is not empty (SQLite: "output file already exists").</exception>
    /// <exception cref="InvalidOperationException">A transaction is open.</exception>
    public void VacuumInto(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        ThrowIfDisposed();
        if (InTransaction) throw new InvalidOperationException(VacuumInTransactionMessage);
        if (File.Exists(path) && new FileInfo(path).Length > 0) throw new SharcException("output file already exists");
        var codec = Codec;
        // An encrypted database's page size is its cipher's.
        int pageSize = codec is null ? PendingPageSize ?? PageSize : PageSize;
        InReadSession((path, codec, pageSize, autoVacuum: PendingAutoVacuum), static (source, s) =>
        {
            using var image = source.BuildCompactImage(s.pageSize, s.autoVacuum, inPlace: false);
            CopyPagesToFile(image.Source, s.path, s.codec, null);
            return 0;
        });
    }

    /// <summary>Inside the write transaction: the compact image of the database, then written over every page.</summary>
    private void VacuumInTransaction()
    {
        // The writer's view, nothing written yet: the write lock keeps other writers out until the commit.
        using var image = InReadSession(PendingAutoVacuum, static (source, autoVacuum) => source.BuildCompactImage(source.PageSize, autoVacuum, inPlace: true));
        WritablePager.OverwriteWith(image.Source, KeepIdentity);
        PendingAutoVacuum = null;
        // Page numbers, the freelist and every root page changed: the b-tree state and the schema are read afresh.
        _mutator = null;
        MarkSchemaChanged();
    }

    /// <summary>
    /// VACUUM after PRAGMA page_size: the image is built at the new size and the file rewritten at it
    /// (<see cref="Pager.ReplaceWithImage"/>, journaled at the old size); the connection goes on with a new pager. No
    /// reader of this database may be open meanwhile.
    /// </summary>
    private void VacuumAtPageSize(int pageSize)
    {
        var pager = WritablePager;
        pager.Concurrency.EnterTransaction(pager.BusyTimeout, Path ?? "the database");
        try
        {
            using var image = InReadSession((pageSize, autoVacuum: PendingAutoVacuum), static (source, s) => source.BuildCompactImage(s.pageSize, s.autoVacuum, inPlace: true));
            var next = pager.ReplaceWithImage(image.Source, KeepIdentity);
            _pager = next;
            _source = next;
            _mutator = null;
            PendingPageSize = null;
            PendingAutoVacuum = null;
            next.Concurrency.Publish(next.PageCount, null);
        }
        finally
        {
            pager.Concurrency.Exit();
        }
        ReloadSchema();
    }

    /// <summary>
    /// The new page 1 of a database overwritten by another image keeps what belongs to the file rather than the
    /// content: its journal mode (WAL's file format 2), its change counter (the commit moves it on) and a schema cookie
    /// one past its own, so that every connection reloads the schema, as after SQLite's VACUUM.
    /// </summary>
    private static void KeepIdentity(byte[] old, byte[] page)
    {
        page[18] = old[18];
        page[19] = old[19];
        old.AsSpan(24, 4).CopyTo(page.AsSpan(24));
        BinaryPrimitives.WriteUInt32BigEndian(page.AsSpan(40), BinaryPrimitives.ReadUInt32BigEndian(old.AsSpan(40)) + 1);
        old.AsSpan(48, 4).CopyTo(page.AsSpan(48));
    }

    /// <summary>
    /// Runs <paramref name="op"/> on a read-only database over one read session of this one: the latest commit (or,
    /// inside this flow's transaction, the writer's view), however many queries <paramref name="op"/> runs.
    /// </summary>
    private T InReadSession<TState, T>(TState state, Func<SharcDatabase, TState, T> op)
    {
        if (_pager is null)
        {
            if (_source.BeginRead()) ReloadReadOnlyState();
            try
            {
                return op(this, state);
            }
            finally
            {
                _source.EndRead();
            }
        }
        var view = new PageView(_pager);
        var session = BeginReadSession(view);
        try
        {
            using var snapshot = new SharcDatabase(new SessionPageSource(view), session.Header, Path);
            return op(snapshot, state);
        }
        finally
        {
            EndReadSession(view);
        }
    }

    /// <summary>
    /// A compact copy of this database in memory, with its reserved bytes and text encoding, the given page size and
    /// auto_vacuum mode (null: this database's): tables and rows in schema order, then indexes (built bottom-up), views and triggers.
    /// </summary>
    private SharcDatabase BuildCompactImage(int pageSize, SharcAutoVacuum? autoVacuum, bool inPlace)
    {
        var header = new byte[DatabaseHeader.Size];
        var first = _source.Acquire(1);
        try
        {
            first.Span[..header.Length].CopyTo(header);
        }
        finally
        {
            _source.Release(first);
        }
        var fs = new MemoryStorage();
        const string name = "vacuum";
        fs.Open(name, create: true).Write(NewPage1(header, pageSize, TextEncoding, autoVacuum ?? (SharcAutoVacuum)Header.AutoVacuumMode), 0);
        // Spilling would only copy pages from memory to memory: the image keeps its pages until it is dropped.
        var image = OpenWritable(name, new SharcOpenOptions { Writable = true, SpillPages = int.MaxValue }, fs);
        try
        {
            CopyInto(image, asVacuum: inPlace, withStatistics: true);
            return image;
        }
        catch
        {
            image.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Writes the pages of <paramref name="image"/> to a file beside <paramref name="path"/> (through
    /// <paramref name="codec"/> when encrypted), syncs it and renames it onto <paramref name="path"/>, whose stale
    /// journal, log and wal-index go first. <paramref name="afterPage"/> hears of each page written (progress,
    /// cancellation); on any failure the partial file is deleted and the target is left as it was.
    /// </summary>
    private static void CopyPagesToFile(IPageSource image, string path, Storage.Crypto.PageCodec? codec, Action<uint, uint>? afterPage)
    {
        string temp = path + ".sharc-copy";
        try
        {
            using (var os = OsStorage.Instance.Open(temp, create: true))
            {
                IStorageFile file = codec is null ? os : new Storage.Crypto.EncryptedFile(os, codec);
                file.SetLength(0);
                Pager.WriteImage(image, file, null, afterPage);
                file.Sync();
            }
            foreach (var side in new[] { "-journal", "-wal", "-shm" })
                if (File.Exists(path + side)) File.Delete(path + side);
            File.Move(temp, path, overwrite: true);
            DirectorySync.SyncParentOf(path);
        }
        finally
        {
            if (File.Exists(temp)) File.Delete(temp);
        }
    }
}
