using Sharc.Format;

namespace Sharc.Schema;

/// <summary>
/// Schemas already built in this process, keyed by the bytes they were built from, so that opening the same file
/// again (open, read a row, close: a short-lived command's pattern) does not parse its CREATE statements again.
/// A sqlite_schema that lives wholly in page 1 (a leaf, no overflow) is found by page 1's bytes after the file header
/// alone, before its rows are walked; a larger one by its rows' records (each behind its length), read from the
/// b-tree but not parsed. Either key, with the text encoding, usable size and page count the checks used, determines
/// the schema exactly. A schema is immutable, so databases share it. A few entries are kept; the oldest is dropped
/// first, and a schema whose records exceed <see cref="MaxRecordBytes"/> is not kept.
/// </summary>
internal static class SchemaCache
{
    private sealed record Entry(byte[] Page, uint Encoding, int UsableSize, uint PageCount, SharcSchema Schema, bool IsRecords = false);

    /// <summary>The largest records key kept (a few thousand objects' CREATE statements).</summary>
    public const int MaxRecordBytes = 1 << 20;

    private const int Capacity = 8;
    private static readonly Lock Gate = new();
    private static readonly Entry?[] Entries = new Entry?[Capacity];
    private static int _next;

    /// <summary>The schema built from this page 1 (from byte 100 on), or null.</summary>
    public static SharcSchema? Find(ReadOnlySpan<byte> page1, DatabaseHeader header, uint pageCount)
    {
        var body = page1[DatabaseHeader.Size..];
        lock (Gate)
        {
            foreach (var e in Entries)
            {
                if (e is not null && !e.IsRecords && e.PageCount == pageCount && e.UsableSize == header.UsableSize
                    && e.Encoding == header.RawTextEncoding && body.SequenceEqual(e.Page))
                    return e.Schema;
            }
        }
        return null;
    }

    /// <summary>The schema built from exactly these length-prefixed sqlite_schema records, or null.</summary>
    public static SharcSchema? FindRecords(ReadOnlySpan<byte> records, DatabaseHeader header, uint pageCount)
    {
        lock (Gate)
        {
            foreach (var e in Entries)
            {
                if (e is not null && e.IsRecords && e.PageCount == pageCount && e.UsableSize == header.UsableSize
                    && e.Encoding == header.RawTextEncoding && records.SequenceEqual(e.Page))
                    return e.Schema;
            }
        }
        return null;
    }

    /// <summary>Keeps <paramref name="schema"/>, built from the rows in this page 1 alone.</summary>
    public static void Add(ReadOnlySpan<byte> page1, DatabaseHeader header, uint pageCount, SharcSchema schema)
        => Keep(new Entry(page1[DatabaseHeader.Size..].ToArray(), header.RawTextEncoding, header.UsableSize, pageCount, schema));

    /// <summary>Keeps <paramref name="schema"/>, built from these length-prefixed sqlite_schema records.</summary>
    public static void AddRecords(ReadOnlySpan<byte> records, DatabaseHeader header, uint pageCount, SharcSchema schema)
    {
        if (records.Length > MaxRecordBytes) return;
        Keep(new Entry(records.ToArray(), header.RawTextEncoding, header.UsableSize, pageCount, schema, IsRecords: true));
    }

    private static void Keep(Entry entry)
    {
        lock (Gate)
        {
            Entries[_next] = entry;
            _next = (_next + 1) % Capacity;
        }
    }
}
