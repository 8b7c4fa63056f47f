using System.Runtime.CompilerServices;
using System.Text;
using Sharc.Format;

namespace Sharc.BTree;

/// <summary>One value of a search key, pre-encoded so comparisons allocate nothing.</summary>
internal struct KeyValue
{
    public SharcColumnType Type;
    public long Integer;
    public double Real;
    /// <summary>Text in the database encoding (BINARY compares these bytes), or blob bytes.</summary>
    public byte[] Bytes;
    public int Length;
    /// <summary>Text as UTF-8 (NOCASE and RTRIM compare UTF-8, as SQLite registers them).</summary>
    public byte[] Utf8;
    public int Utf8Length;

    public void SetNull() => Type = SharcColumnType.Null;

    public void SetInteger(long v)
    {
        Type = SharcColumnType.Integer;
        Integer = v;
    }

    public void SetReal(double v)
    {
        Type = SharcColumnType.Real;
        Real = v;
    }

    public void SetText(ReadOnlySpan<char> s, SharcTextEncoding enc)
    {
        Type = SharcColumnType.Text;
        Utf8Length = Encoding.UTF8.GetByteCount(s);
        Ensure(ref Utf8, Utf8Length);
        Encoding.UTF8.GetBytes(s, Utf8);
        Encode(s, enc);
    }

    public void SetUtf8(ReadOnlySpan<byte> utf8, SharcTextEncoding enc)
    {
        Type = SharcColumnType.Text;
        Utf8Length = utf8.Length;
        Ensure(ref Utf8, Utf8Length);
        utf8.CopyTo(Utf8);
        if (enc == SharcTextEncoding.Utf8)
        {
            Ensure(ref Bytes, utf8.Length);
            utf8.CopyTo(Bytes);
            Length = utf8.Length;
            return;
        }
        int chars = Encoding.UTF8.GetCharCount(utf8);
        char[] tmp = System.Buffers.ArrayPool<char>.Shared.Rent(Math.Max(chars, 1));
        int n = Encoding.UTF8.GetChars(utf8, tmp);
        Encode(tmp.AsSpan(0, n), enc);
        System.Buffers.ArrayPool<char>.Shared.Return(tmp);
    }

    public void SetBlob(ReadOnlySpan<byte> b)
    {
        Type = SharcColumnType.Blob;
        Ensure(ref Bytes, b.Length);
        b.CopyTo(Bytes);
        Length = b.Length;
    }

    private void Encode(ReadOnlySpan<char> s, SharcTextEncoding enc)
    {
        Encoding e = TextCodec.For(enc);
        Length = e.GetByteCount(s);
        Ensure(ref Bytes, Length);
        e.GetBytes(s, Bytes);
    }

    private static void Ensure(ref byte[] a, int n)
    {
        if (a is null || a.Length < n) a = new byte[Math.Max(n, 16)];
    }
}

/// <summary>
/// Compares a record's leading fields with a search key using SQLite's ordering (NULL &lt; numbers &lt; text &lt; blob,
/// integers and reals compared by value), each field's collation and its ASC/DESC direction.
/// Equal on every key field counts as equal, so a shorter key finds the first entry with that prefix.
/// </summary>
internal struct KeyComparer : IRecordComparer
{
    public KeyValue[] Key;
    public int KeyCount;
    public Collation[] Collations;
    public bool[] Descending;
    public SharcTextEncoding Encoding;
    public uint Page;

    public int CompareRecordToKey(ReadOnlySpan<byte> record)
    {
        // The commonest probe first (integer keys: graph edges, foreign keys, rowid-like columns): a leading integer
        // field against an integer key, header size and serial type one byte each. A tie on a longer key, and
        // anything unusual or malformed, goes the general way below, which checks everything.
        if (KeyCount > 0 && record.Length > 2 && Key[0].Type == SharcColumnType.Integer)
        {
            int headerSize = record[0];
            long type0 = record[1];
            if (headerSize is >= 2 and < 0x80 && SerialType.IsInteger(type0))
            {
                int size = (int)SerialType.ContentSize(type0);
                if (headerSize + size <= record.Length)
                {
                    int c = SerialType.ReadInteger(type0, record.Slice(headerSize, size)).CompareTo(Key[0].Integer);
                    if (c != 0) return Descending[0] ? -c : c;
                    if (KeyCount == 1) return 0;
                }
            }
        }
        // Index records almost always have a one-byte header size and one-byte serial types: read those in place.
        int hs, hp;
        if (record.Length > 0 && record[0] < 0x80)
        {
            hs = record[0];
            hp = 1;
            if (hs > record.Length || hs < 1) MalformedHeader();
        }
        else
        {
            hp = Varint.Read(record, out long h);
            if (hp == 0 || h > record.Length || h < hp) MalformedHeader();
            hs = (int)h;
        }
        int bp = hs;
        for (int i = 0; i < KeyCount; i++)
        {
            if (hp >= hs) return -1; // a record with fewer fields sorts first
            long type = record[hp];
            if (type < 0x80)
            {
                hp++;
            }
            else
            {
                int m = Varint.Read(record[hp..hs], out type);
                if (m == 0) MalformedHeader();
                hp += m;
            }
            long size = SerialType.ContentSize(type);
            if (size < 0 || bp + size > record.Length) FieldPastRecord();
            ref KeyValue key = ref Key[i];
            var value = record.Slice(bp, (int)size);
            int c;
            // The common key fields, compared without the storage-class dispatch: an integer against an integer,
            // and BINARY text against text.
            if (key.Type == SharcColumnType.Integer && SerialType.IsInteger(type))
                c = SerialType.ReadInteger(type, value).CompareTo(key.Integer);
            else if (key.Type == SharcColumnType.Text && type >= 13 && (type & 1) == 1 && Collations[i] == Collation.Binary)
                c = Sign(value.SequenceCompareTo(key.Bytes.AsSpan(0, key.Length)));
            else
                c = CompareField(type, value, ref key, Collations[i]);
            bp += (int)size;
            if (c != 0) return Descending[i] ? -c : c;
        }
        return 0;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private readonly void MalformedHeader() => ThrowHelper.Corrupt("index record header is malformed", Page);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private readonly void FieldPastRecord() => ThrowHelper.Corrupt("index record field runs past the record", Page);

    private readonly int CompareField(long type, ReadOnlySpan<byte> value, ref KeyValue key, Collation coll)
    {
        var cls = SerialType.StorageClass(type);
        int rankR = Rank(cls), rankK = Rank(key.Type);
        if (rankR != rankK) return rankR < rankK ? -1 : 1;
        switch (cls)
        {
            case SharcColumnType.Null:
                return 0;
            case SharcColumnType.Integer:
            {
                long v = SerialType.ReadInteger(type, value);
                return key.Type == SharcColumnType.Integer ? v.CompareTo(key.Integer) : IntRealCompare(v, key.Real);
            }
            case SharcColumnType.Real:
            {
                double v = SerialType.ReadReal(value);
                return key.Type == SharcColumnType.Real ? v.CompareTo(key.Real) : -IntRealCompare(key.Integer, v);
            }
            case SharcColumnType.Text:
                return CollationCompare.Compare(coll, value, Encoding, key.Bytes.AsSpan(0, key.Length), key.Utf8.AsSpan(0, key.Utf8Length));
            default:
                return Sign(value.SequenceCompareTo(key.Bytes.AsSpan(0, key.Length)));
        }
    }

    /// <summary>SQLite's order of storage classes: NULL, numbers, text, blob.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int Rank(SharcColumnType t) => t switch
    {
        SharcColumnType.Null => 0,
        SharcColumnType.Integer or SharcColumnType.Real => 1,
        SharcColumnType.Text => 2,
        _ => 3,
    };

    /// <summary>Compares an integer with a real exactly, even beyond 2^53 (SQLite's sqlite3IntFloatCompare).</summary>
    internal static int IntRealCompare(long i, double r)
    {
        if (double.IsNaN(r)) return 1;
        if (r < -9223372036854775808.0) return 1;
        if (r >= 9223372036854775808.0) return -1;
        long y = (long)r;
        if (i < y) return -1;
        if (i > y) return 1;
        double s = i;
        if (s < r) return -1;
        if (s > r) return 1;
        return 0;
    }

    internal static int Sign(int c) => c < 0 ? -1 : c > 0 ? 1 : 0;
}
