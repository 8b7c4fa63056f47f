using System.Security.Cryptography;
using System.Text;
using Sharc.Schema;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;
using Sharc.Storage.Journal;

namespace Sharc;

/// <summary>Re-keying an encrypted database, and copies that add or remove encryption (as SQLCipher's sqlcipher_export).</summary>
public sealed partial class SharcDatabase
{
    /// <summary>True when the database is encrypted (opened with <see cref="SharcOpenOptions.Key"/>).</summary>
    public bool IsEncrypted => Codec is not null;

    internal PageCodec? Codec => _source switch
    {
        Storage.Pager p => p.Codec,
        Storage.FilePageSource f => f.Codec,
        _ => null,
    };

    /// <summary>
    /// Changes the key of this encrypted, writable database (SQLCipher's <c>PRAGMA rekey</c>): every page is rewritten
    /// under <paramref name="newKey"/> in one transaction, with the salt and cipher settings kept (a 96-digit raw key
    /// brings its own salt). It is crash-safe as any commit: until it commits the journal (or log) holds the pages under
    /// the old key, and a crash leaves the database readable with the old key. The whole database is held in memory
    /// while it is rewritten. The caller keeps ownership of <paramref name="newKey"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">The database is not encrypted, or a transaction is open.</exception>
    public void Rekey(SharcEncryptionKey newKey)
    {
        ArgumentNullException.ThrowIfNull(newKey);
        var pager = WritablePager;
        var current = pager.Codec ?? throw new InvalidOperationException("the database is not encrypted: ExportEncrypted or Encrypt make an encrypted copy");
        if (InTransaction) throw new InvalidOperationException("Rekey cannot run inside a transaction");
        var next = PageCodec.Create(newKey, current.Settings, current.Salt);
        pager.Concurrency.EnterTransaction(pager.BusyTimeout, Path ?? "the database");
        try
        {
            pager.Rekey(next);
        }
        finally
        {
            pager.Concurrency.Exit();
        }
    }

    /// <summary>
    /// SQLCipher's <c>PRAGMA cipher_integrity_check</c>: every page of the database file authenticated under the key,
    /// one line per page that fails ("HMAC verification failed for page N") and one for a partial last page ("page N
    /// has an invalid size of M bytes"); empty when all is well, null when the database is not encrypted. As in
    /// SQLCipher, the file is checked, not the write-ahead log.
    /// </summary>
    internal List<string>? CipherIntegrityCheck()
    {
        if (Codec is not { } codec || Path is null) return null;
        var fs = _source is Storage.Pager pager ? pager.Storage : OsStorage.Instance;
        using var file = fs.OpenReadOnly(Path);
        long length = file.Length;
        int pageSize = codec.PageSize;
        var raw = new byte[pageSize];
        var plain = new byte[pageSize];
        var problems = new List<string>();
        long pages = length / pageSize;
        for (long page = 1; page <= pages; page++)
        {
            int got = 0;
            while (got < pageSize && file.Read(raw.AsSpan(got), (page - 1) * pageSize + got) is var n and > 0) got += n;
            try
            {
                codec.Decrypt((uint)page, raw, plain);
            }
            catch (SharcCryptoException)
            {
                problems.Add($"HMAC verification failed for page {page}");
            }
        }
        if (length % pageSize != 0) problems.Add($"page {pages + 1} has an invalid size of {length % pageSize} bytes");
        CryptographicOperations.ZeroMemory(plain);
        return problems;
    }

    /// <summary>
    /// Writes a plaintext copy of this database (encrypted or not) to <paramref name="destinationPath"/>, as SQLCipher's
    /// <c>sqlcipher_export</c> into a plaintext database does: schema, rows (rowids kept), sqlite_sequence, user_version
    /// and application_id. The copy is built beside the destination and renamed over it once synced, so a crash leaves
    /// either no copy or a whole one.
    /// </summary>
    public void ExportPlaintext(string destinationPath) => ExportTo(destinationPath, null, null, OsStorage.Instance);

    /// <summary>
    /// Writes an encrypted copy of this database (plaintext, or encrypted under another key or settings) to
    /// <paramref name="destinationPath"/>, like <see cref="ExportPlaintext"/>.
    /// </summary>
    public void ExportEncrypted(string destinationPath, SharcEncryptionKey key, SharcCipherSettings? cipher = null)
    {
        ArgumentNullException.ThrowIfNull(key);
        ExportTo(destinationPath, key, cipher, OsStorage.Instance);
    }

    /// <summary>
    /// Encrypts the plaintext database at <paramref name="path"/> in place: an encrypted copy is built beside it and
    /// renamed over it once synced (a crash leaves the plaintext database, or the encrypted one). No other connection
    /// may have the database open.
    /// </summary>
    public static void Encrypt(string path, SharcEncryptionKey key, SharcCipherSettings? cipher = null)
        => EncryptThrough(path, key, cipher, OsStorage.Instance);

    /// <summary>Encrypts in place through a given file system (tests crash it at every write, sync and rename).</summary>
    internal static void EncryptThrough(string path, SharcEncryptionKey key, SharcCipherSettings? cipher, IStorageSystem fs)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(key);
        // A writable open first rolls back a hot journal, and a checkpoint empties the log: the side files left beside
        // the renamed copy then hold nothing that could be applied to it.
        using (var recover = OpenWritable(path, new SharcOpenOptions { Writable = true }, fs))
        {
            if (recover.IsEncrypted) throw new InvalidOperationException("the database is already encrypted");
            if (recover.Header.IsWal) recover.Checkpoint();
        }
        using var source = Open(path);
        source.ExportTo(path, key, cipher, fs);
    }

    /// <summary>Exports through a given file system (tests crash it at every write, sync and rename).</summary>
    internal void ExportTo(string destinationPath, SharcEncryptionKey? key, SharcCipherSettings? cipher, IStorageSystem fs)
    {
        ArgumentNullException.ThrowIfNull(destinationPath);
        ThrowIfDisposed();
        if (InTransaction) throw new InvalidOperationException("a copy cannot be made inside a transaction");
        string[] destinationSides = [destinationPath + "-journal", destinationPath + "-wal", destinationPath + "-shm"];
        // The replaced database's side files would be applied to the copy under its name: one that still holds
        // changes (a hot journal, a log with frames) is refused before anything is written.
        if (HotJournal.IsHot(fs, destinationSides[0]) || fs.LengthOf(destinationSides[1]) > 0)
            throw new InvalidOperationException($"{destinationPath} has a hot journal or a write-ahead log with frames: open it writable (or checkpoint it) before replacing it");
        string temp = destinationPath + ".sharc-export";
        var header = Header;
        bool replaced = false;
        try
        {
            using (var target = CreateThrough(temp, new SharcCreateOptions
                   {
                       Overwrite = true, Key = key, Cipher = cipher, TextEncoding = header.TextEncoding,
                       AutoVacuum = header.IsAutoVacuum ? (header.IncrementalVacuum != 0 ? SharcAutoVacuum.Incremental : SharcAutoVacuum.Full) : SharcAutoVacuum.None,
                   }, fs))
            {
                CopyInto(target);
            }
            // The side files left are empty or cold (checked above), so removing them loses nothing if the rename
            // never happens; after it they would only stand beside the new file.
            foreach (var side in destinationSides)
                if (fs.Exists(side)) fs.Delete(side);
            // The copy is whole and synced (its last commit): only now does it take the destination's name.
            fs.Replace(temp, destinationPath);
            replaced = true;
            // Until the directory is synced, a power failure may bring the old name back (whole, but old).
            fs.SyncDirectory(destinationPath);
        }
        finally
        {
            foreach (var leftover in new[] { temp, temp + "-journal", temp + "-wal", temp + "-shm" })
                DeleteLeftover(fs, leftover, quiet: !replaced);
        }
    }

    /// <summary>
    /// Removes a scratch file of a copy. After a failure the removal is best effort, so it never hides the failure;
    /// a copy left behind is overwritten by the next attempt.
    /// </summary>
    private static void DeleteLeftover(IStorageSystem fs, string path, bool quiet)
    {
        try
        {
            if (fs.Exists(path)) fs.Delete(path);
        }
        catch (IOException) when (quiet)
        {
        }
    }

    /// <summary>
    /// A logical copy in one transaction: tables and their rows, then indexes, views and triggers. Rowids are kept,
    /// except that <paramref name="asVacuum"/> numbers afresh (1, 2, …) the rows of rowid tables with neither an
    /// INTEGER PRIMARY KEY nor any index, as SQLite's in-place VACUUM does (its VACUUM INTO keeps them), and
    /// <paramref name="withStatistics"/> copies ANALYZE's sqlite_stat tables too, as both VACUUMs do.
    /// </summary>
    private void CopyInto(SharcDatabase target, bool asVacuum = false, bool withStatistics = false)
    {
        var schema = Schema;
        using var tx = target.BeginTransaction();
        target.Execute($"PRAGMA user_version = {Header.UserVersion}");
        target.Execute($"PRAGMA application_id = {Header.ApplicationId}");
        foreach (var table in schema.Tables)
        {
            if (table.IsVirtual) continue;
            if (!IsInternal(table.Name)) target.Execute(table.Sql);
            // ANALYZE's statistics are ordinary tables to SQLite's VACUUM: copied with the rest.
            else if (withStatistics && global::Sharc.Write.SchemaWriter.IsStatTable(table.Name))
                target.RunWrite(table.Sql, static (db, sql) =>
                {
                    new global::Sharc.Write.SchemaWriter(db) { AllowStatTables = true }.CreateTable(sql);
                    return 0;
                });
        }
        foreach (var table in schema.Tables)
            if (!table.IsVirtual && (!IsInternal(table.Name) || table.Name.Equals("sqlite_sequence", StringComparison.OrdinalIgnoreCase)
                                     || (withStatistics && global::Sharc.Write.SchemaWriter.IsStatTable(table.Name))))
                CopyRows(table, target, keepRowId: !asVacuum || schema.Indexes.Any(ix => ix.TableName.Equals(table.Name, StringComparison.OrdinalIgnoreCase)));
        foreach (var index in schema.Indexes)
            if (index.Sql is { Length: > 0 } sql) target.Execute(sql);
        foreach (var view in schema.Views) target.Execute(view.Sql);
        foreach (var trigger in schema.Triggers) target.Execute(trigger.Sql);
        tx.Commit();
    }

    private static bool IsInternal(string name) => name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase);

    private void CopyRows(SharcTable table, SharcDatabase target, bool keepRowId)
    {
        var columns = new List<string>();
        // A rowid that no column aliases is kept too (sqlcipher_export renumbers those; VACUUM keeps them).
        if (keepRowId && !table.IsWithoutRowId && table.RowIdAliasOrdinal < 0 && !table.Name.Equals("sqlite_sequence", StringComparison.OrdinalIgnoreCase))
            columns.Add("rowid");
        foreach (var c in table.Columns)
            if (c.Generated == SharcGeneratedKind.None && !c.IsHidden) columns.Add(c.Name);
        string list = string.Join(", ", columns.Select(Quote));
        var insert = new StringBuilder($"INSERT INTO {Quote(table.Name)}({list}) VALUES(");
        for (int i = 0; i < columns.Count; i++) insert.Append(i == 0 ? "?" : ", ?");
        string insertSql = insert.Append(')').ToString();
        if (table.Name.Equals("sqlite_sequence", StringComparison.OrdinalIgnoreCase)) target.Execute("DELETE FROM sqlite_sequence");
        using var reader = Query($"SELECT {list} FROM {Quote(table.Name)}");
        var values = new object?[columns.Count];
        while (reader.Read())
        {
            for (int i = 0; i < values.Length; i++) values[i] = reader.GetValue(i);
            target.Execute(insertSql, values);
        }
    }
}
