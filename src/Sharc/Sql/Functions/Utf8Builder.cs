using System.Buffers;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// A growable byte buffer for building a function's text or blob result: starts in caller-provided (stack) memory,
/// moves to pooled arrays when it grows, and allocates once, for the result. Enforces SQLite's length limit.
/// Always <see cref="Dispose"/> it.
/// </summary>
internal ref struct Utf8Builder
{
    private Span<byte> _buf;
    private byte[]? _rented;
    private int _length;

    public Utf8Builder(Span<byte> initial)
    {
        _buf = initial;
        _rented = null;
        _length = 0;
    }

    public readonly int Length => _length;

    public readonly ReadOnlySpan<byte> Written => _buf[.._length];

    public void Append(byte b)
    {
        if (_length == _buf.Length) Grow(1);
        _buf[_length++] = b;
    }

    public void Append(scoped ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length > _buf.Length - _length) Grow(bytes.Length);
        bytes.CopyTo(_buf[_length..]);
        _length += bytes.Length;
    }

    public void Append(byte b, int count)
    {
        if (count <= 0) return;
        if (count > _buf.Length - _length) Grow(count);
        _buf.Slice(_length, count).Fill(b);
        _length += count;
    }

    /// <summary>Inserts <paramref name="count"/> copies of <paramref name="b"/> at <paramref name="index"/>.</summary>
    public void Insert(int index, byte b, int count)
    {
        if (count <= 0) return;
        if (count > _buf.Length - _length) Grow(count);
        _buf[index.._length].CopyTo(_buf[(index + count)..]);
        _buf.Slice(index, count).Fill(b);
        _length += count;
    }

    /// <summary>Removes everything from <paramref name="length"/> on.</summary>
    public void Truncate(int length) => _length = length;

    public readonly byte this[int index] => _buf[index];

    public readonly SqlValue ToText()
    {
        SqlErrors.CheckLength(_length);
        return _length == 0 ? SqlValue.EmptyText : SqlValue.OwnedText(_buf[.._length].ToArray());
    }

    public readonly SqlValue ToBlob()
    {
        SqlErrors.CheckLength(_length);
        return _length == 0 ? SqlValue.EmptyBlob : SqlValue.OwnedBlob(_buf[.._length].ToArray());
    }

    private void Grow(int extra)
    {
        long need = (long)_length + extra;
        SqlErrors.CheckLength(need);
        int size = (int)Math.Min(Math.Max(need, Math.Max(256L, (long)_buf.Length * 2)), Array.MaxLength);
        var next = ArrayPool<byte>.Shared.Rent(size);
        _buf[.._length].CopyTo(next);
        if (_rented is not null) ArrayPool<byte>.Shared.Return(_rented);
        _rented = next;
        _buf = next;
    }

    public void Dispose()
    {
        if (_rented is not null) ArrayPool<byte>.Shared.Return(_rented);
        _rented = null;
        _buf = default;
    }
}
