namespace Sharc.Sql.Functions.Json;

/// <summary>Renders JSONB as JSON text: minified as json() returns it, or indented as json_pretty() does.</summary>
internal static class JsonWriter
{
    /// <summary>Appends the element at <paramref name="pos"/> as minified JSON text.</summary>
    public static void Append(ReadOnlySpan<byte> doc, int pos, JsonBuffer dst) => Append(doc, pos, dst, default, 0, pretty: false);

    /// <summary>Appends the element at <paramref name="pos"/> indented with <paramref name="indent"/> per level.</summary>
    public static void AppendPretty(ReadOnlySpan<byte> doc, int pos, JsonBuffer dst, ReadOnlySpan<byte> indent)
        => Append(doc, pos, dst, indent, 0, pretty: true);

    /// <summary>The element at <paramref name="pos"/> as minified JSON text bytes.</summary>
    public static byte[] ToText(ReadOnlySpan<byte> doc, int pos)
    {
        var b = new JsonBuffer(doc.Length + 16);
        Append(doc, pos, b);
        return b.ToArray();
    }

    private static void Append(ReadOnlySpan<byte> doc, int pos, JsonBuffer dst, ReadOnlySpan<byte> indent, int depth, bool pretty)
    {
        int h = Jsonb.Header(doc, pos, out int type, out int n);
        if (h == 0) JsonErrors.Malformed();
        var p = doc.Slice(pos + h, n);
        switch (type)
        {
            case Jsonb.Null: dst.Append("null"u8); break;
            case Jsonb.True: dst.Append("true"u8); break;
            case Jsonb.False: dst.Append("false"u8); break;
            case Jsonb.Int or Jsonb.Int5 or Jsonb.Float or Jsonb.Float5:
                if (n == 0) JsonErrors.Malformed();
                JsonNumbers.AppendJson(type, p, dst);
                break;
            case Jsonb.Text or Jsonb.TextJ or Jsonb.Text5 or Jsonb.TextRaw:
                JsonStrings.AppendJson(type, p, dst);
                break;
            case Jsonb.Array or Jsonb.Object:
            {
                bool obj = type == Jsonb.Object;
                dst.Append(obj ? (byte)'{' : (byte)'[');
                int i = pos + h, end = i + n;
                bool first = true;
                while (i < end)
                {
                    if (!first) dst.Append((byte)',');
                    if (pretty) NewLine(dst, indent, depth + 1);
                    first = false;
                    int sz = Jsonb.ElementSize(doc, i);
                    if (sz == 0 || i + sz > end) JsonErrors.Malformed();
                    Append(doc, i, dst, indent, depth + 1, pretty);
                    i += sz;
                    if (obj)
                    {
                        dst.Append((byte)':');
                        if (pretty) dst.Append((byte)' ');
                        sz = Jsonb.ElementSize(doc, i);
                        if (sz == 0 || i + sz > end) JsonErrors.Malformed();
                        Append(doc, i, dst, indent, depth + 1, pretty);
                        i += sz;
                    }
                }
                if (pretty && !first) NewLine(dst, indent, depth);
                dst.Append(obj ? (byte)'}' : (byte)']');
                break;
            }
            default:
                JsonErrors.Malformed();
                break;
        }
    }

    private static void NewLine(JsonBuffer dst, ReadOnlySpan<byte> indent, int depth)
    {
        dst.Append((byte)'\n');
        for (int d = 0; d < depth; d++) dst.Append(indent);
    }
}
