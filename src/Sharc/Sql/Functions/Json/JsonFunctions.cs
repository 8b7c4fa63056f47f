using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>
/// SQLite's json1 scalar functions and their jsonb_ twins, plus the -> and ->> operators (SQLite registers them
/// as functions of those names). Each works on JSONB: text arguments are translated first, as SQLite does.
/// </summary>
internal static class JsonFunctions
{
    /// <summary>Every JSON scalar function.</summary>
    public static IEnumerable<ScalarFunction> All()
    {
        yield return F("json", 1, 1, (a, _) => Json(a, jsonb: false));
        yield return F("jsonb", 1, 1, (a, _) => Json(a, jsonb: true));
        yield return F("json_array", 0, -1, (a, _) => Array(a, jsonb: false));
        yield return F("jsonb_array", 0, -1, (a, _) => Array(a, jsonb: true));
        yield return F("json_object", 0, -1, (a, _) => Object(a, jsonb: false));
        yield return F("jsonb_object", 0, -1, (a, _) => Object(a, jsonb: true));
        yield return F("json_extract", 0, -1, (a, _) => Extract(a, jsonb: false));
        yield return F("jsonb_extract", 0, -1, (a, _) => Extract(a, jsonb: true));
        yield return F("->", 2, 2, (a, _) => Arrow(a[0], a[1], sqlValue: false));
        yield return F("->>", 2, 2, (a, _) => Arrow(a[0], a[1], sqlValue: true));
        yield return F("json_insert", 0, -1, (a, _) => Edit(a, JsonEditMode.Insert, "json_insert", jsonb: false));
        yield return F("jsonb_insert", 0, -1, (a, _) => Edit(a, JsonEditMode.Insert, "json_insert", jsonb: true));
        yield return F("json_replace", 0, -1, (a, _) => Edit(a, JsonEditMode.Replace, "json_replace", jsonb: false));
        yield return F("jsonb_replace", 0, -1, (a, _) => Edit(a, JsonEditMode.Replace, "json_replace", jsonb: true));
        yield return F("json_set", 0, -1, (a, _) => Edit(a, JsonEditMode.Set, "json_set", jsonb: false));
        yield return F("jsonb_set", 0, -1, (a, _) => Edit(a, JsonEditMode.Set, "json_set", jsonb: true));
        yield return F("json_array_insert", 0, -1, (a, _) => Edit(a, JsonEditMode.ArrayInsert, "json_array_insert", jsonb: false));
        yield return F("jsonb_array_insert", 0, -1, (a, _) => Edit(a, JsonEditMode.ArrayInsert, "json_array_insert", jsonb: true));
        yield return F("json_remove", 0, -1, (a, _) => Remove(a, jsonb: false));
        yield return F("jsonb_remove", 0, -1, (a, _) => Remove(a, jsonb: true));
        yield return F("json_patch", 2, 2, (a, _) => Patch(a, jsonb: false));
        yield return F("jsonb_patch", 2, 2, (a, _) => Patch(a, jsonb: true));
        yield return F("json_type", 1, 2, (a, _) => Type(a));
        yield return F("json_valid", 1, 2, (a, _) => Valid(a));
        yield return F("json_quote", 1, 1, (a, _) => Quote(a[0]));
        yield return F("json_array_length", 1, 2, (a, _) => ArrayLength(a));
        yield return F("json_error_position", 1, 1, (a, _) => ErrorPosition(a[0]));
        yield return F("json_pretty", 1, 2, (a, _) => Pretty(a));
    }

    private static ScalarFunction F(string name, int min, int max, ScalarFunctionBody body) => new(name, min, max, body);

    private static SqlValue Json(ReadOnlySpan<SqlValue> a, bool jsonb)
    {
        if (!JsonValues.TryDocument(a[0], out var doc)) return SqlValue.Null;
        return JsonValues.Result(doc.Span, jsonb);
    }

    private static SqlValue Array(ReadOnlySpan<SqlValue> a, bool jsonb)
    {
        var b = new JsonBuffer();
        int c = b.BeginContainer(Jsonb.Array);
        foreach (var v in a) JsonValues.AppendValue(v, b);
        b.EndContainer(c, Jsonb.Array);
        return JsonValues.Result(b.Written, jsonb);
    }

    private static SqlValue Object(ReadOnlySpan<SqlValue> a, bool jsonb)
    {
        // SQLite names the json_ function in the errors of its jsonb_ twin.
        const string name = "json_object";
        if (a.Length % 2 != 0) JsonErrors.Throw($"{name}() requires an even number of arguments");
        var b = new JsonBuffer();
        int c = b.BeginContainer(Jsonb.Object);
        for (int i = 0; i < a.Length; i += 2)
        {
            if (a[i].Type != SharcColumnType.Text) JsonErrors.Throw($"{name}() labels must be TEXT");
            JsonValues.AppendString(a[i].Bytes, b);
            JsonValues.AppendValue(a[i + 1], b);
        }
        b.EndContainer(c, Jsonb.Object);
        return JsonValues.Result(b.Written, jsonb);
    }

    private static SqlValue Extract(ReadOnlySpan<SqlValue> a, bool jsonb)
    {
        // Without a path SQLite answers NULL without reading the document.
        // (SQLite registers these functions with any number of arguments: none is NULL too.)
        if (a.Length <= 1 || !JsonValues.TryDocument(a[0], out var mem)) return SqlValue.Null;
        var doc = mem.Span;
        if (a.Length == 2)
        {
            if (a[1].IsNull) return SqlValue.Null;
            var path = PathBytes(a[1], out var owner);
            return Lookup(doc, path) is int pos ? JsonValues.ToSqlValue(doc, pos, jsonb) : SqlValue.Null;
        }
        // Several paths: an array of the results, each as JSON.
        var b = new JsonBuffer();
        int c = b.BeginContainer(Jsonb.Array);
        for (int i = 1; i < a.Length; i++)
        {
            if (a[i].IsNull) return SqlValue.Null;
            var path = PathBytes(a[i], out _);
            if (Lookup(doc, path) is int pos) b.Append(doc.Slice(pos, Jsonb.ElementSize(doc, pos)));
            else b.Append((byte)Jsonb.Null);
        }
        b.EndContainer(c, Jsonb.Array);
        return JsonValues.Result(b.Written, jsonb);
    }

    // A path argument's bytes (numbers as their text); the owner keeps a number's text alive.
    private static ReadOnlySpan<byte> PathBytes(in SqlValue v, out byte[]? owner)
    {
        owner = null;
        if (v.HasBytes) return v.Bytes;
        Span<byte> num = stackalloc byte[SqlValue.NumberTextMax];
        owner = v.TextBytes(num).ToArray();
        return owner;
    }

    private static int? Lookup(ReadOnlySpan<byte> doc, ReadOnlySpan<byte> path)
    {
        var r = JsonPath.Lookup(doc, path, null, out var res);
        if (r == JsonLookup.PathError) JsonErrors.BadPath(path);
        return r == JsonLookup.Found ? res.Pos : null;
    }

    /// <summary>
    /// x -> p and x ->> p. A TEXT p starting with '$' is a path, one starting with '[' a path after '$'; an
    /// INTEGER is an array index (negative: from the end); anything else is an object label.
    /// </summary>
    public static SqlValue Arrow(in SqlValue docArg, in SqlValue p, bool sqlValue)
    {
        if (p.IsNull || !JsonValues.TryDocument(docArg, out var mem)) return SqlValue.Null;
        var doc = mem.Span;
        int? pos = ArrowLookup(doc, p);
        if (pos is not int at) return SqlValue.Null;
        if (!sqlValue) return JsonValues.JsonText(doc, at);
        // ->> gives an SQL value: an array or object comes back as plain TEXT, without the JSON subtype.
        var v = JsonValues.ToSqlValue(doc, at, jsonb: false);
        return v.IsJson ? SqlValue.OwnedText(v.Bytes.ToArray()) : v;
    }

    /// <summary>Finds the element an -> / ->> right operand names (see <see cref="Arrow"/>); null when none.</summary>
    public static int? ArrowLookup(ReadOnlySpan<byte> doc, in SqlValue p)
    {
        if (p.Type == SharcColumnType.Integer)
        {
            long n = p.IntegerValue;
            Span<byte> path = stackalloc byte[32];
            int len = 0;
            path[len++] = (byte)'$';
            path[len++] = (byte)'[';
            if (n < 0) { path[len++] = (byte)'#'; path[len++] = (byte)'-'; n = n == long.MinValue ? long.MaxValue : -n; }
            len += SqlValue.FormatInteger(n, path[len..]);
            path[len++] = (byte)']';
            return Lookup(doc, path[..len]);
        }
        Span<byte> num = stackalloc byte[SqlValue.NumberTextMax];
        var text = p.TextBytes(num);
        if (text.Length > 0 && text[0] == (byte)'$') return Lookup(doc, text);
        if (text.Length > 0 && text[0] == (byte)'[')
        {
            var path = new byte[text.Length + 1];
            path[0] = (byte)'$';
            text.CopyTo(path.AsSpan(1));
            return Lookup(doc, path);
        }
        return LabelLookup(doc, text);
    }

    // A label is looked up as it is written: no path syntax, no escapes.
    private static int? LabelLookup(ReadOnlySpan<byte> doc, ReadOnlySpan<byte> label)
    {
        int h = Jsonb.Header(doc, 0, out int type, out int n);
        if (h == 0) JsonErrors.Malformed();
        if (type != Jsonb.Object) return null;
        for (int k = h, end = h + n; k < end;)
        {
            int kh = Jsonb.Header(doc, k, out int kt, out int kn);
            if (kh == 0) JsonErrors.Malformed();
            int v = k + kh + kn;
            if (kt is >= Jsonb.Text and <= Jsonb.TextRaw && JsonPath.KeyEquals(kt, doc.Slice(k + kh, kn), label, labelQuoted: false))
                return v;
            int vs = Jsonb.ElementSize(doc, v);
            if (vs == 0) JsonErrors.Malformed();
            k = v + vs;
        }
        return null;
    }

    private static SqlValue Edit(ReadOnlySpan<SqlValue> a, JsonEditMode mode, string name, bool jsonb)
    {
        if (a.Length == 0) return SqlValue.Null;
        if (a.Length % 2 == 0) JsonErrors.Throw($"{name}() needs an odd number of arguments");
        if (!JsonValues.TryDocument(a[0], out var mem)) return SqlValue.Null;
        var doc = new JsonBuffer(mem.Length + 16);
        doc.Append(mem.Span);
        for (int i = 1; i < a.Length; i += 2)
        {
            if (a[i].IsNull) continue;
            JsonEdit.Apply(doc, PathBytes(a[i], out _), a[i + 1], mode);
        }
        return JsonValues.Result(doc.Written, jsonb);
    }

    private static SqlValue Remove(ReadOnlySpan<SqlValue> a, bool jsonb)
    {
        if (a.Length == 0) return SqlValue.Null;
        if (!JsonValues.TryDocument(a[0], out var mem)) return SqlValue.Null;
        var doc = new JsonBuffer(mem.Length + 16);
        doc.Append(mem.Span);
        for (int i = 1; i < a.Length; i++)
        {
            if (a[i].IsNull) return SqlValue.Null;
            if (!JsonEdit.Remove(doc, PathBytes(a[i], out _))) return SqlValue.Null;
        }
        return JsonValues.Result(doc.Written, jsonb);
    }

    private static SqlValue Patch(ReadOnlySpan<SqlValue> a, bool jsonb)
    {
        if (!JsonValues.TryDocument(a[0], out var target) || !JsonValues.TryDocument(a[1], out var patch)) return SqlValue.Null;
        var b = new JsonBuffer(target.Length + patch.Length);
        JsonEdit.Patch(target.Span, 0, patch.Span, 0, b);
        return JsonValues.Result(b.Written, jsonb);
    }

    // The document and the element an optional second argument's path names; false (result NULL) when either is missing.
    private static bool TryElement(ReadOnlySpan<SqlValue> a, out ReadOnlyMemory<byte> doc, out int pos)
    {
        pos = 0;
        if (!JsonValues.TryDocument(a[0], out doc)) return false;
        if (a.Length < 2) return true;
        if (a[1].IsNull || Lookup(doc.Span, PathBytes(a[1], out _)) is not int p) return false;
        pos = p;
        return true;
    }

    private static SqlValue Type(ReadOnlySpan<SqlValue> a)
        => TryElement(a, out var doc, out int pos) ? SqlValue.Text(JsonValues.TypeName(doc.Span, pos)) : SqlValue.Null;

    /// <summary>
    /// json_valid(X, F): F's bits accept RFC 8259 text (1), JSON5 text (2), BLOBs that look like JSONB (4) and
    /// BLOBs that are strictly valid JSONB (8).
    /// </summary>
    private static SqlValue Valid(ReadOnlySpan<SqlValue> a)
    {
        long flags = 1;
        if (a.Length == 2)
        {
            flags = a[1].ToInt64();
            if (flags is < 1 or > 15) JsonErrors.Throw("FLAGS parameter to json_valid() must be between 1 and 15");
        }
        var v = a[0];
        if (v.IsNull) return SqlValue.Null;
        if (v.Type == SharcColumnType.Blob)
        {
            if ((flags & 4) != 0 && Jsonb.LooksLikeJsonb(v.Bytes)) return SqlValue.True;
            if ((flags & 8) != 0 && Jsonb.IsValid(v.Bytes)) return SqlValue.True;
            if ((flags & 12) != 0) return SqlValue.False;
        }
        if ((flags & 3) == 0) return SqlValue.False;
        Span<byte> num = stackalloc byte[SqlValue.NumberTextMax];
        var text = v.TextBytes(num);
        var buf = new JsonBuffer(text.Length + 8);
        if (!JsonTextParser.TryParse(text, buf, out bool nonStandard, out _)) return SqlValue.False;
        return SqlValue.Boolean((flags & 2) != 0 || !nonStandard);
    }

    private static SqlValue Quote(in SqlValue v)
    {
        switch (v.Type)
        {
            case SharcColumnType.Null: return SqlValue.Text("null").AsJson();
            case SharcColumnType.Text when v.IsJson: return v;
            case SharcColumnType.Blob:
                if (!Jsonb.LooksLikeJsonb(v.Bytes)) JsonErrors.BlobValue();
                return JsonValues.JsonText(v.Bytes, 0);
            default:
            {
                var b = new JsonBuffer();
                JsonValues.AppendValue(v, b);
                return JsonValues.JsonText(b.Written, 0);
            }
        }
    }

    private static SqlValue ArrayLength(ReadOnlySpan<SqlValue> a)
    {
        if (!TryElement(a, out var mem, out int pos)) return SqlValue.Null;
        var doc = mem.Span;
        int h = Jsonb.Header(doc, pos, out int type, out int n);
        if (h == 0) JsonErrors.Malformed();
        if (type != Jsonb.Array) return SqlValue.Integer(0);
        long count = 0;
        for (int k = pos + h, end = k + n; k < end; count++)
        {
            int s = Jsonb.ElementSize(doc, k);
            if (s == 0) JsonErrors.Malformed();
            k += s;
        }
        return SqlValue.Integer(count);
    }

    /// <summary>0 for well-formed JSON (or JSONB), else the 1-based character position of the first error.</summary>
    private static SqlValue ErrorPosition(in SqlValue v)
    {
        if (v.IsNull) return SqlValue.Null;
        if (v.Type == SharcColumnType.Blob && Jsonb.IsValid(v.Bytes)) return SqlValue.Integer(0);
        Span<byte> num = stackalloc byte[SqlValue.NumberTextMax];
        var text = v.TextBytes(num);
        var buf = new JsonBuffer(text.Length + 8);
        if (JsonTextParser.TryParse(text, buf, out _, out int at)) return SqlValue.Integer(0);
        long chars = 1;
        for (int i = 0; i < at; i++)
            if ((text[i] & 0xc0) != 0x80) chars++;
        return SqlValue.Integer(chars);
    }

    private static SqlValue Pretty(ReadOnlySpan<SqlValue> a)
    {
        if (!JsonValues.TryDocument(a[0], out var mem)) return SqlValue.Null;
        var indent = a.Length == 2 && !a[1].IsNull ? a[1].ToTextValue().Bytes.ToArray() : "    "u8.ToArray();
        var b = new JsonBuffer(mem.Length * 2);
        JsonWriter.AppendPretty(mem.Span, 0, b, indent);
        return SqlValue.OwnedText(b.ToArray()).AsJson();
    }
}
