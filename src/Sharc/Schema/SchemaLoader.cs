using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using Sharc.BTree;
using Sharc.Format;
using Sharc.Storage;

namespace Sharc.Schema;

/// <summary>Reads the rows of sqlite_schema (the table b-tree rooted at page 1) and builds the schema from them.</summary>
internal static class SchemaLoader
{
    /// <summary>The schema this process already built from the same page 1 (a sqlite_schema wholly in it), or null.</summary>
    public static SharcSchema? FindByPage1(IPageSource source, DatabaseHeader header)
    {
        if (source.PageCount == 0) return null;
        var page1 = source.Acquire(1);
        try
        {
            return SchemaCache.Find(page1.Span, header, source.PageCount);
        }
        finally
        {
            source.Release(page1);
        }
    }

    /// <param name="source">The database's pages.</param>
    /// <param name="header">Its header.</param>
    /// <param name="temp">
    /// A connection's temp database: its TEMP triggers may be on tables of other databases, and its schema is neither
    /// taken from nor put in the cache shared with files (whose schemas must not accept such triggers).
    /// </param>
    public static SharcSchema Load(IPageSource source, DatabaseHeader header, bool temp = false)
    {
        if (source.PageCount == 0) return SchemaBuilder.Build(new List<SchemaRow>(), 0);
        uint pageCount = source.PageCount;
        if (!temp && FindByPage1(source, header) is { } known) return known;
        var rows = new List<SchemaRow>();

        var encoding = TextCodec.For(header.TextEncoding);
        // Whether every row was read from page 1 itself, so that page 1 alone determines the schema.
        bool inPage1 = true;
        int maxLocal = header.UsableSize - 35;
        // Every row's record, each behind its 4-byte length: a schema spread over several pages (a few hundred
        // objects) is found in the cache by these bytes, which determine its rows exactly, before anything is parsed.
        byte[] records = ArrayPool<byte>.Shared.Rent(4096);
        var rowAt = new List<(int Offset, int Length, uint Page)>();
        int used = 0;
        try
        {
            using (var cursor = new BTreeCursor(source, 1, header.UsableSize, isIndex: false))
            {
                for (bool ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
                {
                    inPage1 &= cursor.CurrentPage == 1 && cursor.PayloadSize <= maxLocal;
                    var payload = cursor.GetPayload(cursor.PayloadSize);
                    if (used + 4 + payload.Length > records.Length) Grow(ref records, used + 4 + payload.Length);
                    BinaryPrimitives.WriteInt32LittleEndian(records.AsSpan(used), payload.Length);
                    payload.CopyTo(records.AsSpan(used + 4));
                    rowAt.Add((used + 4, payload.Length, cursor.CurrentPage));
                    used += 4 + payload.Length;
                }
            }
            var key = records.AsSpan(0, used);
            if (!temp && !inPage1 && SchemaCache.FindRecords(key, header, pageCount) is { } cached) return cached;

            var layout = new RecordLayout(5);
            foreach (var (offset, length, page) in rowAt)
            {
                var payload = records.AsSpan(offset, length);
                layout.Reset(length, page);
                layout.HeaderSize(payload);
                string type = Text(layout, payload, 0, encoding, page) ?? "";
                string name = Text(layout, payload, 1, encoding, page) ?? "";
                string table = Text(layout, payload, 2, encoding, page) ?? "";
                long root = Integer(layout, payload, 3);
                string? sql = Text(layout, payload, 4, encoding, page);
                rows.Add(new SchemaRow(type, name, table, root, sql));
            }
            var schema = SchemaBuilder.Build(rows, pageCount, foreignTriggers: temp);
            if (temp) return schema;
            if (inPage1)
            {
                var page1 = source.Acquire(1);
                try
                {
                    // A leaf: no child page can hold rows the cache's key would not show.
                    if (page1.Span[DatabaseHeader.Size] == 0x0D) SchemaCache.Add(page1.Span, header, pageCount, schema);
                }
                finally
                {
                    source.Release(page1);
                }
            }
            else SchemaCache.AddRecords(key, header, pageCount, schema);
            return schema;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(records);
        }
    }

    private static void Grow(ref byte[] buffer, int needed)
    {
        var bigger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, buffer.Length * 2));
        buffer.AsSpan().CopyTo(bigger);
        ArrayPool<byte>.Shared.Return(buffer);
        buffer = bigger;
    }

    private static string? Text(RecordLayout layout, ReadOnlySpan<byte> payload, int field, Encoding enc, uint page)
    {
        if (!layout.TryGetField(field, payload, out long type, out int off, out int size)) return null;
        var cls = SerialType.StorageClass(type);
        if (cls == SharcColumnType.Null) return null;
        if (cls is SharcColumnType.Text or SharcColumnType.Blob) return enc.GetString(payload.Slice(off, size));
        ThrowHelper.Corrupt($"sqlite_schema field {field} has serial type {type} where text was expected", page);
        return null;
    }

    private static long Integer(RecordLayout layout, ReadOnlySpan<byte> payload, int field)
    {
        if (!layout.TryGetField(field, payload, out long type, out int off, out int size)) return 0;
        return SerialType.StorageClass(type) == SharcColumnType.Integer ? SerialType.ReadInteger(type, payload.Slice(off, size)) : 0;
    }
}
