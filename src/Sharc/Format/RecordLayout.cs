using System.Runtime.CompilerServices;

namespace Sharc.Format;

/// <summary>
/// The header of one record, decoded lazily: serial types and body offsets are worked out only up to the
/// highest field asked for, so unread trailing columns cost nothing. Reused from row to row without allocating.
/// </summary>
internal sealed class RecordLayout
{
    private long[] _types;
    private int[] _offsets;
    private int _count;
    private int _headerSize;
    private int _headerPos;
    private int _bodyPos;
    private int _payloadSize;
    private bool _complete;
    private uint _page;

    public RecordLayout(int expectedFields)
    {
        int n = Math.Max(4, expectedFields);
        _types = new long[n];
        _offsets = new int[n];
    }

    /// <summary>Forgets the previous record. <paramref name="page"/> is only for error messages.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Reset(int payloadSize, uint page)
    {
        _payloadSize = payloadSize;
        _count = 0;
        _headerSize = -1;
        _complete = false;
        _page = page;
    }

    public int PayloadSize => _payloadSize;

    /// <summary>
    /// The size of the record header, read from its first varint. <paramref name="prefix"/> must hold at least
    /// the first 9 payload bytes (or the whole payload when shorter).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int HeaderSize(ReadOnlySpan<byte> prefix) => _headerSize >= 0 ? _headerSize : ReadHeaderSize(prefix);

    private int ReadHeaderSize(ReadOnlySpan<byte> prefix)
    {
        if (_payloadSize == 0)
        {
            // An empty payload is a record with no fields.
            _headerSize = 0;
            _complete = true;
            return 0;
        }
        int n = Varint.Read(prefix, out long hs);
        if (n == 0 || hs < n || hs > _payloadSize)
            ThrowHelper.Corrupt($"record header size {hs} does not fit a {_payloadSize}-byte record", _page);
        _headerSize = (int)hs;
        _headerPos = n;
        _bodyPos = (int)hs;
        return _headerSize;
    }

    /// <summary>
    /// Decodes header entries until field <paramref name="field"/> is known or the header ends.
    /// <paramref name="header"/> must hold the whole header. Returns false when the record has fewer fields.
    /// </summary>
    public bool TryGetField(int field, ReadOnlySpan<byte> header, out long serialType, out int offset, out int size)
    {
        if (field >= _count && !_complete) DecodeThrough(field, header);
        if (field < _count)
        {
            serialType = _types[field];
            offset = _offsets[field];
            size = (int)SerialType.ContentSize(serialType);
            return true;
        }
        serialType = 0;
        offset = 0;
        size = 0;
        return false;
    }

    private void DecodeThrough(int field, ReadOnlySpan<byte> header)
    {
        // Locals, not fields, in the loop: the JIT keeps them in registers.
        int count = _count, pos = _headerPos, body = _bodyPos, headerSize = _headerSize, payloadSize = _payloadSize;
        long[] types = _types;
        int[] offsets = _offsets;
        while (count <= field)
        {
            if (pos >= headerSize)
            {
                _complete = true;
                break;
            }
            long type = header[pos];
            int n = 1;
            if (type >= 0x80)
            {
                n = Varint.Read(header[pos..headerSize], out type);
                if (n == 0) ThrowHelper.Corrupt("record header entry runs past the header", _page);
            }
            long len = SerialType.ContentSize(type);
            if (len < 0) ThrowHelper.Corrupt($"reserved serial type {type} in record", _page);
            if (body + len > payloadSize)
                ThrowHelper.Corrupt($"record field {count} (serial type {type}) runs past the {payloadSize}-byte record", _page);
            if (count == types.Length)
            {
                Array.Resize(ref _types, count * 2);
                Array.Resize(ref _offsets, count * 2);
                types = _types;
                offsets = _offsets;
            }
            types[count] = type;
            offsets[count] = body;
            count++;
            pos += n;
            body += (int)len;
        }
        _count = count;
        _headerPos = pos;
        _bodyPos = body;
    }

    /// <summary>The number of fields in the record (decodes the whole header).</summary>
    public int FieldCount(ReadOnlySpan<byte> header)
    {
        TryGetField(int.MaxValue - 1, header, out _, out _, out _);
        return _count;
    }
}
