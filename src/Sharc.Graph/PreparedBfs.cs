using System.Diagnostics;
using System.Text;

namespace Sharc.Graph;

/// <summary>Options of a breadth-first traversal.</summary>
public sealed record BfsOptions
{
    /// <summary>Which edges to follow (default: outgoing).</summary>
    public GraphDirection Direction { get; init; } = GraphDirection.Out;

    /// <summary>Follow only edges of this kind; null follows every edge.</summary>
    public string? Kind { get; init; }

    /// <summary>Nodes closer than this are traversed but not among the results (default 0: the start nodes too).</summary>
    public int MinDepth { get; init; }

    /// <summary>No node farther than this is visited (default: unlimited).</summary>
    public int MaxDepth { get; init; } = int.MaxValue;

    /// <summary>Stops after this many nodes are visited, start nodes included (default: unlimited);
    /// <see cref="PreparedBfs.StopReason"/> is then <see cref="Graph.StopReason.NodeBudget"/>.</summary>
    public int MaxNodes { get; init; } = int.MaxValue;

    /// <summary>
    /// The fan-out cap: at most this many edges are followed from each expanded node (default: unlimited), the first
    /// ones in index order. An edge counts when it is followed — it passed the kind and edge filters — whether or
    /// not its neighbour was new; the node's remaining edges are not read.
    /// </summary>
    public int MaxEdgesPerNode { get; init; } = int.MaxValue;

    /// <summary>
    /// Stops once this much time has passed since the execution began (default null: no limit);
    /// <see cref="PreparedBfs.StopReason"/> is then <see cref="Graph.StopReason.TimeBudget"/>. The clock is read
    /// before the first expansion and then every 64 edges or expansions, so a zero budget visits only the starts and
    /// an execution may overrun by the time of 64 steps.
    /// </summary>
    public TimeSpan? TimeBudget { get; init; }
}


/// <summary>
/// A prepared breadth-first traversal. Each <c>Execute</c> visits the nodes reachable from the start nodes in
/// breadth-first order, giving each its depth and the edge it was first reached by. Visits are numbered
/// 0…<see cref="VisitedCount"/>−1 in that order, so depths never decrease; the results are the visits from
/// <see cref="FirstResult"/> on (those at <see cref="BfsOptions.MinDepth"/> or deeper). Each level is expanded in
/// key order (integers ascending, text by its UTF-8 bytes), so that the edge-index seeks move forward through the
/// index; a level's visits are numbered in the order that expansion first reaches them (start nodes as staged).
/// <para>
/// Start nodes are staged with <see cref="AddStart(long)"/> (integer or UTF-8 keys, any number, duplicates count
/// once) and run by <see cref="Execute()"/>; <c>Execute(start)</c> replaces the staged starts with the given ones.
/// <see cref="Execute{TEdgeFilter, TNodeFilter}(ref TEdgeFilter, ref TNodeFilter)"/> runs with an edge and a node
/// filter (struct implementations of <see cref="IBfsEdgeFilter"/> and <see cref="IBfsNodeFilter"/>).
/// </para>
/// <para>
/// Results are valid until the next <c>Execute</c> of the same object, which overwrites them; copy what you keep.
/// Re-execution allocates nothing once the internal arrays have grown to the largest traversal's size.
/// One thread at a time. The graph is defined by its edges: a start key needs no row in the node table.
/// </para>
/// </summary>
public sealed class PreparedBfs : IDisposable
{
    private const int ClockInterval = 64;
    private readonly EdgeCursor _edges;
    // Visited keys (id = visit number), staged starts, and keys a node filter refused in this execution.
    private readonly NodeKeyTable _keys, _starts, _refused;
    private readonly bool _text;
    private readonly long _budgetTicks;
    private int[] _depth = new int[64];
    private int[] _parent = new int[64];
    private long[] _parentEdge = new long[64];
    // The visits of the level being expanded, in key order.
    private int[] _order = new int[64];
    // A node's neighbours and edge rowids as read from the index a buffer at a time, and the rowid of the one at hand.
    private readonly long[] _runNeighbors = new long[128];
    private readonly long[] _runRowIds = new long[128];
    private long _runRowId;
    private bool _running;

    // One commit for a whole execution: every seek of the traversal reads it, whatever is committed meanwhile.
    private readonly SharcSnapshot _snapshot;
    private readonly bool _ownsSnapshot;

    internal PreparedBfs(SharcGraph graph, BfsOptions options, SharcSnapshot? shared = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(options.MinDepth);
        ArgumentOutOfRangeException.ThrowIfNegative(options.MaxDepth);
        ArgumentOutOfRangeException.ThrowIfLessThan(options.MaxNodes, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(options.MaxEdgesPerNode, 1);
        if (options.TimeBudget is { } budget) ArgumentOutOfRangeException.ThrowIfLessThan(budget, TimeSpan.Zero);
        Options = options;
        _text = graph.KeyType == GraphKeyType.Text;
        _ownsSnapshot = shared is null;
        _snapshot = shared ?? graph.Database.CreateSnapshot();
        _edges = graph.PrepareEdges(options.Direction, options.Kind, _snapshot);
        _keys = new NodeKeyTable(_text);
        _starts = new NodeKeyTable(_text);
        _refused = new NodeKeyTable(_text);
        _budgetTicks = options.TimeBudget is { } t ? StopwatchTicks(t) : -1;
    }

    /// <summary>The traversal's options.</summary>
    public BfsOptions Options { get; }

    /// <summary>How many nodes the last execution visited.</summary>
    public int VisitedCount => _keys.Count;

    /// <summary>The first visit at <see cref="BfsOptions.MinDepth"/> or deeper: results are visits FirstResult…VisitedCount−1.</summary>
    public int FirstResult { get; private set; }

    /// <summary>How many results the last execution produced.</summary>
    public int ResultCount => VisitedCount - FirstResult;

    /// <summary>Why the last execution ended. Whatever the reason, every visit made has its depth and parent.</summary>
    public StopReason StopReason { get; private set; }

    /// <summary>True when the last execution stopped on a budget (<see cref="StopReason"/> is not <see cref="StopReason.Completed"/>): more nodes may have been reachable.</summary>
    public bool BudgetExhausted => StopReason != StopReason.Completed;

    /// <summary>How many distinct start nodes are staged.</summary>
    public int StartCount => _starts.Count;

    /// <summary>Forgets the staged start nodes.</summary>
    public void ClearStarts()
    {
        // Staged starts are read while an execution runs: a filter must not change them.
        if (_running) ThrowReentered();
        _starts.Clear();
    }

    /// <summary>Stages a start node (integer keys); a key staged twice counts once.</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are text.</exception>
    public void AddStart(long key)
    {
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        if (_running) ThrowReentered();
        _starts.GetOrAdd(key, out _);
    }

    /// <summary>Stages a start node (UTF-8 text keys; the bytes are copied); a key staged twice counts once.</summary>
    /// <exception cref="GraphKeyTypeException">The graph's keys are integers.</exception>
    public void AddStart(ReadOnlySpan<byte> utf8Key)
    {
        if (!_text) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        if (_running) ThrowReentered();
        _starts.GetOrAdd(utf8Key, out _);
    }

    /// <summary>Stages a start node (text keys; encodes the key, so allocates).</summary>
    public void AddStart(string key) => AddStart(Encoding.UTF8.GetBytes(key ?? throw new ArgumentNullException(nameof(key))));

    /// <summary>Traverses from the staged start nodes, all at depth 0, following every edge (of the kind, if set).</summary>
    public void Execute()
    {
        FollowAllEdges edges = default;
        VisitAllNodes nodes = default;
        Execute(ref edges, ref nodes);
    }

    /// <summary>
    /// Traverses from the staged start nodes, following only the edges <paramref name="edgeFilter"/> accepts and
    /// visiting only the nodes <paramref name="nodeFilter"/> accepts (see the interfaces for when each is called).
    /// Pass <see cref="FollowAllEdges"/> or <see cref="VisitAllNodes"/> for no filter: that code then vanishes from
    /// the loop. The filters are passed by reference, so state they keep (counters, say) is seen by the caller.
    /// </summary>
    /// <exception cref="InvalidOperationException">Called from a filter of this same traversal.</exception>
    public void Execute<TEdgeFilter, TNodeFilter>(ref TEdgeFilter edgeFilter, ref TNodeFilter nodeFilter)
        where TEdgeFilter : struct, IBfsEdgeFilter
        where TNodeFilter : struct, IBfsNodeFilter
    {
        if (_running) ThrowReentered();
        _running = true;
        try
        {
            _keys.Clear();
            _refused.Clear();
            StopReason = StopReason.Completed;
            Run(ref edgeFilter, ref nodeFilter);
            int first = 0;
            while (first < _keys.Count && _depth[first] < Options.MinDepth) first++;
            FirstResult = first;
        }
        finally
        {
            _running = false;
            if (_ownsSnapshot) _snapshot.Release();
        }
    }

    /// <summary>Traverses from one node (integer keys), which replaces the staged starts.</summary>
    public void Execute(long start)
    {
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        ClearStarts();
        AddStart(start);
        Execute();
    }

    /// <summary>Traverses from several nodes at once, all at depth 0 (integer keys; duplicates count once); they replace the staged starts.</summary>
    public void Execute(ReadOnlySpan<long> starts)
    {
        if (_text) GraphThrow.KeyType(GraphKeyType.Integer, GraphKeyType.Text);
        ClearStarts();
        foreach (long s in starts) AddStart(s);
        Execute();
    }

    /// <summary>Traverses from one node (UTF-8 text keys), which replaces the staged starts.</summary>
    public void Execute(ReadOnlySpan<byte> utf8Start)
    {
        if (!_text) GraphThrow.KeyType(GraphKeyType.Text, GraphKeyType.Integer);
        ClearStarts();
        AddStart(utf8Start);
        Execute();
    }

    /// <summary>Traverses from one node (text keys; encodes the key), which replaces the staged starts.</summary>
    public void Execute(string start) => Execute(Encoding.UTF8.GetBytes(start ?? throw new ArgumentNullException(nameof(start))));

    /// <summary>The key of visit <paramref name="visit"/> (integer graphs).</summary>
    public long GetKeyInt64(int visit) => _keys.IntKey(Check(visit));

    /// <summary>The key of visit <paramref name="visit"/> as UTF-8 (text graphs), valid until the next execution.</summary>
    public ReadOnlySpan<byte> GetKeyUtf8(int visit) => _keys.TextKey(Check(visit));

    /// <summary>The depth of visit <paramref name="visit"/> (0 for start nodes).</summary>
    public int GetDepth(int visit) => _depth[Check(visit)];

    /// <summary>
    /// The visit that first reached <paramref name="visit"/> and the rowid of the edge it came by; false for start
    /// nodes. Following parents back to depth 0 rebuilds a shortest path.
    /// </summary>
    public bool TryGetParent(int visit, out int parentVisit, out long edgeRowId)
    {
        parentVisit = _parent[Check(visit)];
        edgeRowId = parentVisit < 0 ? 0 : _parentEdge[visit];
        return parentVisit >= 0;
    }

    /// <summary>The visited keys of the last execution, id = visit number (for traversals built on this one).</summary>
    internal NodeKeyTable Keys => _keys;

    private int Check(int visit)
    {
        if ((uint)visit >= (uint)_keys.Count) ThrowVisit(visit);
        return visit;
    }

    private void ThrowVisit(int visit) => throw new ArgumentOutOfRangeException(nameof(visit), visit, $"the last execution visited {_keys.Count} nodes");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowReentered() => throw new InvalidOperationException("a traversal was executed again, or its starts changed, from one of its own filters: use another prepared traversal");

    private void Run<TEdgeFilter, TNodeFilter>(ref TEdgeFilter edgeFilter, ref TNodeFilter nodeFilter)
        where TEdgeFilter : struct, IBfsEdgeFilter
        where TNodeFilter : struct, IBfsNodeFilter
    {
        int maxDepth = Options.MaxDepth, maxNodes = Options.MaxNodes, fanOut = Options.MaxEdgesPerNode;
        long deadline = Deadline();
        // Counts down to the next clock reading; without a budget it practically never reaches 0.
        int clock = _budgetTicks < 0 ? int.MaxValue : 1;
        var keyType = _text ? SharcColumnType.Text : SharcColumnType.Integer;
        // Following every edge of one direction of an integer graph whose index holds the neighbour, the entries are
        // stepped directly: no per-edge dispatch between the directions, no separate type check.
        EdgeSide? direct = !_text && typeof(TEdgeFilter) == typeof(FollowAllEdges) && _edges.SingleSide is { IndexHoldsIntNeighbor: true } side ? side : null;
        for (int s = 0; s < _starts.Count; s++)
        {
            if (_text) Reach(ref nodeFilter, 0, _starts.TextKey(s), 0, -1, EdgeOrigin.None, out _);
            else Reach(ref nodeFilter, _starts.IntKey(s), default, 0, -1, EdgeOrigin.None, out _);
            if (_keys.Count >= maxNodes)
            {
                StopReason = StopReason.NodeBudget;
                return;
            }
        }
        // Level by level: a level is the visits numbered [levelStart, levelEnd), expanded in key order so that the
        // edge-index seeks move forward through the index; ids are handed out in order of first sight, so the next
        // level is the visits added meanwhile.
        for (int levelStart = 0, levelEnd; levelStart < _keys.Count; levelStart = levelEnd)
        {
            levelEnd = _keys.Count;
            int depth = _depth[levelStart];
            if (depth >= maxDepth) break;
            int n = levelEnd - levelStart;
            if (_order.Length < n) _order = new int[Math.Max(n, _order.Length * 2)];
            var order = _order.AsSpan(0, n);
            for (int i = 0; i < n; i++) order[i] = levelStart + i;
            _keys.SortByKey(order);
            for (int i = 0; i < n; i++)
            {
                int head = _order[i];
                if (--clock == 0 && TimeIsUp(deadline, ref clock)) return;
                if (direct is not null)
                {
                    if (!ExpandDirect(direct, ref nodeFilter, head, depth, maxNodes, fanOut, deadline, ref clock)) return;
                    continue;
                }
                if (_text) _edges.Reset(_keys.TextKey(head));
                else _edges.Reset(_keys.IntKey(head));
                int followed = 0;
                while (_edges.MoveNext())
                {
                    if (--clock == 0 && TimeIsUp(deadline, ref clock)) return;
                    // A key stored with another type names no node of this graph.
                    if (!_edges.NeighborHasType(keyType)) continue;
                    if (typeof(TEdgeFilter) != typeof(FollowAllEdges) && !edgeFilter.Follow(new BfsEdge(_edges, head, depth))) continue;
                    bool added;
                    if (_text) Reach(ref nodeFilter, 0, _edges.NeighborUtf8, depth + 1, head, EdgeOrigin.Cursor, out added);
                    else Reach(ref nodeFilter, _edges.NeighborInt64, default, depth + 1, head, EdgeOrigin.Cursor, out added);
                    if (added && _keys.Count >= maxNodes)
                    {
                        StopReason = StopReason.NodeBudget;
                        return;
                    }
                    if (++followed == fanOut) break;
                }
            }
        }
    }

    /// <summary>
    /// Expands one node through <paramref name="side"/> (see <c>Run</c>): false when a budget stopped the traversal
    /// (<see cref="StopReason"/> set).
    /// </summary>
    private bool ExpandDirect<TNodeFilter>(EdgeSide side, ref TNodeFilter nodeFilter, int head, int depth, int maxNodes, int fanOut, long deadline, ref int clock)
        where TNodeFilter : struct, IBfsNodeFilter
    {
        _edges.Reset(_keys.IntKey(head));
        int followed = 0;
        if (side.CanReadRuns)
        {
            // The node's neighbours come a buffer at a time straight from the index pages, with their edges' rowids.
            while (true)
            {
                int n = side.ReadRun(_runNeighbors, _runRowIds);
                for (int j = 0; j < n; j++)
                {
                    if (--clock == 0 && TimeIsUp(deadline, ref clock)) return false;
                    _runRowId = _runRowIds[j];
                    Reach(ref nodeFilter, _runNeighbors[j], default, depth + 1, head, EdgeOrigin.Run, out bool added);
                    if (added && _keys.Count >= maxNodes)
                    {
                        StopReason = StopReason.NodeBudget;
                        return false;
                    }
                    if (++followed == fanOut) return true;
                }
                if (n < _runNeighbors.Length) return true;
            }
        }
        while (side.MoveNextInt64(out long neighbor))
        {
            if (--clock == 0 && TimeIsUp(deadline, ref clock)) return false;
            Reach(ref nodeFilter, neighbor, default, depth + 1, head, EdgeOrigin.Cursor, out bool added);
            if (added && _keys.Count >= maxNodes)
            {
                StopReason = StopReason.NodeBudget;
                return false;
            }
            if (++followed == fanOut) break;
        }
        return true;
    }

    /// <summary>
    /// Visits the node with this key (the integer or the UTF-8 one, by the graph's type) unless it was visited
    /// already or the node filter refuses it; returns its visit number, or -1 when refused. The edge's rowid is read
    /// (by <paramref name="origin"/>) only when the node is new.
    /// </summary>
    private int Reach<TNodeFilter>(ref TNodeFilter nodeFilter, long intKey, ReadOnlySpan<byte> textKey, int depth, int parent, EdgeOrigin origin, out bool added)
        where TNodeFilter : struct, IBfsNodeFilter
    {
        if (typeof(TNodeFilter) != typeof(VisitAllNodes))
        {
            added = false;
            int known = _text ? _keys.Find(textKey) : _keys.Find(intKey);
            if (known >= 0) return known;
            if ((_text ? _refused.Find(textKey) : _refused.Find(intKey)) >= 0) return -1;
            if (!nodeFilter.Visit(new BfsNode(_text, intKey, textKey, depth, parent, EdgeRowId(origin))))
            {
                if (_text) _refused.GetOrAdd(textKey, out _);
                else _refused.GetOrAdd(intKey, out _);
                return -1;
            }
        }
        int id = _text ? _keys.GetOrAdd(textKey, out added) : _keys.GetOrAdd(intKey, out added);
        if (added)
        {
            EnsureCapacity(id);
            _depth[id] = depth;
            _parent[id] = parent;
            _parentEdge[id] = EdgeRowId(origin);
        }
        return id;
    }

    /// <summary>Where the rowid of the edge a node is reached by comes from.</summary>
    private enum EdgeOrigin : byte
    {
        /// <summary>A start node: no edge.</summary>
        None,
        /// <summary>The edge cursor's current edge.</summary>
        Cursor,
        /// <summary>The run being expanded (<c>_runRowId</c>).</summary>
        Run,
    }

    private long EdgeRowId(EdgeOrigin origin) => origin switch
    {
        EdgeOrigin.Cursor => _edges.EdgeRowId,
        EdgeOrigin.Run => _runRowId,
        _ => 0,
    };

    private long Deadline()
    {
        if (_budgetTicks < 0) return long.MaxValue;
        long now = Stopwatch.GetTimestamp();
        return _budgetTicks >= long.MaxValue - now ? long.MaxValue : now + _budgetTicks;
    }

    /// <summary>Reads the clock: true (and the stop reason set) when the deadline has passed, else the countdown restarts.</summary>
    private bool TimeIsUp(long deadline, ref int clock)
    {
        clock = ClockInterval;
        if (Stopwatch.GetTimestamp() < deadline) return false;
        StopReason = StopReason.TimeBudget;
        return true;
    }

    private static long StopwatchTicks(TimeSpan budget)
    {
        double ticks = budget.TotalSeconds * Stopwatch.Frequency;
        // Budgets beyond a few centuries are no budget; the clamp also keeps the conversion from overflowing.
        return ticks >= long.MaxValue / 4 ? -1 : (long)ticks;
    }

    private void EnsureCapacity(int id)
    {
        if (id < _depth.Length) return;
        int n = Math.Max(id + 1, _depth.Length * 2);
        Array.Resize(ref _depth, n);
        Array.Resize(ref _parent, n);
        Array.Resize(ref _parentEdge, n);
    }

    /// <summary>Releases the traversal's readers.</summary>
    public void Dispose()
    {
        _edges.Dispose();
        if (_ownsSnapshot) _snapshot.Release();
    }
}
