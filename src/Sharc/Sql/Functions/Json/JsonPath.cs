namespace Sharc.Sql.Functions.Json;

/// <summary>What a path lookup found.</summary>
internal enum JsonLookup
{
    /// <summary>The path names an element.</summary>
    Found,
    /// <summary>The path names nothing in this document.</summary>
    NotFound,
    /// <summary>The path is not a valid JSON path ("bad JSON path").</summary>
    PathError,
}

/// <summary>Where a lookup ended: the element found, or the container where the path stopped matching.</summary>
internal struct JsonLookupResult
{
    /// <summary>The element found, or the container the failing step looked in.</summary>
    public int Pos;

    /// <summary>For an object member, its key element; otherwise -1.</summary>
    public int KeyPos;

    /// <summary>When not found: the offset in the path of the step that did not match.</summary>
    public int FailedStep;

    /// <summary>When not found: true when that step could add to the container (a label of an object, [#] or the next index of an array).</summary>
    public bool Insertable;
}

/// <summary>
/// SQLite's JSON paths ($, .label, ."quoted label", [N], [#], [#-N]) walked directly over JSONB bytes: no tree,
/// no allocation unless a key needs its escapes decoded to be compared.
/// </summary>
internal static class JsonPath
{
    /// <summary>
    /// Walks <paramref name="path"/> from the root element of <paramref name="doc"/>. When
    /// <paramref name="containers"/> is given, it receives each container entered, outermost first (for edits to
    /// fix their sizes): the found element's ancestors, or the failing container and its ancestors.
    /// </summary>
    public static JsonLookup Lookup(ReadOnlySpan<byte> doc, ReadOnlySpan<byte> path, List<int>? containers, out JsonLookupResult result)
    {
        result = default;
        result.KeyPos = -1;
        if (path.Length == 0 || path[0] != (byte)'$') return JsonLookup.PathError;
        int pos = 0, i = 1;
        while (i < path.Length)
        {
            int stepStart = i;
            int h = Jsonb.Header(doc, pos, out int type, out int n);
            if (h == 0) JsonErrors.Malformed();
            if (path[i] == (byte)'.')
            {
                if (!ParseLabel(path, ref i, out var label, out bool quoted)) return JsonLookup.PathError;
                if (type != Jsonb.Object)
                {
                    result.Pos = pos;
                    result.FailedStep = stepStart;
                    return JsonLookup.NotFound;
                }
                containers?.Add(pos);
                int k = pos + h, end = k + n;
                bool found = false;
                while (k < end)
                {
                    int kh = Jsonb.Header(doc, k, out int kt, out int kn);
                    if (kh == 0) JsonErrors.Malformed();
                    int v = k + kh + kn;
                    int vs = Jsonb.ElementSize(doc, v);
                    if (vs == 0 || v + vs > end) JsonErrors.Malformed();
                    if (kt is >= Jsonb.Text and <= Jsonb.TextRaw && KeyEquals(kt, doc.Slice(k + kh, kn), label, quoted))
                    {
                        result.KeyPos = k;
                        pos = v;
                        found = true;
                        break;
                    }
                    k = v + vs;
                }
                if (!found)
                {
                    result.Pos = pos;
                    result.FailedStep = stepStart;
                    result.Insertable = true;
                    return JsonLookup.NotFound;
                }
            }
            else if (path[i] == (byte)'[')
            {
                // SQLite looks at the element before the index: a bad index on a non-array is not reported.
                if (type != Jsonb.Array)
                {
                    result.Pos = pos;
                    result.FailedStep = stepStart;
                    return JsonLookup.NotFound;
                }
                if (!ParseIndex(path, ref i, out long index, out bool fromEnd)) return JsonLookup.PathError;
                containers?.Add(pos);
                int k = pos + h, end = k + n;
                if (fromEnd)
                {
                    long count = 0;
                    for (int c = k; c < end; count++)
                    {
                        int s = Jsonb.ElementSize(doc, c);
                        if (s == 0) JsonErrors.Malformed();
                        c += s;
                    }
                    index = count - index;
                }
                long at = 0;
                bool found = false;
                while (k < end && index >= 0)
                {
                    int s = Jsonb.ElementSize(doc, k);
                    if (s == 0 || k + s > end) JsonErrors.Malformed();
                    if (at == index)
                    {
                        found = true;
                        break;
                    }
                    at++;
                    k += s;
                }
                if (!found)
                {
                    result.Pos = pos;
                    result.FailedStep = stepStart;
                    result.Insertable = index == at && k >= end;
                    return JsonLookup.NotFound;
                }
                result.KeyPos = -1;
                pos = k;
            }
            else return JsonLookup.PathError;
        }
        result.Pos = pos;
        return JsonLookup.Found;
    }

    /// <summary>Checks the whole path's syntax without a document (SQLite reports a bad path before anything else).</summary>
    public static bool IsValid(ReadOnlySpan<byte> path)
    {
        if (path.Length == 0 || path[0] != (byte)'$') return false;
        int i = 1;
        while (i < path.Length)
        {
            if (path[i] == (byte)'.')
            {
                if (!ParseLabel(path, ref i, out _, out _)) return false;
            }
            else if (path[i] != (byte)'[' || !ParseIndex(path, ref i, out _, out _)) return false;
        }
        return true;
    }

    /// <summary>Reads ".label" or ."quoted" at <paramref name="i"/> (the dot); quoted labels keep their escapes.</summary>
    public static bool ParseLabel(ReadOnlySpan<byte> path, ref int i, out ReadOnlySpan<byte> label, out bool quoted)
    {
        label = default;
        quoted = false;
        i++;
        if (i < path.Length && path[i] == (byte)'"')
        {
            int s = ++i;
            while (i < path.Length && path[i] != (byte)'"')
            {
                if (path[i] == (byte)'\\' && i + 1 < path.Length) i++;
                i++;
            }
            if (i >= path.Length) return false;
            label = path[s..i];
            quoted = true;
            i++;
            return i == path.Length || path[i] is (byte)'.' or (byte)'[';
        }
        int start = i;
        while (i < path.Length && path[i] != (byte)'.' && path[i] != (byte)'[') i++;
        label = path[start..i];
        return i > start;
    }

    /// <summary>Reads [N], [#] or [#-N] at <paramref name="i"/> (the bracket); from-end indexes count back from the length.</summary>
    public static bool ParseIndex(ReadOnlySpan<byte> path, ref int i, out long index, out bool fromEnd)
    {
        index = 0;
        fromEnd = false;
        i++;
        if (i < path.Length && path[i] == (byte)'#')
        {
            fromEnd = true;
            i++;
            if (i < path.Length && path[i] == (byte)'-')
            {
                i++;
                if (!Digits(path, ref i, out index)) return false;
            }
        }
        else if (!Digits(path, ref i, out index)) return false;
        if (i >= path.Length || path[i] != (byte)']') return false;
        i++;
        return true;
    }

    private static bool Digits(ReadOnlySpan<byte> path, ref int i, out long value)
    {
        value = 0;
        int s = i;
        while (i < path.Length && path[i] is >= (byte)'0' and <= (byte)'9')
        {
            value = value > long.MaxValue / 10 ? long.MaxValue : value * 10 + (path[i] - '0');
            i++;
        }
        return i > s;
    }

    /// <summary>Compares a key with a path label, decoding escapes only when one side has them.</summary>
    public static bool KeyEquals(int keyType, ReadOnlySpan<byte> key, ReadOnlySpan<byte> label, bool labelQuoted)
    {
        bool keyEscaped = keyType is Jsonb.TextJ or Jsonb.Text5 && key.IndexOf((byte)'\\') >= 0;
        bool labelEscaped = labelQuoted && label.IndexOf((byte)'\\') >= 0;
        if (!keyEscaped && !labelEscaped) return key.SequenceEqual(label);
        var a = new JsonBuffer(key.Length);
        JsonStrings.AppendDecoded(keyEscaped ? Jsonb.TextJ : Jsonb.Text, key, a);
        var b = new JsonBuffer(label.Length);
        JsonStrings.AppendDecoded(labelEscaped ? Jsonb.TextJ : Jsonb.Text, label, b);
        return a.Written.SequenceEqual(b.Written);
    }
}
