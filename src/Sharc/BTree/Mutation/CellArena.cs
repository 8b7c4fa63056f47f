using System.Buffers.Binary;

namespace Sharc.BTree.Mutation;

/// <summary>Where one cell's bytes sit in a <see cref="CellArena"/>.</summary>
internal readonly record struct CellRef(int Offset, int Length);

/// <summary>
/// Scratch storage for the cells and page images of one b-tree mutation. Balancing copies every cell of up to four
/// pages; holding them as slices of one reused buffer (and reusing the images) keeps steady-state inserts and deletes
/// from allocating. One arena per <see cref="BTreeMutator"/>: writes to a database are serialized, and the mutator
/// resets it at the start of each operation, so nothing here outlives the operation that put it there.
/// </summary>
internal sealed class CellArena
{
    private byte[] _bytes = new byte[16 * 1024];
    private int _used;
    private readonly List<NodeImage> _images = [];
    private int _rented;

    /// <summary>Forgets every cell and image handed out so far.</summary>
    public void Reset()
    {
        _used = 0;
        _rented = 0;
    }

    /// <summary>The bytes of <paramref name="cell"/>; valid until the next addition (which may move the buffer).</summary>
    public Span<byte> this[CellRef cell] => _bytes.AsSpan(cell.Offset, cell.Length);

    /// <summary>The whole buffer, for reading many cells at once.</summary>
    public ReadOnlySpan<byte> Bytes => _bytes;

    /// <summary>A copy of <paramref name="bytes"/> (which may itself lie in the arena).</summary>
    public CellRef Add(ReadOnlySpan<byte> bytes)
    {
        int at = Reserve(bytes.Length);
        bytes.CopyTo(_bytes.AsSpan(at));
        return new CellRef(at, bytes.Length);
    }

    /// <summary>A copy of <paramref name="cell"/> with its first four bytes replaced by <paramref name="child"/>.</summary>
    public CellRef CopyWithChild(CellRef cell, uint child)
    {
        var copy = Add(this[cell]);
        BinaryPrimitives.WriteUInt32BigEndian(this[copy], child);
        return copy;
    }

    /// <summary>An index cell in interior form: <paramref name="child"/> followed by the leaf cell's bytes.</summary>
    public CellRef AddWithChild(uint child, CellRef leafCell)
    {
        int at = Reserve(leafCell.Length + 4);
        BinaryPrimitives.WriteUInt32BigEndian(_bytes.AsSpan(at), child);
        _bytes.AsSpan(leafCell.Offset, leafCell.Length).CopyTo(_bytes.AsSpan(at + 4));
        return new CellRef(at, leafCell.Length + 4);
    }

    /// <summary>A table interior cell (left child and key).</summary>
    public CellRef AddTableInterior(uint child, long key)
    {
        int at = Reserve(4 + 9); // a varint takes at most 9 bytes
        int n = CellBuilder.TableInterior(_bytes.AsSpan(at), child, key);
        _used = at + n;
        return new CellRef(at, n);
    }

    /// <summary>An empty image, reused from earlier operations where possible.</summary>
    public NodeImage Rent(BTreePageType type, uint rightChild)
    {
        NodeImage node;
        if (_rented < _images.Count)
        {
            node = _images[_rented];
            node.Cells.Clear();
        }
        else
        {
            node = new NodeImage(this);
            _images.Add(node);
        }
        _rented++;
        node.Type = type;
        node.RightChild = rightChild;
        return node;
    }

    private int Reserve(int length)
    {
        int at = _used;
        if (_bytes.Length - at < length) Grow(at + length);
        _used = at + length;
        return at;
    }

    private void Grow(int needed)
    {
        // The old buffer stays alive while a caller still copies from it (Add of a cell already in the arena).
        var bigger = new byte[Math.Max(needed, _bytes.Length * 2)];
        _bytes.AsSpan(0, _used).CopyTo(bigger);
        _bytes = bigger;
    }
}
