namespace Sharc.Sql.Functions.Json;

/// <summary>
/// SQLite's JSONB element types and header encoding. A header's low four bits are the type; the high four are the
/// payload size when 0–11, or say that 1, 2, 4 or 8 big-endian size bytes follow (12–15).
/// </summary>
internal static class Jsonb
{
    public const int Null = 0, True = 1, False = 2, Int = 3, Int5 = 4, Float = 5, Float5 = 6;
    public const int Text = 7, TextJ = 8, Text5 = 9, TextRaw = 10, Array = 11, Object = 12;

    /// <summary>
    /// Reads the header at <paramref name="pos"/>: returns its length and the payload size, or 0 when the header is
    /// cut short or its payload runs past the end of <paramref name="doc"/>.
    /// </summary>
    public static int Header(ReadOnlySpan<byte> doc, int pos, out int type, out int payload)
        => Header(doc, pos, out type, out payload, checkSize: true);

    /// <summary>Reads a header whose payload may not be in place yet (while an edit fixes the sizes of containers).</summary>
    public static int HeaderUnchecked(ReadOnlySpan<byte> doc, int pos, out int type, out int payload)
        => Header(doc, pos, out type, out payload, checkSize: false);

    private static int Header(ReadOnlySpan<byte> doc, int pos, out int type, out int payload, bool checkSize)
    {
        type = 0;
        payload = 0;
        if ((uint)pos >= (uint)doc.Length) return 0;
        byte h = doc[pos];
        type = h & 0x0f;
        int code = h >> 4;
        int hdr;
        ulong size;
        switch (code)
        {
            case <= 11: hdr = 1; size = (ulong)code; break;
            case 12: if (pos + 2 > doc.Length) return 0; hdr = 2; size = doc[pos + 1]; break;
            case 13: if (pos + 3 > doc.Length) return 0; hdr = 3; size = (ulong)(doc[pos + 1] << 8 | doc[pos + 2]); break;
            case 14:
                if (pos + 5 > doc.Length) return 0;
                hdr = 5;
                size = (ulong)doc[pos + 1] << 24 | (ulong)doc[pos + 2] << 16 | (ulong)doc[pos + 3] << 8 | doc[pos + 4];
                break;
            default:
                if (pos + 9 > doc.Length) return 0;
                hdr = 9;
                size = 0;
                for (int i = 1; i <= 8; i++) size = size << 8 | doc[pos + i];
                break;
        }
        if (checkSize ? size > (ulong)(doc.Length - pos - hdr) : size > int.MaxValue) return 0;
        payload = (int)size;
        return hdr;
    }

    /// <summary>The total size (header and payload) of the element at <paramref name="pos"/>, or 0 when malformed.</summary>
    public static int ElementSize(ReadOnlySpan<byte> doc, int pos)
    {
        int h = Header(doc, pos, out _, out int payload);
        return h == 0 ? 0 : h + payload;
    }

    /// <summary>The smallest header for a payload of <paramref name="payload"/> bytes, as SQLite writes it.</summary>
    public static int HeaderSize(int payload) => payload <= 11 ? 1 : payload <= 0xff ? 2 : payload <= 0xffff ? 3 : 5;

    /// <summary>Writes the smallest header for <paramref name="type"/> and <paramref name="payload"/>; returns its length.</summary>
    public static int WriteHeader(Span<byte> dst, int type, int payload)
    {
        switch (HeaderSize(payload))
        {
            case 1: dst[0] = (byte)(payload << 4 | type); return 1;
            case 2: dst[0] = (byte)(0xc0 | type); dst[1] = (byte)payload; return 2;
            case 3: dst[0] = (byte)(0xd0 | type); dst[1] = (byte)(payload >> 8); dst[2] = (byte)payload; return 3;
            default:
                dst[0] = (byte)(0xe0 | type);
                dst[1] = (byte)(payload >> 24);
                dst[2] = (byte)(payload >> 16);
                dst[3] = (byte)(payload >> 8);
                dst[4] = (byte)payload;
                return 5;
        }
    }

    /// <summary>
    /// SQLite's quick test of whether a BLOB is JSONB (json_valid flag 4): the first header is a known type and
    /// its element fills the blob exactly.
    /// </summary>
    public static bool LooksLikeJsonb(ReadOnlySpan<byte> blob)
    {
        int h = Header(blob, 0, out int type, out int payload);
        return h != 0 && type <= Object && h + payload == blob.Length;
    }

    /// <summary>The full check (json_valid flag 8): every element well formed, every number and string valid.</summary>
    public static bool IsValid(ReadOnlySpan<byte> doc) => LooksLikeJsonb(doc) && IsValidElement(doc, 0, doc.Length, 0);

    private static bool IsValidElement(ReadOnlySpan<byte> doc, int pos, int end, int depth)
    {
        if (depth > JsonTextParser.MaxDepth) return false;
        int h = Header(doc, pos, out int type, out int n);
        if (h == 0 || pos + h + n != end) return false;
        var p = doc.Slice(pos + h, n);
        switch (type)
        {
            case Null or True or False: return n == 0;
            case Int: return JsonNumbers.IsCanonicalInt(p);
            case Int5: return JsonNumbers.IsHexInt(p);
            case Float: return JsonNumbers.IsFloat(p, json5: false);
            case Float5: return JsonNumbers.IsFloat(p, json5: true);
            case Text: return p.IndexOfAny((byte)'"', (byte)'\\') < 0 && !HasControl(p);
            case TextJ: return JsonStrings.IsValidEscaped(p, json5: false);
            case Text5: return JsonStrings.IsValidEscaped(p, json5: true);
            case TextRaw: return true;
            case Array:
            {
                int i = pos + h;
                while (i < end)
                {
                    int sz = ElementSize(doc, i);
                    if (sz == 0 || i + sz > end || !IsValidElement(doc, i, i + sz, depth + 1)) return false;
                    i += sz;
                }
                return true;
            }
            case Object:
            {
                int i = pos + h;
                bool key = true;
                while (i < end)
                {
                    int kh = Header(doc, i, out int kt, out int kn);
                    if (kh == 0 || i + kh + kn > end) return false;
                    if (key && kt is < Text or > TextRaw) return false;
                    if (!IsValidElement(doc, i, i + kh + kn, depth + 1)) return false;
                    i += kh + kn;
                    key = !key;
                }
                return key;
            }
            default: return false;
        }
    }

    private static bool HasControl(ReadOnlySpan<byte> p)
    {
        foreach (byte b in p)
            if (b < 0x20) return true;
        return false;
    }
}
