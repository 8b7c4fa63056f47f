using System.Text;

namespace Sharc.Graph;

/// <summary>
/// Builds a <see cref="GraphSnapshot"/>: one walk over the node key's b-tree, one over the out-edge index (reading
/// an edge row only when the index lacks the target or, for a kind filter, the kind), then the compressed rows.
/// </summary>
internal static class GraphSnapshotLoader
{
    public static GraphSnapshot Load(SharcGraph graph, string? kind)
    {
        if (kind is not null && graph.Schema.EdgeKind is null)
            throw new GraphMappingException(GraphMappingProblem.UnknownColumn, $"a kind filter needs an edge kind column, and the mapping of {graph.Schema.EdgeTable} has none");
        bool text = graph.KeyType == GraphKeyType.Text;
        var keys = new KeyIds(text);
        ReadNodes(graph, keys);
        var edges = new EdgeList();
        ReadEdges(graph, keys, kind is null ? null : Encoding.UTF8.GetBytes(kind), edges);

        int n = keys.Count;
        int[]? rank = KeyOrder(keys, text);
        if (rank is not null) edges.Renumber(rank);
        long[]? intKeys = null;
        byte[]? arena = null;
        int[]? offsets = null;
        if (text) (arena, offsets) = TextKeys(keys, rank);
        else intKeys = IntKeys(keys, rank);

        // Out rows: the index walk met sources in key order, which is node order, so usually only offsets are needed.
        int[] outOffsets = Offsets(edges.Sources, edges.Count, n);
        int[] outTargets = edges.IsSortedBySource() ? edges.TrimmedTargets() : Spread(edges.Sources, edges.Targets, edges.Count, outOffsets);
        int[] inOffsets = Offsets(edges.Targets, edges.Count, n);
        int[] inSources = Spread(edges.Targets, edges.Sources, edges.Count, inOffsets);
        return new GraphSnapshot(kind, intKeys, arena, offsets, n, outOffsets, outTargets, inOffsets, inSources);
    }

    /// <summary>Every key of the node table, through the b-tree its key is sought in (rows whose key is NULL or of another type name no node).</summary>
    private static void ReadNodes(SharcGraph graph, KeyIds keys)
    {
        var access = graph.Node;
        using var reader = access.How == NodeAccess.Mode.Index
            ? graph.Database.PrepareReader(access.IndexName!)
            : graph.Database.PrepareReader(access.TableName, graph.Schema.NodeKey);
        var keyClass = KeyClass(graph);
        // Integer keys are gathered first, so that their map can see their range before it hands out ids.
        var ints = new long[keys.Ints is null ? 0 : 1024];
        int count = 0;
        while (reader.Read())
        {
            if (reader.GetColumnType(0) != keyClass) continue;
            if (keyClass == SharcColumnType.Text)
            {
                keys.Texts!.GetOrAdd(reader.GetUtf8Span(0), out _);
                continue;
            }
            if (count == ints.Length) Array.Resize(ref ints, count * 2);
            ints[count++] = reader.GetInt64(0);
        }
        keys.Ints?.AddFirst(ints.AsSpan(0, count));
    }

    /// <summary>
    /// Every edge whose two ends are keys of the graph's type; both ends become nodes whatever their kind, the edge
    /// is kept when it is of <paramref name="kind"/> (or no kind is asked for).
    /// </summary>
    private static void ReadEdges(SharcGraph graph, KeyIds keys, byte[]? kind, EdgeList edges)
    {
        var db = graph.Database;
        var access = graph.OutEdges;
        bool rowForOther = access.OtherPos <= 0, rowForKind = kind is not null && access.KindPos <= 0;
        using var index = db.PrepareReader(access.IndexName);
        using var row = rowForOther || rowForKind
            ? db.PrepareReader(access.TableName, access.OtherColumn, access.KindColumn ?? access.OtherColumn)
            : null;
        SharcDataReader otherReader = rowForOther ? row! : index, kindReader = rowForKind ? row! : index;
        int otherOrdinal = rowForOther ? 0 : access.OtherPos, kindOrdinal = rowForKind ? 1 : access.KindPos;
        var keyClass = KeyClass(graph);
        bool text = keyClass == SharcColumnType.Text;
        // The walk is in source order: a run of one source's edges looks its id up once.
        long lastSource = 0;
        byte[] lastText = new byte[64];
        int lastTextLength = -1, source = -1;
        while (index.Read())
        {
            if (index.GetColumnType(0) != keyClass) continue;
            if (row is not null && !row.Seek(index.GetInt64(access.RowIdPos))) ThrowMissingRow(access, index.GetInt64(access.RowIdPos));
            if (otherReader.GetColumnType(otherOrdinal) != keyClass) continue;
            int target;
            if (text)
            {
                var s = index.GetUtf8Span(0);
                if (source < 0 || !s.SequenceEqual(lastText.AsSpan(0, lastTextLength)))
                {
                    source = keys.Texts!.GetOrAdd(s, out _);
                    if (lastText.Length < s.Length) lastText = new byte[Math.Max(s.Length, lastText.Length * 2)];
                    s.CopyTo(lastText);
                    lastTextLength = s.Length;
                }
                target = keys.Texts!.GetOrAdd(otherReader.GetUtf8Span(otherOrdinal), out _);
            }
            else
            {
                long s = index.GetInt64(0);
                if (source < 0 || s != lastSource)
                {
                    source = keys.Ints!.GetOrAdd(s);
                    lastSource = s;
                }
                target = keys.Ints!.GetOrAdd(otherReader.GetInt64(otherOrdinal));
            }
            if (kind is not null && !(kindReader.GetColumnType(kindOrdinal) == SharcColumnType.Text
                                      && kindReader.GetUtf8Span(kindOrdinal).SequenceEqual(kind)))
                continue;
            edges.Add(source, target);
        }
    }

    private static SharcColumnType KeyClass(SharcGraph graph)
        => graph.KeyType == GraphKeyType.Text ? SharcColumnType.Text : SharcColumnType.Integer;

    /// <summary>
    /// Null when the ids (given in order of first sight) are already in key order, as they are when the node table
    /// holds every key; else each id's place in key order.
    /// </summary>
    private static int[]? KeyOrder(KeyIds keys, bool text)
    {
        int n = keys.Count;
        bool sorted = true;
        for (int i = 1; i < n && sorted; i++)
            sorted = text ? keys.TextKey(i - 1).SequenceCompareTo(keys.TextKey(i)) < 0 : keys.IntKey(i - 1) < keys.IntKey(i);
        if (sorted) return null;
        var byPlace = new int[n];
        for (int i = 0; i < n; i++) byPlace[i] = i;
        if (text)
        {
            byPlace.AsSpan().Sort((a, b) => keys.TextKey(a).SequenceCompareTo(keys.TextKey(b)));
        }
        else
        {
            var sortKeys = new long[n];
            for (int i = 0; i < n; i++) sortKeys[i] = keys.IntKey(i);
            Array.Sort(sortKeys, byPlace);
        }
        var rank = new int[n];
        for (int place = 0; place < n; place++) rank[byPlace[place]] = place;
        return rank;
    }

    private static long[] IntKeys(KeyIds keys, int[]? rank)
    {
        var result = new long[keys.Count];
        for (int id = 0; id < result.Length; id++) result[rank is null ? id : rank[id]] = keys.IntKey(id);
        return result;
    }

    private static (byte[] Arena, int[] Offsets) TextKeys(KeyIds keys, int[]? rank)
    {
        int n = keys.Count;
        var offsets = new int[n + 1];
        for (int id = 0; id < n; id++) offsets[(rank is null ? id : rank[id]) + 1] = keys.TextKey(id).Length;
        for (int i = 0; i < n; i++) offsets[i + 1] += offsets[i];
        var arena = new byte[offsets[n]];
        for (int id = 0; id < n; id++) keys.TextKey(id).CopyTo(arena.AsSpan(offsets[rank is null ? id : rank[id]]));
        return (arena, offsets);
    }

    /// <summary>Row offsets for a compressed row layout grouped by <paramref name="by"/>: row v is offsets[v]…offsets[v+1]−1.</summary>
    private static int[] Offsets(int[] by, int count, int nodeCount)
    {
        var offsets = new int[nodeCount + 1];
        for (int e = 0; e < count; e++) offsets[by[e] + 1]++;
        for (int v = 0; v < nodeCount; v++) offsets[v + 1] += offsets[v];
        return offsets;
    }

    /// <summary>A counting sort: <paramref name="values"/> grouped by <paramref name="by"/>, keeping their order within a group.</summary>
    private static int[] Spread(int[] by, int[] values, int count, int[] offsets)
    {
        var result = new int[count];
        var next = offsets.AsSpan(0, offsets.Length - 1).ToArray();
        for (int e = 0; e < count; e++) result[next[by[e]]++] = values[e];
        return result;
    }

    private static void ThrowMissingRow(EdgeAccess access, long rowId)
        => throw new SharcCorruptException($"index {access.IndexName} has an entry for rowid {rowId}, which is not in {access.TableName}");

    /// <summary>The ids of the keys met: integer keys in a <see cref="LongIdMap"/>, text keys in a <see cref="NodeKeyTable"/>.</summary>
    private sealed class KeyIds(bool text)
    {
        public readonly LongIdMap? Ints = text ? null : new LongIdMap();
        public readonly NodeKeyTable? Texts = text ? new NodeKeyTable(true) : null;

        public int Count => Ints?.Count ?? Texts!.Count;

        public long IntKey(int id) => Ints!.KeyAt(id);

        public ReadOnlySpan<byte> TextKey(int id) => Texts!.TextKey(id);
    }

    /// <summary>Edges as two growing arrays of node ids, in the order the index walk met them.</summary>
    private sealed class EdgeList
    {
        public int[] Sources = new int[1024];
        public int[] Targets = new int[1024];
        public int Count;

        public void Add(int source, int target)
        {
            if (Count == Sources.Length) Grow();
            Sources[Count] = source;
            Targets[Count] = target;
            Count++;
        }

        private void Grow()
        {
            if (Count == Array.MaxLength) throw new GraphException($"the graph has more than {Array.MaxLength} edges, more than a snapshot holds");
            int size = (int)Math.Min(2L * Count, Array.MaxLength);
            Array.Resize(ref Sources, size);
            Array.Resize(ref Targets, size);
        }

        public void Renumber(int[] rank)
        {
            for (int e = 0; e < Count; e++)
            {
                Sources[e] = rank[Sources[e]];
                Targets[e] = rank[Targets[e]];
            }
        }

        public bool IsSortedBySource()
        {
            for (int e = 1; e < Count; e++)
                if (Sources[e] < Sources[e - 1]) return false;
            return true;
        }

        public int[] TrimmedTargets()
        {
            if (Targets.Length != Count) Array.Resize(ref Targets, Count);
            return Targets;
        }
    }
}
