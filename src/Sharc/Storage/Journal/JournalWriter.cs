using System.Buffers.Binary;
using Sharc.Storage.IO;

namespace Sharc.Storage.Journal;

/// <summary>
/// Writes a rollback journal in SQLite's own format, so that SQLite (or Sharc) can roll an interrupted commit
/// back: a header sector (magic, record count, checksum nonce, original page count, sector size, page size),
/// then one record per page about to change — page number, original content, checksum.
/// </summary>
internal sealed class JournalWriter : IDisposable
{
    public const int SectorSize = 4096;
    private static ReadOnlySpan<byte> Magic => [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

    private readonly IStorageFile _file;
    private readonly int _pageSize;
    private readonly uint _nonce;
    private readonly byte[] _record;
    private long _end;

    public JournalWriter(IStorageSystem fs, string path, int pageSize, uint originalPageCount)
    {
        Path = path;
        _file = fs.Open(path, create: true);
        _file.SetLength(0);
        _pageSize = pageSize;
        _nonce = (uint)Random.Shared.Next();
        _record = new byte[pageSize + 8];
        Span<byte> header = stackalloc byte[28];
        Magic.CopyTo(header);
        BinaryPrimitives.WriteUInt32BigEndian(header[8..], 0);
        BinaryPrimitives.WriteUInt32BigEndian(header[12..], _nonce);
        BinaryPrimitives.WriteUInt32BigEndian(header[16..], originalPageCount);
        BinaryPrimitives.WriteUInt32BigEndian(header[20..], SectorSize);
        BinaryPrimitives.WriteUInt32BigEndian(header[24..], (uint)pageSize);
        _file.Write(header, 0);
        _end = SectorSize;
    }

    public string Path { get; }

    public int RecordCount { get; private set; }

    /// <summary>Appends the original content of page <paramref name="page"/>.</summary>
    public void Append(uint page, ReadOnlySpan<byte> original)
    {
        BinaryPrimitives.WriteUInt32BigEndian(_record, page);
        original.CopyTo(_record.AsSpan(4));
        BinaryPrimitives.WriteUInt32BigEndian(_record.AsSpan(4 + _pageSize), HotJournal.RecordChecksum(_nonce, original));
        _file.Write(_record, _end);
        _end += _record.Length;
        RecordCount++;
    }

    /// <summary>
    /// Makes the journal durable before the database file is touched: sync the records, then write the record
    /// count into the header and sync again (SQLite's order with synchronous=FULL).
    /// </summary>
    public void Seal()
    {
        _file.Sync();
        Span<byte> count = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(count, (uint)RecordCount);
        _file.Write(count, 8);
        _file.Sync();
    }

    public void Dispose() => _file.Dispose();
}
