using System.Text;
using Sharc.Sql.Functions.Json;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.TableValued;

/// <summary>
/// json_each / json_tree (and the jsonb_ twins, whose value column gives arrays and objects as JSONB): one row
/// per child of the element at the root path (json_each), or per element of the subtree below and including it
/// (json_tree, in document order). The id column is the element's byte offset in the JSONB document (for an
/// object member, its label's), as in SQLite, so ids and parents match SQLite's exactly.
/// </summary>
internal sealed class JsonEachFunction(string name, bool tree, bool jsonb) : TableFunction
{
    private static readonly string[] VisibleColumns = ["key", "value", "type", "atom", "id", "parent", "fullkey", "path"];
    private static readonly string[] Hidden = ["json", "root"];

    /// <inheritdoc/>
    public override string Name => name;

    /// <inheritdoc/>
    public override IReadOnlyList<string> Columns => VisibleColumns;

    /// <inheritdoc/>
    public override IReadOnlyList<string> HiddenColumns => Hidden;

    /// <inheritdoc/>
    public override void Rows(ReadOnlySpan<SqlValue> args, SharcDatabase? db, List<SqlValue[]> into)
    {
        if (args.Length == 0 || !JsonValues.TryDocument(args[0], out var mem)) return;
        var doc = mem.Span;
        var json = args[0].ToOwned();
        SqlValue root = args.Length > 1 ? args[1].ToOwned() : SqlValue.Text("$");
        int pos = 0;
        SqlValue key = SqlValue.Null;
        int id = 0;
        string rootPath = "$";
        if (args.Length > 1)
        {
            if (args[1].IsNull) return;
            var path = args[1].ToTextValue().Bytes;
            var containers = new List<int>();
            var found = JsonPath.Lookup(doc, path, containers, out var r);
            if (found == JsonLookup.PathError) JsonErrors.BadPath(path);
            if (found == JsonLookup.NotFound) return;
            pos = r.Pos;
            id = r.KeyPos >= 0 ? r.KeyPos : r.Pos;
            rootPath = Encoding.UTF8.GetString(path);
            if (r.KeyPos >= 0) key = KeyValue(doc, r.KeyPos);
            else if (containers.Count > 0) key = SqlValue.Integer(IndexIn(doc, containers[^1], pos));
        }
        var ctx = Ctx(doc, json, root, into);
        // The row for the root element itself: json_tree's first row, and json_each's only row for a scalar.
        int h = Jsonb.Header(doc, pos, out int type, out int n);
        if (h == 0) JsonErrors.Malformed();
        // json_tree names the root by its label and parent path; json_each's lone scalar row has neither.
        if (tree) ctx.Add(key, pos, id, null, rootPath, ParentPath(rootPath), jsonb);
        else if (type is not (Jsonb.Array or Jsonb.Object)) ctx.Add(SqlValue.Null, pos, id, null, rootPath, rootPath, jsonb);
        if (type is Jsonb.Array or Jsonb.Object)
            Children(ctx, pos, id, rootPath, tree ? (int?)id : null);
    }

    private sealed class Walk(byte[] doc, SqlValue json, SqlValue root, List<SqlValue[]> into)
    {
        public readonly byte[] Doc = doc;

        public void Add(SqlValue key, int pos, int id, int? parent, string fullKey, string path, bool jsonb)
        {
            var row = new SqlValue[10];
            row[0] = key;
            var d = Doc.AsSpan();
            string type = JsonValues.TypeName(d, pos);
            bool container = type is "array" or "object";
            row[1] = container && !jsonb ? JsonValues.JsonText(d, pos) : JsonValues.ToSqlValue(d, pos, jsonb).ToOwned();
            row[2] = SqlValue.Text(type);
            row[3] = container ? SqlValue.Null : row[1];
            row[4] = SqlValue.Integer(id);
            row[5] = parent is int p ? SqlValue.Integer(p) : SqlValue.Null;
            row[6] = SqlValue.Text(fullKey);
            row[7] = SqlValue.Text(path);
            row[8] = json;
            row[9] = root;
            into.Add(row);
        }
    }

    private Walk Ctx(ReadOnlySpan<byte> doc, SqlValue json, SqlValue root, List<SqlValue[]> into) => new(doc.ToArray(), json, root, into);

    private void Children(Walk w, int pos, int id, string fullKey, int? parent)
    {
        var doc = w.Doc.AsSpan();
        int h = Jsonb.Header(doc, pos, out int type, out int n);
        int end = pos + h + n;
        long index = 0;
        for (int k = pos + h; k < end;)
        {
            int childId = k;
            SqlValue key;
            string childKey;
            int v = k;
            if (type == Jsonb.Object)
            {
                int kh = Jsonb.Header(doc, k, out _, out int kn);
                if (kh == 0) JsonErrors.Malformed();
                key = KeyValue(doc, k);
                childKey = fullKey + "." + Label(doc.Slice(k + kh, kn));
                v = k + kh + kn;
            }
            else
            {
                key = SqlValue.Integer(index);
                childKey = fullKey + "[" + index.ToString(System.Globalization.CultureInfo.InvariantCulture) + "]";
            }
            int size = Jsonb.ElementSize(doc, v);
            if (size == 0 || v + size > end) JsonErrors.Malformed();
            w.Add(key, v, childId, parent, childKey, fullKey, jsonb);
            if (tree && Jsonb.Header(doc, v, out int ct, out _) != 0 && ct is Jsonb.Array or Jsonb.Object)
                Children(w, v, childId, childKey, childId);
            k = v + size;
            index++;
        }
    }

    private static SqlValue KeyValue(ReadOnlySpan<byte> doc, int keyPos) => JsonValues.ToSqlValue(doc, keyPos, jsonb: false).ToOwned();

    // A label as the fullkey shows it: bare when it is a plain identifier, else quoted as stored (escapes kept).
    private static string Label(ReadOnlySpan<byte> raw)
    {
        bool plain = raw.Length > 0 && (raw[0] | 0x20) is >= (byte)'a' and <= (byte)'z';
        foreach (byte b in raw)
            if (!(b is >= (byte)'a' and <= (byte)'z' or >= (byte)'A' and <= (byte)'Z' or >= (byte)'0' and <= (byte)'9')) plain = false;
        string s = Encoding.UTF8.GetString(raw);
        return plain ? s : "\"" + s + "\"";
    }

    private static long IndexIn(ReadOnlySpan<byte> doc, int array, int pos)
    {
        int h = Jsonb.Header(doc, array, out _, out _);
        long i = 0;
        for (int k = array + h; k < pos; i++) k += Jsonb.ElementSize(doc, k);
        return i;
    }

    // The path of the container of the element at a root path ("$" for "$" itself).
    private static string ParentPath(string path)
    {
        if (path == "$") return "$";
        int cut = path.Length;
        if (path.EndsWith(']'))
        {
            cut = path.LastIndexOf('[');
        }
        else if (path.EndsWith('"'))
        {
            int q = path.LastIndexOf('"', path.Length - 2);
            cut = q > 0 && path[q - 1] == '.' ? q - 1 : path.LastIndexOf('.');
        }
        else cut = path.LastIndexOf('.');
        return cut > 0 ? path[..cut] : "$";
    }
}
