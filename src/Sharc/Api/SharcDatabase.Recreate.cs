using System.Buffers.Binary;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>True when this connection has a reader in the middle of a read session.</summary>
    internal bool HasOpenReaders => _pager?.HasReaders ?? false;

    /// <summary>
    /// Rewrites a database that has no schema objects (one page, empty sqlite_schema) as a fresh one with the given
    /// page size, text encoding and auto-vacuum mode — what PRAGMA page_size / encoding / auto_vacuum do before the
    /// first table. user_version, application_id and the default cache size are kept; the file change counter and
    /// the schema cookie move on by one, as after SQLite's VACUUM, so other connections reload. The rewrite is
    /// journaled like a commit (Pager.ReplaceEmptyDatabase); afterwards this database goes on at the new page size
    /// with a new pager, as if just opened. Returns false, changing nothing, when the database is not empty (another
    /// connection may have added a table). The caller checks: writable, no transaction, no reader, not WAL.
    /// </summary>
    internal bool RecreateEmpty(int pageSize, SharcTextEncoding encoding, SharcAutoVacuum autoVacuum)
    {
        var next = WritablePager.ReplaceEmptyDatabase(old => IsEmptyPage1(old) ? NewPage1(old, pageSize, encoding, autoVacuum) : null);
        if (next is not null)
        {
            _pager = next;
            _source = next;
            _mutator = null;
        }
        ReloadSchema();
        return next is not null;
    }

    /// <summary>Page 1 as the only page of a database without schema objects: an empty table leaf.</summary>
    private static bool IsEmptyPage1(ReadOnlySpan<byte> page1)
        => page1[100] == 0x0D && BinaryPrimitives.ReadUInt16BigEndian(page1[103..]) == 0;

    private static byte[] NewPage1(ReadOnlySpan<byte> old, int pageSize, SharcTextEncoding encoding, SharcAutoVacuum autoVacuum)
    {
        var page = new byte[pageSize];
        WriteNewHeader(page, pageSize, encoding, old[20]);
        uint counter = BinaryPrimitives.ReadUInt32BigEndian(old[24..]) + 1;
        BinaryPrimitives.WriteUInt32BigEndian(page.AsSpan(24), counter);
        BinaryPrimitives.WriteUInt32BigEndian(page.AsSpan(92), counter);
        BinaryPrimitives.WriteUInt32BigEndian(page.AsSpan(40), BinaryPrimitives.ReadUInt32BigEndian(old[40..]) + 1);
        old.Slice(48, 4).CopyTo(page.AsSpan(48)); // default cache size
        old.Slice(60, 4).CopyTo(page.AsSpan(60)); // user_version
        old.Slice(68, 4).CopyTo(page.AsSpan(68)); // application_id
        if (autoVacuum != SharcAutoVacuum.None)
        {
            // Largest root page 1 (only sqlite_schema); offset 64 says whether vacuuming is incremental.
            BinaryPrimitives.WriteUInt32BigEndian(page.AsSpan(52), 1);
            BinaryPrimitives.WriteUInt32BigEndian(page.AsSpan(64), autoVacuum == SharcAutoVacuum.Incremental ? 1u : 0u);
        }
        return page;
    }
}
