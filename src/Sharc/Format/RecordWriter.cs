using System.Buffers.Binary;

namespace Sharc.Format;

/// <summary>One value to store: NULL, an integer, a real, UTF-8 / database-encoded text, or a blob.</summary>
internal struct StoredValue
{
    public SharcColumnType Type;
    public long Integer;
    public double Real;
    /// <summary>Text (already in the database encoding) or blob bytes.</summary>
    public ReadOnlyMemory<byte> Bytes;

    public static StoredValue Null => default;
    public static StoredValue FromInteger(long v) => new() { Type = SharcColumnType.Integer, Integer = v };
    public static StoredValue FromReal(double v) => new() { Type = SharcColumnType.Real, Real = v };
    public static StoredValue FromText(ReadOnlyMemory<byte> encoded) => new() { Type = SharcColumnType.Text, Bytes = encoded };
    public static StoredValue FromBlob(ReadOnlyMemory<byte> bytes) => new() { Type = SharcColumnType.Blob, Bytes = bytes };

    /// <summary>The serial type SQLite would choose: the smallest integer width, 8/9 for 0/1 (schema format 4).</summary>
    public readonly long SerialType(bool allowBoolean = true)
    {
        switch (Type)
        {
            case SharcColumnType.Null: return 0;
            case SharcColumnType.Real: return 7;
            case SharcColumnType.Text: return Bytes.Length * 2L + 13;
            case SharcColumnType.Blob: return Bytes.Length * 2L + 12;
        }
        long v = Integer;
        if (allowBoolean && (v == 0 || v == 1)) return 8 + v;
        ulong u = v < 0 ? ~(ulong)v : (ulong)v;
        if (u <= 127) return 1;
        if (u <= 32767) return 2;
        if (u <= 8388607) return 3;
        if (u <= 2147483647) return 4;
        if (u <= 140737488355327) return 5;
        return 6;
    }
}

/// <summary>Encodes values into SQLite's record format: a header of serial types, then the bodies.</summary>
internal static class RecordWriter
{
    public static int Size(ReadOnlySpan<StoredValue> values, bool allowBoolean = true)
    {
        Span<long> types = values.Length <= StackTypes ? stackalloc long[values.Length] : new long[values.Length];
        return SerialTypes(values, allowBoolean, types, out int body) + body;
    }

    /// <summary>The record header size for <paramref name="typesLength"/> bytes of serial types: it counts its own varint.</summary>
    private static int HeaderSize(int typesLength)
    {
        int hs = typesLength + 1;
        while (Varint.Length(hs) != hs - typesLength) hs = typesLength + Varint.Length(hs);
        return hs;
    }

    /// <summary>Writes the record into <paramref name="dst"/> (at least <see cref="Size"/> bytes); returns its length.</summary>
    public static int Write(Span<byte> dst, ReadOnlySpan<StoredValue> values, bool allowBoolean = true)
    {
        Span<long> types = values.Length <= StackTypes ? stackalloc long[values.Length] : new long[values.Length];
        int hs = SerialTypes(values, allowBoolean, types, out _);
        return Write(dst, values, types, hs);
    }

    /// <summary>
    /// Encodes the record into <paramref name="buffer"/>, replacing it with a larger one when it is too small, and
    /// returns the record's length. Each serial type is worked out once (the per-row path of inserts).
    /// </summary>
    public static int Encode(ref byte[] buffer, ReadOnlySpan<StoredValue> values, bool allowBoolean = true)
    {
        Span<long> types = values.Length <= StackTypes ? stackalloc long[values.Length] : new long[values.Length];
        int hs = SerialTypes(values, allowBoolean, types, out int body);
        if (buffer.Length < hs + body) buffer = new byte[Math.Max(hs + body, buffer.Length * 2)];
        return Write(buffer, values, types, hs);
    }

    /// <summary>Records with more columns than this keep their serial types on the heap rather than the stack.</summary>
    private const int StackTypes = 64;

    /// <summary>Fills <paramref name="types"/> with each value's serial type; returns the header size.</summary>
    private static int SerialTypes(ReadOnlySpan<StoredValue> values, bool allowBoolean, Span<long> types, out int body)
    {
        int header = 0;
        body = 0;
        for (int i = 0; i < values.Length; i++)
        {
            long t = values[i].SerialType(allowBoolean);
            types[i] = t;
            header += Varint.Length(t);
            body += (int)Format.SerialType.ContentSize(t);
        }
        return HeaderSize(header);
    }

    private static int Write(Span<byte> dst, ReadOnlySpan<StoredValue> values, ReadOnlySpan<long> types, int hs)
    {
        int hp = Varint.Write(dst, hs);
        int bp = hs;
        for (int k = 0; k < values.Length; k++)
        {
            ref readonly var v = ref values[k];
            long t = types[k];
            hp += Varint.Write(dst[hp..], t);
            switch (t)
            {
                case 0 or 8 or 9:
                    break;
                case 7:
                    BinaryPrimitives.WriteDoubleBigEndian(dst[bp..], v.Real);
                    bp += 8;
                    break;
                case <= 6:
                {
                    int len = (int)Format.SerialType.ContentSize(t);
                    long x = v.Integer;
                    for (int i = len - 1; i >= 0; i--)
                    {
                        dst[bp + i] = (byte)x;
                        x >>= 8;
                    }
                    bp += len;
                    break;
                }
                default:
                    v.Bytes.Span.CopyTo(dst[bp..]);
                    bp += v.Bytes.Length;
                    break;
            }
        }
        return bp;
    }

    public static byte[] ToArray(ReadOnlySpan<StoredValue> values, bool allowBoolean = true)
    {
        var buf = new byte[Size(values, allowBoolean)];
        int n = Write(buf, values, allowBoolean);
        return n == buf.Length ? buf : buf[..n];
    }
}
