using System.Buffers.Binary;

namespace Sharc.Graph.Tests;

/// <summary>Reading back what the graph writer wrote, with SQLite; and a plain model of the rows it should have written.</summary>
public static class WriterFixture
{
    public static List<object?[]> Rows(string path, string sql) => Sharc.Tests.Infrastructure.Oracle.Rows(path, sql);

    public static SharcDatabase CreateDefault(string path)
    {
        var db = SharcDatabase.Create(path);
        GraphSchema.CreateDefault(db);
        return db;
    }

    /// <summary>
    /// Zeroes the left-most leaf of a table b-tree in the file (SQLite wrote it; its root is interior): any scan of the
    /// table then fails on it, while seeks that never go there do not notice. Returns the page's bytes to restore.
    /// </summary>
    public static (long Offset, byte[] Bytes) BreakLeftmostLeaf(string path, string table)
    {
        long root = (long)Rows(path, $"SELECT rootpage FROM sqlite_master WHERE name = '{table}'")[0][0]!;
        int pageSize = (int)(long)Rows(path, "PRAGMA page_size")[0][0]!;
        using var f = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        var page = new byte[pageSize];
        long number = root;
        while (true)
        {
            f.Position = (number - 1) * pageSize;
            f.ReadExactly(page);
            if (page[0] != 0x05) break; // interior table page: follow the first cell's left child
            int firstCell = BinaryPrimitives.ReadUInt16BigEndian(page.AsSpan(12));
            number = BinaryPrimitives.ReadUInt32BigEndian(page.AsSpan(firstCell));
        }
        if (number == root) throw new InvalidOperationException($"{table} fits in its root page: make it larger");
        long offset = (number - 1) * pageSize;
        f.Position = offset;
        f.Write(new byte[pageSize]);
        return (offset, page);
    }

    public static void Restore(string path, (long Offset, byte[] Bytes) saved)
    {
        using var f = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        f.Position = saved.Offset;
        f.Write(saved.Bytes);
    }
}

/// <summary>The rows a sequence of writer operations should leave: nodes by key, edges by rowid.</summary>
public sealed class WriteModel
{
    public SortedDictionary<string, (string? Kind, string? Data)> Nodes { get; } = new(StringComparer.Ordinal);
    public SortedDictionary<long, (object Source, object Target, string? Kind, double Weight, string? Data)> Edges { get; } = [];

    public static string Key(GraphKey k) => k.Text ?? k.Int64.ToString("D20", System.Globalization.CultureInfo.InvariantCulture);

    public void RemoveNode(GraphKey k)
    {
        Nodes.Remove(Key(k));
        object key = k.Text ?? (object)k.Int64;
        foreach (var id in Edges.Where(e => e.Value.Source.Equals(key) || e.Value.Target.Equals(key)).Select(e => e.Key).ToList()) Edges.Remove(id);
    }

    public int RemoveEdges(GraphKey s, GraphKey t, string? kind)
    {
        object source = s.Text ?? (object)s.Int64, target = t.Text ?? (object)t.Int64;
        var ids = Edges.Where(e => e.Value.Source.Equals(source) && e.Value.Target.Equals(target) && (kind is null || e.Value.Kind == kind)).Select(e => e.Key).ToList();
        foreach (var id in ids) Edges.Remove(id);
        return ids.Count;
    }

    /// <summary>The model's nodes as SQLite returns <c>SELECT key, kind, data FROM _concepts ORDER BY key</c>.</summary>
    public List<object?[]> NodeRows(bool text) =>
        Nodes.Select(n => new object?[] { text ? n.Key : long.Parse(n.Key, System.Globalization.CultureInfo.InvariantCulture), n.Value.Kind, n.Value.Data }).ToList();

    /// <summary>The model's edges as SQLite returns <c>SELECT id, source_key, target_key, kind, weight, data FROM _relations ORDER BY id</c>.</summary>
    public List<object?[]> EdgeRows() =>
        Edges.Select(e => new object?[] { e.Key, e.Value.Source, e.Value.Target, e.Value.Kind, e.Value.Weight, e.Value.Data }).ToList();
}
