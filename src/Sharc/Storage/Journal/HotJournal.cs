using System.Buffers.Binary;
using Sharc.Storage.IO;

namespace Sharc.Storage.Journal;

/// <summary>
/// A hot rollback journal read without touching the database file: the original content of every page
/// the interrupted transaction changed, and the database size before it. Serving those pages over the
/// file gives exactly the state SQLite's rollback would restore.
/// </summary>
internal sealed class HotJournal
{
    private static ReadOnlySpan<byte> Magic => [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

    private readonly Dictionary<uint, byte[]> _originals;

    private HotJournal(Dictionary<uint, byte[]> originals, uint originalPageCount, int pageSize)
    {
        _originals = originals;
        OriginalPageCount = originalPageCount;
        PageSize = pageSize;
    }

    /// <summary>
    /// The page size the journal was written with: the database's size before the interrupted transaction, which
    /// may differ from page 1's now when that transaction changed the page size (PRAGMA page_size on an empty
    /// database). SQLite plays a journal back with its own page size too.
    /// </summary>
    public int PageSize { get; }

    /// <summary>The database size in pages before the interrupted transaction.</summary>
    public uint OriginalPageCount { get; }

    /// <summary>The number of pages restored from the journal.</summary>
    public int PageCount => _originals.Count;

    /// <summary>Every saved page and its original content.</summary>
    public IEnumerable<KeyValuePair<uint, byte[]>> Pages => _originals;

    /// <summary>The original content of <paramref name="page"/> when the journal holds it.</summary>
    public bool TryGetPage(uint page, out byte[] content) => _originals.TryGetValue(page, out content!);

    /// <summary>
    /// True when a journal file is hot in SQLite's sense: it exists, is not empty and its header is not zeroed
    /// (journal_mode=PERSIST commits by zeroing the header; DELETE and TRUNCATE by removing or emptying the file).
    /// </summary>
    public static bool IsHot(IStorageSystem fs, string journalPath)
    {
        if (fs.LengthOf(journalPath) <= 0) return false;
        try
        {
            using var h = fs.OpenReadOnly(journalPath);
            Span<byte> first = stackalloc byte[1];
            if (h.Read(first, 0) != 1 || first[0] == 0) return false;
            // Part of a commit across several files: it completed when its super-journal was deleted.
            return SuperJournalOf(h) is not { } super || fs.Exists(super);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            // Another connection committed (deleted its journal) between the two looks: there is nothing to recover.
            return false;
        }
    }

    /// <summary>The super-journal a journal's trailing pointer names (see <see cref="JournalWriter.WriteSuperJournal"/>), or null.</summary>
    public static string? SuperJournalOf(IStorageFile journal)
    {
        long size = journal.Length;
        if (size < 28) return null;
        Span<byte> tail = stackalloc byte[16];
        if (journal.Read(tail, size - 16) != 16) return null;
        uint length = BinaryPrimitives.ReadUInt32BigEndian(tail);
        uint sum = BinaryPrimitives.ReadUInt32BigEndian(tail[4..]);
        ReadOnlySpan<byte> magic = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
        if (!tail[8..].SequenceEqual(magic) || length == 0 || length > 4096 || length > size - 20) return null;
        var name = new byte[length];
        if (journal.Read(name, size - 16 - length) != length) return null;
        uint actual = 0;
        foreach (byte b in name) actual += (uint)(int)(sbyte)b;
        if (actual != sum) return null;
        return System.Text.Encoding.UTF8.GetString(name);
    }

    /// <summary>
    /// Reads the journal's records. Returns null when the journal does not describe a rollback to perform
    /// (bad magic, no valid record). Records with a wrong checksum end their segment, as in SQLite's playback.
    /// The first header's page size is the journal's (see <see cref="PageSize"/>); a later segment with another
    /// ends the journal.
    /// </summary>
    public static HotJournal? Read(IStorageFile journal)
    {
        int journalPageSize = 0;
        long length = journal.Length;
        var originals = new Dictionary<uint, byte[]>();
        uint originalSize = 0;
        bool sawHeader = false;
        long headerOffset = 0;
        Span<byte> hdr = stackalloc byte[28];
        Span<byte> word = stackalloc byte[4];

        while (headerOffset + 28 <= length)
        {
            if (journal.Read(hdr, headerOffset) != 28 || !hdr[..8].SequenceEqual(Magic)) break;
            uint nRec = BinaryPrimitives.ReadUInt32BigEndian(hdr[8..]);
            uint nonce = BinaryPrimitives.ReadUInt32BigEndian(hdr[12..]);
            uint initialSize = BinaryPrimitives.ReadUInt32BigEndian(hdr[16..]);
            uint sector = BinaryPrimitives.ReadUInt32BigEndian(hdr[20..]);
            uint pageSize = BinaryPrimitives.ReadUInt32BigEndian(hdr[24..]);
            if (sector < 32 || sector > 65536 || (sector & (sector - 1)) != 0) break;
            if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0) break;
            if (sawHeader && pageSize != journalPageSize) break;
            if (!sawHeader)
            {
                journalPageSize = (int)pageSize;
                originalSize = initialSize;
                sawHeader = true;
            }

            long recordSize = 4 + pageSize + 4;
            long recordsStart = headerOffset + sector;
            // 0xFFFFFFFF: the writer did not sync nRec (synchronous=OFF); every whole record to the end counts.
            // nRec is written (and synced) before the first database page is overwritten, so a hot journal with
            // nRec = 0 restores no page, only the original size, as SQLite's playback does.
            long count = nRec == 0xFFFFFFFF ? (length - recordsStart) / recordSize : nRec;

            long off = recordsStart;
            byte[] page = new byte[pageSize];
            bool ok = true;
            for (long i = 0; i < count && off + recordSize <= length; i++, off += recordSize)
            {
                journal.Read(word, off);
                uint pgno = BinaryPrimitives.ReadUInt32BigEndian(word);
                journal.Read(page, off + 4);
                journal.Read(word, off + 4 + pageSize);
                uint stored = BinaryPrimitives.ReadUInt32BigEndian(word);
                if (pgno == 0 || stored != RecordChecksum(nonce, page))
                {
                    ok = false;
                    break;
                }
                // The first copy of a page is its state before the transaction.
                if (!originals.ContainsKey(pgno)) originals[pgno] = (byte[])page.Clone();
            }
            if (!ok) break;
            if (nRec == 0xFFFFFFFF || nRec == 0) break;
            // The next segment header starts on a sector boundary after this segment's records.
            long end = recordsStart + count * recordSize;
            headerOffset = (end + sector - 1) / sector * sector;
        }

        if (!sawHeader) return null;
        return new HotJournal(originals, originalSize, journalPageSize);
    }

    /// <summary>SQLite's journal record checksum: the nonce plus every 200th byte counted back from the page end.</summary>
    internal static uint RecordChecksum(uint nonce, ReadOnlySpan<byte> page)
    {
        uint sum = nonce;
        for (int i = page.Length - 200; i > 0; i -= 200) sum += page[i];
        return sum;
    }
}
