using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Graph;

/// <summary>
/// Traversals a .NET application writes over SQLite: a loop of prepared edge queries (each served by a covering
/// index), with its visited set and queue in managed collections that are cleared, not re-made, between runs.
/// </summary>
public sealed class SqliteTraversal : IDisposable
{
    /// <summary>Neighbours by the out index: <c>SELECT target_key … WHERE source_key = $k</c>.</summary>
    public const string OutSql = "SELECT target_key FROM _relations WHERE source_key = $k";

    /// <summary>Neighbours by the in index: <c>SELECT source_key … WHERE target_key = $k</c>.</summary>
    public const string InSql = "SELECT source_key FROM _relations WHERE target_key = $k";

    private readonly SqliteCommand _out, _in;
    private readonly Dictionary<long, int> _distF = [], _distB = [];
    private readonly HashSet<long> _visited = [];
    private List<long> _front = [], _next = [], _frontB = [];

    /// <summary>Prepares both edge queries on <paramref name="conn"/> and checks that SQLite serves them from the edge indexes.</summary>
    public SqliteTraversal(SqliteConnection conn)
    {
        _out = Engines.Prepare(conn, OutSql, ("$k", SqliteType.Integer));
        _in = Engines.Prepare(conn, InSql, ("$k", SqliteType.Integer));
        Engines.RequirePlan(conn, OutSql, "COVERING INDEX _relations_out", ("$k", 1L));
        Engines.RequirePlan(conn, InSql, "COVERING INDEX _relations_in", ("$k", 1L));
    }

    /// <summary>Breadth-first over outgoing edges from <paramref name="start"/> to <paramref name="maxDepth"/>: count and key sum of the nodes reached.</summary>
    public (int Count, long KeySum) Bfs(long start, int maxDepth)
    {
        _visited.Clear();
        _front.Clear();
        _visited.Add(start);
        _front.Add(start);
        long sum = start;
        var p = _out.Parameters[0];
        for (int depth = 0; depth < maxDepth && _front.Count > 0; depth++)
        {
            _next.Clear();
            foreach (long u in _front)
            {
                p.Value = u;
                using var r = _out.ExecuteReader();
                while (r.Read())
                {
                    long v = r.GetInt64(0);
                    if (_visited.Add(v))
                    {
                        _next.Add(v);
                        sum += v;
                    }
                }
            }
            (_front, _next) = (_next, _front);
        }
        return (_visited.Count, sum);
    }

    /// <summary>
    /// Fewest hops from <paramref name="from"/> to <paramref name="to"/> along outgoing edges, or −1: a bidirectional
    /// BFS that expands a whole level of the smaller frontier (forward by the out index, backward by the in index) and
    /// stops after the first level in which the two searches meet — the algorithm Sharc.Graph runs.
    /// </summary>
    public int FewestHops(long from, long to)
    {
        if (from == to) return 0;
        _distF.Clear();
        _distB.Clear();
        _distF[from] = 0;
        _distB[to] = 0;
        _front.Clear();
        _frontB.Clear();
        _front.Add(from);
        _frontB.Add(to);
        int depthF = 0, depthB = 0;
        while (_front.Count > 0 && _frontB.Count > 0)
        {
            int best;
            if (_front.Count <= _frontB.Count)
            {
                best = Expand(_out, _front, _distF, _distB, depthF++);
                (_front, _next) = (_next, _front);
            }
            else
            {
                best = Expand(_in, _frontB, _distB, _distF, depthB++);
                (_frontB, _next) = (_next, _frontB);
            }
            if (best < int.MaxValue) return best;
        }
        return -1;
    }

    private int Expand(SqliteCommand step, List<long> front, Dictionary<long, int> dist, Dictionary<long, int> other, int depth)
    {
        int best = int.MaxValue;
        _next.Clear();
        var p = step.Parameters[0];
        foreach (long u in front)
        {
            p.Value = u;
            using var r = step.ExecuteReader();
            while (r.Read())
            {
                long v = r.GetInt64(0);
                if (!dist.TryAdd(v, depth + 1)) continue;
                _next.Add(v);
                if (other.TryGetValue(v, out int od)) best = Math.Min(best, depth + 1 + od);
            }
        }
        return best;
    }

    /// <summary>Disposes the commands.</summary>
    public void Dispose()
    {
        _out.Dispose();
        _in.Dispose();
    }
}
