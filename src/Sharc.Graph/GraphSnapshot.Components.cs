namespace Sharc.Graph;

/// <summary>The weakly connected components of a <see cref="GraphSnapshot"/>.</summary>
public sealed class ComponentResult
{
    internal ComponentResult(int[] componentOf, int[] sizes)
    {
        ComponentOf = componentOf;
        Sizes = sizes;
    }

    /// <summary>Each node's component, by node number; components are numbered 0… in order of their first (lowest-numbered) node.</summary>
    public int[] ComponentOf { get; }

    /// <summary>The number of components (every isolated node is one).</summary>
    public int Count => Sizes.Length;

    /// <summary>Each component's number of nodes, by component number.</summary>
    public int[] Sizes { get; }
}

public sealed partial class GraphSnapshot
{
    /// <summary>
    /// The weakly connected components: nodes joined by edges followed either way. Each component is found by a
    /// breadth-first walk from its lowest-numbered node. Allocates three arrays of N ints.
    /// </summary>
    public ComponentResult ConnectedComponents()
    {
        int n = NodeCount;
        var componentOf = new int[n];
        Array.Fill(componentOf, -1);
        var queue = new int[n];
        var sizes = new List<int>();
        for (int start = 0; start < n; start++)
        {
            if (componentOf[start] >= 0) continue;
            int component = sizes.Count, head = 0, tail = 0;
            componentOf[start] = component;
            queue[tail++] = start;
            while (head < tail)
            {
                int u = queue[head++];
                tail = Claim(_outTargets, _outOffsets[u], _outOffsets[u + 1], componentOf, component, queue, tail);
                tail = Claim(_inSources, _inOffsets[u], _inOffsets[u + 1], componentOf, component, queue, tail);
            }
            sizes.Add(tail);
        }
        return new ComponentResult(componentOf, [.. sizes]);
    }

    private static int Claim(int[] neighbors, int from, int to, int[] componentOf, int component, int[] queue, int tail)
    {
        for (int i = from; i < to; i++)
        {
            int v = neighbors[i];
            if (componentOf[v] >= 0) continue;
            componentOf[v] = component;
            queue[tail++] = v;
        }
        return tail;
    }
}
