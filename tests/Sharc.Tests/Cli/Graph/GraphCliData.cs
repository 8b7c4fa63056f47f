using System.Text.Json;
using Microsoft.Data.Sqlite;

namespace Sharc.Tests.Cli.Graph;

/// <summary>
/// Graph databases written by real SQLite for the <c>sharc graph</c> tests, and the answers SQLite gives on them:
/// edges by prepared index queries, reach sets and distances by a plain BFS over those queries.
/// </summary>
internal static class GraphCliData
{
    public const string DefaultLayout =
        "CREATE TABLE _concepts(id INTEGER PRIMARY KEY, key INTEGER NOT NULL UNIQUE, kind TEXT, data TEXT);" +
        "CREATE TABLE _relations(id INTEGER PRIMARY KEY, source_key INTEGER NOT NULL, target_key INTEGER NOT NULL, kind TEXT, weight REAL NOT NULL DEFAULT 1.0, data TEXT);" +
        "CREATE INDEX _relations_out ON _relations(source_key, kind, target_key);" +
        "CREATE INDEX _relations_in ON _relations(target_key, kind, source_key);";

    public static readonly string?[] Kinds = ["knows", "cites", null];

    /// <summary>
    /// The default layout with <paramref name="nodes"/> nodes keyed 0…n−1 (every seventh has no node row, so some
    /// keys exist only as edge ends) and <paramref name="edges"/> random edges, self-loops and parallel edges included.
    /// </summary>
    public static string BuildRandom(CliFixture fx, string name, int seed, int nodes, int edges)
    {
        var rng = new Random(seed);
        string path = fx.PathOf(name);
        using var c = CliFixture.Connect(path);
        CliFixture.Exec(c, DefaultLayout);
        using var tx = c.BeginTransaction();
        for (int i = 0; i < nodes; i++)
            if (i % 7 != 3) CliFixture.Exec(c, "INSERT INTO _concepts(key, kind) VALUES ($p0, 'n')", (long)i);
        for (int j = 0; j < edges; j++)
            CliFixture.Exec(c, "INSERT INTO _relations(source_key, target_key, kind, weight) VALUES ($p0, $p1, $p2, $p3)",
                (long)rng.Next(nodes), (long)rng.Next(nodes), Kinds[rng.Next(Kinds.Length)], Math.Round(rng.NextDouble() * 10, 3));
        tx.Commit();
        return path;
    }

    /// <summary>SQLite's edges around <paramref name="key"/> in index order: [neighbour, kind, weight] rows, out then in.</summary>
    public static List<object?[]> Neighbors(string path, long key, string direction, string? kind)
    {
        string filter = kind is null ? "" : $" AND kind = '{kind}'";
        var rows = new List<object?[]>();
        if (direction != "in")
            rows.AddRange(CliFixture.Query(path, $"SELECT target_key, kind, coalesce(weight, 1.0) FROM _relations WHERE source_key = {key}{filter} ORDER BY kind, target_key, id"));
        if (direction != "out")
            rows.AddRange(CliFixture.Query(path, $"SELECT source_key, kind, coalesce(weight, 1.0) FROM _relations WHERE target_key = {key}{filter} ORDER BY kind, source_key, id"));
        return rows;
    }

    /// <summary>The depth of every node reachable from <paramref name="start"/>, by a BFS over SQLite's prepared edge queries.</summary>
    public static Dictionary<long, int> Distances(string path, long start, string direction, string? kind, int maxDepth = int.MaxValue)
    {
        using var c = CliFixture.Connect(path);
        var steps = new List<SqliteCommand>();
        if (direction != "in") steps.Add(EdgeQuery(c, "target_key", "source_key", kind));
        if (direction != "out") steps.Add(EdgeQuery(c, "source_key", "target_key", kind));
        var dist = new Dictionary<long, int> { [start] = 0 };
        var queue = new Queue<long>([start]);
        while (queue.Count > 0)
        {
            long u = queue.Dequeue();
            if (dist[u] >= maxDepth) continue;
            foreach (var step in steps)
            {
                step.Parameters[0].Value = u;
                using var r = step.ExecuteReader();
                while (r.Read())
                    if (dist.TryAdd(r.GetInt64(0), dist[u] + 1)) queue.Enqueue(r.GetInt64(0));
            }
        }
        foreach (var s in steps) s.Dispose();
        return dist;
    }

    private static SqliteCommand EdgeQuery(SqliteConnection c, string other, string end, string? kind)
    {
        var cmd = c.CreateCommand();
        cmd.CommandText = $"SELECT {other} FROM _relations WHERE {end} = $k" + (kind is null ? "" : $" AND kind = '{kind}'");
        cmd.Parameters.Add(new SqliteParameter { ParameterName = "$k" });
        return cmd;
    }

    /// <summary>Every edge as SQLite stores it: (source, target, kind, weight).</summary>
    public static List<(long Source, long Target, string? Kind, double Weight)> Edges(string path)
        => CliFixture.Query(path, "SELECT source_key, target_key, kind, weight FROM _relations")
            .Select(r => ((long)r[0]!, (long)r[1]!, (string?)r[2], (double)r[3]!)).ToList();

    /// <summary>Least total weight by an O(n²) Dijkstra over the edge list; null when unreachable.</summary>
    public static double? LeastWeight(List<(long Source, long Target, string? Kind, double Weight)> edges, long from, long to, string direction, string? kind)
    {
        var dist = new Dictionary<long, double> { [from] = 0 };
        var done = new HashSet<long>();
        while (true)
        {
            var open = dist.Where(kv => !done.Contains(kv.Key)).ToList();
            if (open.Count == 0) return null;
            var (u, d) = open.MinBy(kv => kv.Value);
            if (u == to) return d;
            done.Add(u);
            foreach (var e in edges)
            {
                if (kind is not null && e.Kind != kind) continue;
                if (direction != "in" && e.Source == u) Relax(e.Target, d + e.Weight);
                if (direction != "out" && e.Target == u) Relax(e.Source, d + e.Weight);
            }
        }

        void Relax(long v, double nd)
        {
            if (!dist.TryGetValue(v, out double old) || nd < old) dist[v] = nd;
        }
    }

    /// <summary>Parses a path line: null, or (length, keys).</summary>
    public static (JsonElement Length, List<JsonElement> Path)? ParsePath(string line)
    {
        using var doc = JsonDocument.Parse(line);
        if (doc.RootElement.ValueKind == JsonValueKind.Null) return null;
        var root = doc.RootElement.Clone();
        return (root.GetProperty("length"), root.GetProperty("path").EnumerateArray().ToList());
    }
}
