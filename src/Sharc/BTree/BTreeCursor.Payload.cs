using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Sharc.BTree;

/// <summary>Compares a stored record with a search key, for index seeks (negative: record sorts first).</summary>
internal interface IRecordComparer
{
    int CompareRecordToKey(ReadOnlySpan<byte> record);
}

internal sealed partial class BTreeCursor
{
    private byte[] _buffer = [];
    /// <summary>Bytes of the current payload gathered into <see cref="_buffer"/>; -1 when only the page copy exists.</summary>
    private int _assembled = -1;
    private uint _nextOverflow;

    /// <summary>True when the current entry's payload lies entirely on its page (no overflow chain).</summary>
    public bool IsPayloadLocal
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _cell.Overflow == 0;
    }

    /// <summary>The whole payload of the current entry, in place on its page; only when <see cref="IsPayloadLocal"/>.</summary>
    public ReadOnlySpan<byte> LocalPayload
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            ref Frame f = ref _stack[_depth];
            return new ReadOnlySpan<byte>(f.Page.Buffer, f.Page.Offset + _cell.LocalOffset, _cell.LocalSize);
        }
    }

    /// <summary>
    /// The current entry's payload, at least its first <paramref name="needed"/> bytes (clamped to the payload size).
    /// A payload that fits on the page is returned in place; a spilled one is gathered from its overflow chain only as
    /// far as needed, into a buffer the cursor reuses.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReadOnlySpan<byte> GetPayload(int needed)
    {
        if (needed <= _cell.LocalSize || _cell.Overflow == 0)
        {
            ref Frame f = ref _stack[_depth];
            return new ReadOnlySpan<byte>(f.Page.Buffer, f.Page.Offset + _cell.LocalOffset, _cell.LocalSize);
        }
        return Gather(Math.Min(needed, _cell.PayloadSize));
    }

    private ReadOnlySpan<byte> Gather(int needed)
    {
        if (_assembled < 0)
        {
            if (_buffer.Length < _cell.PayloadSize)
                _buffer = new byte[Math.Max(_cell.PayloadSize, Math.Min(_buffer.Length * 2, int.MaxValue / 2))];
            ref Frame f = ref _stack[_depth];
            new ReadOnlySpan<byte>(f.Page.Buffer, f.Page.Offset + _cell.LocalOffset, _cell.LocalSize).CopyTo(_buffer);
            _assembled = _cell.LocalSize;
            _nextOverflow = _cell.Overflow;
        }
        int chunk = _usable - 4;
        while (_assembled < needed)
        {
            uint page = _nextOverflow;
            if (page == 0 || page > _pageCount)
                ThrowHelper.Corrupt($"overflow chain ends after {_assembled} of {_cell.PayloadSize} payload bytes (next page {page})", CurrentPage);
            var pr = _source.Acquire(page);
            try
            {
                var span = pr.Span;
                int take = Math.Min(chunk, _cell.PayloadSize - _assembled);
                span.Slice(4, take).CopyTo(_buffer.AsSpan(_assembled));
                _assembled += take;
                _nextOverflow = BinaryPrimitives.ReadUInt32BigEndian(span);
            }
            finally
            {
                _source.Release(pr);
            }
        }
        return new ReadOnlySpan<byte>(_buffer, 0, _assembled);
    }
}
