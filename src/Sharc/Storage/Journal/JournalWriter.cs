using System.Buffers.Binary;
using Sharc.Storage.Crypto;
using Sharc.Storage.IO;

namespace Sharc.Storage.Journal;

/// <summary>
/// Writes a rollback journal in SQLite's own format, so that SQLite (or Sharc) can roll an interrupted commit
/// back: a header sector (magic, record count, checksum nonce, original page count, sector size, page size),
/// then one record per page about to change — page number, original content, checksum. A transaction that spills
/// pages to the database before commit seals the journal first; records added after that go into a new segment
/// with its own header (on the next sector boundary), as SQLite's journal does.
/// </summary>
internal sealed class JournalWriter : IDisposable
{
    public const int SectorSize = 4096;
    private static ReadOnlySpan<byte> Magic => [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

    private readonly IStorageFile _file;
    private readonly IStorageSystem _fs;
    private bool _entryDurable;
    private readonly int _pageSize;
    private readonly uint _originalPageCount;
    private readonly byte[] _record;
    private readonly PageCodec? _codec;
    private uint _nonce;
    private long _end;
    private long _segment;
    private int _segmentRecords;
    private bool _sealed;

    // record: a buffer of pageSize + 8 bytes the pager keeps across transactions (else one is made).
    public JournalWriter(IStorageSystem fs, string path, int pageSize, uint originalPageCount, PageCodec? codec = null, byte[]? record = null)
    {
        Path = path;
        _fs = fs;
        _file = fs.Open(path, create: true);
        _file.SetLength(0);
        _pageSize = pageSize;
        _originalPageCount = originalPageCount;
        _record = record?.Length == pageSize + 8 ? record : new byte[pageSize + 8];
        _codec = codec;
        StartSegment(0);
    }

    /// <summary>A segment header with a record count of 0 (set by <see cref="Seal"/>) and a fresh checksum nonce.</summary>
    private void StartSegment(long offset)
    {
        _nonce = (uint)Random.Shared.Next();
        Span<byte> header = stackalloc byte[28];
        Magic.CopyTo(header);
        BinaryPrimitives.WriteUInt32BigEndian(header[8..], 0);
        BinaryPrimitives.WriteUInt32BigEndian(header[12..], _nonce);
        BinaryPrimitives.WriteUInt32BigEndian(header[16..], _originalPageCount);
        BinaryPrimitives.WriteUInt32BigEndian(header[20..], SectorSize);
        BinaryPrimitives.WriteUInt32BigEndian(header[24..], (uint)_pageSize);
        _file.Write(header, offset);
        _segment = offset;
        _segmentRecords = 0;
        _sealed = false;
        _end = offset + SectorSize;
    }

    public string Path { get; }

    public int RecordCount { get; private set; }

    /// <summary>Appends the original content of page <paramref name="page"/>.</summary>
    public void Append(uint page, ReadOnlySpan<byte> original)
    {
        if (_sealed) StartSegment((_end + SectorSize - 1) / SectorSize * SectorSize);
        BinaryPrimitives.WriteUInt32BigEndian(_record, page);
        var content = _record.AsSpan(4, _pageSize);
        // An encrypted database journals pages as it stores them (as SQLCipher does), so playing the journal back is
        // a plain copy and the checksum covers the stored bytes.
        if (_codec is not null) _codec.Encrypt(page, original, content);
        else original.CopyTo(content);
        BinaryPrimitives.WriteUInt32BigEndian(_record.AsSpan(4 + _pageSize), HotJournal.RecordChecksum(_nonce, content));
        _file.Write(_record, _end);
        _end += _record.Length;
        RecordCount++;
        _segmentRecords++;
    }

    /// <summary>
    /// Makes the journal durable before the database file is touched: sync the records, then write the record
    /// count into the header and sync again (SQLite's order with synchronous=FULL).
    /// </summary>
    public void Seal()
    {
        if (_sealed) return;
        if (_segmentRecords == 0)
        {
            // Nothing new to seal. The first header must still be durable: with a count of 0 it restores the
            // original size, undoing pages a spill appended past the end. A later segment stays open, so a reader
            // (Sharc's stops at a count of 0) never meets an empty segment before a full one.
            if (_segment == 0) Sync();
            return;
        }
        Sync();
        Span<byte> count = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(count, (uint)_segmentRecords);
        _file.Write(count, _segment + 8);
        _file.Sync();
        _sealed = true;
    }

    /// <summary>
    /// Syncs the journal; the first time, its directory too. The journal file is new: until the directory entry is
    /// durable a power failure can lose the whole file, and with it the way back for pages the commit then
    /// overwrites (SQLite syncs the directory at a new journal's first sync for the same reason).
    /// </summary>
    private void Sync()
    {
        _file.Sync();
        if (_entryDurable) return;
        _fs.SyncDirectory(Path);
        _entryDurable = true;
    }

    /// <summary>
    /// Appends SQLite's super-journal pointer (a commit across several files): on the next sector boundary after the
    /// records, the locking page's number, the super-journal's name, its length, the sum of its bytes and the journal
    /// magic, so that the pointer ends the file. Written before <see cref="Seal"/>, which makes it durable. A journal
    /// naming a super-journal that no longer exists is not hot: the commit it belongs to completed.
    /// </summary>
    public void WriteSuperJournal(string superJournal)
    {
        byte[] name = System.Text.Encoding.UTF8.GetBytes(superJournal);
        var pointer = new byte[name.Length + 20];
        BinaryPrimitives.WriteUInt32BigEndian(pointer, (uint)(0x40000000 / _pageSize + 1));
        name.CopyTo(pointer, 4);
        uint sum = 0;
        foreach (byte b in name) sum += (uint)(int)(sbyte)b;
        BinaryPrimitives.WriteUInt32BigEndian(pointer.AsSpan(4 + name.Length), (uint)name.Length);
        BinaryPrimitives.WriteUInt32BigEndian(pointer.AsSpan(8 + name.Length), sum);
        Magic.CopyTo(pointer.AsSpan(12 + name.Length));
        long at = (_end + SectorSize - 1) / SectorSize * SectorSize;
        _file.Write(pointer, at);
        if (_file.Length > at + pointer.Length) _file.SetLength(at + pointer.Length);
    }

    public void Dispose() => _file.Dispose();
}
