namespace Sharc.Graph;

/// <summary>
/// Decides, per edge, whether a breadth-first traversal follows it. Implement it on a struct and pass it to
/// <see cref="PreparedBfs.Execute{TEdgeFilter, TNodeFilter}(ref TEdgeFilter, ref TNodeFilter)"/>: the call is then
/// specialised for that struct, so the filter is called directly (and usually inlined), with no delegate or
/// virtual call per edge.
/// <para>
/// Called once for every edge of an expanded node that passes the kind filter and whose neighbour has the graph's
/// key type, in index order, before the neighbour is looked at — so also for edges to nodes visited already.
/// It must not run the same traversal again nor change its staged starts (both throw), nor keep the <see cref="BfsEdge"/> or its spans past the
/// call. It may read the database through other prepared objects (a <see cref="NodeCursor"/>, another
/// <see cref="EdgeCursor"/>) and read the traversal's visits so far. An exception it throws ends the execution and
/// propagates; the results are then undefined until the next execution.
/// </para>
/// </summary>
public interface IBfsEdgeFilter
{
    /// <summary>True to follow <paramref name="edge"/>; false to pass over it (it then counts toward no cap).</summary>
    bool Follow(in BfsEdge edge);
}

/// <summary>
/// Decides, per node, whether a breadth-first traversal visits it at all: a node it refuses is neither a result nor
/// expanded, and the traversal goes on as if no edge led to it. Implement it on a struct (see
/// <see cref="IBfsEdgeFilter"/> for why).
/// <para>
/// Called at most once per distinct node key in an execution, when the node is first reached — start nodes
/// included, at depth 0 — and before it is counted against <see cref="BfsOptions.MaxNodes"/>. A refused key is
/// remembered, so the filter is not asked again when another edge leads to it. The same rules as for an edge filter
/// apply: no re-entering the traversal, no keeping the <see cref="BfsNode"/>. To look at the node's row (its kind,
/// say), keep a <see cref="NodeCursor"/> in the filter and seek the key: that allocates nothing.
/// </para>
/// </summary>
public interface IBfsNodeFilter
{
    /// <summary>True to visit <paramref name="node"/>; false to leave it out of the traversal.</summary>
    bool Visit(in BfsNode node);
}

/// <summary>The edge filter that follows every edge: the traversal's loop then has no filter code at all.</summary>
public struct FollowAllEdges : IBfsEdgeFilter
{
    /// <summary>Always true.</summary>
    public readonly bool Follow(in BfsEdge edge) => true;
}

/// <summary>The node filter that visits every node: the traversal's loop then has no filter code at all.</summary>
public struct VisitAllNodes : IBfsNodeFilter
{
    /// <summary>Always true.</summary>
    public readonly bool Visit(in BfsNode node) => true;
}

/// <summary>The delegate a <see cref="BfsEdgePredicate"/> calls (a named type: <c>Func</c> cannot take a ref struct before .NET 9).</summary>
/// <param name="edge">The edge, valid during the call only.</param>
/// <returns>True to follow the edge.</returns>
public delegate bool BfsEdgeFunc(BfsEdge edge);

/// <summary>The delegate a <see cref="BfsNodePredicate"/> calls.</summary>
/// <param name="node">The node, valid during the call only.</param>
/// <returns>True to visit the node.</returns>
public delegate bool BfsNodeFunc(BfsNode node);

/// <summary>An edge filter calling a delegate: convenient, at the cost of a delegate call per edge.</summary>
/// <param name="predicate">True to follow the edge.</param>
public readonly struct BfsEdgePredicate(BfsEdgeFunc predicate) : IBfsEdgeFilter
{
    private readonly BfsEdgeFunc _predicate = predicate ?? throw new ArgumentNullException(nameof(predicate));

    /// <summary>Calls the delegate.</summary>
    public bool Follow(in BfsEdge edge) => _predicate(edge);
}

/// <summary>A node filter calling a delegate: convenient, at the cost of a delegate call per node reached.</summary>
/// <param name="predicate">True to visit the node.</param>
public readonly struct BfsNodePredicate(BfsNodeFunc predicate) : IBfsNodeFilter
{
    private readonly BfsNodeFunc _predicate = predicate ?? throw new ArgumentNullException(nameof(predicate));

    /// <summary>Calls the delegate.</summary>
    public bool Visit(in BfsNode node) => _predicate(node);
}
