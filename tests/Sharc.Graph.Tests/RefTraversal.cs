namespace Sharc.Graph.Tests;

/// <summary>One visit of a reference traversal: the node, its depth, the visit it came from (-1 for a start) and the edge.</summary>
public readonly record struct RefVisit(long Key, int Depth, int Parent, long EdgeId);

/// <summary>
/// Straightforward reference traversals over a <see cref="RefGraph"/>, written for clarity. They follow edges in the
/// order the graph's indexes hold them — (node, kind, other end, rowid), NULL kinds first, text compared bytewise,
/// outgoing edges before incoming ones — so filtered and capped traversals can be compared visit by visit.
/// </summary>
public static class RefTraversal
{
    /// <summary>The edges around <paramref name="node"/> in index order; <paramref name="textKeys"/>: keys are stored as "k" + number.</summary>
    public static IEnumerable<(long Neighbor, Edge Edge, GraphDirection Dir)> InIndexOrder(this RefGraph g, long node, GraphDirection dir, string? kind, bool textKeys)
    {
        var neighborOrder = textKeys ? Comparer<long>.Create((a, b) => string.CompareOrdinal(TextKey(a), TextKey(b))) : Comparer<long>.Default;
        // StringComparer.Ordinal sorts null first, as SQLite sorts NULL before text.
        IEnumerable<(long, Edge, GraphDirection)> Side(GraphDirection d)
            => g.Around(node, d, kind)
                .OrderBy(x => x.Edge.Kind, StringComparer.Ordinal)
                .ThenBy(x => x.Neighbor, neighborOrder)
                .ThenBy(x => x.Edge.Id)
                .Select(x => (x.Neighbor, x.Edge, d));
        var result = Enumerable.Empty<(long, Edge, GraphDirection)>();
        if (dir != GraphDirection.In) result = result.Concat(Side(GraphDirection.Out));
        if (dir != GraphDirection.Out) result = result.Concat(Side(GraphDirection.In));
        return result;
    }

    public static string TextKey(long key) => "k" + key;

    /// <summary>
    /// Breadth-first traversal with the semantics of <see cref="PreparedBfs"/>: the node filter is asked once per
    /// key when first reached (starts included), the edge filter per edge before the neighbour is looked at, the
    /// fan-out cap counts followed edges, and the node budget stops on reaching it.
    /// </summary>
    public static (List<RefVisit> Visits, bool BudgetHit) Bfs(this RefGraph g, IEnumerable<long> starts, GraphDirection dir, string? kind, bool textKeys,
        int maxDepth = int.MaxValue, int maxNodes = int.MaxValue, int fanOut = int.MaxValue,
        Func<long, int, Edge, long, GraphDirection, bool>? edgeFilter = null, Func<long, int, bool>? nodeFilter = null)
    {
        var visits = new List<RefVisit>();
        var index = new Dictionary<long, int>();
        var refused = new HashSet<long>();
        bool Reach(long key, int depth, int parent, long edge)
        {
            if (index.ContainsKey(key) || refused.Contains(key)) return false;
            if (nodeFilter is not null && !nodeFilter(key, depth))
            {
                refused.Add(key);
                return false;
            }
            index[key] = visits.Count;
            visits.Add(new RefVisit(key, depth, parent, edge));
            return true;
        }
        foreach (long s in starts)
        {
            Reach(s, 0, -1, 0);
            if (visits.Count >= maxNodes) return (visits, true);
        }
        // Level by level, each level's nodes expanded in key order (text keys compare as their UTF-8 bytes do).
        for (int levelStart = 0, levelEnd; levelStart < visits.Count; levelStart = levelEnd)
        {
            levelEnd = visits.Count;
            var level = Enumerable.Range(levelStart, levelEnd - levelStart);
            level = textKeys ? level.OrderBy(i => TextKey(visits[i].Key), StringComparer.Ordinal) : level.OrderBy(i => visits[i].Key);
            foreach (int head in level.ToList())
            {
                var u = visits[head];
                if (u.Depth >= maxDepth) continue;
                int followed = 0;
                foreach (var (v, e, d) in g.InIndexOrder(u.Key, dir, kind, textKeys))
                {
                    if (edgeFilter is not null && !edgeFilter(u.Key, u.Depth, e, v, d)) continue;
                    if (Reach(v, u.Depth + 1, head, e.Id) && visits.Count >= maxNodes) return (visits, true);
                    if (++followed == fanOut) break;
                }
            }
        }
        return (visits, false);
    }

    /// <summary>The k-hop neighbourhood: every node within <paramref name="hops"/> with its distance, and every edge of the kind with both ends among them.</summary>
    public static (Dictionary<long, int> Nodes, List<Edge> Edges) Subgraph(this RefGraph g, IEnumerable<long> starts, int hops, GraphDirection dir, string? kind)
    {
        var adjacency = g.Adjacency(dir, kind);
        var nodes = new Dictionary<long, int>();
        foreach (long s in starts)
            foreach (var (k, d) in RefGraph.Distances(adjacency, s, hops))
                nodes[k] = Math.Min(d, nodes.GetValueOrDefault(k, int.MaxValue));
        var edges = g.Edges.Where(e => (kind is null || e.Kind == kind) && nodes.ContainsKey(e.Source) && nodes.ContainsKey(e.Target)).ToList();
        return (nodes, edges);
    }
}

/// <summary>Random graphs written by SQLite into a user mapping with integer or text keys (text key = "k" + number).</summary>
public static class MappedGraphs
{
    public static GraphSchema Schema { get; } = new("nodes", "key", "edges", "source", "target") { NodeKind = "kind", EdgeKind = "kind", EdgeWeight = "weight" };

    /// <summary>
    /// Like <see cref="GraphFixture.BuildRandom"/> (disjoint parts, self-loops and parallel edges as they fall, isolated
    /// nodes), plus, with <paramref name="chain"/>, one long chain 0 → 1 → … of that many nodes at keys from 900,000.
    /// Node kinds: "person" for even keys, "paper" for odd.
    /// </summary>
    public static RefGraph Build(string path, bool text, int seed, int graphs, int maxNodes, double edgesPerNode, int chain = 0)
    {
        var rng = new Random(seed);
        var g = new RefGraph();
        string type = text ? "TEXT" : "INTEGER";
        using var conn = GraphFixture.Open(path);
        GraphFixture.Exec(conn, text
            ? "CREATE TABLE nodes(key TEXT PRIMARY KEY, kind TEXT) WITHOUT ROWID;"
            : "CREATE TABLE nodes(key INTEGER PRIMARY KEY, kind TEXT);");
        GraphFixture.Exec(conn, $"CREATE TABLE edges(id INTEGER PRIMARY KEY, source {type} NOT NULL, target {type} NOT NULL, kind TEXT, weight REAL);" +
                                "CREATE INDEX edges_out ON edges(source, kind, target); CREATE INDEX edges_in ON edges(target, kind, source);");
        using var tx = conn.BeginTransaction();
        using var node = GraphFixture.Command(conn, tx, "INSERT INTO nodes VALUES ($k, $kind)", "$k", "$kind");
        using var edge = GraphFixture.Command(conn, tx, "INSERT INTO edges VALUES ($id, $s, $t, $kind, $w)", "$id", "$s", "$t", "$kind", "$w");
        object Key(long k) => text ? RefTraversal.TextKey(k) : k;
        void AddNode(long k)
        {
            g.Nodes.Add(k);
            GraphFixture.Run(node, Key(k), k % 2 == 0 ? "person" : "paper");
        }
        long id = 1;
        void AddEdge(long s, long t, string? kind, double w)
        {
            g.Add(new Edge(id, s, t, kind, w));
            GraphFixture.Run(edge, id++, Key(s), Key(t), kind, w);
        }
        for (int gi = 0; gi < graphs; gi++)
        {
            int n = rng.Next(1, maxNodes + 1);
            long offset = gi * 1000L;
            for (int i = 0; i < n; i++) AddNode(offset + i);
            int m = (int)(n * edgesPerNode * rng.NextDouble() * 2);
            for (int j = 0; j < m; j++)
                AddEdge(offset + rng.Next(n), offset + rng.Next(n), GraphFixture.Kinds[rng.Next(GraphFixture.Kinds.Length)], Math.Round(rng.NextDouble() * 10, 3));
        }
        for (int i = 0; i < chain; i++)
        {
            AddNode(900_000 + i);
            if (i > 0) AddEdge(900_000 + i - 1, 900_000 + i, "knows", 1);
        }
        tx.Commit();
        return g;
    }

    /// <summary>The key of a text graph's key bytes ("k" + number).</summary>
    public static long Number(ReadOnlySpan<byte> utf8) => long.Parse(utf8[1..], System.Globalization.CultureInfo.InvariantCulture);
}
