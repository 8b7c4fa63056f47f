using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using Sharc.Format;

namespace Sharc.Integrity;

/// <summary>
/// An order-independent digest of a multiset of index keys: each key is hashed (two independent 64-bit lanes)
/// and the hashes are summed. Values are hashed canonically, as they compare: an integral REAL hashes like the
/// INTEGER of the same value; text and blobs by their stored bytes. Equal digests of the keys a table's rows need
/// and the entries an index holds mean every row has its entry, without one seek per row; a difference sends the
/// check to the precise (seeking) path, which then names the rows. Text equal only under a collation (NOCASE,
/// RTRIM) digests differently, so the precise path decides there too.
/// </summary>
internal struct KeyDigest
{
    private const ulong Prime1 = 0x9E3779B185EBCA87UL;
    private const ulong Prime2 = 0xC2B2AE3D27D4EB4FUL;
    private const ulong Prime3 = 0x165667B19E3779F9UL;

    private ulong _a, _b;

    public ulong SumA;
    public ulong SumB;
    public long Count;

    /// <summary>Starts hashing one key.</summary>
    public void Begin()
    {
        _a = 0x243F6A8885A308D3UL;
        _b = 0x13198A2E03707344UL;
    }

    /// <summary>Adds the finished key to the multiset.</summary>
    public void End()
    {
        SumA += Finish(_a);
        SumB += Finish(_b ^ 0xA4093822299F31D0UL);
        Count++;
    }

    public readonly bool SameAs(in KeyDigest other) => SumA == other.SumA && SumB == other.SumB && Count == other.Count;

    public void AddNull() => Word(0xF00D);

    public void AddInteger(long v)
    {
        Word(1);
        Word((ulong)v);
    }

    public void AddReal(double d)
    {
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && Math.Floor(d) == d)
        {
            AddInteger((long)d); // 3.0 and 3 are the same key
            return;
        }
        Word(2);
        Word((ulong)BitConverter.DoubleToInt64Bits(d));
    }

    public void AddBytes(bool text, ReadOnlySpan<byte> bytes)
    {
        Word(text ? 3UL : 4UL);
        Word((ulong)bytes.Length);
        int i = 0;
        for (; i + 8 <= bytes.Length; i += 8) Word(BinaryPrimitives.ReadUInt64LittleEndian(bytes[i..]));
        ulong tail = 0;
        for (int k = 0; i < bytes.Length; i++, k += 8) tail |= (ulong)bytes[i] << k;
        Word(tail);
    }

    /// <summary>A stored record field.</summary>
    public void AddField(long serialType, ReadOnlySpan<byte> value)
    {
        switch (SerialType.StorageClass(serialType))
        {
            case SharcColumnType.Null: AddNull(); break;
            case SharcColumnType.Integer: AddInteger(SerialType.ReadInteger(serialType, value)); break;
            case SharcColumnType.Real: AddReal(SerialType.ReadReal(value)); break;
            case SharcColumnType.Text: AddBytes(true, value); break;
            default: AddBytes(false, value); break;
        }
    }

    /// <summary>A default value (null, long, double, string or byte[]); text in the database encoding.</summary>
    public void AddObject(object? value, SharcTextEncoding enc)
    {
        switch (value)
        {
            case long l: AddInteger(l); break;
            case double d: AddReal(d); break;
            case string s: AddBytes(true, TextCodec.For(enc).GetBytes(s)); break;
            case byte[] b: AddBytes(false, b); break;
            default: AddNull(); break;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Word(ulong v)
    {
        _a = BitOperations.RotateLeft(_a ^ (v * Prime2), 31) * Prime1;
        _b = BitOperations.RotateLeft(_b + (v * Prime3), 27) * Prime2 + Prime1;
    }

    private static ulong Finish(ulong h)
    {
        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCDUL;
        h ^= h >> 33;
        h *= 0xC4CEB9FE1A85EC53UL;
        h ^= h >> 33;
        return h;
    }
}
