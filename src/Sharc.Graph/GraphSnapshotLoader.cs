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
        int[] outOffsets = edges.OutOffsets(n);
        int[] outTargets = edges.IsSortedBySource() ? edges.TrimmedTargets() : edges.SpreadBySource(outOffsets);
        int[] inOffsets = edges.InOffsets(n);
        int[] inSources = edges.SpreadByTarget(inOffsets);
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

    /// <summary>
    /// Edges in the order the index walk met them: their targets, and their sources as runs (the walk meets each
    /// source's edges together), which take a few bytes a node instead of four an edge.
    /// </summary>
    private sealed class EdgeList
    {
        private int[] _targets = new int[1024];
        private int _count;
        // Run r: edges _runEnd[r − 1] (0 for the first) … _runEnd[r] − 1 all leave node _runSource[r].
        private int[] _runSource = new int[256], _runEnd = new int[256];
        private int _runs;

        public void Add(int source, int target)
        {
            if (_count == _targets.Length) _targets = Grow(_targets, _count);
            _targets[_count++] = target;
            if (_runs > 0 && _runSource[_runs - 1] == source)
            {
                _runEnd[_runs - 1] = _count;
                return;
            }
            if (_runs == _runSource.Length)
            {
                _runSource = Grow(_runSource, _runs);
                _runEnd = Grow(_runEnd, _runs);
            }
            _runSource[_runs] = source;
            _runEnd[_runs++] = _count;
        }

        private static int[] Grow(int[] array, int count)
        {
            if (count == Array.MaxLength) throw new GraphException($"the graph has more than {Array.MaxLength} edges, more than a snapshot holds");
            Array.Resize(ref array, (int)Math.Min(2L * count, Array.MaxLength));
            return array;
        }

        public void Renumber(int[] rank)
        {
            for (int e = 0; e < _count; e++) _targets[e] = rank[_targets[e]];
            for (int r = 0; r < _runs; r++) _runSource[r] = rank[_runSource[r]];
        }

        public bool IsSortedBySource()
        {
            for (int r = 1; r < _runs; r++)
                if (_runSource[r] < _runSource[r - 1]) return false;
            return true;
        }

        public int[] TrimmedTargets()
        {
            if (_targets.Length != _count) Array.Resize(ref _targets, _count);
            return _targets;
        }

        /// <summary>Row offsets of the out rows: node v's edges are offsets[v] … offsets[v + 1] − 1.</summary>
        public int[] OutOffsets(int nodeCount)
        {
            var offsets = new int[nodeCount + 1];
            for (int r = 0, start = 0; r < _runs; start = _runEnd[r++]) offsets[_runSource[r] + 1] += _runEnd[r] - start;
            return PrefixSums(offsets);
        }

        public int[] InOffsets(int nodeCount)
        {
            var offsets = new int[nodeCount + 1];
            for (int e = 0; e < _count; e++) offsets[_targets[e] + 1]++;
            return PrefixSums(offsets);
        }

        private static int[] PrefixSums(int[] offsets)
        {
            for (int v = 1; v < offsets.Length; v++) offsets[v] += offsets[v - 1];
            return offsets;
        }

        /// <summary>The targets grouped by source (a counting sort, keeping the walk's order within a source).</summary>
        public int[] SpreadBySource(int[] offsets)
        {
            var result = new int[_count];
            var next = offsets.AsSpan(0, offsets.Length - 1).ToArray();
            for (int r = 0, e = 0; r < _runs; r++)
                for (int source = _runSource[r]; e < _runEnd[r]; e++) result[next[source]++] = _targets[e];
            return result;
        }

        /// <summary>The sources grouped by target (a counting sort, keeping the walk's order within a target).</summary>
        public int[] SpreadByTarget(int[] offsets)
        {
            var result = new int[_count];
            var next = offsets.AsSpan(0, offsets.Length - 1).ToArray();
            for (int r = 0, e = 0; r < _runs; r++)
                for (int source = _runSource[r]; e < _runEnd[r]; e++) result[next[_targets[e]]++] = source;
            return result;
        }
    }
}
