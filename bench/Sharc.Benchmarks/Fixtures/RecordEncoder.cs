namespace Sharc.Benchmarks.Fixtures;

/// <summary>
/// A small, independent encoder for SQLite's varints and records, written from the file-format specification, so
/// the Primitives suite can check Sharc's decoders against values it did not produce itself.
/// </summary>
public static class RecordEncoder
{
    /// <summary>Encodes <paramref name="value"/> as a SQLite varint into <paramref name="dst"/>; returns the byte count.</summary>
    public static int WriteVarint(List<byte> dst, long value)
    {
        ulong v = unchecked((ulong)value);
        if ((v >> 56) != 0)
        {
            // Nine bytes: eight groups of seven bits with the continuation bit, then a full final byte.
            var nine = new byte[9];
            nine[8] = (byte)v;
            v >>= 8;
            for (int i = 7; i >= 0; i--)
            {
                nine[i] = (byte)(0x80 | (v & 0x7F));
                v >>= 7;
            }
            dst.AddRange(nine);
            return 9;
        }
        var groups = new Stack<byte>();
        do
        {
            groups.Push((byte)(v & 0x7F));
            v >>= 7;
        }
        while (v != 0);
        int n = groups.Count;
        while (groups.Count > 0)
        {
            byte g = groups.Pop();
            dst.Add(groups.Count > 0 ? (byte)(g | 0x80) : g);
        }
        return n;
    }

    /// <summary>The smallest value whose varint takes <paramref name="length"/> bytes (1–9).</summary>
    public static long MinForLength(int length) => length switch
    {
        1 => 0,
        9 => 1L << 56,
        _ => 1L << (7 * (length - 1)),
    };

    /// <summary>The largest value whose varint takes <paramref name="length"/> bytes (1–9).</summary>
    public static long MaxForLength(int length) => length == 9 ? -1 : (1L << (7 * length)) - 1;

    /// <summary>Expected storage class of a serial type, from the specification's table (0 null, 1 int, 2 real, 3 text, 4 blob, -1 reserved).</summary>
    public static int ClassOf(long serialType) => serialType switch
    {
        0 => 0,
        >= 1 and <= 6 => 1,
        7 => 2,
        8 or 9 => 1,
        10 or 11 => -1,
        _ => serialType % 2 == 0 ? 4 : 3,
    };

    /// <summary>Expected content size of a serial type, from the specification's table (-1 reserved).</summary>
    public static long SizeOf(long serialType) => serialType switch
    {
        0 or 8 or 9 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        4 => 4,
        5 => 6,
        6 or 7 => 8,
        10 or 11 => -1,
        _ => (serialType - 12) / 2,
    };

    /// <summary>One field of a record being built: null, long, double, string (UTF-8 text) or byte[] (blob).</summary>
    public readonly record struct Field(long SerialType, int Offset, int Size);

    /// <summary>Encodes a record (header then body) and reports each field's serial type, body offset and size.</summary>
    public static byte[] EncodeRecord(object?[] values, out Field[] fields)
    {
        var types = new long[values.Length];
        var body = new List<byte>();
        var bodyStarts = new int[values.Length];
        for (int i = 0; i < values.Length; i++)
        {
            bodyStarts[i] = body.Count;
            switch (values[i])
            {
                case null:
                    types[i] = 0;
                    break;
                case long l when l == 0:
                    types[i] = 8;
                    break;
                case long l when l == 1:
                    types[i] = 9;
                    break;
                case long l:
                    (types[i], int width) = l >= sbyte.MinValue && l <= sbyte.MaxValue ? (1L, 1)
                        : l >= short.MinValue && l <= short.MaxValue ? (2L, 2)
                        : l >= -(1L << 23) && l < (1L << 23) ? (3L, 3)
                        : l >= int.MinValue && l <= int.MaxValue ? (4L, 4)
                        : l >= -(1L << 47) && l < (1L << 47) ? (5L, 6)
                        : (6L, 8);
                    for (int b = width - 1; b >= 0; b--) body.Add((byte)(l >> (8 * b)));
                    break;
                case double d:
                    types[i] = 7;
                    long bits = BitConverter.DoubleToInt64Bits(d);
                    for (int b = 7; b >= 0; b--) body.Add((byte)(bits >> (8 * b)));
                    break;
                case string s:
                    byte[] text = System.Text.Encoding.UTF8.GetBytes(s);
                    types[i] = 13 + 2L * text.Length;
                    body.AddRange(text);
                    break;
                case byte[] blob:
                    types[i] = 12 + 2L * blob.Length;
                    body.AddRange(blob);
                    break;
                default:
                    throw new ArgumentException($"unsupported value type {values[i]!.GetType().Name}");
            }
        }

        var typeBytes = new List<byte>();
        foreach (long t in types) WriteVarint(typeBytes, t);
        // The header size counts its own varint; grow it until it is self-consistent.
        int headerSize = typeBytes.Count + 1;
        while (true)
        {
            var probe = new List<byte>();
            int n = WriteVarint(probe, headerSize);
            if (n + typeBytes.Count == headerSize) break;
            headerSize = n + typeBytes.Count;
        }
        var record = new List<byte>();
        WriteVarint(record, headerSize);
        record.AddRange(typeBytes);
        record.AddRange(body);

        fields = new Field[values.Length];
        for (int i = 0; i < values.Length; i++)
            fields[i] = new Field(types[i], headerSize + bodyStarts[i], (int)SizeOf(types[i]));
        return record.ToArray();
    }
}
