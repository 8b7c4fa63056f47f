using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>Moving between SQL values and JSONB: documents from arguments, elements from values, values from elements.</summary>
internal static class JsonValues
{
    /// <summary>
    /// The JSONB of a document argument, or false for NULL. A BLOB that is JSONB is used as it is; any other
    /// BLOB, and TEXT and numbers, are read as JSON text ("malformed JSON" when they are not).
    /// </summary>
    public static bool TryDocument(in SqlValue v, out ReadOnlyMemory<byte> doc)
    {
        doc = default;
        if (v.IsNull) return false;
        if (v.Type == SharcColumnType.Blob && Jsonb.LooksLikeJsonb(v.Bytes))
        {
            doc = v.Memory;
            return true;
        }
        Span<byte> num = stackalloc byte[SqlValue.NumberTextMax];
        var text = v.TextBytes(num);
        var buf = new JsonBuffer(text.Length + 8);
        if (!JsonTextParser.TryParse(text, buf, out _, out _)) JsonErrors.Malformed();
        doc = buf.ToArray();
        return true;
    }

    /// <summary>
    /// Appends a SQL value as one JSONB element: NULL, numbers, TEXT as a string (or as JSON when a JSON
    /// function made it), a JSONB BLOB as it is. Strings are TEXTRAW when <paramref name="raw"/> (what SQLite's
    /// edit functions store), else TEXT or, when escapes were needed, TEXTJ.
    /// </summary>
    public static void AppendValue(in SqlValue v, JsonBuffer dst, bool raw = false)
    {
        switch (v.Type)
        {
            case SharcColumnType.Null:
                dst.Append((byte)Jsonb.Null);
                break;
            case SharcColumnType.Integer:
            {
                Span<byte> b = stackalloc byte[24];
                dst.AppendElement(Jsonb.Int, b[..SqlValue.FormatInteger(v.IntegerValue, b)]);
                break;
            }
            case SharcColumnType.Real:
            {
                var tmp = new JsonBuffer(32);
                JsonNumbers.AppendReal(v.RealValue, tmp);
                dst.AppendElement(Jsonb.Float, tmp.Written);
                break;
            }
            case SharcColumnType.Text:
                if (v.IsJson)
                {
                    if (!JsonTextParser.TryParse(v.Bytes, dst, out _, out _)) JsonErrors.Malformed();
                }
                else if (raw) dst.AppendElement(Jsonb.TextRaw, v.Bytes);
                else AppendString(v.Bytes, dst);
                break;
            default:
                if (!Jsonb.LooksLikeJsonb(v.Bytes)) JsonErrors.BlobValue();
                dst.Append(v.Bytes);
                break;
        }
    }

    /// <summary>Appends UTF-8 text as a TEXT element, or TEXTJ when it needed escapes.</summary>
    public static void AppendString(ReadOnlySpan<byte> utf8, JsonBuffer dst)
    {
        var tmp = new JsonBuffer(utf8.Length + 8);
        bool escaped = JsonStrings.AppendEscaped(utf8, tmp);
        dst.AppendElement(escaped ? Jsonb.TextJ : Jsonb.Text, tmp.Written);
    }

    /// <summary>
    /// The element at <paramref name="pos"/> as json_extract returns it: SQL NULL, 1/0, a number, decoded TEXT,
    /// or for arrays and objects their JSON text (marked as JSON) — or their JSONB when <paramref name="jsonb"/>.
    /// </summary>
    public static SqlValue ToSqlValue(ReadOnlySpan<byte> doc, int pos, bool jsonb)
    {
        int h = Jsonb.Header(doc, pos, out int type, out int n);
        if (h == 0) JsonErrors.Malformed();
        var p = doc.Slice(pos + h, n);
        switch (type)
        {
            case Jsonb.Null: return SqlValue.Null;
            case Jsonb.True: return SqlValue.True;
            case Jsonb.False: return SqlValue.False;
            case Jsonb.Int or Jsonb.Int5 or Jsonb.Float or Jsonb.Float5:
                if (n == 0) JsonErrors.Malformed();
                return JsonNumbers.ToSqlValue(type, p);
            case Jsonb.Text or Jsonb.TextRaw:
                return SqlValue.CopyText(p);
            case Jsonb.TextJ or Jsonb.Text5:
            {
                var b = new JsonBuffer(n);
                JsonStrings.AppendDecoded(type, p, b);
                return SqlValue.OwnedText(b.ToArray());
            }
            case Jsonb.Array or Jsonb.Object:
                return jsonb ? SqlValue.CopyBlob(doc.Slice(pos, h + n)) : JsonText(doc, pos);
            default:
                return JsonErrors.MalformedValue();
        }
    }

    /// <summary>The element at <paramref name="pos"/> as JSON text marked as JSON.</summary>
    public static SqlValue JsonText(ReadOnlySpan<byte> doc, int pos) => SqlValue.OwnedText(JsonWriter.ToText(doc, pos)).AsJson();

    /// <summary>A whole JSONB document as the result of a json_ (text) or jsonb_ (blob) function.</summary>
    public static SqlValue Result(ReadOnlySpan<byte> doc, bool jsonb)
        => jsonb ? SqlValue.CopyBlob(doc) : JsonText(doc, 0);

    /// <summary>json_type's name for the element at <paramref name="pos"/>.</summary>
    public static string TypeName(ReadOnlySpan<byte> doc, int pos)
    {
        if (Jsonb.Header(doc, pos, out int type, out _) == 0) JsonErrors.Malformed();
        return type switch
        {
            Jsonb.Null => "null",
            Jsonb.True => "true",
            Jsonb.False => "false",
            Jsonb.Int or Jsonb.Int5 => "integer",
            Jsonb.Float or Jsonb.Float5 => "real",
            Jsonb.Array => "array",
            Jsonb.Object => "object",
            <= Jsonb.TextRaw => "text",
            _ => JsonErrors.MalformedValue<string>(),
        };
    }
}
