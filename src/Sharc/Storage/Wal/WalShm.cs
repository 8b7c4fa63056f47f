using System.IO.MemoryMappedFiles;
using System.Runtime.InteropServices;
using Sharc.Storage.IO;
using Sharc.Storage.Locking;

namespace Sharc.Storage.Wal;

/// <summary>
/// SQLite's wal-index, the -shm file, mapped into memory and shared with every connection of every process that has
/// the database open in WAL mode. Layout (SQLite's walformat): two copies of the 48-byte <see cref="ShmHeader"/>,
/// then the checkpoint information (nBackfill at 96, five read marks at 100, eight lock bytes at 120 that only serve
/// as byte-range lock targets, nBackfillAttempted at 128), 136 bytes in all; then hash tables in 32 KB regions, each
/// region a page-number array of 4096 frames followed by 8192 two-byte hash slots (the first region's array starts
/// after the 136-byte header, so it holds 4062 frames). Locks are Linux open-file-description locks on bytes 120..127
/// (write, checkpoint, recover, read 0..4) and 128 (DMS) of the file: they conflict with SQLite's POSIX locks in other
/// processes and in this one, and with other Sharc connections' (each has its own open file).
/// </summary>
internal sealed class WalShm : IDisposable
{
    public const int RegionSize = 32768;
    public const int HeaderAreaSize = 136;
    public const int LockOffset = 120;
    public const int WriteLock = 0, CheckpointLock = 1, RecoverLock = 2, FirstReadLock = 3, Readers = 5;
    public const int DmsOffset = 128;
    public const uint ReadMarkNotUsed = 0xffffffff;
    private const int FramesPerRegion = 4096;
    private const int FramesInFirstRegion = FramesPerRegion - HeaderAreaSize / 4;
    private const int HashSlots = FramesPerRegion * 2;
    private const int HashOffset = FramesPerRegion * 4;
    private const uint HashMultiplier = 383;
    private const int NBackfillOffset = 96, ReadMarkOffset = 100, BackfillAttemptedOffset = 128;

    private readonly string _path;
    private readonly IStorageFile _file;
    // Copy-on-write, so a reader thread's lookup never sees the list mid-growth; growth happens under _grow.
    private (MemoryMappedFile Map, MemoryMappedViewAccessor View, IntPtr Base)[] _regions = [];
    private readonly object _grow = new();
    private readonly IShmStoreHook? _hook;

    private WalShm(string path, IStorageFile file, IShmStoreHook? hook)
    {
        _path = path;
        _file = file;
        _hook = hook;
        Locks = new ShmLocks(file.Handle!);
    }

    /// <summary>The locks of this connection's open -shm file.</summary>
    public ShmLocks Locks { get; }

    /// <summary>
    /// Opens and maps the -shm as SQLite's unix VFS does: the first opener (no DMS lock anywhere) empties it, so the
    /// first reader rebuilds the index from the log; every opener then holds a read lock on the DMS byte for as long
    /// as it has the file open. Null where it cannot be shared (no OFD locks, a read-only file or directory).
    /// </summary>
    public static WalShm? TryOpen(IStorageSystem fs, string path, TimeSpan busyTimeout)
    {
        if (!OfdLock.IsSupported) return null;
        IStorageFile? file = ShmHandlePool.Rent(path);
        try
        {
            file ??= fs.Open(path, create: true);
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            return null;
        }
        if (file.Handle is null)
        {
            file.Dispose();
            return null;
        }
        var shm = new WalShm(path, file, fs as IShmStoreHook);
        try
        {
            LockWaiter.Acquire(shm.TryTakeDms, busyTimeout, $"{path}: another connection is initializing the wal-index");
            return shm;
        }
        catch
        {
            shm.Dispose();
            throw;
        }
    }

    private bool TryTakeDms()
    {
        var h = _file.Handle!;
        if (OfdLock.TrySet(h, 1, DmsOffset, 1))
        {
            // Nobody has the index open: whatever it holds may be stale (a crashed writer's), so it starts empty.
            _file.SetLength(3);
            return OfdLock.TrySet(h, 0, DmsOffset, 1);
        }
        return OfdLock.TrySet(h, 0, DmsOffset, 1);
    }

    /// <summary>The base address of region <paramref name="i"/>; zero when the file does not reach it and may not be extended.</summary>
    private IntPtr Region(int i, bool extend)
    {
        var regions = Volatile.Read(ref _regions);
        if (i < regions.Length) return regions[i].Base;
        lock (_grow) return Grow(i, extend);
    }

    private IntPtr Grow(int i, bool extend)
    {
        if (i < _regions.Length) return _regions[i].Base;
        long needed = (long)(i + 1) * RegionSize;
        long size = _file.Length;
        if (size < needed)
        {
            if (!extend) return IntPtr.Zero;
            // One byte at the end of each new 4 KB page, as SQLite extends it, so no page of the map is a hole.
            ReadOnlySpan<byte> zero = [0];
            for (long pg = size / 4096; pg < needed / 4096; pg++) _file.Write(zero, pg * 4096 + 4095);
        }
        var grown = new (MemoryMappedFile Map, MemoryMappedViewAccessor View, IntPtr Base)[i + 1];
        _regions.CopyTo(grown, 0);
        for (int r = _regions.Length; r <= i; r++)
        {
            var map = MemoryMappedFile.CreateFromFile(_file.Handle!, null, 0, MemoryMappedFileAccess.ReadWrite, HandleInheritability.None, leaveOpen: true);
            var view = map.CreateViewAccessor((long)r * RegionSize, RegionSize, MemoryMappedFileAccess.ReadWrite);
            grown[r] = (map, view, view.SafeMemoryMappedViewHandle.DangerousGetHandle() + (nint)view.PointerOffset);
        }
        Volatile.Write(ref _regions, grown);
        return grown[i].Base;
    }

    // ---- header and checkpoint information -------------------------------------------------------------------------

    /// <summary>Reads both header copies (first, then second, with a barrier between); true when they agree and are valid.</summary>
    public bool TryReadHeader(out ShmHeader header, bool extend)
    {
        header = default;
        var b = Region(0, extend);
        if (b == IntPtr.Zero) return false;
        Span<byte> copy0 = stackalloc byte[ShmHeader.Size], copy1 = stackalloc byte[ShmHeader.Size];
        ReadRaw(b, copy0);
        Interlocked.MemoryBarrier();
        ReadRaw(b + ShmHeader.Size, copy1);
        if (!copy0.SequenceEqual(copy1)) return false;
        header.Read(copy0);
        return header.IsValid(copy0);
    }

    /// <summary>True when the first header copy is still exactly <paramref name="header"/> (a snapshot is current).</summary>
    public bool HeaderIs(in ShmHeader header)
    {
        var b = Region(0, false);
        if (b == IntPtr.Zero) return false;
        Interlocked.MemoryBarrier();
        Span<byte> copy = stackalloc byte[ShmHeader.Size];
        ReadRaw(b, copy);
        var now = default(ShmHeader);
        now.Read(copy);
        return now.Equals(header);
    }

    /// <summary>Publishes a header: the second copy, a barrier, then the first, so a reader never trusts a torn one.</summary>
    public void WriteHeader(in ShmHeader header)
    {
        Span<byte> raw = stackalloc byte[ShmHeader.Size];
        header.Write(raw);
        var b = Region(0, true);
        _hook?.BeforeStore();
        WriteRaw(raw, b + ShmHeader.Size);
        Interlocked.MemoryBarrier();
        _hook?.BeforeStore();
        WriteRaw(raw, b);
        Interlocked.MemoryBarrier();
    }

    private static void ReadRaw(IntPtr from, Span<byte> to)
    {
        for (int i = 0; i < to.Length; i += 8) MemoryMarshal.Write(to[i..], Marshal.ReadInt64(from, i));
    }

    private static void WriteRaw(ReadOnlySpan<byte> from, IntPtr to)
    {
        for (int i = 0; i < from.Length; i += 8) Marshal.WriteInt64(to, i, MemoryMarshal.Read<long>(from[i..]));
    }

    public uint NBackfill
    {
        get => Load(0, NBackfillOffset);
        set => Store(0, NBackfillOffset, value);
    }

    public uint BackfillAttempted
    {
        set => Store(0, BackfillAttemptedOffset, value);
    }

    public uint ReadMark(int i) => Load(0, ReadMarkOffset + 4 * i);

    public void SetReadMark(int i, uint frame) => Store(0, ReadMarkOffset + 4 * i, frame);

    private uint Load(int region, int offset)
    {
        var b = Region(region, false);
        if (b == IntPtr.Zero) return 0;
        uint v = (uint)Marshal.ReadInt32(b, offset);
        Interlocked.MemoryBarrier();
        return v;
    }

    private void Store(int region, int offset, uint value)
    {
        _hook?.BeforeStore();
        Interlocked.MemoryBarrier();
        Marshal.WriteInt32(Region(region, true), offset, (int)value);
        Interlocked.MemoryBarrier();
    }

    // ---- hash tables ---------------------------------------------------------------------------------------------

    private static int RegionOf(uint frame) => (int)((frame + FramesPerRegion - FramesInFirstRegion - 1) / FramesPerRegion);

    private static uint ZeroOf(int region) => region == 0 ? 0 : (uint)(FramesInFirstRegion + (region - 1) * FramesPerRegion);

    private static int PageArray(int region) => region == 0 ? HeaderAreaSize : 0;

    private static int Hash(uint page) => (int)((page * HashMultiplier) & (HashSlots - 1));

    /// <summary>The page number frame <paramref name="frame"/> holds (the writer's or checkpointer's view of the index).</summary>
    public uint PageOf(uint frame)
    {
        int r = RegionOf(frame);
        var b = Region(r, false);
        return b == IntPtr.Zero ? 0 : (uint)Marshal.ReadInt32(b, PageArray(r) + 4 * (int)(frame - ZeroOf(r) - 1));
    }

    /// <summary>
    /// Records that frame <paramref name="frame"/> holds <paramref name="page"/> (under the write lock). A region's
    /// first frame clears it; entries left past the last commit by a writer that failed are removed first.
    /// </summary>
    public void Append(uint frame, uint page)
    {
        int r = RegionOf(frame);
        var b = Region(r, true);
        uint zero = ZeroOf(r);
        int idx = (int)(frame - zero);
        int pages = PageArray(r);
        if (idx == 1)
        {
            _hook?.BeforeStore();
            Clear(b + pages, RegionSize - pages);
        }
        else if (Marshal.ReadInt32(b, pages + 4 * (idx - 1)) != 0)
        {
            _hook?.BeforeStore();
            for (int s = 0; s < HashSlots; s++)
                if ((ushort)Marshal.ReadInt16(b, HashOffset + 2 * s) >= idx) Marshal.WriteInt16(b, HashOffset + 2 * s, 0);
            Clear(b + pages + 4 * (idx - 1), HashOffset - pages - 4 * (idx - 1));
        }
        int key = Hash(page);
        for (int n = 0; Marshal.ReadInt16(b, HashOffset + 2 * key) != 0; n++)
        {
            if (n >= HashSlots) ThrowHelper.Corrupt($"the wal-index hash table of region {r} is full");
            key = (key + 1) & (HashSlots - 1);
        }
        _hook?.BeforeStore();
        Marshal.WriteInt32(b, pages + 4 * (idx - 1), (int)page);
        Interlocked.MemoryBarrier();
        _hook?.BeforeStore();
        Marshal.WriteInt16(b, HashOffset + 2 * key, (short)idx);
    }

    /// <summary>The newest frame in [<paramref name="minFrame"/>, <paramref name="maxFrame"/>] holding <paramref name="page"/>; 0 when none.</summary>
    public uint Find(uint page, uint minFrame, uint maxFrame)
    {
        if (maxFrame == 0 || minFrame > maxFrame) return 0;
        for (int r = RegionOf(maxFrame); r >= RegionOf(minFrame); r--)
        {
            var b = Region(r, false);
            if (b == IntPtr.Zero) continue;
            uint zero = ZeroOf(r);
            int pages = PageArray(r);
            uint found = 0;
            int key = Hash(page);
            for (int n = 0; n < HashSlots; n++)
            {
                int idx = (ushort)Marshal.ReadInt16(b, HashOffset + 2 * key);
                if (idx == 0) break;
                uint frame = (uint)idx + zero;
                if (frame <= maxFrame && frame >= minFrame && (uint)Marshal.ReadInt32(b, pages + 4 * (idx - 1)) == page) found = frame;
                key = (key + 1) & (HashSlots - 1);
            }
            if (found != 0) return found;
        }
        return 0;
    }

    private static void Clear(IntPtr at, int length)
    {
        for (int i = 0; i + 8 <= length; i += 8) Marshal.WriteInt64(at, i, 0);
        for (int i = length & ~7; i < length; i++) Marshal.WriteByte(at, i, 0);
    }

    /// <summary>Drops this connection's locks and map, and parks the descriptor (see <see cref="ShmHandlePool"/>).</summary>
    public void Dispose()
    {
        foreach (var (map, view, _) in _regions)
        {
            view.Dispose();
            map.Dispose();
        }
        _regions = [];
        Locks.UnlockAll();
        ShmHandlePool.Return(_path, _file);
    }
}

/// <summary>The wal-index locks (SQLite's slots 0..7 at bytes 120..127 of the -shm) through one open file description.</summary>
internal sealed class ShmLocks
{
    private readonly Microsoft.Win32.SafeHandles.SafeFileHandle _handle;

    public ShmLocks(Microsoft.Win32.SafeHandles.SafeFileHandle handle) => _handle = handle;

    public bool TryShared(int slot) => OfdLock.TrySet(_handle, 0, WalShm.LockOffset + slot, 1);

    public bool TryExclusive(int slot, int count = 1) => OfdLock.TrySet(_handle, 1, WalShm.LockOffset + slot, count);

    public void Unlock(int slot, int count = 1) => OfdLock.TrySet(_handle, 2, WalShm.LockOffset + slot, count);

    /// <summary>Every lock slot and the DMS byte.</summary>
    public void UnlockAll() => OfdLock.TrySet(_handle, 2, WalShm.LockOffset, WalShm.DmsOffset - WalShm.LockOffset + 1);
}
