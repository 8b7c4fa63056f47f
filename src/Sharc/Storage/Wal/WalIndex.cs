using System.Buffers.Binary;
using Microsoft.Win32.SafeHandles;

namespace Sharc.Storage.Wal;

/// <summary>
/// The committed content of a write-ahead log, rebuilt from the -wal file itself (no -shm needed):
/// for each page, the file offset of its newest frame at or before the last valid commit frame.
/// </summary>
internal sealed class WalIndex
{
    public const int HeaderSize = 32;
    public const int FrameHeaderSize = 24;
    internal const uint MagicLittleEndian = 0x377f0682;
    internal const uint MagicBigEndian = 0x377f0683;
    internal const uint SupportedVersion = 3007000;

    private readonly Dictionary<uint, long> _frames;

    private WalIndex(Dictionary<uint, long> frames, uint pageCount, int frameCount, WalHeader header, long committedEnd, uint sum0, uint sum1)
    {
        _frames = frames;
        PageCount = pageCount;
        CommittedFrames = frameCount;
        Header = header;
        CommittedEnd = committedEnd;
        Sum0 = sum0;
        Sum1 = sum1;
    }

    /// <summary>The log's header when it is valid (a writer appends with its salts), else <see cref="WalHeader.Invalid"/>.</summary>
    public WalHeader Header { get; }

    /// <summary>The file offset just past the last committed frame: where the next frame goes.</summary>
    public long CommittedEnd { get; }

    /// <summary>The running checksum after the last committed frame (or the header), which the next frame continues.</summary>
    public uint Sum0 { get; }

    /// <inheritdoc cref="Sum0"/>
    public uint Sum1 { get; }

    /// <summary>Every page with a committed frame and the offset of its newest committed page data.</summary>
    public IReadOnlyDictionary<uint, long> Frames => _frames;

    /// <summary>The database size in pages recorded by the last commit frame; 0 when the log holds no commit.</summary>
    public uint PageCount { get; }

    /// <summary>The number of frames up to and including the last valid commit frame.</summary>
    public int CommittedFrames { get; }

    /// <summary>True when no committed frame exists, so the database file alone is current.</summary>
    public bool IsEmpty => CommittedFrames == 0;

    /// <summary>The offset in the WAL file of the page data of the newest committed frame for <paramref name="page"/>.</summary>
    public bool TryGetFrame(uint page, out long dataOffset) => _frames.TryGetValue(page, out dataOffset);

    /// <summary>
    /// Reads and validates the log. An invalid header, a frame with the wrong salts or checksum, or a truncated
    /// frame ends the log, as SQLite's recovery does; frames after the last commit frame are not visible.
    /// </summary>
    public static WalIndex Build(SafeFileHandle wal, int dbPageSize) => Build(Storage.IO.OsStorage.Wrap(wal), dbPageSize);

    /// <inheritdoc cref="Build(SafeFileHandle, int)"/>
    public static WalIndex Build(Storage.IO.IStorageFile wal, int dbPageSize)
    {
        var committed = new Dictionary<uint, long>();
        var pending = new Dictionary<uint, long>();
        var scan = Scan(wal, dbPageSize, (page, commitSize, offset) =>
        {
            pending[page] = offset + FrameHeaderSize;
            if (commitSize == 0) return;
            foreach (var kv in pending) committed[kv.Key] = kv.Value;
            pending.Clear();
        });
        if (!scan.Header.IsValid) return new WalIndex([], 0, 0, WalHeader.Invalid, 0, 0, 0);
        return new WalIndex(committed, scan.PageCount, scan.CommittedFrames, scan.Header, scan.CommittedEnd, scan.Sum0, scan.Sum1);
    }

    /// <summary>
    /// Validates the log frame by frame, as SQLite's recovery does, calling <paramref name="onFrame"/> (page, commit size,
    /// frame offset) for every valid frame in order; an invalid header, a frame with the wrong salts or checksum, or a
    /// truncated frame ends the log. Frames after the last commit frame are reported but not counted as committed.
    /// </summary>
    public static WalScan Scan(Storage.IO.IStorageFile wal, int dbPageSize, Action<uint, uint, long>? onFrame)
    {
        long length = wal.Length;
        if (length < HeaderSize) return default;

        Span<byte> header = stackalloc byte[HeaderSize];
        if (wal.Read(header, 0) != HeaderSize) return default;

        uint magic = BinaryPrimitives.ReadUInt32BigEndian(header);
        if (magic != MagicLittleEndian && magic != MagicBigEndian) return default;
        bool bigEndianSums = magic == MagicBigEndian;
        if (BinaryPrimitives.ReadUInt32BigEndian(header[4..]) != SupportedVersion) return default;

        int pageSize = (int)BinaryPrimitives.ReadUInt32BigEndian(header[8..]);
        if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0) return default;
        if (pageSize != dbPageSize)
            throw new SharcFormatException($"the -wal file uses {pageSize}-byte pages but the database uses {dbPageSize}-byte pages");

        uint salt1 = BinaryPrimitives.ReadUInt32BigEndian(header[16..]);
        uint salt2 = BinaryPrimitives.ReadUInt32BigEndian(header[20..]);
        uint s0 = 0, s1 = 0;
        Checksum(header[..24], bigEndianSums, ref s0, ref s1);
        if (s0 != BinaryPrimitives.ReadUInt32BigEndian(header[24..]) || s1 != BinaryPrimitives.ReadUInt32BigEndian(header[28..]))
            return default;

        var walHeader = new WalHeader(true, bigEndianSums, BinaryPrimitives.ReadUInt32BigEndian(header[12..]), salt1, salt2);
        var result = new WalScan { Header = walHeader, CommittedEnd = HeaderSize, Sum0 = s0, Sum1 = s1 };
        int frames = 0;
        int frameSize = FrameHeaderSize + pageSize;
        byte[] frame = new byte[frameSize];
        for (long off = HeaderSize; off + frameSize <= length; off += frameSize)
        {
            if (wal.Read(frame, off) != frameSize) break;
            var fh = frame.AsSpan(0, FrameHeaderSize);
            uint page = BinaryPrimitives.ReadUInt32BigEndian(fh);
            uint commitSize = BinaryPrimitives.ReadUInt32BigEndian(fh[4..]);
            if (page == 0) break;
            if (BinaryPrimitives.ReadUInt32BigEndian(fh[8..]) != salt1 || BinaryPrimitives.ReadUInt32BigEndian(fh[12..]) != salt2) break;
            Checksum(fh[..8], bigEndianSums, ref s0, ref s1);
            Checksum(frame.AsSpan(FrameHeaderSize, pageSize), bigEndianSums, ref s0, ref s1);
            if (s0 != BinaryPrimitives.ReadUInt32BigEndian(fh[16..]) || s1 != BinaryPrimitives.ReadUInt32BigEndian(fh[20..])) break;

            frames++;
            onFrame?.Invoke(page, commitSize, off);
            if (commitSize != 0)
            {
                result.PageCount = commitSize;
                result.CommittedFrames = frames;
                result.CommittedEnd = off + frameSize;
                result.Sum0 = s0;
                result.Sum1 = s1;
            }
        }
        return result;
    }

    /// <summary>
    /// Writes a fresh log header (SQLite's byte order for checksums: the machine's) and returns the running checksum
    /// the first frame continues from.
    /// </summary>
    public static (uint Sum0, uint Sum1) WriteHeader(Storage.IO.IStorageFile wal, WalHeader h, int pageSize)
    {
        Span<byte> head = stackalloc byte[HeaderSize];
        BinaryPrimitives.WriteUInt32BigEndian(head, h.BigEndianSums ? MagicBigEndian : MagicLittleEndian);
        BinaryPrimitives.WriteUInt32BigEndian(head[4..], SupportedVersion);
        BinaryPrimitives.WriteUInt32BigEndian(head[8..], (uint)pageSize);
        BinaryPrimitives.WriteUInt32BigEndian(head[12..], h.CheckpointSequence);
        BinaryPrimitives.WriteUInt32BigEndian(head[16..], h.Salt1);
        BinaryPrimitives.WriteUInt32BigEndian(head[20..], h.Salt2);
        uint s0 = 0, s1 = 0;
        Checksum(head[..24], h.BigEndianSums, ref s0, ref s1);
        BinaryPrimitives.WriteUInt32BigEndian(head[24..], s0);
        BinaryPrimitives.WriteUInt32BigEndian(head[28..], s1);
        wal.Write(head, 0);
        return (s0, s1);
    }

    /// <summary>Writes one frame (header with salts and running checksum, then the page) at <paramref name="offset"/>.</summary>
    public static void WriteFrame(Storage.IO.IStorageFile wal, Span<byte> frameHeader, in WalHeader h, uint page, uint commitSize,
        ReadOnlySpan<byte> data, long offset, ref uint s0, ref uint s1)
    {
        BinaryPrimitives.WriteUInt32BigEndian(frameHeader, page);
        BinaryPrimitives.WriteUInt32BigEndian(frameHeader[4..], commitSize);
        BinaryPrimitives.WriteUInt32BigEndian(frameHeader[8..], h.Salt1);
        BinaryPrimitives.WriteUInt32BigEndian(frameHeader[12..], h.Salt2);
        Checksum(frameHeader[..8], h.BigEndianSums, ref s0, ref s1);
        Checksum(data, h.BigEndianSums, ref s0, ref s1);
        BinaryPrimitives.WriteUInt32BigEndian(frameHeader[16..], s0);
        BinaryPrimitives.WriteUInt32BigEndian(frameHeader[20..], s1);
        wal.Write(frameHeader[..FrameHeaderSize], offset);
        wal.Write(data, offset + FrameHeaderSize);
    }

    /// <summary>SQLite's WAL checksum: two running 32-bit sums over pairs of 32-bit words.</summary>
    internal static void Checksum(ReadOnlySpan<byte> data, bool bigEndian, ref uint s0, ref uint s1)
    {
        for (int i = 0; i + 8 <= data.Length; i += 8)
        {
            uint x0, x1;
            if (bigEndian)
            {
                x0 = BinaryPrimitives.ReadUInt32BigEndian(data[i..]);
                x1 = BinaryPrimitives.ReadUInt32BigEndian(data[(i + 4)..]);
            }
            else
            {
                x0 = BinaryPrimitives.ReadUInt32LittleEndian(data[i..]);
                x1 = BinaryPrimitives.ReadUInt32LittleEndian(data[(i + 4)..]);
            }
            s0 += x0 + s1;
            s1 += x1 + s0;
        }
    }
}

/// <summary>What <see cref="WalIndex.Scan"/> found: the header and the state after the last commit frame.</summary>
internal struct WalScan
{
    public WalHeader Header;
    public uint PageCount;
    public int CommittedFrames;
    public long CommittedEnd;
    public uint Sum0, Sum1;
}

/// <summary>The fields of a WAL header a writer continues from: checksum byte order, checkpoint sequence, salts.</summary>
internal readonly record struct WalHeader(bool IsValid, bool BigEndianSums, uint CheckpointSequence, uint Salt1, uint Salt2)
{
    public static WalHeader Invalid => default;
}
