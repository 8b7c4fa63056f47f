using Sharc.Format;

namespace Sharc.BTree;

/// <summary>
/// Orders two stored records field by field as SQLite orders index entries: NULL &lt; numbers &lt; text &lt; blob,
/// numbers by value, text by the field's collation, each field ASC or DESC. A record that is a prefix of the
/// other sorts first.
/// </summary>
internal static class RecordCompare
{
    public static int Compare(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b, Collation[] collations, bool[] descending, SharcTextEncoding encoding, uint page = 0, int fields = int.MaxValue)
    {
        int na = Header(a, out int ha, page), nb = Header(b, out int hb, page);
        int pa = na, pb = nb, ba = ha, bb = hb;
        for (int i = 0; ; i++)
        {
            if (i == fields) return 0;
            bool endA = pa >= ha, endB = pb >= hb;
            if (endA || endB) return endA == endB ? 0 : endA ? -1 : 1;
            pa += Next(a, pa, ha, out long ta, page);
            pb += Next(b, pb, hb, out long tb, page);
            int la = (int)SerialType.ContentSize(ta), lb = (int)SerialType.ContentSize(tb);
            if (la < 0 || lb < 0 || ba + la > a.Length || bb + lb > b.Length) ThrowHelper.Corrupt("index record field runs past the record", page);
            var coll = i < collations.Length ? collations[i] : Collation.Binary;
            int c = CompareValues(ta, a.Slice(ba, la), tb, b.Slice(bb, lb), coll, encoding);
            ba += la;
            bb += lb;
            if (c != 0) return i < descending.Length && descending[i] ? -c : c;
        }
    }

    private static int Header(ReadOnlySpan<byte> r, out int headerSize, uint page)
    {
        int n = Varint.Read(r, out long hs);
        if (n == 0 || hs < n || hs > r.Length) ThrowHelper.Corrupt("record header is malformed", page);
        headerSize = (int)hs;
        return n;
    }

    private static int Next(ReadOnlySpan<byte> r, int pos, int end, out long type, uint page)
    {
        int n = Varint.Read(r[pos..end], out type);
        if (n == 0) ThrowHelper.Corrupt("record header is malformed", page);
        return n;
    }

    /// <summary>Compares two stored values given their serial types and content bytes.</summary>
    public static int CompareValues(long ta, ReadOnlySpan<byte> va, long tb, ReadOnlySpan<byte> vb, Collation coll, SharcTextEncoding encoding)
    {
        var ca = SerialType.StorageClass(ta);
        var cb = SerialType.StorageClass(tb);
        int ra = KeyComparer.Rank(ca), rb = KeyComparer.Rank(cb);
        if (ra != rb) return ra < rb ? -1 : 1;
        switch (ca)
        {
            case SharcColumnType.Null:
                return 0;
            case SharcColumnType.Integer when cb == SharcColumnType.Integer:
                return SerialType.ReadInteger(ta, va).CompareTo(SerialType.ReadInteger(tb, vb));
            case SharcColumnType.Integer:
                return KeyComparer.IntRealCompare(SerialType.ReadInteger(ta, va), SerialType.ReadReal(vb));
            case SharcColumnType.Real when cb == SharcColumnType.Real:
                return SerialType.ReadReal(va).CompareTo(SerialType.ReadReal(vb));
            case SharcColumnType.Real:
                return -KeyComparer.IntRealCompare(SerialType.ReadInteger(tb, vb), SerialType.ReadReal(va));
            case SharcColumnType.Text:
                if (coll == Collation.Binary) return KeyComparer.Sign(va.SequenceCompareTo(vb));
                if (encoding == SharcTextEncoding.Utf8) return CollationCompare.CompareUtf8(coll, va, vb);
                var codec = TextCodec.For(encoding);
                return CollationCompare.CompareUtf8(coll, System.Text.Encoding.UTF8.GetBytes(codec.GetString(va)), System.Text.Encoding.UTF8.GetBytes(codec.GetString(vb)));
            default:
                return KeyComparer.Sign(va.SequenceCompareTo(vb));
        }
    }
}
