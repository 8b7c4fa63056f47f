using System.Buffers.Binary;
using Sharc.Format;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Builds cells from record payloads: the part kept on the page by SQLite's local-size rule, the rest written to a
/// chain of overflow pages. Also frees a cell's overflow chain when the cell is deleted.
/// </summary>
internal sealed class CellBuilder
{
    private readonly Pager _pager;
    private readonly PageAllocator _allocator;
    private readonly PointerMap _map;

    public CellBuilder(Pager pager, PageAllocator allocator, PointerMap map)
    {
        _pager = pager;
        _allocator = allocator;
        _map = map;
    }

    private int Usable => _pager.UsableSize;

    private byte[] _scratch = new byte[256];

    /// <summary>
    /// A table leaf cell (payload size, rowid, local payload, overflow pointer), built in a buffer the builder reuses:
    /// valid until the next cell is built; copy it to keep it.
    /// </summary>
    public ReadOnlySpan<byte> TableLeaf(long rowId, ReadOnlySpan<byte> payload)
    {
        int local = CellParser.LocalSize(payload.Length, Usable, tableLeaf: true);
        int head = Varint.Length(payload.Length) + Varint.Length(rowId);
        int size = head + local + (local < payload.Length ? 4 : 0);
        if (_scratch.Length < size) _scratch = new byte[Math.Max(size, _scratch.Length * 2)];
        var cell = _scratch.AsSpan(0, size);
        int pos = Varint.Write(cell, payload.Length);
        pos += Varint.Write(cell[pos..], rowId);
        WritePayload(cell[pos..], payload, local);
        return cell;
    }

    /// <summary>An index leaf cell, built in the reused buffer (see <see cref="TableLeaf"/>).</summary>
    public ReadOnlySpan<byte> IndexLeaf(ReadOnlySpan<byte> payload)
    {
        int local = CellParser.LocalSize(payload.Length, Usable, tableLeaf: false);
        int size = Varint.Length(payload.Length) + local + (local < payload.Length ? 4 : 0);
        if (_scratch.Length < size) _scratch = new byte[Math.Max(size, _scratch.Length * 2)];
        var cell = _scratch.AsSpan(0, size);
        int pos = Varint.Write(cell, payload.Length);
        WritePayload(cell[pos..], payload, local);
        return cell;
    }

    /// <summary>An index interior cell (left child, then the leaf cell's bytes), built in the reused buffer (see <see cref="TableLeaf"/>).</summary>
    public ReadOnlySpan<byte> IndexInterior(uint leftChild, ReadOnlySpan<byte> payload)
    {
        int local = CellParser.LocalSize(payload.Length, Usable, tableLeaf: false);
        int size = 4 + Varint.Length(payload.Length) + local + (local < payload.Length ? 4 : 0);
        if (_scratch.Length < size) _scratch = new byte[Math.Max(size, _scratch.Length * 2)];
        var cell = _scratch.AsSpan(0, size);
        BinaryPrimitives.WriteUInt32BigEndian(cell, leftChild);
        int pos = 4 + Varint.Write(cell[4..], payload.Length);
        WritePayload(cell[pos..], payload, local);
        return cell;
    }

    /// <summary>The length of the index cell <see cref="IndexLeaf"/> (or, with 4 more bytes, <see cref="IndexInterior"/>) builds for a payload.</summary>
    public static int IndexLeafLength(int payload, int usable)
    {
        int local = CellParser.LocalSize(payload, usable, tableLeaf: false);
        return Varint.Length(payload) + local + (local < payload ? 4 : 0);
    }

    /// <summary>An index cell (leaf, or interior with a 4-byte left child first).</summary>
    public byte[] IndexCell(ReadOnlySpan<byte> payload, uint leftChild = 0, bool interior = false)
    {
        int local = CellParser.LocalSize(payload.Length, Usable, tableLeaf: false);
        int pre = interior ? 4 : 0;
        int head = pre + Varint.Length(payload.Length);
        var cell = new byte[head + local + (local < payload.Length ? 4 : 0)];
        if (interior) BinaryPrimitives.WriteUInt32BigEndian(cell, leftChild);
        int pos = pre + Varint.Write(cell.AsSpan(pre), payload.Length);
        WritePayload(cell.AsSpan(pos), payload, local);
        return cell;
    }

    /// <summary>A table interior cell: left child and the largest rowid under it.</summary>
    public static byte[] TableInterior(uint leftChild, long key)
    {
        var cell = new byte[4 + Varint.Length(key)];
        TableInterior(cell, leftChild, key);
        return cell;
    }

    /// <summary>A table interior cell written into <paramref name="dst"/> (13 bytes suffice); returns its length.</summary>
    public static int TableInterior(Span<byte> dst, uint leftChild, long key)
    {
        BinaryPrimitives.WriteUInt32BigEndian(dst, leftChild);
        return 4 + Varint.Write(dst[4..], key);
    }

    private void WritePayload(Span<byte> dst, ReadOnlySpan<byte> payload, int local)
    {
        payload[..local].CopyTo(dst);
        if (local == payload.Length) return;
        // Allocate the chain front to back; each page's first 4 bytes point to the next.
        var rest = payload[local..];
        int chunk = Usable - 4;
        uint first = _allocator.Allocate();
        BinaryPrimitives.WriteUInt32BigEndian(dst[local..], first);
        uint page = first;
        while (true)
        {
            int take = Math.Min(chunk, rest.Length);
            var buf = _pager.Write(page);
            rest[..take].CopyTo(buf.AsSpan(4));
            rest = rest[take..];
            if (rest.IsEmpty)
            {
                BinaryPrimitives.WriteUInt32BigEndian(buf, 0);
                buf.AsSpan(4 + take, _pager.PageSize - 4 - take).Clear();
                return;
            }
            uint next = _allocator.Allocate();
            BinaryPrimitives.WriteUInt32BigEndian(_pager.Write(page), next);
            _map.Put(next, PtrmapType.Overflow2, page);
            page = next;
        }
    }

    /// <summary>Frees the overflow chain of the cell at <paramref name="cell"/> on a page of <paramref name="type"/>.</summary>
    public void FreeOverflow(ReadOnlySpan<byte> page, int cell, BTreePageType type, uint pageNumber)
    {
        if (type == BTreePageType.InteriorTable) return;
        CellPayload p;
        if (type == BTreePageType.LeafTable) CellParser.TableLeaf(page, cell, Usable, pageNumber, out p);
        else CellParser.IndexCell(page, cell, Usable, pageNumber, type == BTreePageType.InteriorIndex, out p);
        FreeChain(p.Overflow, p.PayloadSize - p.LocalSize);
    }

    /// <summary>Frees the chain starting at <paramref name="first"/> that holds <paramref name="bytes"/> spilled bytes.</summary>
    public void FreeChain(uint first, long bytes)
    {
        uint page = first;
        int chunk = Usable - 4;
        long pages = (bytes + chunk - 1) / chunk;
        for (long i = 0; i < pages && page != 0; i++)
        {
            if (page > _pager.PageCount) ThrowHelper.Corrupt($"overflow page {page} is outside the database", page);
            var pr = _pager.Acquire(page);
            uint next;
            try
            {
                next = BinaryPrimitives.ReadUInt32BigEndian(pr.Span);
            }
            finally
            {
                _pager.Release(pr);
            }
            _allocator.Free(page);
            page = next;
        }
    }
}
