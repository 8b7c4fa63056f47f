namespace Sharc.Graph;

/// <summary>
/// Degrees and degree centrality of every node of a <see cref="GraphSnapshot"/>, by node number. Each parallel edge
/// counts; a self-loop counts once in the in-degree and once in the out-degree (so twice in the degree).
/// Centralities are normalized as NetworkX's: the degree times 1/(N−1), and 1 for every node of a one-node graph.
/// </summary>
public sealed class DegreeCentrality
{
    internal DegreeCentrality(int[] inDegree, int[] outDegree)
    {
        InDegree = inDegree;
        OutDegree = outDegree;
        int n = inDegree.Length;
        Degree = new int[n];
        Centrality = new double[n];
        InCentrality = new double[n];
        OutCentrality = new double[n];
        // NetworkX multiplies by the reciprocal; doing the same keeps the last bit equal.
        double scale = n > 1 ? 1.0 / (n - 1.0) : 0;
        for (int v = 0; v < n; v++)
        {
            Degree[v] = inDegree[v] + outDegree[v];
            Centrality[v] = n > 1 ? Degree[v] * scale : 1;
            InCentrality[v] = n > 1 ? inDegree[v] * scale : 1;
            OutCentrality[v] = n > 1 ? outDegree[v] * scale : 1;
        }
    }

    /// <summary>Edges reaching each node.</summary>
    public int[] InDegree { get; }

    /// <summary>Edges leaving each node.</summary>
    public int[] OutDegree { get; }

    /// <summary>In-degree plus out-degree.</summary>
    public int[] Degree { get; }

    /// <summary>Degree / (N−1) (NetworkX's <c>degree_centrality</c>); it may exceed 1 with parallel edges and self-loops.</summary>
    public double[] Centrality { get; }

    /// <summary>In-degree / (N−1) (NetworkX's <c>in_degree_centrality</c>).</summary>
    public double[] InCentrality { get; }

    /// <summary>Out-degree / (N−1) (NetworkX's <c>out_degree_centrality</c>).</summary>
    public double[] OutCentrality { get; }
}

public sealed partial class GraphSnapshot
{
    /// <summary>Every node's in-, out- and total degree and their normalized centralities (see <see cref="Graph.DegreeCentrality"/>).</summary>
    public DegreeCentrality DegreeCentrality()
    {
        int n = NodeCount;
        var inDegree = new int[n];
        var outDegree = new int[n];
        for (int v = 0; v < n; v++)
        {
            inDegree[v] = _inOffsets[v + 1] - _inOffsets[v];
            outDegree[v] = _outOffsets[v + 1] - _outOffsets[v];
        }
        return new DegreeCentrality(inDegree, outDegree);
    }
}
