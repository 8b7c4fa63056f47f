using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>How json_insert, json_replace and json_set treat a path: add only, change only, or both.</summary>
internal enum JsonEditMode
{
    Insert,
    Replace,
    Set,

    /// <summary>json_array_insert: before an existing array element, else as <see cref="Insert"/>.</summary>
    ArrayInsert,
}

/// <summary>
/// Edits a JSONB document in place, as SQLite does: the new bytes are spliced in and every enclosing container's
/// size is rewritten (its header growing or shrinking to the smallest that fits), so untouched elements keep
/// their exact bytes.
/// </summary>
internal static class JsonEdit
{
    /// <summary>Applies one insert/replace/set of <paramref name="value"/> at <paramref name="path"/>.</summary>
    public static void Apply(JsonBuffer doc, ReadOnlySpan<byte> path, in SqlValue value, JsonEditMode mode)
    {
        var containers = new List<int>();
        var found = JsonPath.Lookup(doc.Written, path, containers, out var r);
        if (found == JsonLookup.PathError) JsonErrors.BadPath(path);
        if (found == JsonLookup.Found)
        {
            if (mode == JsonEditMode.Insert) return;
            var v = new JsonBuffer();
            JsonValues.AppendValue(value, v, raw: true);
            if (mode == JsonEditMode.ArrayInsert)
            {
                // The root is left alone; an object member is an error (SQLite's words), an array element moves up.
                if (r.Pos == 0) return;
                if (r.KeyPos >= 0) JsonErrors.NotArrayElement(path);
                doc.Splice(r.Pos, 0, v.Written);
                FixSizes(doc, containers, v.Length);
                return;
            }
            int old = Jsonb.ElementSize(doc.Written, r.Pos);
            if (old > v.Length && Overwrite(doc, r.Pos, v.Written, old - v.Length)) return;
            doc.Splice(r.Pos, old, v.Written);
            FixSizes(doc, containers, v.Length - old);
            return;
        }
        if (mode == JsonEditMode.Replace || !r.Insertable) return;
        if (!BuildInsert(path, r.FailedStep, value, out var bytes)) JsonErrors.BadPath(path);
        if (bytes is null || !r.Insertable) return;
        int h = Jsonb.Header(doc.Written, r.Pos, out _, out int n);
        doc.Splice(r.Pos + h + n, 0, bytes.Written);
        FixSizes(doc, containers, bytes.Length);
    }

    /// <summary>Removes the element at <paramref name="path"/>; false when the path is the whole document.</summary>
    public static bool Remove(JsonBuffer doc, ReadOnlySpan<byte> path)
    {
        var containers = new List<int>();
        var found = JsonPath.Lookup(doc.Written, path, containers, out var r);
        if (found == JsonLookup.PathError) JsonErrors.BadPath(path);
        if (found == JsonLookup.NotFound) return true;
        if (r.Pos == 0) return false;
        int start = r.KeyPos >= 0 ? r.KeyPos : r.Pos;
        int len = r.Pos + Jsonb.ElementSize(doc.Written, r.Pos) - start;
        doc.Splice(start, len, default);
        FixSizes(doc, containers, -len);
        return true;
    }

    /// <summary>
    /// SQLite's shortcut when a value replaces a larger one: the new element's header is widened by exactly the
    /// difference (1, 2, 4 or 8 bytes more for a one-byte header), so nothing else moves. False when it cannot be.
    /// </summary>
    private static bool Overwrite(JsonBuffer doc, int pos, ReadOnlySpan<byte> value, int d)
    {
        int h = Jsonb.Header(value, 0, out int type, out int n);
        if (type <= Jsonb.False) return false;
        int newHeader = h switch
        {
            1 when d is 1 or 2 or 4 or 8 => d + 1,
            2 when d is 1 or 3 or 7 => d + 2,
            3 when d is 2 or 6 => d + 3,
            5 when d == 4 => 9,
            _ => 0,
        };
        if (newHeader == 0) return false;
        int at = pos;
        doc[at++] = (byte)((newHeader switch { 2 => 12, 3 => 13, 5 => 14, _ => 15 }) << 4 | type);
        for (int i = newHeader - 2; i >= 0; i--) doc[at++] = (byte)((ulong)n >> (8 * i));
        for (int i = 0; i < n; i++) doc[at++] = value[h + i];
        return true;
    }

    // Innermost first: each container's payload changes by what changed inside it, its own header included.
    private static void FixSizes(JsonBuffer doc, List<int> containers, int delta)
    {
        Span<byte> h = stackalloc byte[5];
        for (int k = containers.Count - 1; k >= 0; k--)
        {
            int pos = containers[k];
            int hs = Jsonb.HeaderUnchecked(doc.Written, pos, out int type, out int payload);
            int size = payload + delta;
            int nh = Jsonb.WriteHeader(h, type, size);
            doc.Splice(pos, hs, h[..nh]);
            delta += nh - hs;
        }
    }

    /// <summary>
    /// The bytes to add for a path that stopped matching at <paramref name="step"/>: the value wrapped in the
    /// objects and arrays the rest of the path names (only labels, [0] and [#] can be created), preceded by the
    /// key when the step is a label. False for a bad path; null bytes when nothing can be created.
    /// </summary>
    private static bool BuildInsert(ReadOnlySpan<byte> path, int step, in SqlValue value, out JsonBuffer? bytes)
    {
        bytes = null;
        var steps = new List<(int Start, int End)>();
        bool creatable = true;
        for (int i = step; i < path.Length;)
        {
            int s = i;
            if (path[i] == (byte)'.')
            {
                if (!JsonPath.ParseLabel(path, ref i, out _, out _)) return false;
            }
            else if (path[i] == (byte)'[')
            {
                if (!JsonPath.ParseIndex(path, ref i, out long index, out _)) return false;
                if (s != step && index != 0) creatable = false;
            }
            else return false;
            steps.Add((s, i));
        }
        if (!creatable) return true;
        var inner = new JsonBuffer();
        JsonValues.AppendValue(value, inner, raw: true);
        for (int k = steps.Count - 1; k >= 0; k--)
        {
            var (s, e) = steps[k];
            var outer = new JsonBuffer(inner.Length + 8);
            bool last = k == 0;
            int c = last ? -1 : outer.BeginContainer(path[s] == (byte)'.' ? Jsonb.Object : Jsonb.Array);
            if (path[s] == (byte)'.')
            {
                int i = s;
                JsonPath.ParseLabel(path[..e], ref i, out var label, out bool quoted);
                outer.AppendElement(quoted && label.IndexOf((byte)'\\') >= 0 ? Jsonb.TextJ : Jsonb.TextRaw, label);
            }
            outer.Append(inner.Written);
            if (!last) outer.EndContainer(c, path[s] == (byte)'.' ? Jsonb.Object : Jsonb.Array);
            inner = outer;
        }
        bytes = inner;
        return true;
    }

    /// <summary>
    /// RFC 7396 merge of the patch element at <paramref name="ppos"/> into the target at <paramref name="tpos"/>
    /// (-1: absent), as json_patch applies it: the patch's members in order, each changing the first target member
    /// of its label (null removes it) or adding one at the end.
    /// </summary>
    public static void Patch(ReadOnlySpan<byte> tdoc, int tpos, ReadOnlySpan<byte> pdoc, int ppos, JsonBuffer dst)
    {
        int ph = Jsonb.Header(pdoc, ppos, out int ptype, out int pn);
        if (ph == 0) JsonErrors.Malformed();
        if (ptype != Jsonb.Object)
        {
            dst.Append(pdoc.Slice(ppos, ph + pn));
            return;
        }
        // The target's members as (key, value) byte pairs.
        var members = new List<(byte[] Key, byte[] Value)>();
        if (tpos >= 0)
        {
            int th = Jsonb.Header(tdoc, tpos, out int ttype, out int tn);
            if (th == 0) JsonErrors.Malformed();
            if (ttype == Jsonb.Object)
            {
                for (int k = tpos + th, end = k + tn; k < end;)
                {
                    int v = Next(tdoc, k), next = Next(tdoc, v);
                    members.Add((tdoc[k..v].ToArray(), tdoc[v..next].ToArray()));
                    k = next;
                }
            }
        }
        for (int k = ppos + ph, end = k + pn; k < end;)
        {
            int v = Next(pdoc, k), next = Next(pdoc, v);
            int found = -1;
            for (int m = 0; m < members.Count && found < 0; m++)
                if (SameKey(members[m].Key, pdoc[k..v])) found = m;
            bool isNull = Jsonb.Header(pdoc, v, out int vt, out _) != 0 && vt == Jsonb.Null;
            if (isNull)
            {
                if (found >= 0) members.RemoveAt(found);
            }
            else
            {
                var merged = new JsonBuffer();
                if (found >= 0) Patch(members[found].Value, 0, pdoc, v, merged);
                else Patch(default, -1, pdoc, v, merged);
                if (found >= 0) members[found] = (members[found].Key, merged.ToArray());
                else members.Add((pdoc[k..v].ToArray(), merged.ToArray()));
            }
            k = next;
        }
        int start = dst.BeginContainer(Jsonb.Object);
        foreach (var (key, value) in members)
        {
            dst.Append(key);
            dst.Append(value);
        }
        dst.EndContainer(start, Jsonb.Object);
    }

    private static bool SameKey(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b)
    {
        int ah = Jsonb.Header(a, 0, out int at, out int an);
        int bh = Jsonb.Header(b, 0, out int bt, out int bn);
        if (ah == 0 || bh == 0) JsonErrors.Malformed();
        return JsonPath.KeyEquals(at, a.Slice(ah, an), b.Slice(bh, bn), bt is Jsonb.TextJ or Jsonb.Text5);
    }

    private static int Next(ReadOnlySpan<byte> doc, int pos)
    {
        int s = Jsonb.ElementSize(doc, pos);
        if (s == 0) JsonErrors.Malformed();
        return pos + s;
    }
}
