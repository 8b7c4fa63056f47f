using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Sharc.Format;

/// <summary>
/// The header of one record, decoded lazily: serial types and body offsets are worked out only up to the
/// highest field asked for, so unread trailing columns cost nothing. Reused from row to row without allocating.
/// </summary>
internal sealed class RecordLayout
{
    /// <summary>One decoded header entry. One array of these, not three arrays, so a lookup is one bounds check.</summary>
    private struct Field
    {
        public long Type;
        public int Offset;
        public int Size;
    }

    private Field[] _fields;
    private int _count;
    private int _headerSize;
    private int _headerPos;
    private int _bodyPos;
    private int _payloadSize;
    private bool _complete;
    private uint _page;

    public RecordLayout(int expectedFields)
    {
        _fields = new Field[Math.Max(4, expectedFields)];
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
        if (n == 0 || hs < n || hs > _payloadSize) BadHeaderSize(hs);
        _headerSize = (int)hs;
        _headerPos = n;
        _bodyPos = (int)hs;
        return _headerSize;
    }

    /// <summary>
    /// Decodes header entries until field <paramref name="field"/> is known or the header ends.
    /// <paramref name="header"/> must hold the whole header. Returns false when the record has fewer fields.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGetField(int field, ReadOnlySpan<byte> header, out long serialType, out int offset, out int size)
    {
        // Already decoded (the second column read of a row, or a re-read): one bounds check, three loads.
        var fields = _fields;
        if ((uint)field < (uint)_count && (uint)field < (uint)fields.Length)
        {
            ref Field f = ref fields[field];
            serialType = f.Type;
            offset = f.Offset;
            size = f.Size;
            return true;
        }
        return TryDecodeField(field, header, out serialType, out offset, out size);
    }

    // Kept out of line: inlined into a caller's large body, the decode loop loses its registers to the caller's.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryDecodeField(int field, ReadOnlySpan<byte> header, out long serialType, out int offset, out int size)
    {
        if (!_complete) DecodeThrough(field, header);
        if (field < _count)
        {
            ref Field f = ref _fields[field];
            serialType = f.Type;
            offset = f.Offset;
            size = f.Size;
            return true;
        }
        serialType = 0;
        offset = 0;
        size = 0;
        return false;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void DecodeThrough(int field, ReadOnlySpan<byte> header)
    {
        int headerSize = _headerSize;
        // A header entry takes at least one byte, so a header of n bytes describes fewer than n fields.
        int need = Math.Min(field + 1, Math.Max(headerSize, 0));
        if (need > _fields.Length) Grow(need);
        // Locals, not fields, in the loop, and every throw out of line: the JIT keeps the loop in registers.
        int count = _count, pos = _headerPos, body = _bodyPos, payloadSize = _payloadSize;
        Field[] fields = _fields;
        // The array is shorter than the field asked for only when the header cannot reach that far.
        int last = Math.Min(field, fields.Length - 1);
        header = header[..Math.Clamp(headerSize, 0, header.Length)];
        while (count <= last)
        {
            if ((uint)pos >= (uint)header.Length)
            {
                _complete = true;
                break;
            }
            long type = header[pos];
            int n = 1;
            if (type >= 0x80)
            {
                n = Varint.Read(header[pos..], out type);
                if (n == 0) EntryPastHeader();
            }
            long len = SerialType.ContentSize(type);
            if (len < 0 || body + len > payloadSize) BadEntry(count, type, len);
            ref Field f = ref fields[count];
            f.Type = type;
            f.Offset = body;
            f.Size = (int)len;
            count++;
            pos += n;
            body += (int)len;
        }
        if (count <= field && pos >= headerSize) _complete = true;
        _count = count;
        _headerPos = pos;
        _bodyPos = body;
    }

    private void Grow(int fields) => Array.Resize(ref _fields, Math.Max(fields, _fields.Length * 2));

    [DoesNotReturn]
    private void BadHeaderSize(long size)
        => ThrowHelper.Corrupt($"record header size {size} does not fit a {_payloadSize}-byte record", _page);

    [DoesNotReturn]
    private void EntryPastHeader() => ThrowHelper.Corrupt("record header entry runs past the header", _page);

    [DoesNotReturn]
    private void BadEntry(int field, long type, long len)
    {
        if (len < 0) ThrowHelper.Corrupt($"reserved serial type {type} in record", _page);
        ThrowHelper.Corrupt($"record field {field} (serial type {type}) runs past the {_payloadSize}-byte record", _page);
    }

    /// <summary>The number of fields in the record (decodes the whole header).</summary>
    public int FieldCount(ReadOnlySpan<byte> header)
    {
        TryGetField(int.MaxValue - 1, header, out _, out _, out _);
        return _count;
    }
}
