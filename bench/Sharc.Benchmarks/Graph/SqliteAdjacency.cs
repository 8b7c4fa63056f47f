using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Graph;

/// <summary>
/// What a .NET user does to run PageRank over a graph kept in SQLite: read the node keys and every edge row through
/// prepared statements into arrays (nodes numbered in the order read, edge ends without a node row added), then a
/// plain power iteration over the edge list — the formula of <see cref="Sharc.Graph.GraphSnapshot.PageRank"/>.
/// </summary>
public sealed class SqliteAdjacency : IDisposable
{
    /// <summary>A graph read into arrays: node keys by node number, and each edge row's ends as node numbers.</summary>
    public readonly record struct Loaded(long[] Keys, int[] Sources, int[] Targets);

    private readonly SqliteCommand _nodes, _edges;

    /// <summary>Prepares both statements on <paramref name="conn"/> and checks that each reads an index alone.</summary>
    public SqliteAdjacency(SqliteConnection conn)
    {
        const string nodeSql = "SELECT key FROM _concepts";
        const string edgeSql = "SELECT source_key, target_key FROM _relations";
        _nodes = Engines.Prepare(conn, nodeSql);
        _edges = Engines.Prepare(conn, edgeSql);
        Engines.RequirePlan(conn, nodeSql, "COVERING INDEX");
        Engines.RequirePlan(conn, edgeSql, "COVERING INDEX");
    }

    /// <summary>Reads the whole graph.</summary>
    public Loaded Load()
    {
        var number = new Dictionary<long, int>();
        var keys = new List<long>();
        using (var r = _nodes.ExecuteReader())
        {
            while (r.Read())
            {
                long key = r.GetInt64(0);
                number.Add(key, keys.Count);
                keys.Add(key);
            }
        }
        var sources = new List<int>();
        var targets = new List<int>();
        using (var r = _edges.ExecuteReader())
        {
            while (r.Read())
            {
                sources.Add(NumberOf(r.GetInt64(0), number, keys));
                targets.Add(NumberOf(r.GetInt64(1), number, keys));
            }
        }
        return new Loaded(keys.ToArray(), sources.ToArray(), targets.ToArray());
    }

    private static int NumberOf(long key, Dictionary<long, int> number, List<long> keys)
    {
        if (number.TryGetValue(key, out int n)) return n;
        number.Add(key, keys.Count);
        keys.Add(key);
        return keys.Count - 1;
    }

    /// <summary>
    /// PageRank by power iteration for exactly <paramref name="iterations"/> rounds: every edge row counts, nodes
    /// without outgoing edges spread their rank evenly, the jump is uniform.
    /// </summary>
    public static double[] Iterate(Loaded graph, double damping, int iterations)
    {
        int n = graph.Keys.Length;
        var outDegree = new int[n];
        foreach (int s in graph.Sources) outDegree[s]++;
        var rank = new double[n];
        var sum = new double[n];
        Array.Fill(rank, 1.0 / n);
        for (int it = 0; it < iterations; it++)
        {
            double dangling = 0;
            for (int u = 0; u < n; u++)
                if (outDegree[u] == 0) dangling += rank[u];
            Array.Clear(sum);
            for (int e = 0; e < graph.Sources.Length; e++)
            {
                int s = graph.Sources[e];
                sum[graph.Targets[e]] += rank[s] / outDegree[s];
            }
            double jump = damping * dangling / n + (1 - damping) / n;
            for (int v = 0; v < n; v++) rank[v] = damping * sum[v] + jump;
        }
        return rank;
    }

    /// <summary>Disposes both statements.</summary>
    public void Dispose()
    {
        _nodes.Dispose();
        _edges.Dispose();
    }
}
