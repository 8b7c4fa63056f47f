using Microsoft.Data.Sqlite;

namespace Sharc.Graph.Tests;

public sealed class TempDir : IDisposable
{
    public TempDir()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "sharc-graph-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public string File(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>Every database file a test wrote must pass SQLite's integrity_check: checked here, after the test's
    /// databases are closed (a TempDir is declared first, so it is disposed last).</summary>
    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        var failures = Directory.GetFiles(Path, "*.db")
            .Select(f => (File: f, Result: GraphFixture.IntegrityCheck(f)))
            .Where(x => x.Result != "ok")
            .ToList();
        SqliteConnection.ClearAllPools();
        try { Directory.Delete(Path, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
        if (failures.Count > 0)
            throw new InvalidOperationException("integrity_check failed: " + string.Join("; ", failures.Select(x => $"{x.File}: {x.Result}")));
    }
}

public sealed record Edge(long Id, long Source, long Target, string? Kind, double Weight);

/// <summary>A graph kept in memory beside the file: the reference the tests compare Sharc's answers with.</summary>
public sealed class RefGraph
{
    public List<long> Nodes { get; } = [];
    public List<Edge> Edges { get; } = [];
    public Dictionary<long, Edge> ById { get; } = [];

    public void Add(Edge e)
    {
        Edges.Add(e);
        ById[e.Id] = e;
    }

    public IEnumerable<(long Neighbor, Edge Edge)> Around(long node, GraphDirection dir, string? kind)
    {
        if (dir != GraphDirection.In)
            foreach (var e in Edges)
                if (e.Source == node && (kind is null || e.Kind == kind)) yield return (e.Target, e);
        if (dir != GraphDirection.Out)
            foreach (var e in Edges)
                if (e.Target == node && (kind is null || e.Kind == kind)) yield return (e.Source, e);
    }

    /// <summary>Plain one-ended BFS: the distance of every node reachable from <paramref name="start"/>.</summary>
    public Dictionary<long, int> Distances(long start, GraphDirection dir, string? kind, int maxDepth = int.MaxValue)
        => Distances(Adjacency(dir, kind), start, maxDepth);

    public static Dictionary<long, int> Distances(Dictionary<long, List<long>> adj, long start, int maxDepth = int.MaxValue)
    {
        var dist = new Dictionary<long, int> { [start] = 0 };
        var queue = new Queue<long>();
        queue.Enqueue(start);
        while (queue.Count > 0)
        {
            long u = queue.Dequeue();
            if (dist[u] >= maxDepth) continue;
            if (!adj.TryGetValue(u, out var list)) continue;
            foreach (long v in list)
                if (dist.TryAdd(v, dist[u] + 1)) queue.Enqueue(v);
        }
        return dist;
    }

    public Dictionary<long, List<long>> Adjacency(GraphDirection dir, string? kind)
    {
        var adj = new Dictionary<long, List<long>>();
        void Link(long a, long b)
        {
            if (!adj.TryGetValue(a, out var l)) adj[a] = l = [];
            l.Add(b);
        }
        foreach (var e in Edges)
        {
            if (kind is not null && e.Kind != kind) continue;
            if (dir != GraphDirection.In) Link(e.Source, e.Target);
            if (dir != GraphDirection.Out) Link(e.Target, e.Source);
        }
        return adj;
    }

    /// <summary>Least total weight by a simple O(n²) Dijkstra over the in-memory edge list.</summary>
    public double? LeastWeight(long from, long to, GraphDirection dir, string? kind)
    {
        var dist = new Dictionary<long, double> { [from] = 0 };
        var done = new HashSet<long>();
        while (true)
        {
            long best = 0;
            double bestD = double.PositiveInfinity;
            foreach (var (n, d) in dist)
                if (!done.Contains(n) && d < bestD) { best = n; bestD = d; }
            if (double.IsPositiveInfinity(bestD)) return null;
            if (best == to) return bestD;
            done.Add(best);
            foreach (var (v, e) in Around(best, dir, kind))
                if (!dist.TryGetValue(v, out double old) || bestD + e.Weight < old) dist[v] = bestD + e.Weight;
        }
    }
}

public static class GraphFixture
{
    public static readonly string?[] Kinds = ["knows", "cites", null];

    /// <summary>
    /// Writes the default layout with SQLite and fills it with random graphs: <paramref name="graphs"/> disjoint
    /// components of up to <paramref name="maxNodes"/> nodes each (keys offset by 1000 per graph), with self-loops and
    /// parallel edges as they fall, and some isolated nodes.
    /// </summary>
    public static RefGraph BuildRandom(string path, int seed, int graphs, int maxNodes, double edgesPerNode, double maxWeight = 10)
    {
        var rng = new Random(seed);
        var g = new RefGraph();
        using var conn = Open(path);
        Exec(conn, GraphSchema.DefaultLayoutSql);
        using var tx = conn.BeginTransaction();
        using var node = Command(conn, tx, "INSERT INTO _concepts(key, kind) VALUES ($k, $kind)", "$k", "$kind");
        using var edge = Command(conn, tx, "INSERT INTO _relations(id, source_key, target_key, kind, weight) VALUES ($id, $s, $t, $kind, $w)", "$id", "$s", "$t", "$kind", "$w");
        long id = 1;
        for (int gi = 0; gi < graphs; gi++)
        {
            int n = rng.Next(1, maxNodes + 1);
            long offset = gi * 1000L;
            for (int i = 0; i < n; i++)
            {
                g.Nodes.Add(offset + i);
                Run(node, offset + i, i % 2 == 0 ? "person" : "paper");
            }
            int m = (int)(n * edgesPerNode * rng.NextDouble() * 2);
            for (int j = 0; j < m; j++)
            {
                long s = offset + rng.Next(n), t = offset + rng.Next(n);
                string? kind = Kinds[rng.Next(Kinds.Length)];
                double w = Math.Round(rng.NextDouble() * maxWeight, 3);
                g.Add(new Edge(id, s, t, kind, w));
                Run(edge, id++, s, t, kind, w);
            }
        }
        tx.Commit();
        return g;
    }

    public static SqliteConnection Open(string path)
    {
        var conn = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString());
        conn.Open();
        return conn;
    }

    public static void Exec(SqliteConnection conn, string sql)
    {
        using var cmd = conn.CreateCommand();
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }

    public static string IntegrityCheck(string path)
    {
        using var conn = Open(path);
        using var cmd = conn.CreateCommand();
        cmd.CommandText = "PRAGMA integrity_check";
        return (string)cmd.ExecuteScalar()!;
    }

    public static SqliteCommand Command(SqliteConnection conn, SqliteTransaction tx, string sql, params string[] names)
    {
        var cmd = conn.CreateCommand();
        cmd.Transaction = tx;
        cmd.CommandText = sql;
        foreach (var n in names) cmd.Parameters.Add(new SqliteParameter { ParameterName = n });
        return cmd;
    }

    public static void Run(SqliteCommand cmd, params object?[] values)
    {
        for (int i = 0; i < values.Length; i++) cmd.Parameters[i].Value = values[i] ?? DBNull.Value;
        cmd.ExecuteNonQuery();
    }

    /// <summary>See <see cref="Sharc.Testing.AllocationMeasure.Measure"/>.</summary>
    public static long Measure(Action action, int iterations) => Sharc.Testing.AllocationMeasure.Measure(action, iterations);
}
