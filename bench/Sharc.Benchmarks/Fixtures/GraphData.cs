using Microsoft.Data.Sqlite;
using Sharc.Graph;

namespace Sharc.Benchmarks.Fixtures;

/// <summary>The sizes of the Graph suite's random graphs: nodes / edges (three edges per node, five in the largest).</summary>
public enum GraphSize
{
    /// <summary>5,000 nodes, 15,000 edges.</summary>
    N5K,
    /// <summary>50,000 nodes, 150,000 edges.</summary>
    N50K,
    /// <summary>1,000,000 nodes, 5,000,000 edges.</summary>
    N1M,
}

/// <summary>
/// The Graph suite's databases: Sharc.Graph's default layout (<see cref="GraphSchema.DefaultLayoutSql"/>), written by
/// real SQLite in one transaction and cached in <c>{temp}/sharc-bench/</c> under a name keyed by size, seed and
/// generator version. Node keys are 0…n−1 (every node has a row); each edge joins two uniformly drawn nodes (self-loops
/// and parallel edges fall where they may), has one of three kinds and a weight in [0, 10).
/// </summary>
public static class GraphData
{
    /// <summary>The generator's random seed.</summary>
    public const int Seed = 42;

    /// <summary>Bump when the generator changes so stale cached files are not reused.</summary>
    private const string GeneratorVersion = "v1";

    private static readonly string[] Kinds = ["knows", "cites", "likes"];

    /// <summary>Node and edge counts of a size.</summary>
    public static (int Nodes, int Edges) Shape(GraphSize size) => size switch
    {
        GraphSize.N5K => (5_000, 15_000),
        GraphSize.N50K => (50_000, 150_000),
        _ => (1_000_000, 5_000_000),
    };

    /// <summary>The path of the graph of this size, building it on first use (a 1M-node graph takes about a minute).</summary>
    public static string Path(GraphSize size)
    {
        var (nodes, edges) = Shape(size);
        string path = System.IO.Path.Combine(UsersData.Folder, $"graph-{nodes}-{edges}-s{Seed}-{GeneratorVersion}.db");
        return CachedFile.GetOrBuild(path, tmp => Build(tmp, nodes, edges));
    }

    /// <summary>The nodes of a generated graph: keys 0…<paramref name="count"/>−1, kinds alternating "person" and "paper".</summary>
    public static IEnumerable<GraphNodeRecord> Nodes(int count)
    {
        for (int i = 0; i < count; i++) yield return new GraphNodeRecord(i, i % 2 == 0 ? "person" : "paper");
    }

    /// <summary>
    /// The edges of a generated graph over <paramref name="nodes"/> nodes, drawn lazily from <see cref="Seed"/> (so a
    /// 5,000,000-edge file is written without holding its edges): the rows every cached file of that shape holds.
    /// </summary>
    public static IEnumerable<GraphEdgeRecord> Edges(int nodes, int count)
    {
        var rng = new Random(Seed);
        for (int j = 0; j < count; j++)
        {
            long source = rng.Next(nodes), target = rng.Next(nodes);
            string kind = Kinds[rng.Next(Kinds.Length)];
            yield return new GraphEdgeRecord(source, target, kind, Math.Round(rng.NextDouble() * 10, 3));
        }
    }

    private static void Build(string path, int nodes, int edges)
    {
        using var conn = new SqliteConnection($"Data Source={path};Pooling=False");
        conn.Open();
        Exec(conn, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF");
        // Tables first, the edge indexes after the rows: SQLite builds an index from sorted rows much faster.
        var statements = GraphSchema.DefaultLayoutSql.Split(";\n", StringSplitOptions.RemoveEmptyEntries);
        foreach (var s in statements.Where(s => s.StartsWith("CREATE TABLE", StringComparison.Ordinal))) Exec(conn, s);
        using (var tx = conn.BeginTransaction())
        {
            using var node = Insert(conn, tx, "INSERT INTO _concepts(key, kind) VALUES ($a, $b)");
            foreach (var n in Nodes(nodes))
            {
                node.Parameters[0].Value = n.Key.Int64;
                node.Parameters[1].Value = n.Kind;
                node.ExecuteNonQuery();
            }
            using var edge = Insert(conn, tx, "INSERT INTO _relations(source_key, target_key, kind, weight) VALUES ($a, $b, $c, $d)");
            foreach (var e in Edges(nodes, edges))
            {
                edge.Parameters[0].Value = e.Source.Int64;
                edge.Parameters[1].Value = e.Target.Int64;
                edge.Parameters[2].Value = e.Kind;
                edge.Parameters[3].Value = e.Weight;
                edge.ExecuteNonQuery();
            }
            foreach (var s in statements.Where(s => s.StartsWith("CREATE INDEX", StringComparison.Ordinal))) Exec(conn, s, tx);
            tx.Commit();
        }
        Exec(conn, "ANALYZE");
    }

    private static SqliteCommand Insert(SqliteConnection conn, SqliteTransaction tx, string sql)
    {
        var cmd = conn.CreateCommand();
        cmd.Transaction = tx;
        cmd.CommandText = sql;
        foreach (var name in new[] { "$a", "$b", "$c", "$d" })
            if (sql.Contains(name, StringComparison.Ordinal)) cmd.Parameters.Add(new SqliteParameter { ParameterName = name });
        cmd.Prepare();
        return cmd;
    }

    private static void Exec(SqliteConnection conn, string sql, SqliteTransaction? tx = null)
    {
        using var cmd = conn.CreateCommand();
        cmd.Transaction = tx;
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }
}
