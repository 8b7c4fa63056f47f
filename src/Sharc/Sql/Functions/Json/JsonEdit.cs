using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>How json_insert, json_replace and json_set treat a path: add only, change only, or both.</summary>
internal enum JsonEditMode
{
    Insert,
    Replace,
    Set,
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
            int old = Jsonb.ElementSize(doc.Written, r.Pos);
            doc.Splice(r.Pos, old, v.Written);
            FixSizes(doc, containers, v.Length - old);
            return;
        }
        if (mode == JsonEditMode.Replace) return;
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

    /// <summary>RFC 7396 merge of the patch element at <paramref name="ppos"/> into the target at <paramref name="tpos"/> (-1: absent), as json_patch.</summary>
    public static void Patch(ReadOnlySpan<byte> tdoc, int tpos, ReadOnlySpan<byte> pdoc, int ppos, JsonBuffer dst)
    {
        int ph = Jsonb.Header(pdoc, ppos, out int ptype, out int pn);
        if (ph == 0) JsonErrors.Malformed();
        if (ptype != Jsonb.Object)
        {
            dst.Append(pdoc.Slice(ppos, ph + pn));
            return;
        }
        int th = 0, ttype = -1, tn = 0;
        if (tpos >= 0)
        {
            th = Jsonb.Header(tdoc, tpos, out ttype, out tn);
            if (th == 0) JsonErrors.Malformed();
        }
        int start = dst.BeginContainer(Jsonb.Object);
        int pStart = ppos + ph, pEnd = pStart + pn;
        if (ttype == Jsonb.Object)
        {
            int tStart = tpos + th, tEnd = tStart + tn;
            for (int k = tStart; k < tEnd;)
            {
                int v = Next(tdoc, k), next = Next(tdoc, v);
                int pv = FindKey(pdoc, pStart, pEnd, tdoc, k);
                if (pv < 0 || FindKey(tdoc, tStart, k, tdoc, k) >= 0)
                    dst.Append(tdoc[k..next]);
                else if (Jsonb.Header(pdoc, pv, out int pvt, out _) != 0 && pvt != Jsonb.Null)
                {
                    dst.Append(tdoc[k..v]);
                    Patch(tdoc, v, pdoc, pv, dst);
                }
                k = next;
            }
            for (int k = pStart; k < pEnd;)
            {
                int v = Next(pdoc, k), next = Next(pdoc, v);
                if (FindKey(tdoc, tStart, tEnd, pdoc, k) < 0 && FindKey(pdoc, pStart, k, pdoc, k) < 0
                    && Jsonb.Header(pdoc, v, out int vt, out _) != 0 && vt != Jsonb.Null)
                {
                    dst.Append(pdoc[k..v]);
                    Patch(default, -1, pdoc, v, dst);
                }
                k = next;
            }
        }
        else
        {
            for (int k = pStart; k < pEnd;)
            {
                int v = Next(pdoc, k), next = Next(pdoc, v);
                if (FindKey(pdoc, pStart, k, pdoc, k) < 0 && Jsonb.Header(pdoc, v, out int vt, out _) != 0 && vt != Jsonb.Null)
                {
                    dst.Append(pdoc[k..v]);
                    Patch(default, -1, pdoc, v, dst);
                }
                k = next;
            }
        }
        dst.EndContainer(start, Jsonb.Object);
    }

    private static int Next(ReadOnlySpan<byte> doc, int pos)
    {
        int s = Jsonb.ElementSize(doc, pos);
        if (s == 0) JsonErrors.Malformed();
        return pos + s;
    }

    // The value of the first member in [start, end) whose key equals the key at keyPos in keyDoc, or -1.
    private static int FindKey(ReadOnlySpan<byte> doc, int start, int end, ReadOnlySpan<byte> keyDoc, int keyPos)
    {
        int kh = Jsonb.Header(keyDoc, keyPos, out int kt, out int kn);
        var key = keyDoc.Slice(keyPos + kh, kn);
        for (int k = start; k < end;)
        {
            int h = Jsonb.Header(doc, k, out int t, out int n);
            if (h == 0) JsonErrors.Malformed();
            int v = k + h + n;
            if (t is >= Jsonb.Text and <= Jsonb.TextRaw && JsonPath.KeyEquals(t, doc.Slice(k + h, n), key, kt is Jsonb.TextJ or Jsonb.Text5))
                return v;
            k = Next(doc, v);
        }
        return -1;
    }
}
