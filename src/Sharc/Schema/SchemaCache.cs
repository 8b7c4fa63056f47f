using Sharc.Format;

namespace Sharc.Schema;

/// <summary>
/// Schemas already built in this process, keyed by the bytes they were built from, so that opening the same file
/// again (open, read a row, close: a short-lived command's pattern) does not parse its CREATE statements again.
/// Only a sqlite_schema that lives wholly in page 1 (a leaf, no overflow) is kept: then page 1's bytes after the
/// file header, with the text encoding, usable size and page count the checks used, determine the schema exactly.
/// A schema is immutable, so databases share it. A few entries are kept; the oldest is dropped first.
/// </summary>
internal static class SchemaCache
{
    private sealed record Entry(byte[] Page, uint Encoding, int UsableSize, uint PageCount, SharcSchema Schema);

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
                if (e is not null && e.PageCount == pageCount && e.UsableSize == header.UsableSize
                    && e.Encoding == header.RawTextEncoding && body.SequenceEqual(e.Page))
                    return e.Schema;
            }
        }
        return null;
    }

    /// <summary>Keeps <paramref name="schema"/>, built from the rows in this page 1 alone.</summary>
    public static void Add(ReadOnlySpan<byte> page1, DatabaseHeader header, uint pageCount, SharcSchema schema)
    {
        var entry = new Entry(page1[DatabaseHeader.Size..].ToArray(), header.RawTextEncoding, header.UsableSize, pageCount, schema);
        lock (Gate)
        {
            Entries[_next] = entry;
            _next = (_next + 1) % Capacity;
        }
    }
}
