namespace Sharc.Graph;

/// <summary>Options of <see cref="GraphSnapshot.PageRank"/>.</summary>
public sealed record PageRankOptions
{
    /// <summary>The probability of following an edge rather than jumping to a random node, in [0, 1] (default 0.85).</summary>
    public double Damping { get; init; } = 0.85;

    /// <summary>
    /// The iteration stops once the ranks change by less than this between two iterations, summed over all nodes
    /// (L1 distance; default 1e-6). NetworkX stops at <c>N × tol</c> instead: pass N times its tolerance to match it.
    /// Zero never stops early.
    /// </summary>
    public double Tolerance { get; init; } = 1e-6;

    /// <summary>The most iterations to run, at least 1 (default 100).</summary>
    public int MaxIterations { get; init; } = 100;
}

/// <summary>The outcome of <see cref="GraphSnapshot.PageRank"/>.</summary>
public sealed class PageRankResult
{
    internal PageRankResult(double[] ranks, int iterations, bool converged, double lastChange)
    {
        Ranks = ranks;
        Iterations = iterations;
        Converged = converged;
        LastChange = lastChange;
    }

    /// <summary>Each node's rank, by node number; they sum to 1 (up to rounding).</summary>
    public double[] Ranks { get; }

    /// <summary>How many iterations ran.</summary>
    public int Iterations { get; }

    /// <summary>True when the last iteration changed the ranks by less than the tolerance (false when it stopped at the most iterations).</summary>
    public bool Converged { get; }

    /// <summary>The L1 change of the last iteration (0 for an empty graph).</summary>
    public double LastChange { get; }
}

public sealed partial class GraphSnapshot
{
    /// <summary>
    /// PageRank by power iteration, as NetworkX's <c>pagerank</c> with <c>weight=None</c> on a multigraph: every edge
    /// row counts (parallel edges as often as they appear, self-loops too), a node without outgoing edges spreads
    /// its rank evenly over all nodes, and the random jump is uniform. With N nodes, d the damping, out(u) u's
    /// out-degree and D the rank held by nodes without outgoing edges, starting from 1/N everywhere:
    /// <c>x'[v] = d·(Σ over edges u→v of x[u]/out(u) + D/N) + (1−d)/N</c>, until Σ|x'−x| &lt; tolerance or the
    /// iteration cap. Allocates four arrays of N doubles and one of E integers (each edge's source).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Damping outside [0, 1], a negative or NaN tolerance, or fewer than 1 iteration.</exception>
    public PageRankResult PageRank(PageRankOptions? options = null)
    {
        options ??= new PageRankOptions();
        double damping = options.Damping, tolerance = options.Tolerance;
        if (!(damping >= 0 && damping <= 1))
            throw new ArgumentOutOfRangeException(nameof(options), damping, "Damping must be between 0 and 1");
        if (!(tolerance >= 0))
            throw new ArgumentOutOfRangeException(nameof(options), tolerance, "Tolerance must be 0 or more");
        if (options.MaxIterations < 1)
            throw new ArgumentOutOfRangeException(nameof(options), options.MaxIterations, "MaxIterations must be at least 1");
        int n = NodeCount;
        if (n == 0) return new PageRankResult([], 0, true, 0);

        var rank = new double[n];
        var next = new double[n];
        var share = new double[n];
        var inverseOut = new double[n];
        Array.Fill(rank, 1.0 / n);
        for (int u = 0; u < n; u++)
        {
            int d = _outOffsets[u + 1] - _outOffsets[u];
            inverseOut[u] = d == 0 ? 0 : 1.0 / d;
        }
        // Each edge's source, in out-edge order: the iteration then walks the edges flat, one edge per step, instead
        // of node by node, whose varying degrees make every inner loop's end a mispredicted branch.
        var sources = new int[_outTargets.Length];
        for (int u = 0; u < n; u++) sources.AsSpan(_outOffsets[u], _outOffsets[u + 1] - _outOffsets[u]).Fill(u);
        int iteration = 0;
        double change = 0;
        bool converged = false;
        while (iteration < options.MaxIterations && !converged)
        {
            iteration++;
            double dangling = 0;
            for (int u = 0; u < n; u++)
            {
                if (inverseOut[u] == 0) dangling += rank[u];
                share[u] = rank[u] * inverseOut[u];
            }
            double jump = damping * dangling / n + (1 - damping) / n;
            Array.Clear(next);
            // Push along out-edges, summing into each target.
            Span<double> sums = next;
            ReadOnlySpan<double> shares = share;
            ReadOnlySpan<int> from = sources, to = _outTargets.AsSpan(0, sources.Length);
            for (int e = 0; e < from.Length; e++) sums[to[e]] += shares[from[e]];
            // Two running sums of the change, so the additions do not wait on each other.
            double change0 = 0, change1 = 0;
            var values = next.AsSpan(0, n);
            var old = rank.AsSpan(0, n);
            int v = 0;
            for (; v + 1 < values.Length; v += 2)
            {
                double a = damping * values[v] + jump, b = damping * values[v + 1] + jump;
                change0 += Math.Abs(a - old[v]);
                change1 += Math.Abs(b - old[v + 1]);
                values[v] = a;
                values[v + 1] = b;
            }
            for (; v < values.Length; v++)
            {
                double a = damping * values[v] + jump;
                change0 += Math.Abs(a - old[v]);
                values[v] = a;
            }
            change = change0 + change1;
            (rank, next) = (next, rank);
            converged = change < tolerance;
        }
        return new PageRankResult(rank, iteration, converged, change);
    }
}
