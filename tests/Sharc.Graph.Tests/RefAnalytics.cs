namespace Sharc.Graph.Tests;

/// <summary>
/// Straightforward analytics over a <see cref="RefGraph"/>'s node rows and edge list, by key, with dictionaries:
/// slow, but each is the textbook definition and easy to check by eye.
/// </summary>
public sealed class RefAnalytics
{
    public RefAnalytics(RefGraph g, string? kind)
    {
        // Every node row and every end of every edge is a node, whatever the kind; only the kind's edges count.
        Nodes = [.. g.Nodes];
        foreach (var e in g.Edges)
        {
            Nodes.Add(e.Source);
            Nodes.Add(e.Target);
        }
        Edges = g.Edges.Where(e => kind is null || e.Kind == kind).Select(e => (e.Source, e.Target)).ToList();
    }

    public HashSet<long> Nodes { get; }
    public List<(long Source, long Target)> Edges { get; }

    public Dictionary<long, int> OutDegrees() => Count(e => e.Source);

    public Dictionary<long, int> InDegrees() => Count(e => e.Target);

    private Dictionary<long, int> Count(Func<(long Source, long Target), long> end)
    {
        var degree = Nodes.ToDictionary(v => v, _ => 0);
        foreach (var e in Edges) degree[end(e)]++;
        return degree;
    }

    /// <summary>The power iteration exactly as NetworkX defines it, for a fixed number of iterations.</summary>
    public Dictionary<long, double> PageRank(double damping, int iterations)
    {
        int n = Nodes.Count;
        var outDegree = OutDegrees();
        var rank = Nodes.ToDictionary(v => v, _ => 1.0 / n);
        for (int i = 0; i < iterations; i++)
        {
            double dangling = Nodes.Where(v => outDegree[v] == 0).Sum(v => rank[v]);
            var next = Nodes.ToDictionary(v => v, _ => 0.0);
            foreach (var (s, t) in Edges) next[t] += damping * rank[s] / outDegree[s];
            foreach (long v in Nodes) next[v] += damping * dangling / n + (1 - damping) / n;
            rank = next;
        }
        return rank;
    }

    /// <summary>Weakly connected components as sets of keys, by union-find.</summary>
    public List<HashSet<long>> Components()
    {
        var parent = Nodes.ToDictionary(v => v, v => v);
        long Find(long v)
        {
            while (parent[v] != v) v = parent[v] = parent[parent[v]];
            return v;
        }
        foreach (var (s, t) in Edges) parent[Find(s)] = Find(t);
        return Nodes.GroupBy(Find).Select(grp => grp.ToHashSet()).ToList();
    }

    /// <summary>True when a depth-first search meets an edge back to a node still on its stack.</summary>
    public bool HasCycle()
    {
        var adjacency = Edges.GroupBy(e => e.Source).ToDictionary(grp => grp.Key, grp => grp.Select(e => e.Target).ToList());
        var onStack = new HashSet<long>();
        var done = new HashSet<long>();
        bool Visit(long v)
        {
            if (onStack.Contains(v)) return true;
            if (!done.Add(v)) return false;
            onStack.Add(v);
            foreach (long w in adjacency.GetValueOrDefault(v, []))
                if (Visit(w)) return true;
            onStack.Remove(v);
            return false;
        }
        return Nodes.Any(Visit);
    }
}
