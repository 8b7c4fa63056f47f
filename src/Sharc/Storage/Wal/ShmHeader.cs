using System.Runtime.InteropServices;

namespace Sharc.Storage.Wal;

/// <summary>
/// SQLite's wal-index header (WalIndexHdr): 48 bytes in the machine's byte order, kept twice at the start of the
/// -shm. A writer stores the second copy, then the first; a reader takes the first, then the second, and trusts them
/// only when both agree and the checksum over the first 40 bytes (native-order words) holds.
/// </summary>
internal struct ShmHeader : IEquatable<ShmHeader>
{
    public const int Size = 48;
    public const uint CurrentVersion = 3007000;

    public uint Version;
    public uint Unused;
    /// <summary>Bumped by every commit, so two snapshots with the same frame count still differ.</summary>
    public uint Change;
    public byte IsInit;
    public byte BigEndianSums;
    /// <summary>The page size, with 65536 stored as 1 (SQLite's encoding into 16 bits).</summary>
    public ushort PageSizeCode;
    /// <summary>The last committed frame: readers see frames 1..MxFrame.</summary>
    public uint MxFrame;
    /// <summary>The database size in pages after the last commit.</summary>
    public uint PageCount;
    public uint FrameSum0, FrameSum1;
    /// <summary>The log's salts as the -wal header holds them (big-endian values).</summary>
    public uint Salt1, Salt2;
    public uint Sum0, Sum1;

    public readonly int PageSize => PageSizeCode == 1 ? 65536 : PageSizeCode;

    public static ushort EncodePageSize(int pageSize) => (ushort)((pageSize & 0xff00) | (pageSize >> 16));

    public void Read(ReadOnlySpan<byte> b)
    {
        Version = MemoryMarshal.Read<uint>(b);
        Unused = MemoryMarshal.Read<uint>(b[4..]);
        Change = MemoryMarshal.Read<uint>(b[8..]);
        IsInit = b[12];
        BigEndianSums = b[13];
        PageSizeCode = MemoryMarshal.Read<ushort>(b[14..]);
        MxFrame = MemoryMarshal.Read<uint>(b[16..]);
        PageCount = MemoryMarshal.Read<uint>(b[20..]);
        FrameSum0 = MemoryMarshal.Read<uint>(b[24..]);
        FrameSum1 = MemoryMarshal.Read<uint>(b[28..]);
        // The salts are the -wal header's bytes copied as they are, so they read big-endian.
        Salt1 = System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(b[32..]);
        Salt2 = System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(b[36..]);
        Sum0 = MemoryMarshal.Read<uint>(b[40..]);
        Sum1 = MemoryMarshal.Read<uint>(b[44..]);
    }

    public readonly void Write(Span<byte> b)
    {
        MemoryMarshal.Write(b, in Version);
        MemoryMarshal.Write(b[4..], in Unused);
        MemoryMarshal.Write(b[8..], in Change);
        b[12] = IsInit;
        b[13] = BigEndianSums;
        MemoryMarshal.Write(b[14..], in PageSizeCode);
        MemoryMarshal.Write(b[16..], in MxFrame);
        MemoryMarshal.Write(b[20..], in PageCount);
        MemoryMarshal.Write(b[24..], in FrameSum0);
        MemoryMarshal.Write(b[28..], in FrameSum1);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(b[32..], Salt1);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(b[36..], Salt2);
        MemoryMarshal.Write(b[40..], in Sum0);
        MemoryMarshal.Write(b[44..], in Sum1);
    }

    /// <summary>Sets the checksum (and the init flag and version it covers) before the header is published.</summary>
    public void Seal()
    {
        IsInit = 1;
        Version = CurrentVersion;
        Span<byte> b = stackalloc byte[Size];
        Write(b);
        uint s0 = 0, s1 = 0;
        WalIndex.Checksum(b[..40], !BitConverter.IsLittleEndian, ref s0, ref s1);
        Sum0 = s0;
        Sum1 = s1;
    }

    /// <summary>True when the checksum matches the first 40 bytes and the header was initialized.</summary>
    public readonly bool IsValid(ReadOnlySpan<byte> raw)
    {
        if (IsInit == 0) return false;
        uint s0 = 0, s1 = 0;
        WalIndex.Checksum(raw[..40], !BitConverter.IsLittleEndian, ref s0, ref s1);
        return s0 == Sum0 && s1 == Sum1;
    }

    public readonly bool Equals(ShmHeader o)
        => Version == o.Version && Unused == o.Unused && Change == o.Change && IsInit == o.IsInit && BigEndianSums == o.BigEndianSums
           && PageSizeCode == o.PageSizeCode && MxFrame == o.MxFrame && PageCount == o.PageCount && FrameSum0 == o.FrameSum0
           && FrameSum1 == o.FrameSum1 && Salt1 == o.Salt1 && Salt2 == o.Salt2 && Sum0 == o.Sum0 && Sum1 == o.Sum1;

    public override readonly bool Equals(object? obj) => obj is ShmHeader h && Equals(h);

    public override readonly int GetHashCode() => HashCode.Combine(Change, MxFrame, Salt1, Salt2, Sum0);
}
