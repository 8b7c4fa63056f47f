using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>
/// A growable byte array for building JSONB and JSON text. A heap object, so parsers and writers can pass it
/// around freely; results are copied out once.
/// </summary>
internal sealed class JsonBuffer
{
    private byte[] _buf;

    public JsonBuffer(int capacity = 64) => _buf = new byte[Math.Max(capacity, 16)];

    public int Length { get; private set; }

    public Span<byte> Written => _buf.AsSpan(0, Length);

    public byte this[int index]
    {
        get => _buf[index];
        set => _buf[index] = value;
    }

    public void Append(byte b)
    {
        if (Length == _buf.Length) Grow(1);
        _buf[Length++] = b;
    }

    public void Append(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length > _buf.Length - Length) Grow(bytes.Length);
        bytes.CopyTo(_buf.AsSpan(Length));
        Length += bytes.Length;
    }

    public void Append(byte b, int count)
    {
        if (count <= 0) return;
        if (count > _buf.Length - Length) Grow(count);
        _buf.AsSpan(Length, count).Fill(b);
        Length += count;
    }

    /// <summary>Appends the smallest header for a leaf of <paramref name="type"/> and then its payload.</summary>
    public void AppendElement(int type, ReadOnlySpan<byte> payload)
    {
        Span<byte> h = stackalloc byte[5];
        Append(h[..Jsonb.WriteHeader(h, type, payload.Length)]);
        Append(payload);
    }

    /// <summary>Starts a container: a one-byte header to be fixed by <see cref="EndContainer"/>.</summary>
    public int BeginContainer(int type)
    {
        Append((byte)type);
        return Length - 1;
    }

    /// <summary>Writes the container's final header, moving its payload when the header needs more than one byte.</summary>
    public void EndContainer(int start, int type)
    {
        int payload = Length - start - 1;
        int hs = Jsonb.HeaderSize(payload);
        if (hs > 1)
        {
            if (hs - 1 > _buf.Length - Length) Grow(hs - 1);
            _buf.AsSpan(start + 1, payload).CopyTo(_buf.AsSpan(start + hs));
            Length += hs - 1;
        }
        Jsonb.WriteHeader(_buf.AsSpan(start), type, payload);
    }

    /// <summary>Replaces <paramref name="count"/> bytes at <paramref name="index"/> with <paramref name="bytes"/>.</summary>
    public void Splice(int index, int count, ReadOnlySpan<byte> bytes)
    {
        int delta = bytes.Length - count;
        if (delta > 0 && delta > _buf.Length - Length) Grow(delta);
        _buf.AsSpan(index + count, Length - index - count).CopyTo(_buf.AsSpan(index + bytes.Length));
        bytes.CopyTo(_buf.AsSpan(index));
        Length += delta;
    }

    public void Truncate(int length) => Length = length;

    public byte[] ToArray() => _buf.AsSpan(0, Length).ToArray();

    private void Grow(int extra)
    {
        long need = (long)Length + extra;
        SqlErrors.CheckLength(need);
        var next = new byte[(int)Math.Min(Math.Max(need, (long)_buf.Length * 2), Array.MaxLength)];
        _buf.AsSpan(0, Length).CopyTo(next);
        _buf = next;
    }
}
